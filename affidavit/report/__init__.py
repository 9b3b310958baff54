"""The audit report of a batch's answer file: one self-contained HTML page a reviewer opens
offline (``page``), over the facts ``data`` works out."""
