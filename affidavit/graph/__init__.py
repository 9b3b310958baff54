"""The memory's own knowledge about its sources: the trust ladder (records come later)."""
