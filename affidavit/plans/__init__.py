"""Computed answers: the plan language an engine proposes, the interpreter that runs it over
the table cells and lines the store holds, and the library's own words for the result."""
