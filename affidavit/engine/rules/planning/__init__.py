"""The plans the default engine proposes for the routes a question reads at the door:
phrases for rows and years, never a number or a word of the answer."""
