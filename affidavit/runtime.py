"""The process's own resources: the cores it may run on, the heap it hands back, the
objects its collector may stop walking (and how often it walks the rest while a command
runs), the models it loads before it forks, and the affidavit it runs."""

from __future__ import annotations

import ctypes
import functools
import gc
import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import os
import signal
import sys
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any


@functools.cache
def _trim() -> object | None:
    """glibc's ``malloc_trim``, from the C library this process already runs on."""
    try:
        trim = ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError, TypeError):  # not glibc, or no C library by name
        return None
    trim.argtypes = [ctypes.c_size_t]
    trim.restype = ctypes.c_int
    return trim


# NOTE: glibc's malloc keeps freed memory for the process to reuse: after building a large
# index (thousands of arrays of a few MB, freed in no particular order) it kept 185 MB
# of a 100 MB store's word index build that nothing held any more (measured with
# /proc/self/status). While the entity graph is mined in a forked worker, what this
# process keeps adds to what the two hold together, so each build stage hands the freed
# pages back. On a C library without ``malloc_trim`` (macOS, musl) nothing is done.
def give_back_freed_memory() -> bool:
    """Return the C heap's free pages to the system; whether the C library could."""
    trim = _trim()
    if trim is None:
        return False
    trim(0)  # type: ignore[operator]
    return True


def usable_cores() -> int:
    """The cores this process may run on (its affinity where the system tells it): what
    the ingest's readers and the batch's workers are sized by too."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


@contextmanager
def long_lived_heap() -> Iterator[Callable[[], None]]:
    """While a batch runs, the objects its models, indexes and caches are made of live as
    long as it does; the function given moves every object made so far out of the cyclic
    collector's sight (``gc.freeze``), so its full collections stop walking them again
    and again, and forked workers stop copying the pages it would write. On leaving they
    are handed back (``gc.unfreeze``): nothing the batch made stays uncollectable. A
    process that froze objects itself is left as it is.

    NOTE: measured on 2 cores, 600 SQuAD questions in one process: frozen after the first
    answer, 7% less CPU time (24.4 s against 26.8 s, the mean of three runs each)."""
    ours = gc.get_freeze_count() == 0
    try:
        yield gc.freeze if ours else _leave_heap
    finally:
        if ours:
            gc.unfreeze()


def _leave_heap() -> None:
    return None


# NOTE: a cold `affidavit ask` makes some 1,700 modules' objects, spaCy's pipeline and the
# bundled model, nearly all of which live as long as the process. At the collector's
# default (a young collection every 700 allocations, the older generations every 10 of
# those) it collected 568 times, 0.40 s of its 3.7 s of CPU; every 50,000: 7 times,
# 0.11 s, the same peak memory (a machine at load 6 on 2 cores, the two-line store of
# bench/start.py).
COLLECT_EVERY = 50_000


@contextmanager
def fewer_collections(every: int = COLLECT_EVERY) -> Iterator[None]:
    """While a command runs, the cyclic collector starts a young collection every
    ``every`` allocations (its older generations as often as before, in those terms); on
    leaving, its thresholds are as they were."""
    before = gc.get_threshold()
    gc.set_threshold(max(every, before[0]), *before[1:])
    try:
        yield
    finally:
        gc.set_threshold(*before)


# NOTE: after a cold `affidavit ask` had printed its answer, Python's shutdown took 0.5 s
# of CPU (load 6 on 2 cores): the full collections it makes as it clears the modules walk
# every object the models and some 1,700 modules left, and free the cycles among them,
# which the system takes back whole a moment later anyway. Frozen first: 0.03 s.
def before_exit() -> None:
    """For a process that has done its work and is about to end: every object is moved
    out of the cyclic collector's sight (``gc.freeze``), so the collections Python makes
    as it shuts down neither walk nor free them (what is not in a cycle is freed as ever;
    Python never promises a cycle's ``__del__`` at exit). Files and stores must already
    be closed: the CLI closes each store before it prints.

    A Ctrl-C from here on is ignored: the work is done and said, and Python, shutting
    down, would take the signal's default action (killed by SIGINT, status -2) or print a
    traceback from its exit handlers."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    gc.freeze()


# The loaders a fork server calls before it forks workers (batch/preload.py): a fork
# server is told what to import by module name only, so they travel in its environment.
PRELOAD_VARIABLE = "AFFIDAVIT_PRELOAD"
# Set to "0", the reader's encoder reads every line in the asking thread and none ahead on
# a thread of its own (scorer/encoder.py): a batch's worker processes, one a core, set it,
# since a thread of its own would take a core another worker answers on.
ENCODER_AHEAD_VARIABLE = "AFFIDAVIT_ENCODER_AHEAD"


def loader_names(loaders: Iterable[Callable[[], object]]) -> str:
    """Module-level functions as PRELOAD_VARIABLE names them: ``module:name``, apart by
    spaces (as pickle finds a function: by its module and qualified name)."""
    return " ".join(f"{load.__module__}:{load.__qualname__}" for load in loaders)


def call_loaders(names: str) -> None:
    """Import and call each loader ``loader_names`` named, in order."""
    for name in names.split():
        module, _, qualified = name.partition(":")
        load: Any = importlib.import_module(module)
        for part in qualified.split("."):
            load = getattr(load, part)
        load()


Face = tuple[Callable[[str], Any], Callable[[], list[str]]]


def names_read_when_used(package: str, homes: dict[str, str]) -> Face:
    """A room's face: the ``__getattr__`` and ``__dir__`` (PEP 562) of ``package`` for the
    names ``homes`` gives, each module of the package (named relative to it) with the names
    it holds, apart by spaces. A name is imported from its module when first read, then
    kept on the package, so a room's face costs nothing until one of its names is used."""
    home_of = {name: module for module, names in homes.items() for name in names.split()}

    def __getattr__(name: str) -> Any:
        module = home_of.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f"{package}.{module}"), name)
        setattr(sys.modules[package], name, value)  # read once; later reads find it there
        return value

    def __dir__() -> list[str]:
        return sorted({*vars(sys.modules[package]), *home_of})

    return __getattr__, __dir__


