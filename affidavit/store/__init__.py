"""The single-file SQLite store: schema, migrations, transactional writes, index cache."""

from __future__ import annotations

from typing import TYPE_CHECKING

from affidavit.runtime import names_read_when_used

if TYPE_CHECKING:
    from affidavit.store.call_guards import guarded, reading, reads, store_errors
    from affidavit.store.canary_rows import (
        Canary,
        canaries,
        distinct_share,
        log_measure,
        measures,
        replace_canaries,
    )
    from affidavit.store.frame_rows import StoredFrames, frames_key
    from affidavit.store.guard import decoded
    from affidavit.store.index_parts import (
        cache_update,
        cached_parts,
        document_keys,
        document_names,
        keyed_document,
        merged_tail,
        part_sizes,
        replace_parts,
        searchable_lines,
        version_keys,
        versions_digest,
        windows,
    )
    from affidavit.store.label_rows import insert_label, labels_of
    from affidavit.store.prepared import PreparedDocument, PreparedLine, StoredLine, insert_document
    from affidavit.store.record_rows import (
        RecordRow,
        drawn_from,
        end,
        insert_record,
        link,
        links_of,
        mark,
        mark_distilled,
        record_by_id,
        records_with,
        subject_keys_from,
        superseders,
        undistilled,
        witnesses_of_kinds,
    )
    from affidavit.store.replies import CachedReply, Replies, StoredReplies
    from affidavit.store.resemblance import repeat_warnings
    from affidavit.store.sqlite import Store
    from affidavit.store.upkeep import UpkeepCalls

# What other rooms may use of store/, each name with the module it lives in, imported when
# first read (runtime.names_read_when_used) so that the face costs nothing until then.
_HOMES = {
    "call_guards": "guarded reading reads store_errors",
    "canary_rows": "Canary canaries distinct_share log_measure measures replace_canaries",
    "frame_rows": "StoredFrames frames_key",
    "guard": "decoded",
    "index_parts": (
        "cache_update cached_parts document_keys document_names keyed_document merged_tail "
        "part_sizes replace_parts searchable_lines version_keys versions_digest windows"
    ),
    "label_rows": "insert_label labels_of",
    "prepared": "PreparedDocument PreparedLine StoredLine insert_document",
    "record_rows": (
        "RecordRow drawn_from end insert_record link links_of mark mark_distilled record_by_id "
        "records_with subject_keys_from superseders undistilled witnesses_of_kinds"
    ),
    "replies": "CachedReply Replies StoredReplies",
    "resemblance": "repeat_warnings",
    "sqlite": "Store",
    "upkeep": "UpkeepCalls",
}

__all__ = [
    "CachedReply", "Canary", "PreparedDocument", "PreparedLine", "RecordRow", "Replies", "Store",
    "StoredFrames", "StoredLine", "StoredReplies", "UpkeepCalls", "cache_update", "cached_parts",
    "canaries", "decoded", "distinct_share", "document_keys", "document_names", "drawn_from", "end",
    "frames_key", "guarded", "insert_document", "insert_label", "insert_record", "keyed_document",
    "labels_of", "link", "links_of", "log_measure", "mark", "mark_distilled", "measures",
    "merged_tail", "part_sizes", "reading", "reads", "record_by_id", "records_with",
    "repeat_warnings", "replace_canaries", "replace_parts", "searchable_lines", "store_errors",
    "subject_keys_from", "superseders", "undistilled", "version_keys", "versions_digest", "windows",
    "witnesses_of_kinds",
]

if not TYPE_CHECKING:  # mypy reads the imports above, and so knows each name's type
    __getattr__, __dir__ = names_read_when_used(__name__, _HOMES)
