"""Plain dice notation (``3d6+2``, ``4d6dl1``, ``2d20kh1``, ``d%``, ``4dF``, ``adv``): parsed, rolled
through a dice source, bounded, and replayed from the logged faces."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mtgdice.errors import InputError
from mtgdice.fair.commit import CommitRevealSource
from mtgdice.io.outcome import plain_json
from mtgdice.log import LoggedRoll, Provenance, SourceKind, faces_of, replay_roll
from mtgdice.rules import ScriptedSource, SeededSource
from mtgdice.rules.plain import (
    MAX_PLAIN_DICE,
    Constant,
    DiceGroup,
    GroupResult,
    PlainRoll,
    Selection,
    roll_plain,
)
from mtgdice.text.notation import parse_plain

PARSED = [
    ("3d6+2", "3d6+2"),
    ("2d6 + 1", "2d6+1"),
    (" 2D20KH1 ", "2d20kh1"),
    ("4d6dl1", "4d6dl1"),
    ("4d6d1", "4d6dl1"),
    ("3d6k2", "3d6kh2"),
    ("d%", "d%"),
    ("2d%", "2d%"),
    ("4dF", "4dF"),
    ("adv", "2d20kh1"),
    ("dis + 3", "2d20kl1+3"),
    ("advantage-1", "2d20kh1-1"),
    ("d20 - 1d4 + 3", "d20-d4+3"),
    ("1 + d6", "1+d6"),
    ("10d10dh2", "10d10dh2"),
]


@pytest.mark.parametrize(("text", "canonical"), PARSED, ids=[p[0] for p in PARSED])
def test_notation_reads_what_dice_bots_read(text: str, canonical: str) -> None:
    assert parse_plain(text).notation == canonical
    assert parse_plain(canonical).notation == canonical  # the canonical form reads back the same


BAD = [
    ("2x6", "a roll needs dice"),  # 2 times the number 6: no dice
    ("-3d6", "starts with dice"),
    ("3d6+", "ends with a sign"),
    ("d6 d6", "expected + or -"),
    ("d0", "1 or more sides"),
    ("d2000000", "1000000 sides"),
    ("4d6dl4", "cannot drop 4 of 4"),
    ("2d20kh3", "cannot keep 3 of 2"),
    ("d6dl1", "nothing to drop"),
    ("20001d6", "1 to 10000"),
    ("6000d6+6000d6", "more than the limit"),
    ("5", "needs dice"),
    ("d6" + "+1" * 120, "at most 100"),
    ("d6" * 300, "at most 500"),
    ("", "no dice given"),
]


@pytest.mark.parametrize(("text", "needle"), BAD, ids=[b[0][:20] or "empty" for b in BAD])
def test_bad_notation_is_one_line_naming_the_problem(text: str, needle: str) -> None:
    with pytest.raises(InputError) as raised:
        parse_plain(text)
    message = str(raised.value)
    assert message.startswith("dice: ") and needle in message and "\n" not in message


def test_keep_and_drop_pick_by_value_and_ties_by_roll_order() -> None:
    def kept(notation: str, faces: list[int]) -> list[bool]:
        term = roll_plain(parse_plain(notation), ScriptedSource(faces)).terms[0]
        assert isinstance(term, GroupResult)
        return [die.kept for die in term.dice]

    assert kept("2d20kh1", [7, 15]) == [False, True]
    assert kept("2d20kl1", [7, 15]) == [True, False]
    assert kept("4d6dl1", [3, 1, 6, 1]) == [True, True, True, False]  # among tied dice the earlier is kept
    assert kept("3d6kh2", [5, 5, 5]) == [True, True, False]
    assert kept("3d6kl1", [5, 2, 2]) == [False, True, False]
    assert kept("4d6dl1", [3, 1, 6, 1]) == kept("4d6kh3", [3, 1, 6, 1])  # the same dice either way
    assert kept("4d6dh2", [6, 2, 6, 3]) == [False, True, False, True]


def test_totals_signs_percentile_and_fudge() -> None:
    assert roll_plain(parse_plain("3d6+2"), ScriptedSource([1, 2, 3])).total == 8
    assert roll_plain(parse_plain("d20-1d4+3"), ScriptedSource([10, 4])).total == 9
    assert roll_plain(parse_plain("d%"), ScriptedSource([100])).total == 100
    fudge = roll_plain(parse_plain("4dF"), ScriptedSource([1, 2, 3, 3]))  # drawn as d3: -1, 0, +1, +1
    assert fudge.total == 1 and fudge.draws == ((3, 1), (3, 2), (3, 3), (3, 3))
    with pytest.raises(InputError, match="d100"):
        roll_plain(parse_plain("d%"), ScriptedSource([101]))


def test_outcome_json_says_it_is_a_plain_roll() -> None:
    outcome = plain_json(roll_plain(parse_plain("4d6dl1 + 2"), ScriptedSource([3, 1, 6, 4])))
    assert outcome["kind"] == "plain" and outcome["notation"] == "4d6dl1+2" and outcome["total"] == 15
    dice = outcome["terms"][0]["rolls"]
    assert [d["face"] for d in dice] == [3, 1, 6, 4] and [d["kept"] for d in dice] == [True, False, True, True]
    assert outcome["terms"][1] == {"number": 2, "sign": 1}


def test_every_dice_source_works() -> None:
    notation = parse_plain("10d6kh3+4dF")
    for source in (SeededSource(5), CommitRevealSource(bytes(32), ("alice",), nonce=1)):
        result = roll_plain(notation, source)
        assert result.source == source.name and len(result.draws) == 14
    again = roll_plain(notation, CommitRevealSource(bytes(32), ("alice",), nonce=1))
    assert again.draws == result.draws  # commit-reveal faces are recomputable


def _logged(request: dict[str, object], outcome: Any, faces: tuple[Any, ...]) -> LoggedRoll:
    provenance = Provenance(SourceKind.SEEDED, "2026-01-01T00:00:00+00:00", seed=9)
    return LoggedRoll(1, provenance, faces, json.dumps(request), json.dumps(outcome))


def test_a_logged_plain_roll_replays_from_its_faces_and_an_edit_is_found() -> None:
    result = roll_plain(parse_plain("4d6dl1+2"), SeededSource(9))
    faces = faces_of(result)
    assert faces == result.draws
    honest = _logged({"kind": "plain", "notation": "4d6dl1+2"}, plain_json(result), faces)
    assert replay_roll(honest, None).same
    edited = plain_json(result) | {"total": result.total + 1}
    assert "total" in replay_roll(_logged({"kind": "plain", "notation": "4d6dl1+2"}, edited, faces), None).line()
    short = replay_roll(_logged({"kind": "plain", "notation": "4d6dl1+2"}, plain_json(result), faces[:2]), None)
    assert short.error is not None and "faces" in short.error
    assert replay_roll(_logged({"kind": "plain", "notation": "2x6"}, plain_json(result), faces), None).error is not None


@settings(max_examples=200, deadline=None)
@given(
    groups=st.lists(
        st.tuples(
            st.integers(1, 8),
            st.sampled_from([2, 4, 6, 10, 20, 100]),
            st.sampled_from([None, *Selection]),
            st.integers(1, 8),
            st.sampled_from([1, -1]),
        ),
        min_size=1,
        max_size=4,
    ),
    constant=st.integers(0, 30),
    seed=st.integers(0, 2**32),
)
def test_total_is_the_signed_sum_of_the_kept_dice(
    groups: list[tuple[int, int, Selection | None, int, int]], constant: int, seed: int
) -> None:
    terms: list[DiceGroup | Constant] = []
    for position, (count, sides, selection, selected, sign) in enumerate(groups):
        keeps = selection in (Selection.KEEP_HIGHEST, Selection.KEEP_LOWEST)
        if selection is None or not 1 <= selected <= (count if keeps else count - 1):
            selection, selected = None, 1
        terms.append(DiceGroup(count, sides, selection=selection, selected=selected, sign=sign if position else 1))
    terms.append(Constant(constant))
    plain = PlainRoll(tuple(terms))
    assert parse_plain(plain.notation) == plain
    result = roll_plain(plain, SeededSource(seed))
    expected = constant
    for term in result.terms:
        if isinstance(term, GroupResult):
            kept = [die.value for die in term.dice if die.kept]
            dropped = [die.value for die in term.dice if not die.kept]
            group = term.group
            if group.selection is None:
                assert not dropped
            else:
                keeps = group.selection in (Selection.KEEP_HIGHEST, Selection.KEEP_LOWEST)
                assert len(kept) == (group.selected if keeps else group.count - group.selected)
                if kept and dropped:
                    high = group.selection in (Selection.KEEP_HIGHEST, Selection.DROP_LOWEST)
                    assert min(kept) >= max(dropped) if high else max(kept) <= min(dropped)
            assert all(1 <= die.face <= group.sides for die in term.dice)
            expected += group.sign * sum(kept)
    assert result.total == expected


def test_the_dice_limit_is_the_rules_limit() -> None:
    from mtgdice.rules import MAX_DICE

    assert MAX_PLAIN_DICE == MAX_DICE
