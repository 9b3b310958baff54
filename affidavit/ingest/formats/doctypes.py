"""Document type declarations in files that never need one. Word writes no DOCTYPE into a
DOCX, and a web page's DOCTYPE names no entities; a declaration of entities there is a
file built to make its reader fetch ``file:///etc/passwd`` or expand a billion laughs.
Neither reader ever resolves one. What they would otherwise do is silent: python-docx
loses the text that follows an entity reference in a run, and an HTML parser keeps the
declaration's tail (``]>``) as a line. Here the declaration is taken out, the text around
each reference is kept (in an attribute value, the internal entity's text as the parser
read it), and the reader warns of what it left out."""

from __future__ import annotations

import io
import re
import warnings
import zipfile
import zlib
from pathlib import Path

from lxml import etree

from affidavit.errors import IngestError, IngestWarning

__all__ = ["docx_without_entities", "html_without_internal_subset"]

# An HTML DOCTYPE with an internal subset: "<!DOCTYPE html [ ... ]>". The subset is read
# as XML writes one (declarations, whose quoted values may hold "]>", comments, processing
# instructions, parameter entity references), so it ends at its own "]>", not the first.
# Each item is told from the others by its first characters and cannot run past its own
# end, and what the subset has matched is never given back (a possessive "*+"), so a page
# that never closes its subset fails the match in time linear in its length.
_SUBSET_ITEM = (
    r"""\s|%[^;\s]+;|<!--(?:[^-]|-(?!->))*+-->|<\?(?:[^?]|\?(?!>))*+\?>"""
    r"""|<!(?!--)(?:[^>"']|"[^"]*"|'[^']*')*+>"""
)
_INTERNAL_SUBSET = re.compile(
    rf"\A(\s*)<!DOCTYPE[^\[>]*\[((?:{_SUBSET_ITEM})*+)\]\s*>", re.IGNORECASE | re.DOTALL
)
_ENTITY_DECLARATION = re.compile(r"<!ENTITY", re.IGNORECASE)
# Never load a DTD, never expand an entity, never touch the network.
_NOTHING_FETCHED = {"resolve_entities": False, "load_dtd": False, "no_network": True}
_PARSER = etree.XMLParser(dtd_validation=False, **_NOTHING_FETCHED)
# What unpacking a damaged zip member raises.
_DAMAGED = (zipfile.BadZipFile, OSError, NotImplementedError, ValueError, EOFError, zlib.error)


def docx_without_entities(path: Path, data: bytes) -> bytes:
    """``data`` (a DOCX) with every XML part's DOCTYPE taken out and each entity reference
    replaced by nothing, the text after it kept; unchanged (the same bytes) when no part
    declares one, which is every DOCX Word writes."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        declaring = [info for info in archive.infolist() if _declares(archive, info)]
    except _DAMAGED:
        return data  # the DOCX reader says what is wrong with it
    if not declaring:
        return data
    rewritten: dict[str, bytes] = {}
    references = 0
    for info in declaring:
        part, count = _part_without_entities(path, info.filename, _member(path, archive, info))
        rewritten[info.filename] = part
        references += count
    out = io.BytesIO()
    unreadable: list[str] = []
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as copy:
        for info in archive.infolist():
            if info.filename in rewritten:
                copy.writestr(info, rewritten[info.filename])
                continue
            # A part the DOCX reader may never open (an unused picture) may be damaged: it
            # is left out of the copy, said, rather than failing the whole file here.
            try:
                copy.writestr(info, archive.read(info))
            except _DAMAGED:
                unreadable.append(info.filename)
    parts = ", ".join(info.filename for info in declaring)
    warnings.warn(
        IngestWarning(
            f"{parts} declare(s) XML entities, which a DOCX never needs: the declaration and "
            f"{references} reference(s) to its entities left out, never read; the text "
            "around them is kept"
        ),
        stacklevel=2,
    )
    if unreadable:
        warnings.warn(
            IngestWarning(
                f"{len(unreadable)} part(s) cannot be unpacked (damaged) and are left out: "
                + ", ".join(unreadable)
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
    """Does the XML part ``info`` have a DOCTYPE? Its prolog is parsed (however long its
    comments, in whatever encoding it is written) up to the root element's start tag, and
    no further. A part that cannot be read so far declares nothing: the DOCX reader says
    what is wrong with it if it needs it."""
    if info.is_dir() or not info.filename.lower().endswith((".xml", ".rels")):
        return False
    try:
        with archive.open(info) as part:
            for _, element in etree.iterparse(part, events=("start",), **_NOTHING_FETCHED):
                return bool(element.getroottree().docinfo.doctype)
    except (etree.XMLSyntaxError, *_DAMAGED):
        return False
    return False


def _member(path: Path, archive: zipfile.ZipFile, info: zipfile.ZipInfo) -> bytes:
    """A part that declares entities, unpacked: one that cannot be is a damaged DOCX."""
    try:
        return archive.read(info)
    except _DAMAGED as exc:
        raise IngestError(
            path,
            f"cannot unpack {info.filename}: {exc}",
            hint="the file is not a valid .docx; open it in Word and save it again",
        ) from exc


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
    # In an attribute value the parser has put an internal entity's text in place of its
    # reference (an external one it refuses), but would write the reference back, which
    # without the declaration no reader can parse: the value is set as read.
    for element in root.iter(etree.Element):
        for key, value in element.attrib.items():
            element.set(key, value)
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
