"""A reader's ask for time its file's size does not foretell: a step whose cost is its own
(a page read by OCR takes seconds, however few bytes it is) asks, as it starts, for the
seconds it may take. In a bounded worker the ask goes to the parent, which moves the
reading's deadline (bounded.py); read in this process, no deadline applies and the ask
is nothing."""

from __future__ import annotations

from collections.abc import Callable

__all__ = ["Ask", "ask_for_time", "send_asks_to"]

# seconds, and the step they are for ("a page read by OCR")
Ask = Callable[[float, str], None]

# NOTE: one per process, set by the bounded worker that serves readings (a callback
# threaded through every reader's signature would reach the one step that asks).
_asks: list[Ask] = []


def ask_for_time(seconds: float, step: str) -> None:
    """Ask for ``seconds`` more, from now, for ``step``."""
    for ask in _asks:
        ask(seconds, step)


def send_asks_to(ask: Ask) -> None:
    """Send this process's asks to ``ask`` (a bounded worker's pipe to its parent)."""
    _asks[:] = [ask]
