"""Indexes derived from the stored lines: text analysis, BM25 over lines and windows."""
