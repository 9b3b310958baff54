"""The word channel: BM25 over lines and windows with document-name weighting, scored by
the question's postings only (block by block in a large store), cached in parts."""
