"""Lines read again: a store of versions and copies writes the same line many times, and
the entity graph reads each line twice (its tokens, then its mentions). What was worked
out of a line's text is kept for the next line with the same text, so a copy costs a
lookup instead of a second tokenising. What is kept is exact (the same text, the same
result), so answers never depend on it; it is bounded by the characters it holds, and
emptied when full, so a store without repeats pays a dictionary insert a line."""

from __future__ import annotations

from typing import Generic, TypeVar

# NOTE: 16 million characters hold twelve copies of Middlemarch (1.8 MB each) many times
# over; past it the oldest texts go all at once, not one at a time (no order is kept).
HELD_CHARACTERS = 16_000_000

Result = TypeVar("Result")


class SeenTexts(Generic[Result]):
    """What was worked out of each (text, language) read lately."""

    def __init__(self, characters: int = HELD_CHARACTERS) -> None:
        self._held: dict[tuple[str, str], Result] = {}
        self._characters = 0
        self._bound = characters

    def get(self, text: str, language: str) -> Result | None:
        return self._held.get((text, language))

    def keep(self, text: str, language: str, result: Result) -> None:
        if self._characters + len(text) > self._bound:
            self._held.clear()
            self._characters = 0
        self._held[(text, language)] = result
        self._characters += len(text)
