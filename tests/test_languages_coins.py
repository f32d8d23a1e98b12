"""Coin flips (CR 705) and one-line results tables in every language with a lexicon.

Each language's lexicon says "flip a coin", "flip N coins", "until you lose a flip", "if you
win/lose the flip", "if it comes up heads/tails" and "whenever you win/lose a coin flip" in the
words of cards printed in that language; a printed sentence must compile to the same structure
as its English Oracle sentence. The texts below are written here in the style of printed cards.
A coin sentence no pattern reads is reported, never dropped; a table written on one line reads
as the same table on its own lines.
"""

from __future__ import annotations

import re

import pytest

from mtgdice.text import compile_text, detector
from mtgdice.text.compiler import CompiledCard
from mtgdice.text.translate import compile_foreign, detect_language

ENGLISH = (
    "Flip a coin. If you win the flip, draw a card.",
    "Flip three coins.",
    "Flip a coin. If you lose the flip, sacrifice this creature.",
    "Whenever you win a coin flip, draw a card.",
    "Flip a coin until you lose a flip.",
    "Flip a coin. If the coin comes up heads, draw a card. If the coin comes up tails, discard a card.",
    "Whenever you lose a coin flip, you lose 1 life.",
)

PRINTED = {
    "it": (
        "Lancia una moneta. Se vinci il lancio, pesca una carta.",
        "Lancia tre monete.",
        "Lancia una moneta. Se perdi il lancio, sacrifica questa creatura.",
        "Ogniqualvolta vinci un lancio di moneta, pesca una carta.",
        "Lancia una moneta finché non perdi un lancio.",
        "Lancia una moneta. Se esce testa, pesca una carta. Se esce croce, scarta una carta.",
        "Ogniqualvolta perdi un lancio di moneta, perdi 1 punto vita.",
    ),
    "pt": (
        "Jogue uma moeda. Se você vencer o lançamento, compre um card.",
        "Jogue três moedas.",
        "Jogue uma moeda. Se você perder o lançamento, sacrifique esta criatura.",
        "Toda vez que você vencer um lançamento de moeda, compre um card.",
        "Jogue uma moeda até perder um lançamento.",
        "Jogue uma moeda. Se der cara, compre um card. Se der coroa, descarte um card.",
        "Toda vez que você perder um lançamento de moeda, você perde 1 ponto de vida.",
    ),
    "ja": (
        "コインを1枚投げる。あなたがコイン投げに勝った場合、カードを1枚引く。",
        "コインを3枚投げる。",
        "コインを1枚投げる。あなたがコイン投げに負けた場合、このクリーチャーを生け贄に捧げる。",
        "あなたがコイン投げに勝つたび、カードを1枚引く。",
        "あなたがコイン投げに負けるまでコインを投げる。",
        "コインを1枚投げる。表が出た場合、カードを1枚引く。裏が出た場合、カードを1枚捨てる。",
        "あなたがコイン投げに負けるたび、あなたは1点のライフを失う。",
    ),
    "ko": (
        "동전을 한 번 던진다. 당신이 던지기에서 이기면, 카드 한 장을 뽑는다.",
        "동전 세 개를 던진다.",
        "동전을 한 번 던진다. 당신이 던지기에서 지면, 이 생물을 희생한다.",
        "당신이 동전 던지기에서 이길 때마다, 카드 한 장을 뽑는다.",
        "동전 던지기에서 질 때까지 동전을 던진다.",
        "동전을 한 번 던진다. 앞면이 나오면, 카드 한 장을 뽑는다. 뒷면이 나오면, 카드 한 장을 버린다.",
        "당신이 동전 던지기에서 질 때마다, 당신은 생명점 1점을 잃는다.",
    ),
    "ru": (
        "Подбросьте монетку. Если вы выигрываете бросок, возьмите карту.",
        "Подбросьте три монетки.",
        "Подбросьте монетку. Если вы проигрываете бросок, пожертвуйте это существо.",
        "Каждый раз, когда вы выигрываете бросок монетки, возьмите карту.",
        "Подбрасывайте монетку, пока не проиграете бросок.",
        "Подбросьте монетку. Если выпадает орел, возьмите карту. Если выпадает решка, сбросьте карту.",
        "Каждый раз, когда вы проигрываете бросок монетки, вы теряете 1 жизнь.",
    ),
    "zhs": (
        "掷一枚硬币。如果你赢得此掷币，抓一张牌。",
        "掷三枚硬币。",
        "掷一枚硬币。如果你输掉此掷币，牺牲此生物。",
        "每当你赢得掷币时，抓一张牌。",
        "掷硬币，直到你输掉一次掷币为止。",
        "掷一枚硬币。如果结果为正面，抓一张牌。如果结果为反面，弃一张牌。",
        "每当你输掉掷币时，你失去1点生命。",
    ),
    "zht": (
        "擲一枚硬幣。如果你贏得此擲幣，抓一張牌。",
        "擲三枚硬幣。",
        "擲一枚硬幣。如果你輸掉此擲幣，犧牲此生物。",
        "每當你贏得擲幣時，抓一張牌。",
        "擲硬幣，直到你輸掉一次擲幣為止。",
        "擲一枚硬幣。如果結果為正面，抓一張牌。如果結果為反面，棄一張牌。",
        "每當你輸掉擲幣時，你失去1點生命。",
    ),
}

