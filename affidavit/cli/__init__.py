"""TODO: room docstring."""
