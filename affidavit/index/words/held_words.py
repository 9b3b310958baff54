"""The word index a process holds, and the documents added to it one call at a time.

A question needs the whole index joined: each term's postings in one list. Joining moves
every posting of the store, so an ``ingest_text`` that joined its document at once paid for
the whole store at every call (4 ms of 17 at 3,000 documents). Here an addition is read
from its own lines and held beside the index, unjoined, and the next question joins every
addition held in one pass. The additions are cached as a part of their size
(word_parts.py) once they add up to WRITTEN_AT, and at close: a process that stops before
has its additions read from their lines by the next (word_parts.py ``current``)."""

from __future__ import annotations

from affidavit.index.words import word_parts
from affidavit.index.words.word_index import WordIndex
from affidavit.store import Store, cache_update, document_keys, merged_tail, versions_digest

# NOTE: a part of a few lines costs its writing (1.4 ms to encode, a transaction) and, as
# the parts are merged in tiers, its reading back and merging (3 ms to decode, 6 ms to
# merge four): paragraphs added one call at a time took 16 ms a call written one part a
# call, against 9 ms before the tiers (bench/one_at_a_time.py). Held until they make this
# many lines (or additions), they are written as one part.
WRITTEN_AT_LINES = 2048
WRITTEN_AT_ADDITIONS = 64
# The additions held are joined to the index in the call that makes them this share of it:
# a join moves every posting, so joins that far apart cost each addition a few times its
# size in all, and the next question joins less than this share.
JOINED_AT_SHARE = 0.25


class HeldWords:
    """The word index in hand (at ``generation``), the additions not yet joined to it, and
    those not yet cached."""

    def __init__(self, store: Store) -> None:
        self._store = store
        self._index: WordIndex | None = None
        self._generation = -1
        self._added: list[WordIndex] = []  # the additions since, oldest first
        self._keys: set[str] = set()  # the document versions the index and additions hold
        self._digest = ""  # theirs (versions_digest), grown with each addition
        self._unwritten: list[WordIndex] = []  # the additions not yet cached, oldest first
        self._written_after = ""  # the digest of the versions held before the first of them

    def current(self) -> WordIndex:
        """The index of the store as it is now, every addition joined (word_parts.py reads
        what another process wrote, or what this one has not taken in)."""
        generation = self._store.generation()
        joined = self._joined()
        if joined is None or self._generation != generation:
            self.write_pending()  # the cache's parts follow one another before another's
            self._hold(word_parts.current(self._store, joined))
            self._generation = generation
        assert self._index is not None
        return self._index

    def take_in(self) -> None:
        """After a write that only added documents after those held: their index read
        from their lines and held unjoined (cached with the others not yet cached once
        they add up to WRITTEN_AT). Anything else (a removal, a replacement, no index in
        hand yet) is brought up to date as a question would."""
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
        if not self._unwritten:
            self._written_after = self._digest
        self._unwritten.append(update)
        self._added.append(update)
        self._keys.update(update.document_keys)
        self._digest = versions_digest(update.document_keys, self._digest)
        self._generation = generation
        lines = sum(index.size for index in self._unwritten)
        if lines >= WRITTEN_AT_LINES or len(self._unwritten) >= WRITTEN_AT_ADDITIONS:
            self.write_pending()
        if sum(index.size for index in self._added) >= JOINED_AT_SHARE * self._index.size:
            self._joined()

    def write_pending(self) -> None:
        """Cache the additions not yet cached, as one part (merged in tiers with the parts
        before it: store/index_parts.py ``cache_update``)."""
        if not self._unwritten:
            return
        pending, self._unwritten = self._unwritten, []
        part = pending[0]
        if len(pending) > 1:
            part = word_parts.merged([(a, set(a.document_keys)) for a in pending])
            held = self._added[-len(pending) :]
            if len(held) == len(pending) and all(
                mine is theirs for mine, theirs in zip(held, pending, strict=True)
            ):
                self._added[-len(pending) :] = [part]  # not joined yet: held merged
                self._merge_added()
        cache_update(
            self._store,
            word_parts.PREFIX,
            self._generation,
            part.to_bytes([], self._written_after),
            self._whole_bytes,
            word_parts.merged_parts,
        )

    def _merge_added(self) -> None:
        """The additions held merged among themselves in tiers of lines, as the cache's
        parts are (store/index_parts.py ``merged_tail``): a question joins a few pieces
        to the index, not one a part written since the last question."""
        sizes = [index.size for index in self._added]
        taken = merged_tail(sizes, base=WRITTEN_AT_LINES // 4)
        if taken > 1:
            run = self._added[-taken:]
            self._added[-taken:] = [word_parts.merged([(a, set(a.document_keys)) for a in run])]

    def adopt(self, other: HeldWords) -> None:
        """Hold what ``other`` (a retriever over the same store file) holds."""
        self._index, self._generation = other._index, other._generation
        self._added, self._keys = list(other._added), set(other._keys)
        self._digest = other._digest
        self._unwritten, self._written_after = list(other._unwritten), other._written_after

    def forget(self) -> None:
        self._index, self._generation, self._added, self._keys = None, -1, [], set()
        self._digest, self._unwritten, self._written_after = "", [], ""

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
            self._digest = versions_digest(index.document_keys)
        self._index, self._added = index, []
