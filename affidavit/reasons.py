"""The reason catalogue: stable codes a reviewer can filter on, each with one line of text,
saying why ask refused an answer or verify vetoed or dropped a sentence."""

from __future__ import annotations

from enum import StrEnum


class Reason(StrEnum):
    """A code never changes meaning once published; new ones are only added."""

    EMPTY_STORE = "empty_store"
    EMPTY_QUESTION = "empty_question"
    NO_EVIDENCE = "no_evidence"
    WEAK_EVIDENCE = "weak_evidence"
    NO_CANDIDATE = "no_candidate"
    DIGIT_VETO = "digit_veto"
    MIXTURE = "mixture"
    UNSUPPORTED = "unsupported"
    READBACK = "readback"
    UNVERIFIABLE = "unverifiable"
    BELOW_TRUST = "below_trust"
    PLAN_DEAD = "plan_dead"
    ROLES = "roles"
    NEGATION = "negation"
    HOLDER = "holder"
    NO_CLAIM = "no_claim"
    CONTESTED = "contested"
    UNLIKELY = "unlikely"
    CONTRADICTED = "contradicted"
    NOT_ENTAILED = "not_entailed"
    NOT_AN_ANSWER = "not_an_answer"

    @property
    def text(self) -> str:
        return _TEXT[self]

    def said_in(self, language: str) -> str:
        """The reason's line in ``language`` (es, tr; English for any other): a question
        asked in Spanish or Turkish is refused in its own language."""
        return _TEXT_IN.get(language, {}).get(self, _TEXT[self])


def compared(value: float, bound: float, *, percent: bool = False) -> tuple[str, str]:
    """``value`` and the ``bound`` it was compared with, written with the fewest digits
    that show them apart (two decimals at least, a whole percent with ``percent``): a
    message never says "0.42 < 0.42" of 0.4207 and 0.425. Equal values print equal."""
    least = 0 if percent else 2
    for digits in range(least, least + _MOST_EXTRA_DIGITS + 1):
        shown = (_written(value, digits, percent), _written(bound, digits, percent))
        if shown[0] != shown[1] or value == bound:
            return shown
    return shown


# Past this many digits beyond the first try, the two are written as they then read: a
# check that compares with a tolerance (gates/support.py: 1e-9) may refuse values that far
# apart only.
_MOST_EXTRA_DIGITS = 9


def _written(number: float, digits: int, percent: bool) -> str:
    return f"{number:.{digits}%}" if percent else f"{number:.{digits}f}"


_TEXT: dict[Reason, str] = {
    Reason.EMPTY_STORE: "The store holds no documents, so there is nothing to answer from.",
    Reason.EMPTY_QUESTION: "The question has no words to look for.",
    Reason.NO_EVIDENCE: "No line in the store shares a content word with the question.",
    Reason.WEAK_EVIDENCE: (
        "The best evidence lines miss too many of the question's key words to support an answer."
    ),
    Reason.NO_CANDIDATE: (
        "The evidence holds nothing of the kind the question asks for (a person, a date, "
        "a number...)."
    ),
    Reason.UNLIKELY: (
        "The answerability check refused the best candidate the evidence gates let through: "
        "the reader judges it unlikely to answer the question, its probability below the "
        "threshold chosen on held-out data."
    ),
    Reason.NOT_AN_ANSWER: (
        "The best candidate was how the document is laid out, not what it says: a field's "
        "label, a heading, a list marker or the question's own words."
    ),
    Reason.DIGIT_VETO: "It carries a number the cited evidence does not carry.",
    Reason.CONTRADICTED: (
        "A line of the evidence says the opposite (the other polarity, a conflicting "
        "modality, an exception or another value in the same place); that line is cited."
    ),
    Reason.NOT_ENTAILED: (
        "The line that comes closest says something else of it: another condition, "
        "quantity, modality, time, anchor or party."
    ),
    Reason.MIXTURE: (
        "It wraps words from the evidence around content the evidence never supplied."
    ),
    Reason.UNSUPPORTED: "Nothing it says comes from the evidence.",
    Reason.READBACK: (
        "Read back clause by clause, one of its claims is not said by any evidence line."
    ),
    Reason.UNVERIFIABLE: "It asserts nothing the evidence can be checked against.",
    Reason.CONTESTED: (
        "The evidence says it, and another line of equal trust says otherwise: the store "
        "disagrees with itself."
    ),
    Reason.NO_CLAIM: (
        "It makes no claim: a search expression or a bare phrase states nothing to check."
    ),
    Reason.BELOW_TRUST: "The only evidence comes from sources below the speaking threshold.",
    Reason.ROLES: (
        "The evidence says it with the roles the other way round (who did what to whom), "
        "or with two of its names in each other's places."
    ),
    Reason.NEGATION: "The evidence says the opposite: one side is negated, the other not.",
    Reason.HOLDER: (
        "The question is about a speaker of the conversation, and none of the lines behind "
        "the answer is that speaker's own or says it of them."
    ),
    Reason.PLAN_DEAD: (
        "The question needs a computation, and no plan could be carried out on values the "
        "store holds."
    ),
}

