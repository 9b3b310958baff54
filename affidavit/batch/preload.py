"""Imported by a batch's fork server before it forks any worker: calls the loaders the
batch named in its environment (runtime.PRELOAD_VARIABLE), so each worker starts with the
models loaded (shared copy-on-write) instead of loading them again on a contended core.
A parent that forks its workers itself calls the loaders directly (processes.py)."""

from __future__ import annotations

import os

from affidavit.runtime import PRELOAD_VARIABLE, call_loaders

call_loaders(os.environ.get(PRELOAD_VARIABLE, ""))
