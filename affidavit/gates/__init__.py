"""The gate, drawn twice: the entry gate (trust) and the exit gate (veto, mixture, read-back)."""
