"""Retrieval, over indexes derived from the stored lines and cached in the store: words
(BM25 over lines and windows), meaning, and the entity graph, fused into the evidence a
question reads."""
