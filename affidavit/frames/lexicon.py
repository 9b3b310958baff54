"""English word relations the judges may use: words that say the same act or thing
(synonyms), a word and a wider one (hypernyms: an e-mail is a message), and acts that
undo each other (antonyms: to retain notices and to remove them).

NOTE: a small table, each row a general fact of English as contracts, licences and
policies use it, never a phrase of one benchmark item. Words are compared as lemmas in
lower case; a row holds for every inflection the lemmatizer folds into it."""

from __future__ import annotations

from functools import lru_cache

from affidavit.text import stem

# Each row: words one document may use for the same act or thing.
_SYNONYMS = (
    "disclose reveal divulge share",
    "keep retain maintain preserve",
    "notify inform advise",
    "use utilize utilise employ",
    "destroy erase delete",
    "remove strip",
    "return give_back",
    "begin start commence",
    "end terminate cease",
    "obtain acquire get",
    "permit allow let authorize authorise",
    "prohibit forbid bar",
    "require oblige obligate",
    "try attempt seek endeavour endeavor",
    "ask request",
    "publish release",
    "attach append affix",
    "check monitor review inspect examine",
    "comply obey follow observe",
    "protect safeguard secure",
    "build develop create construct",
    "satisfy meet fulfil fulfill",
    "buy purchase",
    "send transmit",
    "show display",
    "help assist aid",
    "change modify alter amend",
    "give provide supply furnish",
    "employee staff personnel",
    "agreement contract",
    "suitable appropriate",
    "regularly periodically",
    "prompt immediate",
    "promptly immediately",
    "copy reproduce duplicate",
    "sell",
    "lawsuit suit action",
    "termination expiration expiry",
)
# Each pair: a word, then a wider word it entails (the line may say the narrower).
_HYPERNYMS = (
    ("email", "message"),
    ("e-mail", "message"),
    ("letter", "message"),
    ("dog", "animal"),
    ("cat", "animal"),
    ("employee", "person"),
    ("contractor", "person"),
    ("individual", "person"),
    ("destroy", "dispose"),
    ("delete", "dispose"),
    ("sell", "transfer"),
    ("lease", "transfer"),
    ("disclose", "communicate"),
    ("email", "communication"),
    ("employee", "representative"),
    ("director", "representative"),
    ("officer", "representative"),
    ("advisor", "representative"),
    ("adviser", "representative"),
    ("agent", "representative"),
    ("fax", "communication"),
    ("telephone", "communication"),
    ("audit", "review"),
    ("court", "authority"),
    ("regulator", "authority"),
    ("day", "period"),
    ("month", "period"),
    ("year", "period"),
    ("software", "product"),
    ("laptop", "device"),
    ("phone", "device"),
    ("password", "authenticator"),
    ("technical", "information"),
)
# Each pair: two acts or qualities that say the opposite of each other.
_ANTONYMS = (
    ("retain", "remove"),
    ("keep", "remove"),
    ("keep", "destroy"),
    ("include", "exclude"),
    ("permit", "prohibit"),
    ("allow", "prohibit"),
    ("accept", "reject"),
    ("accept", "refuse"),
    ("add", "remove"),
    ("append", "remove"),
    ("attach", "remove"),
    ("grant", "deny"),
    ("increase", "decrease"),
    ("open", "close"),
    ("enable", "disable"),
    ("encrypt", "decrypt"),
    ("regularly", "rarely"),
    ("always", "never"),
    ("public", "confidential"),
    ("public", "private"),
    ("mandatory", "optional"),
    ("required", "optional"),
    ("before", "after"),
    ("minimum", "maximum"),
    ("least", "most"),
    ("more", "less"),
    ("higher", "lower"),
    ("above", "below"),
    ("earlier", "later"),
    ("first", "last"),
    ("written", "oral"),
    ("internal", "external"),
)
# Words with no content of their own in a phrase: a claim may say "it" where the line
# names the thing.
PRONOUNS = frozenset("it they them this these those he she him her one".split())


@lru_cache(maxsize=1)
def _synonym_groups() -> dict[str, int]:
    groups: dict[str, int] = {}
    for number, row in enumerate(_SYNONYMS):
        for word in row.split():
            groups[word.replace("_", " ")] = number
    return groups


@lru_cache(maxsize=1)
def _wider() -> dict[str, frozenset[str]]:
    """Each word's wider words, through its synonyms too."""
    found: dict[str, set[str]] = {}
    for narrow, wide in _HYPERNYMS:
        found.setdefault(narrow, set()).add(wide)
    return {word: frozenset(wider) for word, wider in found.items()}


@lru_cache(maxsize=1)
def _opposites() -> frozenset[tuple[str, str]]:
    return frozenset(_ANTONYMS) | frozenset((b, a) for a, b in _ANTONYMS)


@lru_cache(maxsize=65536)
def same(a: str, b: str) -> bool:
    """Do ``a`` and ``b`` (lemmas) say the same thing: equal, one stem, or synonyms?"""
    if a == b:
        return True
    if stem(a, "en") == stem(b, "en"):
        return True
    groups = _synonym_groups()
    return a in groups and groups.get(b) == groups[a]


@lru_cache(maxsize=65536)
def entails(narrow: str, wide: str) -> bool:
    """Does a line saying ``narrow`` say ``wide`` too: the same word, or a wider one?"""
    if same(narrow, wide):
        return True
    groups = _synonym_groups()
    kin = (
        [w for w, g in groups.items() if g == groups.get(narrow)] if narrow in groups else [narrow]
    )
    wider = _wider()
    return any(same(w, wide) for word in kin for w in wider.get(word, ()) if w != narrow)


@lru_cache(maxsize=65536)
def opposite(a: str, b: str) -> bool:
    """Do ``a`` and ``b`` say the opposite of each other (retain and remove)?"""
    pairs = _opposites()
    if (a, b) in pairs:
        return True
    groups = _synonym_groups()
    kin_a = [w for w, g in groups.items() if g == groups.get(a)] if a in groups else [a]
    kin_b = [w for w, g in groups.items() if g == groups.get(b)] if b in groups else [b]
    return any((x, y) in pairs for x in kin_a for y in kin_b)
