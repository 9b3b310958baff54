"""The records half of the front door: ``Memory.tell``, ``Memory.records``,
``Memory.forget`` and ``Memory.profile``, written here so the facade stays one screen of
calls (one store's Memory inherits them: memory/one_store.py)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from affidavit.errors import InputError, readable, short_text
from affidavit.index import Retriever, as_evidence
from affidavit.records.distil import Event, distil
from affidavit.records.labels import LABELLED_LANGUAGES, Labels
from affidavit.records.told import Records
from affidavit.results import (
    Distilled,
    Evidence,
    Inferred,
    Label,
    Profile,
    Record,
    RecordState,
)
from affidavit.store import Store, reads, store_errors

# A label is a word or a short name, not a sentence.
MAX_LABEL_CHARS = 100


class RecordCalls:
    """Records told to a store, read back and forgotten (records/told.py says how)."""

    _store: Store
    _records: Records
    _retriever: Retriever

    @store_errors
    def tell(
        self,
        subject: str,
        predicate: str,
        value: str,
        *,
        source: str = "operator",
        at: str | None = None,
        witness: tuple[str, int] | None = None,
        kind: str | None = None,
    ) -> Record:
        """Tell the store a fact; returns its Record (with ``.id``).

        A newer telling of the same subject and predicate supersedes the older record,
        which stays as history; a telling from a source of lower trust does not: both
        stand, linked as contradicting. ``source`` is a rung of the trust ladder
        (operator, document, extraction, inference, stranger); ``at`` the day the fact
        holds from, when known (ISO). Telling the same value again returns the record
        that already says it. With ``witness=(document, position)`` the record is drawn
        from that stored line (a model's extraction: ``source="extraction"``) and enters
        only if the line carries its subject, a cue of its predicate and its value, digits
        exactly; otherwise an InputError says what the line lacks. ``kind`` names what
        sort of thing the value is ("magazine subscription"): a question that names the
        kind finds the record's line, though no gate or answer reads the kind::

            memory.tell("Maya", "lives in", "Lisbon", at="2023-03-01")
            memory.tell("Maya", "lives in", "Porto")  # supersedes Lisbon
            [r.value for r in memory.records("Maya")]  # ['Porto']
        """
        return self._records.tell(
            subject, predicate, value, source=source, at=at, witness=witness, kind=kind
        )

    @store_errors
    def distil(self, document: str) -> Distilled:
        """Write the events the stored ``document`` (a passage, or one session of a
        conversation) reports as records: the engine lists them, and each enters only if
        its own line carries its subject, a cue of its predicate and its value, digits
        exactly, at extraction trust, drawn from and cited by that line (``remove`` takes
        them with the document). A speaker's "I" is the speaker; an event's day is the one
        its words name ("yesterday"), else the day the line was said. An event that says
        a fact stopped ("I cancelled my subscription") ends the earlier live records of its
        subject that it names. Each record carries its kind ("pottery class") for finding.
        Distilling again writes nothing new::

            memory.ingest_dialogue("chat.jsonl")
            memory.distil("chat/session-1").records  # (Maya, adopted, puppy ...), ...
        """
        readable(document, "the document")
        with self._store.reading():
            stored = self._store.document_lines(document)
        if not stored:
            raise InputError(
                "document",
                f"no document {document!r} in the store",
                "name one that documents() lists",
            )
        lines = [as_evidence(line) for line in stored]
        distilled = distil(self._records, document, lines, self._list_events(lines))
        self._records.distilled(document)
        return distilled

    @store_errors
    def distil_new(
        self, *, progress: Callable[[int, int, str], None] | None = None
    ) -> list[Distilled]:
        """Distil every document the store holds that has not been distilled yet, in the
        order stored: after each ingest, what is new is folded in and nothing twice (a
        ledger keeps the documents distilled; a document stored again is new). ``progress``
        is called with (done, total, document) before each one::

            memory.ingest("notes/")
            memory.distil_new()  # the new documents' events, as records
        """
        pending = self._records.undistilled()
        done = []
        for number, document in enumerate(pending):
            if progress is not None:
                progress(number, len(pending), document)
            done.append(self.distil(document))
        if progress is not None:
            progress(len(pending), len(pending), "")
        return done

    @store_errors
    def infer(self) -> Inferred:
        """Learn which predicates are transitive and derive what their chains imply. Two
        distinct closed triangles of one predicate's live records (a→b, b→c and a→c) teach
        that it is transitive; then every chain of its told or drawn records without the
        record that closes it yields that record, ``source`` inference at trust 0.35,
        below the speaking threshold, its ``because`` the records of its chain. Its line
        can be searched, never cited: ``ask`` withholds it and refuses on it alone. A value
        the predicate itself links to the standing one ("Paris is in Europe" beside
        "France is in Europe") never supersedes it: both stand. One transaction::

            for a, b in [("Paris", "France"), ("France", "Europe"), ("Paris", "Europe"),
                         ("Lyon", "France"), ("Lyon", "Europe"), ("Nice", "France")]:
                memory.tell(a, "is in", b)
            memory.infer().records  # (Nice, is in, Europe), inferred
        """
        return self._records.infer()

    def _list_events(self, lines: Sequence[Evidence]) -> Sequence[Event]:
        """The events the engine lists of ``lines`` (Memory supplies it)."""
        raise NotImplementedError

    @reads
    def records(
        self,
        subject: str | None = None,
        predicate: str | None = None,
        *,
        include_history: bool = False,
    ) -> list[Record]:
        """The live records of ``subject`` and ``predicate`` (either None: any; matched
        regardless of case and spacing), in the order told: what holds now. A subject is
        a concept: the records told of its inflections ("Normans" for "Norman") are its
        records too. With ``include_history`` the ended, superseded and
        forgotten ones too, each with its ``state`` and links."""
        return self._records.read(subject, predicate, include_history=include_history)

    @store_errors
    def forget(self, record_id: int) -> Record:
        """Forget a record: a tombstone (``state`` forgotten) that leaves every read of live
        records and brings back nothing it superseded; returns it. An id the store never
        gave is an InputError."""
        return self._records.forget(record_id)

    @store_errors
    def end(self, record_id: int, *, at: str | None = None) -> Record:
        """Say that a live record's fact stopped holding on ``at`` (an ISO day; default
        today): "I cancelled my subscription". The record stays, its ``state`` ended and
        its ``ended_at`` the day; it leaves ``records()`` (what holds now) but not the
        history, and its told line says until when it held, so ``ask`` and ``verify``
        read the ending too. A newer telling of the same value holds again::

            wired = memory.tell("Maya", "subscribes to", "Wired", at="2023-01-10")
            memory.end(wired.id, at="2024-05-01")
            memory.records("Maya")  # []
        """
        return self._records.end(record_id, at)

    @store_errors
    def label(self, word: str, means: str, *, language: str) -> Label:
        """Tell the store that ``word`` of ``language`` (es or tr) names what its lines
        call ``means``: a question in that language reads the word as ``means`` before
        any label of the bundled model. It survives reopen::

            memory.label("cuota", "fee", language="es")
            memory.ask("¿Cuál es la cuota anual?")  # read as "What annual fee?"
        """
        word, means = (
            short_text(
                given,
                what,
                longest=MAX_LABEL_CHARS,
                empty_hint="give the word",
                long_hint="give one word",
            )
            for given, what in ((word, "the word"), (means, "what the word means"))
        )
        if language not in LABELLED_LANGUAGES:
            raise InputError(
                f"language {language!r}",
                f"labels are read for {', '.join(LABELLED_LANGUAGES)} questions",
                "give language='es' or language='tr'",
            )
        return Labels(self._store).add(word, means, language)

    @reads
    def labels(self, word: str) -> list[Label]:
        """Every label ``word`` takes part in: what it names as a Spanish or Turkish word,
        and the Spanish and Turkish words that name it as an English one; the operator's
        labels first, then the bundled model's (with its cosine)."""
        readable(word, "the word")
        return Labels(self._store).of(word, self._entity_names())

    def _entity_names(self) -> list[str]:
        """Every name of the store's entity graph (none for an empty store)."""
        if self._retriever.words().size == 0:
            return []
        return [entity.name for entity in self._retriever.graph().entities]

    @reads
    def profile(self, entity: str, *, top: int = 10) -> Profile:
        """What the store knows of ``entity``, as a page (a ``Profile``): its labels (its
        inflections in the entity graph, its Spanish and Turkish words); its live records
        as facts, each cited; the superseded and forgotten ones as history; the lines
        that mention it (how many, and the first of them); and the ``top`` entities most
        mentioned with it, with the lines that witness them. A name the entity graph did
        not mine is read from the lines that write it. Read from the store as it is now,
        so it is never out of date. An entity the store neither holds records of nor
        mentions is an InputError."""
        readable(entity, "the entity")
        every = self._records.read(entity, include_history=True)
        mentions = self._retriever.mentions(entity, self._retriever.words(), top)
        if not every and not mentions.count:
            raise InputError(
                "entity",
                f"the store holds no record of {entity!r} and no line mentions it",
                "list what it knows with records() and entities()",
            )
        live = tuple(r for r in every if r.state is RecordState.LIVE)
        return Profile(
            name=" ".join(entity.split()),
            labels=tuple(Labels(self._store).of(entity, self._entity_names())),
            facts=live,
            history=tuple(r for r in every if r.state is not RecordState.LIVE),
            neighbours=tuple(mentions.neighbours),
            mentions=tuple(mentions.lines),
            mentioned_in=mentions.count,
        )
