"""Printed card text in ten languages compiles like its English Oracle text.

Each case is a foreign sentence (or ability with its results table) written in the style of that
language's printed cards, and the English it stands for. ``compile_foreign`` of the first must give
the same roll instructions (count, sides, ignore, choose, table, modifier, roll again) and the same
kinds of effects as ``compile_text`` of the second. Grave Endeavor's five printed translations are
the seed data (``shared/seeds/002_*.txt``), copied here so the test runs without the shared folder.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mtgdice.io.compiled import card_json
from mtgdice.rules.errors import CardTextError
from mtgdice.text import compile_text
from mtgdice.text.translate import LANGUAGES, compile_foreign, detect_language, lexicon, to_english
from shared_data import shared_path
from work_units import calls

# -- the seed: Grave Endeavor as printed ----------------------------------------------------------

GRAVE_ENDEAVOR = {
    "de": "Würfle zwei W10 und suche dir ein Ergebnis aus. Bringe eine Kreaturenkarte aus deinem Friedhof "
    "mit "
    "so vielen +1/+1-Marken ins Spiel zurück, wie dem ausgesuchten Ergebnis entspricht. Dann verliert "
    "jeder "
    "Gegner X Lebenspunkte und du erhältst X Lebenspunkte dazu, wobei X gleich dem anderen Ergebnis "
    "ist.",
    "es": "Tira 2d10 y elige un resultado. Regresa una carta de criatura de tu cementerio al campo de "
    "batalla con "
    "una cantidad de contadores +1/+1 sobre ella igual a ese resultado. Luego cada oponente pierde X "
    "vidas y "
    "tú ganas X vidas, donde X es el otro resultado.",
    "fr": "Lancez deux d10 et choisissez un résultat. Renvoyez sur le champ de bataille, avec un nombre de "
    "marqueurs +1/+1 égal à ce résultat sur elle, une carte de créature depuis votre cimetière. Puis "
    "chaque "
    "adversaire perd X points de vie et vous gagnez X points de vie, X étant l'autre résultat.",
    "it": "Tira due d10 e scegli un risultato. Rimetti sul campo di battaglia dal tuo cimitero una carta "
    "creatura "
    "con un numero di segnalini +1/+1 pari a quel risultato. Poi ogni avversario perde X punti vita e "
    "tu "
    "guadagni X punti vita, dove X è l'altro risultato.",
    "ja": "d10を２回振り、出目１つを選ぶ。あなたの墓地にあるクリーチャー・カード１枚を、"
    "その出目に等しい数の＋１/＋１"
    "カウンターが置かれた状態で戦場に戻す。その後、各対戦相手はそれぞれＸ点のライフを失い、あなたはＸ点のライフを得る。"
    "Ｘはもう１つの出目に等しい。",
}


@pytest.mark.parametrize("lang", sorted(GRAVE_ENDEAVOR))
def test_grave_endeavor_seed(lang: str) -> None:
    card = compile_foreign(GRAVE_ENDEAVOR[lang], name="Grave Endeavor")
    rolls = card_json(card)["rolls"]
    assert [(r["count"], r["sides"], r["choose"], r["ignore_lowest"]) for r in rolls] == [(2, 10, True, 0)]
    assert card.unsupported == ()
    assert detect_language(GRAVE_ENDEAVOR[lang]) == lang


# -- the English each case stands for ------------------------------------------------------------

EN = {
    "table": "Roll a d20.\n1\u20149 | Draw a card.\n10\u201419 | Draw two cards.\n20 | Draw three cards.",
    "six-sided": "Roll a six-sided die.",
    "lower": "Roll two d20 and ignore the lower roll.",
    "add": "Roll a d20 and add the number of cards in your hand.",
    "whenever": "Whenever you roll one or more dice, draw a card.",
    "again": "Roll a d6.\n1\u20145 | Draw a card.\n6 | Draw a card. Roll again.",
    "natural": "Whenever you roll a natural 20, draw a card.",
    "planar": "{T}: Roll the planar die.",
    "advantage": "If you would roll one or more dice, instead roll that many dice plus one and ignore the lowest roll.",
    "choose": "Roll two d10 and choose one result.",
}

CASES: dict[str, dict[str, str]] = {
    "de": {
        "table": "Wirf einen W20.\n1–9 | Ziehe eine Karte.\n10–19 | Ziehe zwei Karten.\n20 | Ziehe drei Karten.",
        "six-sided": "Wirf einen sechsseitigen Würfel.",
        "lower": "Wirf zwei W20 und ignoriere das niedrigere Ergebnis.",
        "add": "Wirf einen W20 und addiere die Anzahl der Karten auf deiner Hand.",
        "whenever": "Immer wenn du einen oder mehrere Würfel wirfst, ziehe eine Karte.",
        "again": "Wirf einen W6.\n1–5 | Ziehe eine Karte.\n6 | Ziehe eine Karte. Wirf erneut.",
        "natural": "Immer wenn du eine natürliche 20 würfelst, ziehe eine Karte.",
        "planar": "{T}: Wirf den Weltenwürfel.",
        "advantage": "Falls du einen oder mehrere Würfel werfen würdest, wirf stattdessen entsprechend "
        "viele Würfel "
        "plus einen und ignoriere den niedrigsten Wurf.",
    },
    "es": {
        "table": "Tira un d20.\n1-9 | Roba una carta.\n10-19 | Roba dos cartas.\n20 | Roba tres cartas.",
        "six-sided": "Tira un dado de seis caras.",
        "lower": "Tira dos d20 e ignora el resultado más bajo.",
        "add": "Tira un d20 y suma la cantidad de cartas en tu mano.",
        "whenever": "Siempre que tires uno o más dados, roba una carta.",
        "again": "Tira un d6.\n1-5 | Roba una carta.\n6 | Roba una carta. Vuelve a tirar.",
        "natural": "Siempre que obtengas un 20 natural, roba una carta.",
        "planar": "{T}: Tira el dado planar.",
        "advantage": "Si fueras a tirar uno o más dados, en vez de eso, tira esa cantidad de dados más uno "
        "e ignora "
        "el resultado más bajo.",
    },
    "fr": {
        "table": "Lancez un d20.\n1-9 | Piochez une carte.\n10-19 | Piochez deux cartes.\n20 | Piochez trois cartes.",
        "six-sided": "Lancez un dé à six faces.",
        "lower": "Lancez deux d20 et ignorez le résultat le plus faible.",
        "add": "Lancez un d20 et ajoutez le nombre de cartes dans votre main.",
        "whenever": "À chaque fois que vous lancez un ou plusieurs dés, piochez une carte.",
        "again": "Lancez un d6.\n1-5 | Piochez une carte.\n6 | Piochez une carte. Relancez.",
        "natural": "À chaque fois que vous obtenez un 20 naturel, piochez une carte.",
        "planar": "{T} : Lancez le dé planaire.",
        "advantage": "Si vous deviez lancer un ou plusieurs dés, lancez à la place autant de dés plus un et "
        "ignorez "
        "le résultat le plus faible.",
    },
    "it": {
        "table": "Tira un d20.\n1-9 | Pesca una carta.\n10-19 | Pesca due carte.\n20 | Pesca tre carte.",
        "six-sided": "Tira un dado a sei facce.",
        "lower": "Tira due d20 e ignora il risultato più basso.",
        "add": "Tira un d20 e aggiungi il numero di carte nella tua mano.",
        "whenever": "Ogniqualvolta tiri uno o più dadi, pesca una carta.",
        "again": "Tira un d6.\n1-5 | Pesca una carta.\n6 | Pesca una carta. Tira di nuovo.",
        "natural": "Ogniqualvolta ottieni un 20 naturale, pesca una carta.",
        "planar": "{T}: Tira il dado planare.",
        "advantage": "Se stessi per tirare uno o più dadi, invece tira altrettanti dadi più uno e ignora il "
        "risultato più basso.",
    },
    "pt": {
        "table": "Role um d20.\n1-9 | Compre um card.\n10-19 | Compre dois cards.\n20 | Compre três cards.",
        "six-sided": "Role um dado de seis lados.",
        "lower": "Role dois d20 e ignore o menor resultado.",
        "add": "Role um d20 e adicione o número de cards em sua mão.",
        "whenever": "Toda vez que você rolar um ou mais dados, compre um card.",
        "again": "Role um d6.\n1-5 | Compre um card.\n6 | Compre um card. Role novamente.",
        "natural": "Toda vez que você obtiver um 20 natural, compre um card.",
        "planar": "{T}: Role o dado planar.",
        "advantage": "Se você fosse rolar um ou mais dados, em vez disso, role aquela quantidade de dados "
        "mais um e "
        "ignore o menor resultado.",
    },
    "ru": {
        "table": "Бросьте к20.\n1—9 | Возьмите карту.\n10—19 | Возьмите две карты.\n20 | Возьмите три карты.",
        "six-sided": "Бросьте шестигранный кубик.",
        "lower": "Бросьте два к20 и не учитывайте меньший результат.",
        "add": "Бросьте к20 и прибавьте количество карт в вашей руке.",
        "whenever": "Каждый раз, когда вы бросаете один или несколько кубиков, возьмите карту.",
        "again": "Бросьте к6.\n1—5 | Возьмите карту.\n6 | Возьмите карту. Бросьте снова.",
        "natural": "Каждый раз, когда вы выбрасываете естественную 20, возьмите карту.",
        "planar": "{T}: бросьте планарный кубик.",
        "advantage": "Если вы должны бросить один или несколько кубиков, вместо этого бросьте столько же "
        "кубиков "
        "плюс один и не учитывайте наименьший результат.",
    },
    "ja": {
        "table": "d20を１個振る。\n1～9｜カードを１枚引く。\n10～19｜カードを２枚引く。\n20｜カードを３枚引く。",
        "six-sided": "６面体ダイスを１個振る。",
        "lower": "d20を２回振り、低い方の出目を無視する。",
        "add": "d20を１回振り、その出目にあなたの手札の枚数を加える。",
        "whenever": "あなたが１個以上のダイスを振るたび、カードを１枚引く。",
        "again": "d6を１個振る。\n1～5｜カードを１枚引く。\n6｜カードを１枚引く。もう一度振る。",
        "natural": "あなたがナチュラル２０を出すたび、カードを１枚引く。",
        "planar": "{T}：次元ダイスを振る。",
        "advantage": "あなたが１個以上のダイスを振るなら、代わりにその個数に１を足した数のダイスを振り、"
        "最も低い出目１つを"
        "無視する。",
    },
    "ko": {
        "table": "d20을 굴립니다.\n1-9 | 카드 한 장을 뽑습니다.\n10-19 | 카드 두 장을 뽑습니다."
        "\n20 | 카드 세 장을 뽑습니다.",
        "six-sided": "6면체 주사위를 굴립니다.",
        "lower": "d20 두 개를 굴리고 더 낮은 결과를 무시합니다.",
        "add": "d20을 굴리고 그 결과에 당신의 손에 있는 카드의 수를 더합니다.",
        "whenever": "당신이 하나 이상의 주사위를 굴릴 때마다, 카드 한 장을 뽑습니다.",
        "again": "d6을 굴립니다.\n1-5 | 카드 한 장을 뽑습니다.\n6 | 카드 한 장을 뽑습니다. 다시 굴립니다.",
        "natural": "당신이 자연 20을 굴릴 때마다, 카드 한 장을 뽑습니다.",
        "planar": "{T}: 차원 주사위를 굴립니다.",
        "advantage": "당신이 하나 이상의 주사위를 굴리려 한다면, 대신 그 수보다 한 개 더 많은 "
        "주사위를 굴리고 가장 낮은 "
        "결과를 무시합니다.",
    },
    "zhs": {
        "table": "掷一个d20。\n1-9|抓一张牌。\n10-19|抓两张牌。\n20|抓三张牌。",
        "six-sided": "掷一个六面骰。",
        "lower": "掷两个d20，并忽略较低的结果。",
        "add": "掷一个d20，并加上你的手牌数量。",
        "whenever": "每当你掷一个或更多骰子时，抓一张牌。",
        "again": "掷一个d6。\n1-5|抓一张牌。\n6|抓一张牌。再掷一次。",
        "natural": "每当你掷出自然20时，抓一张牌。",
        "planar": "{T}：掷时空骰。",
        "advantage": "如果你将掷一个或更多骰子，则改为掷等量加一个骰子，并忽略最低的结果。",
        "choose": "掷两个d10，并选择其中一个结果。",
    },
    "zht": {
        "table": "擲一個d20。\n1-9|抓一張牌。\n10-19|抓兩張牌。\n20|抓三張牌。",
        "six-sided": "擲一個六面骰。",
        "lower": "擲兩個d20，並忽略較低的結果。",
        "add": "擲一個d20，並加上你的手牌數量。",
        "whenever": "每當你擲一個或更多骰子時，抓一張牌。",
        "again": "擲一個d6。\n1-5|抓一張牌。\n6|抓一張牌。再擲一次。",
        "natural": "每當你擲出自然20時，抓一張牌。",
        "planar": "{T}：擲時空骰。",
        "advantage": "如果你將擲一個或更多骰子，則改為擲等量加一個骰子，並忽略最低的結果。",
        "choose": "擲兩個d10，並選擇其中一個結果。",
    },
}
CASES["ko"]["choose"] = "d10 두 개를 굴리고 결과 하나를 선택합니다."
CASES["ru"]["choose"] = "Бросьте два к10 и выберите один результат."
CASES["pt"]["choose"] = "Role dois d10 e escolha um resultado."

# Further printed templates: X dice, a fixed modifier, a natural 20 after a roll, a d20 named in words,
# and an optional "roll again" in a row.
EN.update(
    {
        "x-dice": "Roll X six-sided dice.",
        "add-number": "Roll a d20 and add 2.",
        "if-natural": "Roll a d20. If you roll a natural 20, draw a card.",
        "twenty-sided": "Roll a twenty-sided die.",
        "may-again": "Roll a d20.\n1—14 | Draw a card.\n15—20 | Draw two cards. You may roll again.",
    }
)
MORE: dict[str, dict[str, str]] = {
    "x-dice": {
        "de": "Wirf X sechsseitige Würfel.",
        "es": "Tira X dados de seis caras.",
        "fr": "Lancez X dés à six faces.",
        "it": "Tira X dadi a sei facce.",
        "pt": "Role X dados de seis lados.",
        "ru": "Бросьте X шестигранных кубиков.",
        "ja": "６面体ダイスをＸ個振る。",
        "ko": "6면체 주사위 X개를 굴립니다.",
        "zhs": "掷X个六面骰。",
        "zht": "擲X個六面骰。",
    },
    "add-number": {
        "de": "Wirf einen W20 und addiere 2.",
        "es": "Tira 1d20 y suma 2.",
        "fr": "Lancez un d20 et ajoutez 2.",
        "it": "Tira un d20 e aggiungi 2.",
        "pt": "Role um d20 e adicione 2.",
        "ru": "Бросьте к20 и прибавьте 2.",
        "ja": "d20を１個振り、その出目に２を加える。",
        "ko": "d20을 굴리고 그 결과에 2를 더합니다.",
        "zhs": "掷一个d20，并加上2。",
        "zht": "擲一個d20，並加上2。",
    },
    "if-natural": {
        "de": "Wirf einen W20. Falls du eine natürliche 20 würfelst, ziehe eine Karte.",
        "es": "Tira 1d20. Si obtienes un 20 natural, roba una carta.",
        "fr": "Lancez un d20. Si vous obtenez un 20 naturel, piochez une carte.",
        "it": "Tira un d20. Se ottieni un 20 naturale, pesca una carta.",
        "pt": "Role um d20. Se você obtiver um 20 natural, compre um card.",
        "ru": "Бросьте к20. Если выпало естественная 20, возьмите карту.",
        "ja": "d20を１個振る。あなたがナチュラル２０を出した場合、カードを１枚引く。",
        "ko": "d20을 굴립니다. 결과가 자연 20이 나오면, 카드 한 장을 뽑습니다.",
        "zhs": "掷一个d20。如果你掷出自然20，抓一张牌。",
        "zht": "擲一個d20。如果你擲出自然20，抓一張牌。",
    },
    "twenty-sided": {
        "de": "Wirf einen zwanzigseitigen Würfel.",
        "es": "Tira un dado de veinte caras.",
        "fr": "Lancez un dé à vingt faces.",
        "it": "Tira un dado a venti facce.",
        "pt": "Role um dado de vinte lados.",
        "ru": "Бросьте двадцатигранный кубик.",
        "ja": "20面体ダイスを1個振る。",
        "ko": "20면체 주사위를 굴립니다.",
        "zhs": "掷一个二十面骰。",
        "zht": "擲一個二十面骰。",
    },
    "may-again": {
        "de": "Wirf einen W20.\n1–14 | Ziehe eine Karte.\n15–20 | Ziehe zwei Karten. Du kannst erneut würfeln.",
        "es": "Tira 1d20.\n1-14 | Roba una carta.\n15-20 | Roba dos cartas. Puedes volver a tirar.",
        "fr": "Lancez un d20.\n1-14 | Piochez une carte.\n15-20 | Piochez deux cartes. Vous pouvez relancer.",
        "it": "Tira un d20.\n1-14 | Pesca una carta.\n15-20 | Pesca due carte. Puoi tirare di nuovo.",
        "pt": "Role um d20.\n1-14 | Compre um card.\n15-20 | Compre dois cards. Você pode rolar novamente.",
        "ru": "Бросьте к20.\n1—14 | Возьмите карту.\n15—20 | Возьмите две карты. Вы можете бросить снова.",
        "ja": "d20を１個振る。\n1～14｜カードを１枚引く。\n15～20｜カードを２枚引く。もう一度振ってもよい。",
        "ko": "d20을 굴립니다.\n1-14 | 카드 한 장을 뽑습니다.\n15-20 | 카드 두 장을 뽑습니다. 다시 굴릴 수 있습니다.",
        "zhs": "掷一个d20。\n1-14|抓一张牌。\n15-20|抓两张牌。你可以再掷一次。",
        "zht": "擲一個d20。\n1-14|抓一張牌。\n15-20|抓兩張牌。你可以再擲一次。",
    },
}
for _case, _texts in MORE.items():
    for _lang, _text in _texts.items():
        CASES[_lang][_case] = _text

ROLL_KEYS = ("count", "sides", "ignore_lowest", "choose", "table", "modifier", "roll_again")
EFFECT_KEYS = ("kind", "event", "condition", "sides", "planar", "extra", "ignore", "scope")


def _summary(data: dict[str, Any]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    rolls = [
        {
            **{key: roll[key] for key in ROLL_KEYS},
            "rows": [(row["results"], row["roll_again"], row["optional"]) for row in roll["rows"] or ()],
            "outcomes": [outcome["when"] for outcome in roll["outcomes"]],
        }
        for roll in data["rolls"]
    ]
    effects = [{key: effect.get(key) for key in EFFECT_KEYS} for effect in data["effects"]]
    return rolls, effects


def _case_ids() -> list[tuple[str, str]]:
    return [(lang, case) for lang in sorted(CASES) for case in CASES[lang]]


@pytest.mark.parametrize(("lang", "case"), _case_ids(), ids=[f"{lang}-{case}" for lang, case in _case_ids()])
def test_printed_sentence_compiles_like_english(lang: str, case: str) -> None:
    foreign = CASES[lang][case]
    english = card_json(compile_text(EN[case]))
    translated = card_json(compile_foreign(foreign))
    assert detect_language(foreign) == lang
    assert _summary(translated) == _summary(english), to_english(foreign)
    assert translated["unsupported"] == [], to_english(foreign)
    assert translated["rolls"] or translated["effects"]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_language_has_enough_cases(lang: str) -> None:
    assert len(CASES[lang]) >= 6
    assert lexicon(lang).code == lang


# -- detection, normalisation, and what is left untranslated -------------------------------------


def test_english_oracle_text_is_english() -> None:
    for text in EN.values():
        assert detect_language(text) == "en"
    assert to_english("Roll a d20.") == ("Roll a d20.", "en", [])


def test_english_card_data_detects_as_english() -> None:
    cards = json.loads(shared_path("cards", "dice-cards.json").read_text("utf-8"))
    wrong = [card["name"] for card in cards if card.get("oracle_text") and detect_language(card["oracle_text"]) != "en"]
    assert wrong == []


def test_full_width_digits_and_number_words() -> None:
    english, lang, missed = to_english("d20を２回振り、低い方の出目を無視する。")
    assert (english, lang, missed) == ("Roll two d20 and ignore the lower roll.", "ja", [])
    assert to_english("掷两个d20，并忽略较低的结果。")[0] == "Roll two d20 and ignore the lower roll."
    assert to_english("擲兩個d20，並忽略較低的結果。")[0] == "Roll two d20 and ignore the lower roll."


def test_non_dice_sentences_are_dropped() -> None:
    english, lang, missed = to_english(GRAVE_ENDEAVOR["fr"])
    assert english == "Roll two d10 and choose one result."
    assert (lang, missed) == ("fr", [])


def test_unknown_dice_sentence_is_reported() -> None:
    text = "Lancez un d20.\nLancez les dés de la fortune en chantant."
    english, lang, missed = to_english(text)
    assert english == "Roll a d20."
    assert missed == ["Lancez les dés de la fortune en chantant."]
    card = compile_foreign(text)
    assert "Lancez les dés de la fortune en chantant." in card.unsupported


def test_rows_under_an_untranslated_roll_do_not_join_another_roll() -> None:
    text = "Lancez un d20.\nLancez les dés magiques.\n1-10 | Piochez une carte.\n11-20 | Piochez deux cartes."
    card = card_json(compile_foreign(text))
    assert card["rolls"][0]["table"] is None
    assert any("results table without a roll" in line for line in card["unsupported"])


def test_optional_roll_again_row() -> None:
    card = card_json(compile_foreign("Tira un d20.\n1-19 | Roba una carta.\n20 | Puedes volver a tirar."))
    assert card["rolls"][0]["rows"][1]["optional"] is True


def test_clause_before_the_roll() -> None:
    card = card_json(compile_foreign("Choisissez une créature ciblée que vous contrôlez, puis lancez un d20."))
    assert [(r["count"], r["sides"]) for r in card["rolls"]] == [(1, 20)]


def test_unknown_language_code() -> None:
    with pytest.raises(ValueError, match="no lexicon"):
        lexicon("xx")


# -- robustness: any text is translated or refused with the documented error, quickly --------------

_PIECES = [text for texts in CASES.values() for text in texts.values()] + list(GRAVE_ENDEAVOR.values())


WORK_PER_CHAR, WORK_BASE = 40, 5_000
"""The work bound of one text, in calls (``work_units.calls``), not seconds: linear in its length."""


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(st.sampled_from(_PIECES), min_size=1, max_size=3),
    st.text(max_size=80),
    st.integers(min_value=0, max_value=200),
)
def test_mutated_printed_text_never_crashes(pieces: list[str], noise: str, position: int) -> None:
    text = "\n".join(pieces)
    text = text[:position] + noise + text[position:]
    compile_foreign("Lancez un d20.")  # lazily built tables: not the work of ``text``
    work, card = calls(compile_foreign, text)
    assert work <= WORK_PER_CHAR * len(text) + WORK_BASE, f"{work} calls for {len(text)} characters"
    if isinstance(card, CardTextError):
        return
    assert not isinstance(card, Exception), card
    assert isinstance(card_json(card)["rolls"], list)


@settings(max_examples=100, deadline=None)  # no seconds: the work is bounded in calls
@given(st.text(max_size=300))
def test_arbitrary_text_never_crashes(text: str) -> None:
    to_english("Lancez un d20.")
    work, translated = calls(to_english, text)
    assert work <= WORK_PER_CHAR * len(text) + WORK_BASE, f"{work} calls for {len(text)} characters"
    if isinstance(translated, CardTextError):
        return
    assert not isinstance(translated, Exception), translated
    english, lang, missed = translated
    assert lang == "en" or lang in LANGUAGES
    assert all(isinstance(sentence, str) for sentence in missed)


def test_long_text_is_refused() -> None:
    with pytest.raises(CardTextError):
        to_english("Lancez un d20. " * 2000)


LEVEL_AND_REPEAT = {
    "de": ("{1}{R}: Stufe 2", "Wirf einen W20. Falls du eine 20 würfelst, wiederhole diesen Vorgang."),
    "es": ("{1}{R}: Nivel 2", "Tira 1d20. Si obtienes un 20, repite este proceso."),
    "fr": ("{1}{R} : Niveau 2", "Lancez un d20. Si vous obtenez un 20, répétez ce processus."),
    "it": ("{1}{R}: Livello 2", "Tira un d20. Se ottieni un 20, ripeti questo procedimento."),
    "pt": ("{1}{R}: Nível 2", "Role um d20. Se você obtiver um 20, repita este processo."),
    "ru": ("{1}{R}: Уровень 2", "Бросьте к20. Если выпало 20, повторите этот процесс."),
    "ja": ("{1}{R}：レベル２", "d20を１個振る。出目が20なら、この手順を繰り返す。"),
    "ko": ("{1}{R}: 레벨 2", "d20을 굴립니다. 결과가 20이 나오면, 이 과정을 반복합니다."),
    "zhs": ("{1}{R}：等级2", "掷一个d20。如果你掷出20，重复此流程。"),
    "zht": ("{1}{R}：等級2", "擲一個d20。如果你擲出20，重複此流程。"),
}


@pytest.mark.parametrize("lang", sorted(LEVEL_AND_REPEAT))
def test_class_level_line_and_repeat(lang: str) -> None:
    level, repeat = LEVEL_AND_REPEAT[lang]
    trigger = CASES[lang]["whenever"]
    card = card_json(compile_foreign(f"{level}\n{trigger}"))
    assert [(effect["kind"], effect.get("level")) for effect in card["effects"]] == [("trigger", 2)]
    rolls = card_json(compile_foreign(repeat))["rolls"]
    assert [(roll["sides"], roll["repeat_when"]) for roll in rolls] == [(20, "20")]


def test_cost_with_words_and_loyalty_cost_are_kept() -> None:
    assert to_english("{2}, {T}, Opfere eine Kreatur: Wirf einen W20.")[0] == (
        "{2}, {T}, Opfere eine Kreatur: Roll a d20."
    )
    assert to_english("+1 : Lancez un d20.")[0] == "+1: Roll a d20."