# The same lines for a question asked in Spanish or Turkish.
_TEXT_IN: dict[str, dict[Reason, str]] = {
    "es": {
        Reason.EMPTY_STORE: "El almacén no contiene documentos: no hay nada de qué responder.",
        Reason.EMPTY_QUESTION: "La pregunta no tiene palabras que buscar.",
        Reason.NO_EVIDENCE: "Ninguna línea del almacén comparte una palabra de contenido con la "
        "pregunta.",
        Reason.WEAK_EVIDENCE: "A las mejores líneas de evidencia les faltan demasiadas palabras "
        "clave de la pregunta para sostener una respuesta.",
        Reason.NO_CANDIDATE: "La evidencia no contiene nada del tipo que pide la pregunta (una "
        "persona, una fecha, un número...).",
        Reason.UNLIKELY: "La comprobación de respondibilidad rechazó el mejor candidato que las "
        "puertas de la evidencia dejaron pasar: el lector juzga improbable que responda a la "
        "pregunta, con una probabilidad por debajo del umbral elegido con datos reservados.",
        Reason.NOT_AN_ANSWER: "El mejor candidato era la forma del documento, no lo que dice: "
        "la etiqueta de un campo, un encabezado, una marca de lista o las palabras de la "
        "propia pregunta.",
        Reason.DIGIT_VETO: "Lleva un número que la evidencia citada no lleva.",
        Reason.CONTRADICTED: "Una línea de la evidencia dice lo contrario; se cita esa línea.",
        Reason.NOT_ENTAILED: "La línea más cercana dice otra cosa: otra condición, cantidad, "
        "modalidad, plazo, referencia o parte.",
        Reason.MIXTURE: "Envuelve palabras de la evidencia alrededor de un contenido que la "
        "evidencia nunca dio.",
        Reason.UNSUPPORTED: "Nada de lo que dice viene de la evidencia.",
        Reason.READBACK: "Leída cláusula por cláusula, una de sus afirmaciones no la dice "
        "ninguna línea de la evidencia.",
        Reason.UNVERIFIABLE: "No afirma nada que pueda contrastarse con la evidencia.",
        Reason.CONTESTED: "La evidencia lo dice, y otra línea de igual confianza dice lo "
        "contrario: el almacén se contradice.",
        Reason.NO_CLAIM: "No afirma nada: una expresión de búsqueda o una frase suelta no "
        "dice nada que comprobar.",
        Reason.BELOW_TRUST: "La única evidencia viene de fuentes por debajo del umbral para "
        "hablar.",
        Reason.ROLES: "La evidencia lo dice con los papeles al revés (quién hizo qué a quién), "
        "o con dos de sus nombres intercambiados.",
        Reason.NEGATION: "La evidencia dice lo contrario: un lado está negado y el otro no.",
        Reason.HOLDER: "La pregunta trata de un participante de la conversación, y ninguna de "
        "las líneas tras la respuesta es suya ni lo dice de él.",
        Reason.PLAN_DEAD: "La pregunta requiere un cálculo, y ningún plan pudo llevarse a cabo "
        "con los valores del almacén.",
    },
    "tr": {
        Reason.EMPTY_STORE: "Depoda belge yok: yanıtlanacak bir şey yok.",
        Reason.EMPTY_QUESTION: "Soruda aranacak bir sözcük yok.",
        Reason.NO_EVIDENCE: "Depodaki hiçbir satır soruyla bir içerik sözcüğü paylaşmıyor.",
        Reason.WEAK_EVIDENCE: "En iyi kanıt satırlarında sorunun anahtar sözcüklerinden "
        "çok fazlası eksik; bir yanıtı desteklemiyorlar.",
        Reason.NO_CANDIDATE: "Kanıtta sorunun istediği türden bir şey yok (bir kişi, bir "
        "tarih, bir sayı...).",
        Reason.UNLIKELY: "Yanıtlanabilirlik denetimi, kanıt kapılarının geçirdiği en iyi adayı "
        "reddetti: okuyucu soruyu yanıtlamasını olası bulmuyor, olasılığı ayrılmış verilerle "
        "seçilen eşiğin altında.",
        Reason.NOT_AN_ANSWER: "En iyi aday belgenin ne söylediği değil, nasıl dizildiğiydi: "
        "bir alanın etiketi, bir başlık, bir liste imi ya da sorunun kendi sözcükleri.",
        Reason.DIGIT_VETO: "Alıntılanan kanıtta bulunmayan bir sayı içeriyor.",
        Reason.CONTRADICTED: "Kanıtın bir satırı bunun tersini söylüyor; o satır alıntılanır.",
        Reason.NOT_ENTAILED: "En yakın satır başka bir şey söylüyor: başka bir koşul, nicelik, "
        "kiplik, süre, bağlantı ya da taraf.",
        Reason.MIXTURE: "Kanıttan sözcükleri, kanıtın hiç vermediği bir içeriğin çevresine "
        "sarıyor.",
        Reason.UNSUPPORTED: "Söylediği hiçbir şey kanıttan gelmiyor.",
        Reason.READBACK: "Cümle cümle geri okunduğunda, savlarından birini hiçbir kanıt satırı "
        "söylemiyor.",
        Reason.UNVERIFIABLE: "Kanıtla denetlenebilecek hiçbir şey öne sürmüyor.",
        Reason.CONTESTED: "Kanıt bunu söylüyor, eşit güvendeki başka bir satır ise aksini: "
        "depo kendisiyle çelişiyor.",
        Reason.NO_CLAIM: "Bir sav içermiyor: bir arama ifadesi ya da yalın bir söz öbeği "
        "denetlenecek bir şey söylemez.",
        Reason.BELOW_TRUST: "Tek kanıt, konuşma eşiğinin altındaki kaynaklardan geliyor.",
        Reason.ROLES: "Kanıt bunu roller ters çevrilmiş olarak (kim kime ne yaptı) ya da iki "
        "adı yer değiştirmiş olarak söylüyor.",
        Reason.NEGATION: "Kanıt tersini söylüyor: bir taraf olumsuz, öteki değil.",
        Reason.HOLDER: "Soru, konuşmadaki bir kişiyle ilgili; yanıtın dayandığı satırların hiçbiri "
        "o kişinin kendi sözü değil ya da onun hakkında değil.",
        Reason.PLAN_DEAD: "Soru bir hesaplama gerektiriyor ve depodaki değerlerle hiçbir plan "
        "yürütülemedi.",
    },
}
