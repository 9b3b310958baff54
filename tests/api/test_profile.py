"""Memory.profile: an entity's page, for a name the entity graph mined and for one it did
not (a name too rare to mine is still on the lines that write it)."""

from __future__ import annotations

import pytest
from conftest import ARTICLES

from affidavit import Memory
from affidavit.errors import InputError

ACME = (
    "Acme Corp makes anvils in Springfield.\n\n"
    "Acme Corp hired Alice Brown as CEO in 2021.\n\n"
    "The auditors praised Acme Corp for its books.\n"
)


def test_a_name_its_lines_write_but_the_graph_did_not_mine_has_a_page() -> None:
    with Memory(dense=False) as memory:
        memory.ingest_text(ACME, name="acme.md")
        assert "Acme Corp" not in [e.name for e in memory.entities()]  # not mined
        page = memory.profile("Acme Corp")
        assert page.name == "Acme Corp" and page.mentioned_in == 3
        assert [(m.document, m.position) for m in page.mentions] == [
            ("acme.md", 0),
            ("acme.md", 1),
            ("acme.md", 2),
        ]
        assert page.to_dict()["mentioned_in"] == 3
        assert memory.profile("acme  CORP").mentioned_in == 3  # any case, any spacing
        # Its words apart, or a name no line writes, is mentioned nowhere.
        for absent in ("Acme Springfield", "Corp Acme", "Zorblax"):
            with pytest.raises(InputError, match="no line mentions it"):
                memory.profile(absent)


def test_an_unmined_names_neighbours_are_the_mined_entities_its_lines_name() -> None:
    with Memory(dense=False) as memory:
        memory.ingest(ARTICLES[0])
        memory.ingest_text("Acme Corp sold anvils to Rollo.", name="acme.md")
        assert "Acme Corp" not in [e.name for e in memory.entities(top=10_000)]
        page = memory.profile("Acme Corp")
        assert page.mentioned_in == 1 and page.mentions[0].document == "acme.md"
        assert [n.name for n in page.neighbours] == ["Rollo"]
        rollo = page.neighbours[0]
        assert rollo.weight > 0
        assert [w.text for w in rollo.witnesses] == ["Acme Corp sold anvils to Rollo."]
        # A mined entity's page lists the lines that mention it too.
        mined = memory.profile("Rollo")
        assert mined.mentioned_in >= len(mined.mentions) > 1
        assert all("Rollo" in line.text for line in mined.mentions)
