"""The word index a process holds, and the documents added to it one call at a time.

A question needs the whole index joined: each term's postings in one list. Joining moves
every posting of the store, so an ``ingest_text`` that joined its document at once paid for
the whole store at every call (4 ms of 17 at 3,000 documents). Here an addition is read
and cached as a part of its own size (word_parts.py) and held beside the index, unjoined, and
the next question joins every addition held in one pass."""

from __future__ import annotations

from affidavit.index.words import word_parts
from affidavit.index.words.word_index import WordIndex
from affidavit.store import Store, cache_update, document_keys, versions_digest


class HeldWords:
    """The word index in hand (at ``generation``) and the additions not yet joined to it."""

    def __init__(self, store: Store) -> None:
        self._store = store
        self._index: WordIndex | None = None
        self._generation = -1
        self._added: list[WordIndex] = []  # the additions since, oldest first
        self._keys: set[str] = set()  # the document versions the index and additions hold

    def current(self) -> WordIndex:
        """The index of the store as it is now, every addition joined (word_parts.py reads
        what another process wrote, or what this one has not taken in)."""
        generation = self._store.generation()
        joined = self._joined()
        if joined is None or self._generation != generation:
            self._hold(word_parts.current(self._store, joined))
            self._generation = generation
        assert self._index is not None
        return self._index

    def take_in(self) -> None:
        """After a write that only added documents after those held: their index read
        and cached as a part, held unjoined. Anything else (a removal, a replacement, no
        index in hand yet) is brought up to date as a question would."""
        if self._index is None:
            self.current()
            return
        # The generation first: a write after it makes the index look older than it is
        # (brought up to date by the next question), never newer.
        generation = self._store.generation()
        documents = document_keys(self._store)
        added = []
        for document in reversed(documents):  # an addition has the largest ids
            if document[3] in self._keys:
                break
            added.append(document)
        if not added or len(documents) != len(self._keys) + len(added):
            self.current()  # nothing new, or some held document is gone
            return
        added.reverse()
        update = word_parts.index_of(self._store, added)
        part = update.to_bytes([], versions_digest(list(self._keys)))
        self._added.append(update)
        self._keys.update(update.document_keys)
        self._generation = generation
        cache_update(self._store, word_parts.PREFIX, generation, part, self._whole_bytes)

    def adopt(self, other: HeldWords) -> None:
        """Hold what ``other`` (a retriever over the same store file) holds."""
        self._index, self._generation = other._index, other._generation
        self._added, self._keys = list(other._added), set(other._keys)

    def forget(self) -> None:
        self._index, self._generation, self._added, self._keys = None, -1, [], set()

    def _whole_bytes(self) -> bytes:
        """The whole index, every addition joined (the cache's parts are rewritten)."""
        joined = self._joined()
        assert joined is not None
        return joined.to_bytes()

    def _joined(self) -> WordIndex | None:
        """The index in hand with every addition joined: the additions among themselves
        first (small), then to the index in one pass over its postings."""
        if self._index is not None and self._added:
            added = self._added[0]
            if len(self._added) > 1:
                added = word_parts.merged([(a, set(a.document_keys)) for a in self._added])
            index = self._index
            pieces = [(index, set(index.document_keys)), (added, set(added.document_keys))]
            self._hold(word_parts.merged(pieces))
        return self._index

    def _hold(self, index: WordIndex) -> None:
        if index is not self._index:
            index.read_copies_by(self._store.reading_hashes)
            self._keys = set(index.document_keys)
        self._index, self._added = index, []