CASES = [(lang, index) for lang in PRINTED for index in range(len(ENGLISH))]


def _structure(card: CompiledCard) -> tuple[object, ...]:
    """What a coin card says, without its words: each flip (count, until, call, its outcomes'
    readings) and each effect's kind and trigger."""
    flips = tuple(
        (flip.count, flip.until, flip.call, tuple((o.reads, o.each, o.at_least, o.every) for o in flip.outcomes))
        for flip in card.flips
    )
    effects = tuple((type(effect).__name__, getattr(effect, "on", None)) for effect in card.effects)
    return flips, effects


@pytest.mark.parametrize(("lang", "index"), CASES, ids=[f"{lang}-{index}" for lang, index in CASES])
def test_a_printed_coin_sentence_compiles_like_english(lang: str, index: int) -> None:
    printed, english = PRINTED[lang][index], compile_text(ENGLISH[index], name="Tester")
    assert english.unsupported == () and (english.flips or english.effects)
    assert detect_language(printed) == lang
    assert detector.speaks(printed)
    card = compile_foreign(printed, "Tester")
    assert card.unsupported == (), printed
    assert _structure(card) == _structure(english), printed


def test_every_lexicon_with_coin_words_reads_coin_sentences() -> None:
    from mtgdice.text.translate import lexicon

    for lang in (*PRINTED, "de", "es", "fr"):
        assert "flip a coin" in {english for _pattern, english in lexicon(lang).sentences}, lang


UNKNOWN = {
    "ja": "コインが縁で立つまでコインを投げる。",
    "it": "Lancia una moneta finché non trovi un quadrifoglio.",
    "pt": "Jogue uma moeda e pegue-a no ar.",
    "ko": "동전을 던져서 손등으로 받는다.",
    "ru": "Подбросьте монетку и поймайте ее.",
    "zhs": "把硬币抛向空中并接住它。",
    "zht": "把硬幣拋向空中並接住它。",
}


@pytest.mark.parametrize("lang", sorted(UNKNOWN))
def test_a_coin_sentence_no_pattern_reads_is_reported(lang: str) -> None:
    text = UNKNOWN[lang]
    assert detector.speaks(text)
    assert compile_foreign(text, "Tester").unsupported == (text,)


ONE_LINE_TABLES = {
    "en": "Roll a d12. 1–6 | Draw a card. 7–12 | Draw two cards.",
    "de": "Wirf einen W12. 1–6 | Ziehe eine Karte. 7–12 | Ziehe zwei Karten.",
    "es": "Tira un d12. 1–6 | Roba una carta. 7–12 | Roba dos cartas.",
    "fr": "Lancez un d12. 1–6 | Piochez une carte. 7–12 | Piochez deux cartes.",
    "it": "Tira un d12. 1–6 | Pesca una carta. 7–12 | Pesca due carte.",
    "pt": "Role um d12. 1–6 | Compre um card. 7–12 | Compre dois cards.",
    "ja": "d12を振る。1～6｜カードを1枚引く。7～12｜カードを2枚引く。",
    "ko": "d12를 굴린다. 1–6 | 카드 한 장을 뽑는다. 7–12 | 카드 두 장을 뽑는다.",
    "ru": "Бросьте d12. 1–6 | Возьмите карту. 7–12 | Возьмите две карты.",
    "zhs": "掷一个d12。1～6｜抓一张牌。7～12｜抓两张牌。",
    "zht": "擲一個d12。1～6｜抓一張牌。7～12｜抓兩張牌。",
}


@pytest.mark.parametrize("lang", sorted(ONE_LINE_TABLES))
def test_a_table_on_one_line_reads_the_same_in_every_language(lang: str) -> None:
    one_line = ONE_LINE_TABLES[lang]
    own_lines = re.sub(r"(?<=[.。])\s*(?=\d+\s*[–～])", "\n", one_line)
    assert own_lines.count("\n") == 2
    first, second = compile_foreign(one_line, "Tester"), compile_foreign(own_lines, "Tester")
    assert first.unsupported == second.unsupported == ()
    (roll,) = first.rolls
    assert roll.die.sides == 12 and roll.table is not None
    assert [(row.low, row.high) for row in roll.table.rows] == [(1, 6), (7, 12)]
    assert first.rolls == second.rolls
