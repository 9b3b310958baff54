"""Answers and audits: ask() draws an answer through the exit gate or refuses, verify()
audits any text against the store, and what both share (the census, disagreements, the
engine's read-back, recomputed figures, the audit)."""
