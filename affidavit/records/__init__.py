"""Records: facts as (subject, predicate, value) over the store, told, superseded and
forgotten (told.py)."""
