"""What a browser would not show of a page, so it never becomes evidence: an element hidden
by its own style or by a rule of the page's ``<style>`` blocks.

A rule of a style sheet applies to the elements its selector chooses (tinycss2 reads the
sheet, cssselect turns each selector into the XPath lxml runs); the element's own
``style`` is read after the rules, so it wins, as in a browser. Specificity and
``!important`` are not weighed (a later rule wins over an earlier one), and rules inside
``@media`` are not read. An element is hidden when its styles say:

- ``display: none``, ``visibility: hidden`` or ``collapse``, or the ``hidden`` attribute;
- ``opacity: 0`` or ``font-size: 0``;
- text the colour of its background (white on white where no background is set, a page's
  default background being white);
- positioned off the screen (``position: absolute`` or ``fixed`` at 1,000 pixels or more
  beyond an edge) or pushed off by ``text-indent``;
- no height (or width) with ``overflow: hidden``;
- clipped to nothing (``clip: rect(0 0 0 0)``, ``clip-path: inset(50%)``)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import tinycss2
from cssselect import GenericTranslator, SelectorError

# How far beyond an edge a positioned element is off the screen, in pixels.
OFF_SCREEN_PX = 1000.0
_WHITE = frozenset({"white", "#fff", "#ffffff", "rgb(255,255,255)", "rgba(255,255,255,1)"})
_TRANSPARENT = frozenset({"", "transparent", "none", "inherit", "initial"})
_LENGTH = re.compile(r"^(-?\d*\.?\d+)(px|pt|em|rem|%|vh|vw|cm|mm|in)?$")
_TRANSLATE = GenericTranslator()


def hidden_elements(root: Any) -> list[tuple[Any, str]]:
    """Every element of the page at ``root`` that the page hides, with how (outermost
    first: what lies inside a hidden element is hidden with it)."""
    declared: dict[Any, dict[str, str]] = {}
    for selector, declarations in _rules(root):
        for element in _chosen(root, selector):
            declared.setdefault(element, {}).update(declarations)
    found = []
    for element in root.iter():
        if not isinstance(element.tag, str):
            continue
        styles = {**declared.get(element, {}), **_declarations(element.get("style", ""))}
        why = "the hidden attribute" if element.get("hidden") is not None else _hides(styles)
        if why is not None:
            found.append((element, why))
    return found


def _rules(root: Any) -> Iterator[tuple[str, dict[str, str]]]:
    """(selector, declarations) of every rule of the page's ``<style>`` blocks, in order."""
    for sheet in root.iter("style"):
        rules = tinycss2.parse_stylesheet(
            sheet.text or "", skip_comments=True, skip_whitespace=True
        )
        for rule in rules:
            if rule.type != "qualified-rule":
                continue  # an at-rule (@media, @import) or a parse error
            declarations = _declarations(tinycss2.serialize(rule.content))
            for selector in tinycss2.serialize(rule.prelude).split(","):
                if selector.strip():
                    yield selector.strip(), declarations


def _chosen(root: Any, selector: str) -> list[Any]:
    try:
        return list(root.xpath(_TRANSLATE.css_to_xpath(selector)))
    except (SelectorError, ValueError, TypeError):  # a pseudo-element, or CSS it cannot read
        return []


def _declarations(text: str) -> dict[str, str]:
    """A style's properties, lower-cased, spaces squeezed, ``!important`` dropped."""
    found: dict[str, str] = {}
    for item in tinycss2.parse_blocks_contents(text, skip_comments=True, skip_whitespace=True):
        if item.type == "declaration":
            value = tinycss2.serialize(item.value).lower().replace("!important", "")
            found[item.lower_name] = re.sub(r"\s+", " ", value).strip()
    return found


def _hides(styles: dict[str, str]) -> str | None:
    """How ``styles`` hide an element's text, or None."""
    if styles.get("display") == "none":
        return "display:none"
    if styles.get("visibility") in ("hidden", "collapse"):
        return "visibility:hidden"
    if _number(styles.get("opacity")) == 0.0:
        return "opacity:0"
    if _length(styles.get("font-size")) == 0.0:
        return "font-size:0"
    colour = styles.get("color", "").replace(" ", "")
    background = _background(styles)
    if colour and (colour == background or (colour in _WHITE and background in _TRANSPARENT)):
        return "text the colour of its background"
    if styles.get("position") in ("absolute", "fixed"):
        edges = [_length(styles.get(side)) for side in ("left", "top", "right")]
        if any(edge is not None and edge <= -OFF_SCREEN_PX for edge in edges):
            return "positioned off the screen"
    indent = _length(styles.get("text-indent"))
    if indent is not None and indent <= -OFF_SCREEN_PX:
        return "pushed off the screen by text-indent"
    if styles.get("overflow") == "hidden" and 0.0 in (
        _length(styles.get("height")),
        _length(styles.get("max-height")),
        _length(styles.get("width")),
    ):
        return "no height with overflow:hidden"
    clip = styles.get("clip", "").replace(" ", "").replace(",", "")
    if clip.startswith("rect(") and re.fullmatch(r"rect\((0(px)?){4}\)", clip):
        return "clipped to nothing"
    if re.fullmatch(r"inset\((50|100)%\)", styles.get("clip-path", "").replace(" ", "")):
        return "clipped to nothing"
    return None


def _background(styles: dict[str, str]) -> str:
    value = styles.get("background-color") or styles.get("background", "")
    return value.split(" ")[0].replace(" ", "") if value else ""


def _number(value: str | None) -> float | None:
    try:
        return float(value) if value is not None else None
    except ValueError:
        return None


def _length(value: str | None) -> float | None:
    """A CSS length as a number (its unit dropped: only 0 and far-off values are read)."""
    if value is None:
        return None
    match = _LENGTH.match(value.replace(" ", ""))
    return float(match.group(1)) if match else None
