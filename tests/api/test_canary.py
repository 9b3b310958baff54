"""Canary set: known-item questions whose answering line must stay in the top 5.

Sixty real SQuAD 2.0 questions over the five bundled articles in
corpora/squad2_articles (twelve per article, drawn with a fixed seed among the questions
the word index answered in the top 5 when the set was made). Each names the document,
the gold answer, and how the answering line begins. Any retrieval change that pushes one
of them out of the top 5 fails CI: a regression is caught where it happens, not in a
benchmark run weeks later.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from affidavit import Memory

CORPUS = Path(__file__).resolve().parents[2] / "corpora" / "squad2_articles"

# (document, question, gold answer, first characters of the answering line)
CANARIES: list[tuple[str, str, str, str]] = [
    (
        "1973_oil_crisis.txt",
        "Name a type of Toyota compact trucks?",
        "Hilux",
        "Compact trucks were introduced, such as the Toyota",
    ),
    (
        "1973_oil_crisis.txt",
        "What is a fundamentalist interpretation of Islam called?",
        "Wahhabism",
        "Saudi Arabia spent over 100 billion dollars in the",
    ),
    (
        "1973_oil_crisis.txt",
        "Why did the Shah of Iran gave an interview?",
        ".",
        "Weeks later, the Shah of Iran said in an interview",
    ),
    (
        "1973_oil_crisis.txt",
        "When did the 1973 oil crisis begin?",
        "1973",
        "The 1973 oil crisis began in October 1973 when the",
    ),
    (
        "1973_oil_crisis.txt",
        "Name a luxury model that became popular in the mid-1970s.",
        "Cadillac DeVille",
        "The Cadillac DeVille and Fleetwood, Buick Electra,",
    ),
    (
        "1973_oil_crisis.txt",
        "Who backed policies that have solutions that sound good but have poor prospects?",
        "congresses and presidents",
        "Instead of providing stable rules that support bas",
    ),
    (
        "1973_oil_crisis.txt",
        "Name an extra that was added to the production of the compacts.",
        "air conditioning",
        "Some buyers lamented the small size of the first J",
    ),
    (
        "1973_oil_crisis.txt",
        "Which country faced a complete embargo in the EEC?",
        "Netherlands",
        "Of the nine members of the European Economic Commu",
    ),
    (
        "1973_oil_crisis.txt",
        "From 1947 to 1967, how much did the price of oil increase?",
        "by less than two percent per year",
        "From 1947 to 1967, the dollar price of oil had ris",
    ),
    (
        "1973_oil_crisis.txt",
        "According to the AAA, what is the percentage of the gas stations that ran out of gasoline?",
        "20",
        "The American Automobile Association reported that ",
    ),
    (
        "1973_oil_crisis.txt",
        "Which countries became dependent on US's security assurance to threats?",
        "Saudi Arabia and Iran",
        "Saudi Arabia and Iran became increasingly dependen",
    ),
    (
        "1973_oil_crisis.txt",
        "Name a larger car that Toyota came up with as buyers lamented the small sized compacts?",
        "Corona Mark II",
        "Some buyers lamented the small size of the first J",
    ),
    (
        "Black_Death.txt",
        "Who fought in the great Northern war?",
        "Sweden v. Russia and allies",
        "In 1709–13, a plague epidemic that followed the Gr",
    ),
    (
        "Black_Death.txt",
        "Did the plague spread in Scandinavia or Germany first?",
        "Scandinavia",
        "The name spread through Scandinavia and then Germa",
    ),
    (
        "Black_Death.txt",
        "What was considered responsible for the black death as well as the epidemic in southern China?",
        "Yersinia pestis",
        "The dominant explanation for the Black Death is th",
    ),
    (
        "Black_Death.txt",
        "Who challenged the plague theory first?",
        "British bacteriologist J. F. D. Shrewsbury",
        "The plague theory was first significantly challeng",
    ),
    (
        "Black_Death.txt",
        "What is the current status of the Haensch study?",
        "confirmed and amended",
        "The results of the Haensch study have since been c",
    ),
    (
        "Black_Death.txt",
        "During which years was no census taken?",
        "1377",
        "Most work has been done on the spread of the plagu",
    ),
    (
        "Black_Death.txt",
        "What did historians do in the absence of census figures?",
        "propose a range of preincident population figures",
        "In England, in the absence of census figures, hist",
    ),
    (
        "Black_Death.txt",
        "Who claimed that the name Black Death first appeared in 1631?",
        "Gasquet",
        "Gasquet (1908) claimed that the Latin name atra mo",
    ),
    (
        "Black_Death.txt",
        "When was the study on sequenced Y genomes published?",
        "October 2011",
        "A study published in Nature in October 2011 sequen",
    ),
    (
        "Black_Death.txt",
        "What skin-related symptom appears from the pneumonic plague?",
        "purple skin patches",
        "Symptoms are high fevers and purple skin patches (",
    ),
    (
        "Black_Death.txt",
        "How many years could separate outbreaks of the black death?",
        "5 to 15",
        "Other arguments include the lack of accounts of th",
    ),
    (
        "Black_Death.txt",
        "How many residents of Seville died of plague in 1649?",
        "half",
        "The plague of 1649 probably reduced the population",
    ),
    (
        "Jacksonville,_Florida.txt",
        "In the wake of the Jacksonville fire, what did the Florida Governor do?",
        "declare martial law",
        "Governor Jennings declare martial law and sent the",
    ),
    (
        "Jacksonville,_Florida.txt",
        "How were most city officials elected in the 1960s?",
        "old boy network",
        "In the mid-1960s, corruption scandals began to ari",
    ),
    (
        "Jacksonville,_Florida.txt",
        "Who gained control of Florida after the conclusion of the Revolutionary War?",
        "Spain",
        "Britain ceded control of the territory back to Spa",
    ),
    (
        "Jacksonville,_Florida.txt",
        "What year did consolidation cause Jacksonville to become part of Duval County?",
        "1968",
        "It is the county seat of Duval County, with which ",
    ),
    (
        "Jacksonville,_Florida.txt",
        "Prior to the arrival of the French, the area now known as Jacksonville was previously inhabited by what people?",
        "Timucua",
        "The area was originally inhabited by the Timucua p",
    ),
    (
        "Jacksonville,_Florida.txt",
        "What caused Jacksonville's tourism to become less desirable at the latter half of the 19th century?",
        "yellow fever outbreaks",
        "The city's tourism, however, was dealt major blows",
    ),
    (
        "Jacksonville,_Florida.txt",
        "What term referred to middle class citizens leaving the suburbs?",
        '"white flight"',
        "However, the development of suburbs and a subseque",
    ),
    (
        "Jacksonville,_Florida.txt",
        "What is the name of the French colony established in 1564?",
        "Fort Caroline",
        "The area was originally inhabited by the Timucua p",
    ),
    (
        "Jacksonville,_Florida.txt",
        "What is Jacksonville's hottest recorded temperature?",
        "104 °F",
        "The highest temperature recorded was 104 °F (40 °C",
    ),
    (
        "Jacksonville,_Florida.txt",
        "How many men older than 18 are there for every 100 women?",
        "91.3",
        "For every 100 females age 18 and over, there were ",
    ),
    (
        "Jacksonville,_Florida.txt",
        "What was the result of the 1967 referendum?",
        "voters approved the plan",
        "When a consolidation referendum was held in 1967, ",
    ),
    (
        "Jacksonville,_Florida.txt",
        "What Jacksonville community is known for having heavy ties to the Navy?",
        "Filipino",
        "Much of Jacksonville's Filipino community served i",
    ),
    (
        "Normans.txt",
        "What kind of needlework was used in the creation of the Bayeux Tapestry?",
        "embroidery",
        "By far the most famous work of Norman art is the B",
    ),
    (
        "Normans.txt",
        "Who did Edward make archbishop of Canterbury?",
        "Robert of Jumièges",
        "He appointed Robert of Jumièges archbishop of Cant",
    ),
    (
        "Normans.txt",
        "In what century did important classical music developments occur in Normandy?",
        "11th",
        "Normandy was the site of several important develop",
    ),
    (
        "Normans.txt",
        "Where did the monks flee to?",
        "southern Italy",
        "Under the Norman abbot Robert de Grantmesnil, seve",
    ),
    (
        "Normans.txt",
        "What architecture type came after Norman in England?",
        "Early Gothic",
        "In England, the period of Norman architecture imme",
    ),
    (
        "Normans.txt",
        "Who was the duke in the battle of Hastings?",
        "William the Conqueror",
        "Norman adventurers founded the Kingdom of Sicily u",
    ),
    (
        "Normans.txt",
        "Who did the Normans team up with in Anatolia?",
        "Turkish forces",
        "Some Normans joined Turkish forces to aid in the d",
    ),
    (
        "Normans.txt",
        "Who was the leader when the Franks entered the Euphrates valley?",
        "Oursel",
        'A Norman named Oursel led a force of "Franks" into',
    ),
    (
        "Normans.txt",
        "What river originally bounded the Duchy",
        "Seine",
        "The area corresponded to the northern part of pres",
    ),
    (
        "Normans.txt",
        "Who patronized the monks in Italy? ",
        "Robert Guiscard",
        "Under the Norman abbot Robert de Grantmesnil, seve",
    ),
    (
        "Normans.txt",
        "What was the name of the count of Apulia ",
        "Robert Guiscard",
        "Robert Guiscard, an other Norman adventurer previo",
    ),
    (
        "Normans.txt",
        "What continent are the Canarian Islands off the coast of?",
        "Africa",
        "Between 1402 and 1405, the expedition led by the N",
    ),
    (
        "Pharmacy.txt",
        "What areas are pharmacy informatics prepared to work in?",
        "medication management system development, deployment and optimization",
        "Pharmacists in this area are trained to participat",
    ),
    (
        "Pharmacy.txt",
        "Who often operates internet pharmacies?",
        "brick-and-mortar community pharmacies",
        "Many of these pharmacies are similar to community ",
    ),
    (
        "Pharmacy.txt",
        "What types of health outcomes do pharmacists aim for with their patients?",
        "optimal",
        "Pharmacists are healthcare professionals with spec",
    ),
    (
        "Pharmacy.txt",
        "What do most online pharmacies do?",
        "sell prescription drugs",
        "While most Internet pharmacies sell prescription d",
    ),
    (
        "Pharmacy.txt",
        "In which two codes were the roles of pharmacists codified?",
        "Taihō Code (701) and re-stated in the Yōrō Code",
        "The place of pharmacists in society was expressly ",
    ),
    (
        "Pharmacy.txt",
        "What will be the importance of the pharmacist in coming decades?",
        "expected to become more integral within the health care system",
        "In the coming decades, pharmacists are expected to",
    ),
    (
        "Pharmacy.txt",
        "What is an example of a controlled substance?",
        "Vicodin",
        "Of particular concern with Internet pharmacies is ",
    ),
    (
        "Pharmacy.txt",
        "What are pharmacists in the United Kingdom being increasingly paid for?",
        "medicine use reviews",
        "They are also being paid for by the government for",
    ),
    (
        "Pharmacy.txt",
        "What do clinical pharmacists specialize in?",
        "various disciplines of pharmacy",
        "Those pharmacists are often referred to as clinica",
    ),
    (
        "Pharmacy.txt",
        "Who was influential in promoting the use of chemical compounds as medicines?",
        "Muhammad ibn Zakarīya Rāzi",
        "Muhammad ibn Zakarīya Rāzi (Rhazes) (865–915), for",
    ),
    (
        "Pharmacy.txt",
        "What body has stated that physicians can also dispense drugs under specific conditions?",
        "American Medical Association",
        "However, the American Medical Association (AMA) Co",
    ),
    (
        "Pharmacy.txt",
        "What is consultant pharmacy mainly concerned with?",
        "medication regimen review",
        "Consultant pharmacy practice focuses more on medic",
    ),
]


@pytest.fixture(scope="module")
def memory() -> Memory:
    store = Memory()
    store.ingest(CORPUS)
    return store


def test_canary_set_is_large_enough() -> None:
    assert len(CANARIES) >= 50
    assert len({question for _, question, _, _ in CANARIES}) == len(CANARIES)


@pytest.mark.parametrize(
    ("document", "question", "answer", "line_start"),
    CANARIES,
    ids=[q[:40] for _, q, _, _ in CANARIES],
)
def test_answering_line_stays_in_top_five(
    memory: Memory, document: str, question: str, answer: str, line_start: str
) -> None:
    hits = memory.search(question, k=5)
    stored_as = f"{CORPUS.name}/{document}"  # a folder's documents carry its name
    answering = [h for h in hits if h.document == stored_as and h.text.startswith(line_start)]
    assert answering, f"answering line fell out of the top 5 for {question!r}"
    assert answer in answering[0].text
