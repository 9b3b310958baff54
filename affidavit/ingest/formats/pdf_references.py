"""Reference loops in a PDF. An indirect object may be nothing but a reference to another
("1 0 obj 3 0 R endobj"), and pdfminer follows such a chain until it ends in a value;
a chain that comes back round to where it started never ends, and the parser spins until
the reader's time bound stops it. Here each chain is followed with the objects it has
passed kept, so a loop is named at its second visit, in microseconds."""

from __future__ import annotations

from typing import Any

__all__ = ["ReferenceLoop", "follow_chains_once"]


class ReferenceLoop(Exception):
    """A chain of references that comes back to an object it passed."""

    def __init__(self, chain: list[int]) -> None:
        self.chain = chain
        shown = " -> ".join(str(objid) for objid in chain)
        super().__init__(f"objects refer to each other in a loop ({shown})")


def follow_chains_once() -> None:
    """Make pdfminer's ``PDFObjRef.resolve`` follow a chain of bare references to its end
    itself, raising ReferenceLoop when it meets an object twice. For a file without loops
    nothing changes: every caller of ``resolve`` (``resolve1`` among them) follows a
    reference to a reference on to its value, and now receives that value at once.

    The class is patched, not the module functions, because pdfminer's modules import
    ``resolve1`` by name; it is done once a process, where PDFs are read."""
    from pdfminer.pdftypes import PDFObjRef

    original = PDFObjRef.resolve
    if getattr(original, "follows_chains_once", False):
        return

    def resolve(self: PDFObjRef, default: object = None) -> Any:
        # The objects passed, in the order passed (a dict keeps it, for the message), each
        # looked up at once: a chain of n links costs n steps, not n * n.
        passed = {self.objid: None}
        value = original(self, default)
        while isinstance(value, PDFObjRef):
            if value.objid in passed:
                raise ReferenceLoop([*passed, value.objid])
            passed[value.objid] = None
            value = original(value, default)
        return value

    resolve.follows_chains_once = True  # type: ignore[attr-defined]
    PDFObjRef.resolve = resolve  # type: ignore[method-assign]
