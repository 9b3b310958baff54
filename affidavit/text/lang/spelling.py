"""British spellings read as American ones: "licence" is "license", "organisation" is
"organization", "colour" is "color", "centre" is "center".

Snowball stems each spelling apart ("licenc" and "licens"), so a question asking under
which "licence" software is released never met the line that says it is "licensed under
the ... License", and an EU directive's "organisation" never met a question's
"organization". Lines and questions are read through the same table (text/analyzer.py),
so either side may write either spelling. Spellings that are also another word of their
own ("cheque", "tyre", "storey", "draught", "kerb") are left out: folding them would make
one word of two.
"""

from __future__ import annotations

# Words whose British form differs in a way no rule below covers, each with its forms.
_WORDS = {
    "licence": "license",
    "licences": "licenses",
    "licenced": "licensed",
    "licencing": "licensing",
    "licencee": "licensee",
    "licencees": "licensees",
    "licencor": "licensor",
    "licencors": "licensors",
    "defence": "defense",
    "defences": "defenses",
    "offence": "offense",
    "offences": "offenses",
    "pretence": "pretense",
    "judgement": "judgment",
    "judgements": "judgments",
    "acknowledgement": "acknowledgment",
    "acknowledgements": "acknowledgments",
    "programme": "program",
    "programmes": "programs",
    "catalogue": "catalog",
    "catalogues": "catalogs",
    "catalogued": "cataloged",
    "analogue": "analog",
    "grey": "gray",
    "aluminium": "aluminum",
    "manoeuvre": "maneuver",
    "manoeuvres": "maneuvers",
    "plough": "plow",
    "sceptical": "skeptical",
    "mould": "mold",
    "aeroplane": "airplane",
    "aeroplanes": "airplanes",
    "jewellery": "jewelry",
    "enrol": "enroll",
    "enrols": "enrolls",
    "fulfil": "fulfill",
    "fulfils": "fulfills",
    "fulfilment": "fulfillment",
    "instalment": "installment",
    "instalments": "installments",
    "skilful": "skillful",
    "wilful": "willful",
    "foetus": "fetus",
    "paediatric": "pediatric",
    "orthopaedic": "orthopedic",
    "encyclopaedia": "encyclopedia",
    "anaemia": "anemia",
    "oestrogen": "estrogen",
}

# Stems written "-our" in British English and "-or" in American: "colour", "colours",
# "coloured", "colourful", "favourite", "behaviour".
_OUR = (
    "arbour", "ardour", "armour", "behaviour", "candour", "clamour", "colour", "demeanour",
    "endeavour", "favour", "fervour", "flavour", "glamour", "harbour", "honour", "humour",
    "labour", "misdemeanour", "neighbour", "odour", "parlour", "rancour", "rigour", "rumour",
    "saviour", "savour", "splendour", "tumour", "valour", "vapour", "vigour",
)  # fmt: skip

# Stems written "-re" in British English and "-er" in American: "centre", "centres",
# "centred"; "metre", "kilometres".
_RE = (
    "calibre", "centimetre", "centre", "fibre", "kilometre", "litre", "lustre", "meagre",
    "metre", "millilitre", "millimetre", "mitre", "ochre", "sabre", "sceptre", "sepulchre",
    "sombre", "spectre", "theatre",
)  # fmt: skip

# Verbs written "-ise" in British English and "-ize" in American, with their nouns:
# "organise", "organised", "organising", "organisation", "organiser".
_ISE = (
    "apologise", "authorise", "capitalise", "categorise", "centralise", "characterise",
    "civilise", "criticise", "customise", "digitise", "emphasise", "finalise", "formalise",
    "harmonise", "hospitalise", "idealise", "immunise", "initialise", "itemise", "legalise",
    "localise", "maximise", "memorise", "minimise", "mobilise", "modernise", "monetise",
    "monopolise", "neutralise", "normalise", "optimise", "organise", "penalise", "personalise",
    "prioritise", "privatise", "publicise", "realise", "recognise", "scrutinise", "serialise",
    "specialise", "stabilise", "standardise", "sterilise", "subsidise", "summarise",
    "symbolise", "sympathise", "synchronise", "synthesise", "utilise", "visualise",
    "anonymise", "pseudonymise", "familiarise", "jeopardise", "trivialise", "vaporise",
)  # fmt: skip
_ISE_ENDINGS = ("ise", "ises", "ised", "ising", "isation", "isations", "iser", "isers")

# Verbs written "-yse" in British English and "-yze" in American.
_YSE = ("analyse", "catalyse", "paralyse", "dialyse", "electrolyse")
_YSE_ENDINGS = ("yse", "yses", "ysed", "ysing", "yser", "ysers")


def _forms() -> dict[str, str]:
    forms = dict(_WORDS)
    for word in _OUR:
        root = word[: -len("our")]
        for ending in ("", "s", "ed", "ing", "ful", "able", "ably", "less", "ite", "ites", "er"):
            forms[f"{root}our{ending}"] = f"{root}or{ending}"
    for word in _RE:
        root = word[: -len("re")]
        for ending, american in (("re", "er"), ("res", "ers"), ("red", "ered")):
            forms[root + ending] = root + american
    for word in _ISE:
        root = word[: -len("ise")]
        for ending in _ISE_ENDINGS:
            forms[root + ending] = root + "iz" + ending[len("is") :]
    for word in _YSE:
        root = word[: -len("yse")]
        for ending in _YSE_ENDINGS:
            forms[root + ending] = root + "yz" + ending[len("ys") :]
    return forms


# Each British form, folded, and the American form it is read as.
AMERICAN: dict[str, str] = _forms()
