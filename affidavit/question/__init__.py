"""The question, read once at the door: its language, the shape of the answer it asks for,
its key terms, and the computation or look-up it needs (its route)."""
