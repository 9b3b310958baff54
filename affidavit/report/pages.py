"""The audit report's entity pages: each entity of the store that a question, an answer or
a claim names gets a page (what the store knows of it: its other names, the kinds of its
facts, its live records each with its source, their history, the entities most mentioned
with it), and each answer or claim links to the pages of the entities it names. Read
from the store as it stands when the report is written; a store that keeps no entity
graph gets none."""

from __future__ import annotations

import html
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from affidavit.errors import AffidavitError
from affidavit.results import Profile, Record
from affidavit.text import words

# The entities read from the store, and the most pages one report carries.
ENTITIES_READ = 500
MOST_PAGES = 50
NEIGHBOURS = 5


def entity_pages(
    rows: Sequence[Mapping[str, Any]], store: Any
) -> tuple[str, list[list[list[str]]]]:
    """The pages' HTML, and for each row the (name, anchor) of the pages it links to."""
    reading = getattr(store, "entities", None), getattr(store, "profile", None)
    if reading[0] is None or reading[1] is None:
        return "", [[] for _ in rows]
    try:
        names = [entity.name for entity in store.entities(top=ENTITIES_READ)]
    except AffidavitError:
        names = []
    by_first: dict[str, list[tuple[str, ...]]] = {}
    for name in names:
        said = tuple(words(name))
        if said:
            by_first.setdefault(said[0], []).append(said)
    spelled = {tuple(words(name)): name for name in names}
    named_in = [_named(row, by_first, spelled) for row in rows]
    counts = Counter(name for found in named_in for name in found)
    chosen = sorted(counts, key=lambda name: (-counts[name], name))[:MOST_PAGES]
    pages: dict[str, Profile] = {}
    for name in chosen:
        try:
            pages[name] = store.profile(name, top=NEIGHBOURS)
        except AffidavitError:
            continue  # named, but the store holds nothing of it now
    anchors = {name: f"entity-{number}" for number, name in enumerate(sorted(pages))}
    links = [[[name, anchors[name]] for name in found if name in anchors] for found in named_in]
    body = "".join(_page(pages[name], anchors) for name in sorted(pages))
    if not body:
        return "", links
    return (
        '<section id="pages" aria-label="Entity pages"><h2>Entity pages</h2>'
        f"<p>What the store knows of each entity a question, an answer or a claim names.</p>"
        f"{body}"
        "</section>",
        links,
    )


def _named(
    row: Mapping[str, Any],
    by_first: Mapping[str, list[tuple[str, ...]]],
    spelled: Mapping[tuple[str, ...], str],
) -> list[str]:
    """The entities the row's question or answer names, in the order first named."""
    text = " ".join(str(row.get(key) or "") for key in ("question", "text"))
    said = words(text)
    found: list[str] = []
    for at, word in enumerate(said):
        for name in by_first.get(word, ()):
            if tuple(said[at : at + len(name)]) == name and spelled[name] not in found:
                found.append(spelled[name])
    return found


def _page(page: Profile, anchors: Mapping[str, str]) -> str:
    e = html.escape
    parts = [f'<article class="page" id="{anchors[page.name]}"><h3>{e(page.name)}</h3>']
    if page.labels:
        also = ", ".join(f"{e(label.word)} ({e(label.language)})" for label in page.labels)
        parts.append(f"<p>Also: {also}</p>")
    if page.categories:
        parts.append(f"<p>Kinds: {e(', '.join(page.categories))}</p>")
    if page.facts:
        parts.append("<h4>Facts</h4><ul>" + "".join(_fact(r) for r in page.facts) + "</ul>")
    if page.history:
        parts.append("<h4>History</h4><ul>" + "".join(_fact(r) for r in page.history) + "</ul>")
    if page.neighbours:
        listed = []
        for neighbour in page.neighbours:
            name = e(neighbour.name)
            if neighbour.name in anchors:
                name = f'<a href="#{anchors[neighbour.name]}">{name}</a>'
            listed.append(f"<li>{name} ({len(neighbour.witnesses)} lines together)</li>")
        parts.append("<h4>Mentioned with</h4><ul>" + "".join(listed) + "</ul>")
    parts.append("</article>")
    return "".join(parts)


def _fact(record: Record) -> str:
    """One record as a page line: the fact, its state, who said it, and its line."""
    e = html.escape
    state = "" if record.state == "live" else f" [{record.state}]"
    cited = f"; {e(record.witness[0][0])} #{record.witness[0][1]}" if record.witness else ""
    return (
        f"<li>{e(record.subject)} | {e(record.predicate)} | {e(record.value)}{e(state)}"
        f' <span class="meta">(#{record.id}, {e(record.source)}, trust {record.trust:.2f}'
        f"{cited})</span></li>"
    )
