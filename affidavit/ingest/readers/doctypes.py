"""Document type declarations in files that never need one. Word writes no DOCTYPE into a
DOCX, and a web page's DOCTYPE names no entities; a declaration of entities there is a
file built to make its reader fetch ``file:///etc/passwd`` or expand a billion laughs.
Neither reader ever resolves one. What they would otherwise do is silent: python-docx
loses the text that follows an entity reference in a run, and an HTML parser keeps the
declaration's tail (``]>``) as a line. Here the declaration is taken out, the text around
each reference is kept, and the reader warns of what it left out."""

from __future__ import annotations

import io
import re
import warnings
import zipfile
from pathlib import Path

from lxml import etree

from affidavit.errors import IngestError, IngestWarning

__all__ = ["docx_without_entities", "html_without_internal_subset"]

# A declaration is at the head of a part; one further in is not where a parser reads it.
_HEAD = 4096
_DECLARES = re.compile(rb"<!DOCTYPE", re.IGNORECASE)
# An HTML DOCTYPE with an internal subset: "<!DOCTYPE html [ ... ]>" (the subset holds
# declarations, each closed by its own ">", so the whole runs to the first "]>").
_INTERNAL_SUBSET = re.compile(r"\A(\s*)<!DOCTYPE[^\[>]*\[(.*?)\]\s*>", re.IGNORECASE | re.DOTALL)
_ENTITY_DECLARATION = re.compile(r"<!ENTITY", re.IGNORECASE)
# Never load a DTD, never expand an entity, never touch the network.
_PARSER = etree.XMLParser(
    resolve_entities=False, load_dtd=False, no_network=True, dtd_validation=False
)


def docx_without_entities(path: Path, data: bytes) -> bytes:
    """``data`` (a DOCX) with every XML part's DOCTYPE taken out and each entity reference
    replaced by nothing, the text after it kept; unchanged (the same bytes) when no part
    declares one, which is every DOCX Word writes."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        declaring = [info for info in archive.infolist() if _declares(archive, info)]
    except (zipfile.BadZipFile, OSError, NotImplementedError, ValueError, EOFError):
        return data  # the DOCX reader says what is wrong with it
    if not declaring:
        return data
    rewritten: dict[str, bytes] = {}
    references = 0
    for info in declaring:
        part, count = _part_without_entities(path, info.filename, archive.read(info))
        rewritten[info.filename] = part
        references += count
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as copy:
        for info in archive.infolist():
            copy.writestr(info, rewritten.get(info.filename) or archive.read(info))
    parts = ", ".join(info.filename for info in declaring)
    warnings.warn(
        IngestWarning(
            f"{parts} declare(s) XML entities, which a DOCX never needs: the declaration and "
            f"{references} reference(s) to its entities left out, never read; the text "
            "around them is kept"
        ),
        stacklevel=2,
    )
    return out.getvalue()


def html_without_internal_subset(text: str) -> str:
    """``text`` (a page) without the entity declarations of its DOCTYPE, which an HTML
    parser does not read and would keep the tail of as text; a warning says so."""
    match = _INTERNAL_SUBSET.match(text)
    if match is None:
        return text
    declared = len(_ENTITY_DECLARATION.findall(match.group(2)))
    warnings.warn(
        IngestWarning(
            f"the page's DOCTYPE declares {declared} entit(y/ies) and other markup no browser "
            "reads: left out, never read (references to them stay as the text a browser shows)"
        ),
        stacklevel=2,
    )
    return match.group(1) + "<!DOCTYPE html>" + text[match.end() :]


def _declares(archive: zipfile.ZipFile, info: zipfile.ZipInfo) -> bool:
    if info.is_dir() or not info.filename.lower().endswith((".xml", ".rels")):
        return False
    with archive.open(info) as part:
        return _DECLARES.search(part.read(_HEAD)) is not None


def _part_without_entities(path: Path, name: str, data: bytes) -> tuple[bytes, int]:
    try:
        root = etree.fromstring(data, parser=_PARSER)
    except etree.XMLSyntaxError as exc:
        raise IngestError(
            path,
            f"cannot read {name}: {exc}",
            hint="the file is not a valid .docx; open it in Word and save it again",
        ) from exc
    entities = list(root.iter(etree.Entity))
    for entity in entities:
        _drop_keeping_tail(entity)
    # Serialised from the root alone, so the DOCTYPE (and its internal subset) is not.
    return etree.tostring(root, xml_declaration=True, encoding="UTF-8", standalone=True), len(
        entities
    )


def _drop_keeping_tail(node: etree._Entity) -> None:
    """Take ``node`` out of its parent; the text after it joins what came before it."""
    parent = node.getparent()
    if parent is None:
        return
    tail = node.tail or ""
    previous = node.getprevious()
    if previous is not None:
        previous.tail = (previous.tail or "") + tail
    else:
        parent.text = (parent.text or "") + tail
    parent.remove(node)
