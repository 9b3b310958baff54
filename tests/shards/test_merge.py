"""The merge of the shards' verdicts on one sentence: supported where a shard supports
it, else the failure of the shard whose evidence passed the most of the gate's tiers."""

from __future__ import annotations

from affidavit.results import SentenceVerdict, Status, Verdict
from affidavit.shards.merge import merged_verdict

SENTENCE = "Form 8822"


def _gate(name: str, passed: bool) -> dict:
    return {"gate": name, "passed": passed, "reason": None if passed else name, "detail": ""}


def _verdict(status: Status, reason: str | None, gates: list[dict]) -> Verdict:
    sentence = SentenceVerdict(text=SENTENCE, status=status, reason=reason, gates=gates)
    return Verdict(text=SENTENCE, question=None, sentences=[sentence])


# The shard without the document: its lines do not write the number.
VETOED = _verdict(Status.VETOED, "digit_veto", [_gate("digit_veto", False)])
# The shard holding it: the number is there, the claim is not read back.
READ_BACK = _verdict(
    Status.DROPPED,
    "readback",
    [_gate("digit_veto", True), _gate("mixture", True), _gate("readback", False)],
)
# A shard whose retrieval found nothing at all.
NOTHING = _verdict(Status.DROPPED, "unsupported", [])


def test_the_failure_kept_is_the_one_that_passed_the_most_tiers() -> None:
    for order in ([VETOED, READ_BACK, NOTHING], [NOTHING, READ_BACK, VETOED]):
        merged = merged_verdict(order).sentences[0]
        assert (merged.status, merged.reason) == (Status.DROPPED, "readback")
    merged = merged_verdict([NOTHING, VETOED]).sentences[0]
    assert (merged.status, merged.reason) == (Status.VETOED, "digit_veto")


def test_a_supporting_shard_wins_over_every_failure() -> None:
    supported = _verdict(
        Status.SUPPORTED, None, [_gate("digit_veto", True), _gate("readback", True)]
    )
    merged = merged_verdict([READ_BACK, supported, VETOED])
    assert merged.sentences[0].status is Status.SUPPORTED
