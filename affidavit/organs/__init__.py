"""The organs: the shape reader that routes each question at the door, and the readers of
counts, totals, changes and dates that turn a routed question into a plan."""
