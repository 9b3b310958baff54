"""Which span labels answer which type of question: the table the reader binds the
types SQuAD cannot teach it with (codes and contacts), and the rule reader uses where
no parser reads the language."""

from __future__ import annotations

from affidavit.question import AnswerType

# How well a label answers each type: 1.0 is a direct answer, lower is a fallback.
# spaCy's labels are upper case (DATE, ORG...); the regex labels are text/spans.py's.
LABEL_FIT: dict[AnswerType, dict[str, float]] = {
    AnswerType.PERSON: {"PERSON": 1.0, "ORG": 0.6, "NORP": 0.5, "NAME": 0.5},
    AnswerType.PLACE: {
        "GPE": 1.0,
        "LOC": 1.0,
        "ADDRESS": 1.0,
        "EMAIL": 0.9,
        "FAC": 0.9,
        "ORG": 0.4,
        "NAME": 0.5,
    },
    AnswerType.TIME: {"DATE": 1.0, "TIME": 0.9, "YEAR": 0.9},
    AnswerType.COUNT: {"CARDINAL": 1.0, "QUANTITY": 0.8, "NUMBER": 0.7, "MONEY": 0.3},
    AnswerType.AMOUNT: {
        "MONEY": 1.0,
        "QUANTITY": 1.0,
        "PERCENT": 0.8,
        "CARDINAL": 0.7,
        "NUMBER": 0.6,
        "DATE": 0.3,
        "TIME": 0.5,
    },
    AnswerType.PERCENT: {"PERCENT": 1.0, "NUMBER": 0.3},
    AnswerType.ENTITY: {
        "ORG": 1.0,
        "PRODUCT": 0.9,
        "WORK_OF_ART": 0.9,
        "EVENT": 0.9,
        "NORP": 0.8,
        "LAW": 0.8,
        "LANGUAGE": 0.8,
        "PERSON": 0.5,
        "GPE": 0.4,
        "NAME": 0.5,
    },
    # A code after its cue word ("Cat. No. 11368V") answers directly; one known only by its
    # look (letters with digits, digit groups) less so; a phone number only as a last resort.
    AnswerType.IDENTIFIER: {"CODE": 1.0, "CODE_SHAPE": 0.8, "DIGIT_GROUPS": 0.6, "PHONE": 0.4},
    AnswerType.EMAIL: {"EMAIL": 1.0},
    AnswerType.PHONE: {"PHONE": 1.0},
    AnswerType.URL: {"URL": 1.0},
    AnswerType.QUANTITY: {
        "QUANTITY": 1.0,
        "PERCENT": 0.3,
        "CARDINAL": 0.4,
        "NUMBER": 0.3,
        "DURATION": 0.2,
    },
    # spaCy calls "380 years" and "five to ten years" DATE; "how long is the bridge" may
    # still be answered by a length.
    AnswerType.DURATION: {
        "DURATION": 1.0,
        "TIME": 0.7,
        "DATE": 0.5,
        "QUANTITY": 0.4,
        "CARDINAL": 0.3,
        "NUMBER": 0.3,
    },
    AnswerType.TITLE: {
        "WORK_OF_ART": 1.0,
        "QUOTED": 0.9,
        "LAW": 0.9,
        "TITLE_CASE": 0.7,
        "PRODUCT": 0.5,
        "ORG": 0.3,
        "EVENT": 0.3,
    },
}

# Types the reader answers only with a span whose label fits: its training questions ask
# for no e-mail, phone number, web address or code, so it cannot have learned them.
BOUND = frozenset({AnswerType.EMAIL, AnswerType.PHONE, AnswerType.URL, AnswerType.IDENTIFIER})


# A reason is a cause said in words: a figure or a date alone never gives one.
_FIGURES = frozenset(
    {"MONEY", "PERCENT", "CARDINAL", "QUANTITY", "NUMBER", "DATE", "TIME", "YEAR", "ORDINAL"}
)


def fits(wanted: AnswerType, label: str) -> bool:
    """Whether a span labelled ``label`` may answer a question of type ``wanted``: a
    bound type only by a label of its own, a reason by no figure nor date."""
    if wanted is AnswerType.REASON:
        return label not in _FIGURES
    return wanted not in BOUND or LABEL_FIT[wanted].get(label, 0.0) > 0
