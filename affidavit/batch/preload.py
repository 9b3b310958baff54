"""Loads the bundled models once where batch workers start from: in the parent before
it forks them, or in the fork server. Each worker then starts with them (shared
copy-on-write) instead of loading them again on a contended core."""

from __future__ import annotations

from affidavit.index.meaning.profiles import bundled_encoder
from affidavit.memory import Memory  # noqa: F401 — the import is the point
from affidavit.text.nlp import entity_pipeline, parse_pipeline

bundled_encoder()
entity_pipeline()
parse_pipeline()
