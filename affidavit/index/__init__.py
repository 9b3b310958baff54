"""Retrieval, over indexes derived from the stored lines and cached in the store: words
(BM25 over lines and windows), meaning, and the entity graph, fused into the evidence a
question reads."""

from __future__ import annotations

from typing import TYPE_CHECKING

from affidavit.runtime import names_read_when_used

if TYPE_CHECKING:
    from affidavit.index.copies import every_reading_hash
    from affidavit.index.document_scope import DocumentFacts, Scope
    from affidavit.index.documents import FUSION_DEPTH, DocumentHit, covered_terms
    from affidavit.index.entities.graph import EntityGraph
    from affidavit.index.entities.mining import (
        MAX_WORDS,
        MIN_COUNT,
        Entity,
        closed_word,
        counts_pass,
        judged,
        keeps_company,
    )
    from affidavit.index.entities.shard_phrases import (
        CorpusFacts,
        Phrase,
        PhraseFacts,
        PhraseQuestion,
    )
    from affidavit.index.finding import (
        Candidate,
        Ranked,
        Steps,
        find,
        finding_steps,
        fused_documents,
        fusing_steps,
    )
    from affidavit.index.health import HealthCalls, measure
    from affidavit.index.meaning.encoder import BundledEncoder, Encoder, bundled_encoder, encode
    from affidavit.index.meaning.late import LateInteraction, Reranker, meaning_channel
    from affidavit.index.retrieval import RETRIEVE_DEPTH, Retriever
    from affidavit.index.retrieved import Retrieved, by_document, evidence_block
    from affidavit.index.store_lines import StoreLines
    from affidavit.index.subsets import as_evidence
    from affidavit.index.words.statistics import Statistics
    from affidavit.index.words.tallies import SummedVocabulary, SummedWeights, Tallies, line_idf
    from affidavit.index.words.word_index import WordIndex

# What other rooms may use of index/, each name with the module it lives in, imported when
# first read (runtime.names_read_when_used) so that the face costs nothing until then.
_HOMES = {
    "copies": "every_reading_hash",
    "document_scope": "DocumentFacts Scope",
    "documents": "FUSION_DEPTH DocumentHit covered_terms",
    "entities.graph": "EntityGraph",
    "entities.mining": "MAX_WORDS MIN_COUNT Entity closed_word counts_pass judged keeps_company",
    "entities.shard_phrases": "CorpusFacts Phrase PhraseFacts PhraseQuestion",
    "finding": "Candidate Ranked Steps find finding_steps fused_documents fusing_steps",
    "health": "HealthCalls measure",
    "meaning.encoder": "BundledEncoder Encoder bundled_encoder encode",
    "meaning.late": "LateInteraction Reranker meaning_channel",
    "retrieval": "RETRIEVE_DEPTH Retriever",
    "retrieved": "Retrieved by_document evidence_block",
    "store_lines": "StoreLines",
    "subsets": "as_evidence",
    "words.statistics": "Statistics",
    "words.tallies": "SummedVocabulary SummedWeights Tallies line_idf",
    "words.word_index": "WordIndex",
}

__all__ = [
    "FUSION_DEPTH", "MAX_WORDS", "MIN_COUNT", "RETRIEVE_DEPTH", "BundledEncoder", "Candidate",
    "CorpusFacts", "DocumentFacts", "DocumentHit", "Encoder", "Entity", "EntityGraph",
    "HealthCalls", "LateInteraction", "Phrase", "PhraseFacts", "PhraseQuestion", "Ranked",
    "Reranker", "Retrieved", "Retriever", "Scope", "Statistics", "Steps", "StoreLines",
    "SummedVocabulary", "SummedWeights", "Tallies",
    "WordIndex", "as_evidence", "bundled_encoder", "by_document", "closed_word", "counts_pass",
    "covered_terms",
    "encode", "every_reading_hash", "evidence_block", "find", "finding_steps", "fused_documents",
    "fusing_steps", "judged", "keeps_company", "line_idf", "meaning_channel", "measure",
]

if not TYPE_CHECKING:  # mypy reads the imports above, and so knows each name's type
    __getattr__, __dir__ = names_read_when_used(__name__, _HOMES)
