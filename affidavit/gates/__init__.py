"""The gate, drawn twice: the entry gate (what may be stored, at what trust) and the exit
gate (digit veto, mixture, read-back, support, holder), pure judges over a sentence and
its lines."""
