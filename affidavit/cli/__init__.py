"""The ``affidavit`` command line: a thin shell over Memory (``main``), with the batch and
report commands, the demo, and what a terminal shows of answers and verdicts."""