def installed_version() -> str:
    """The version of the affidavit distribution installed here ("unknown" when it runs
    from a checkout that was never installed)."""
    from importlib.metadata import PackageNotFoundError, version  # not on every import

    try:
        return version("affidavit")
    except PackageNotFoundError:
        return "unknown"


# prctl(2): deliver a signal to this process when the thread that forked it ends.
_PR_SET_PDEATHSIG = 1


def leave_interrupts_to_parent() -> None:
    """Have this forked worker ignore Ctrl-C: the terminal sends SIGINT to the whole
    process group, and the parent, which says what the interrupted work left, stops its
    workers itself. A worker that took it too would print its own traceback. A Ctrl-C
    held back while it was forked (``forking``) is dropped here."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


# NOTE: a Ctrl-C that landed while a worker was being forked ran in the fork's own handlers
# (logging's lock release, in parent or child) and Python printed "Exception ignored in
# ... _releaseLock ... KeyboardInterrupt" (tests/cli/test_interrupt.py, interrupted 0.2 s
# into an ingest, once the suite gave the ingest its Ctrl-C back).
@contextmanager
def forking() -> Iterator[None]:
    """Start a worker process inside: Ctrl-C is held back while it forks, then taken by
    this process as usual (the worker drops it: ``leave_interrupts_to_parent``)."""
    held = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)


def die_with_parent(parent: int) -> bool:
    """Have the kernel kill this forked worker (SIGKILL) the moment its parent ``parent``
    dies, so a killed ingest leaves no reader or graph worker holding the store's files,
    memory or the parent's output pipe; whether the system could (Linux). A parent gone
    before the request ends this worker at once."""
    try:
        prctl = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError, TypeError):  # not Linux's C library
        return False
    if prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) != 0:
        return False
    if os.getppid() != parent:  # it died before the request: no signal will come
        os._exit(1)
    return True


# NOTE: `import spacy` imports its command line for `spacy.info` (spacy.cli: weasel,
# requests, httpx, typer), which affidavit never runs: 0.3 s of a cold `affidavit ask`'s
# 2.0 s (the spaCy import and English pipeline 1.56 s with it, 1.24 s without, the same
# run). While spaCy's own __init__ imports them, spacy.cli and spacy.cli.info are made as
# modules that read their code only when something first asks them for a name, so
# `spacy.cli.download(...)` and `spacy.info()` still work, as they would have.
class _SpacyCommandsWhenUsed(importlib.abc.MetaPathFinder):
    """Finds spacy.cli and spacy.cli.info, while spaCy imports itself, as modules whose
    code runs on first use."""

    NAMES = ("spacy.cli", "spacy.cli.info")

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> Any:
        if name not in self.NAMES:
            return None
        spacy = sys.modules.get("spacy")
        if spacy is None or not getattr(getattr(spacy, "__spec__", None), "_initializing", 0):
            return None  # spaCy is whole: its command line is imported as usual
        real = importlib.machinery.PathFinder.find_spec(name, path)
        if real is None or real.loader is None:
            return None
        # Where its file is, so the module has the __file__ and __path__ its code reads.
        return importlib.util.spec_from_file_location(
            name,
            real.origin,
            loader=_RunWhenUsed(real),
            submodule_search_locations=real.submodule_search_locations,
        )


class _RunWhenUsed(importlib.abc.Loader):
    """Makes a module whose own code runs in it when a name is first asked of it (its
    package's code first, so the names the package binds are its own)."""

    def __init__(self, real: Any) -> None:
        self.real = real

    def create_module(self, spec: Any) -> None:
        return None

    def exec_module(self, module: Any) -> None:
        real = self.real

        def ran() -> Any:
            if "__getattr__" in module.__dict__:
                _run_now(sys.modules.get(module.__name__.rpartition(".")[0]))
                del module.__dict__["__getattr__"]
                module.__dict__.pop("info", None)
                real.loader.exec_module(module)
            return module

        def named(name: str) -> Any:
            if name.startswith("__"):  # the import system asking what a module is
                raise AttributeError(name)
            return ran() if name == _RUN_NOW else getattr(ran(), name)

        module.__getattr__ = named
        if module.__name__ == "spacy.cli.info":
            module.info = lambda *args, **options: ran().info(*args, **options)


_RUN_NOW = "_run_now_what_was_left"


def _run_now(module: Any) -> None:
    """Run a module left to run when used, if ``module`` is one."""
    if module is not None and "__getattr__" in getattr(module, "__dict__", {}):
        getattr(module, _RUN_NOW, None)


def spacy_commands_when_used() -> None:
    """Have spaCy import its command line only when it is used (once a process)."""
    if "spacy" not in sys.modules and not any(
        isinstance(finder, _SpacyCommandsWhenUsed) for finder in sys.meta_path
    ):
        sys.meta_path.insert(0, _SpacyCommandsWhenUsed())
