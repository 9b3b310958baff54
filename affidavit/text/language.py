"""Which language a text is written in (en, es or tr), from its function words."""

from __future__ import annotations

from affidavit.text.lang import LANGUAGES, VOCABULARIES
from affidavit.text.tokens import words


def detect_language(text: str, *, sample: int = 4000, default: str = "en") -> str:
    """Guess en/es/tr from function-word counts (``default`` when nothing speaks)."""
    tokens = words(text[:sample] if len(text) > sample else text)
    counts = {
        language: sum(1 for t in tokens if t in VOCABULARIES[language].probes)
        for language in LANGUAGES
    }
    # Turkish letters are a strong signal even in short questions.
    if any(c in text for c in "ğışİĞŞ"):
        counts["tr"] += 3
    if any(c in text for c in "ñ¿¡"):
        counts["es"] += 3
    best = max(LANGUAGES, key=lambda lang: (counts[lang], lang == "en"))
    return best if counts[best] > 0 else default
