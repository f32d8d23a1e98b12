"""The local SQLite index: import from bulk files of every shape, search, atomic replacement, CLI."""

from __future__ import annotations

import gzip
import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from mtgdice.cards import IndexedCard, default_index_path, import_bulk, search
from mtgdice.cards.index import dice_features, index_meta, parse_query, read_records
from mtgdice.cli.cards import cards_group as cards_app
from mtgdice.errors import InputError
from mtgdice.io.cards import indexed_card_json

FIXTURES = Path(__file__).parent / "fixtures" / "cards"
ORACLE = FIXTURES / "oracle-cards.json"
ALL_CARDS = FIXTURES / "all-cards.json"
ORACLE_DICE_CARDS = 10  # of 12: a vanilla creature and a burn spell have no dice


@pytest.fixture(scope="module")
def oracle_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("index") / "cards.sqlite"
    import_bulk(ORACLE, db, progress=False)
    return db


def names(cards: list[IndexedCard]) -> list[str]:
    return [card.name for card in cards]


# -- import --------------------------------------------------------------------------------------


def test_import_keeps_only_cards_with_dice(tmp_path: Path) -> None:
    stats = import_bulk(ORACLE, tmp_path / "cards.sqlite", progress=False)
    assert (stats.cards_seen, stats.cards_indexed, stats.printed_rows) == (12, ORACLE_DICE_CARDS, 0)
    indexed = {record.name for record in read_records(tmp_path / "cards.sqlite")}
    assert "Grizzly Bears" not in indexed and "Lightning Bolt" not in indexed
    assert {"Pixie Guide", "Glimmering Expanse", "Gambler's Door // Gambler's Key"} <= indexed


def test_rows_hold_the_card_and_its_compiled_form(oracle_db: Path) -> None:
    with sqlite3.connect(oracle_db) as connection:
        row = connection.execute(
            "SELECT name, folded_name, oracle_id, layout, type_line, set_code, lang, oracle_text, faces, "
            "printed_text, compiled FROM cards WHERE name LIKE 'Gambler%'"
        ).fetchone()
    name, folded, oracle_id, layout, type_line, set_code, lang, text, faces, printed, compiled = row
    assert (name, folded, layout, type_line, set_code, lang) == (
        "Gambler's Door // Gambler's Key",
        "gambler's door // gambler's key",
        "modal_dfc",
        "Sorcery // Land",
        "tst",
        "en",
    )
    assert oracle_id == "00000000-0000-4000-8000-000000000008"
    assert text.startswith("Roll a d8.")
    assert [face["name"] for face in json.loads(faces)] == ["Gambler's Door", "Gambler's Key"]
    assert printed is None
    compiled_json = json.loads(compiled)
    assert {"name", "rolls", "effects", "unsupported"} <= compiled_json.keys()
    assert compiled_json["rolls"][0]["sides"] == 8


def test_meta_records_the_import(oracle_db: Path) -> None:
    meta = index_meta(oracle_db)
    assert meta["source"] == str(ORACLE)
    assert (meta["cards_seen"], meta["cards_indexed"]) == ("12", str(ORACLE_DICE_CARDS))
    assert meta["schema"] == "1"


def test_all_cards_shape_dedupes_printings_and_keeps_translations(tmp_path: Path) -> None:
    db = tmp_path / "cards.sqlite"
    stats = import_bulk(ALL_CARDS, db, progress=False)
    assert (stats.cards_seen, stats.cards_indexed, stats.printed_rows) == (8, 3, 4)
    with sqlite3.connect(db) as connection:
        cards = connection.execute("SELECT name, lang, printed_text IS NOT NULL FROM cards ORDER BY name").fetchall()
        printed = connection.execute("SELECT lang, printed_name FROM printed ORDER BY lang, printed_name").fetchall()
    # Pixie Guide's German printing came first; the English one replaced its place in `cards`.
    assert cards == [
        ("Contact Other Plane", "en", 0),
        ("Lucky Charm Fixture", "ja", 1),
        ("Pixie Guide", "en", 0),
    ]
    assert printed == [
        ("de", "Feenf\u00fchrerin"),
        ("de", "Kontakt mit einer anderen Ebene"),
        ("ja", "\u5225\u6b21\u5143\u3068\u306e\u63a5\u89e6"),
        ("ja", "\u5e78\u904b\u306e\u304a\u5b88\u308a"),
    ]


def test_gzip_bulk_file_imports_the_same(tmp_path: Path) -> None:
    packed = tmp_path / "oracle-cards.download"
    packed.write_bytes(gzip.compress(ORACLE.read_bytes()))
    import_bulk(packed, tmp_path / "cards.sqlite", progress=False)
    assert len(read_records(tmp_path / "cards.sqlite")) == ORACLE_DICE_CARDS


def test_a_failed_import_leaves_the_previous_index(tmp_path: Path) -> None:
    db = tmp_path / "cards.sqlite"
    import_bulk(ORACLE, db, progress=False)
    before = db.read_bytes()
    bad = tmp_path / "bad.json"
    cards = json.loads(ORACLE.read_text(encoding="utf-8"))
    cards.insert(5, {"oracle_text": "Roll a d6."})
    bad.write_text(json.dumps(cards), encoding="utf-8")
    with pytest.raises(InputError, match=r"bad\.json: item 5 has no 'name'"):
        import_bulk(bad, db, progress=False)
    truncated = tmp_path / "truncated.json"
    truncated.write_bytes(ORACLE.read_bytes()[:-200])
    with pytest.raises(InputError, match="not valid JSON"):
        import_bulk(truncated, db, progress=False)
    assert db.read_bytes() == before
    assert len(read_records(db)) == ORACLE_DICE_CARDS
    assert sorted(path.name for path in tmp_path.iterdir()) == ["bad.json", "cards.sqlite", "truncated.json"]


def test_import_replaces_an_existing_index(tmp_path: Path) -> None:
    db = tmp_path / "cards.sqlite"
    import_bulk(ALL_CARDS, db, progress=False)
    import_bulk(ORACLE, db, progress=False)
    assert len(read_records(db)) == ORACLE_DICE_CARDS


def test_expected_size_is_checked_before_replacing(tmp_path: Path) -> None:
    db = tmp_path / "cards.sqlite"
    import_bulk(ALL_CARDS, db, progress=False)
    size = ORACLE.stat().st_size
    with pytest.raises(InputError, match=f"expected {size + 1:,}: truncated or corrupt"):
        import_bulk(ORACLE, db, progress=False, expected_size=size + 1)
    assert len(read_records(db)) == 3
    import_bulk(ORACLE, db, progress=False, expected_size=size)
    assert len(read_records(db)) == ORACLE_DICE_CARDS


# -- search --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        pytest.param("d20", ["Contact Other Plane", "Delina, Wild Mage"], id="d20"),
        pytest.param("D8", ["Gambler's Door // Gambler's Key"], id="d8 upper case"),
        pytest.param("d20 table", ["Contact Other Plane", "Delina, Wild Mage"], id="d20 and table"),
        pytest.param("table, roll again", ["Delina, Wild Mage"], id="table and roll again"),
        pytest.param("roll again", ["Delina, Wild Mage"], id="roll again"),
        pytest.param("planar", ["Glimmering Expanse"], id="planar"),
        pytest.param("stored", ["Centaur of Attention"], id="stored"),
        pytest.param("reroll", ["Centaur of Attention", "Clam-I-Am"], id="reroll"),
        pytest.param("ignore", ["Pixie Guide"], id="ignore"),
        pytest.param("choose", ["Grave Endeavor"], id="choose"),
        pytest.param("d100", [], id="no such die"),
    ],
)
def test_search_by_dice_features(oracle_db: Path, query: str, expected: list[str]) -> None:
    assert names(search(oracle_db, query)) == expected


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        pytest.param("chicken a la", ["Chicken \u00e0 la King"], id="accent folded"),
        pytest.param("KRARK\u2019S", ["Krark's Other Thumb"], id="curly quote"),
        pytest.param("key", ["Gambler's Door // Gambler's Key"], id="back face in full name"),
        pytest.param("bears", [], id="not indexed"),
        pytest.param("table top", [], id="feature word inside a name query"),
    ],
)
def test_search_by_name(oracle_db: Path, query: str, expected: list[str]) -> None:
    assert names(search(oracle_db, query)) == expected


def test_empty_query_lists_everything_sorted(oracle_db: Path) -> None:
    found = names(search(oracle_db, ""))
    assert len(found) == ORACLE_DICE_CARDS
    assert found == sorted(found, key=str.casefold)


def test_search_results_carry_their_compiled_form(oracle_db: Path) -> None:
    (card,) = search(oracle_db, "contact other plane")
    assert card.features == ("d20", "table")
    shown = indexed_card_json(card)
    assert isinstance(shown["compiled"], dict) and shown["compiled"]["rolls"][0]["table"] == [
        [1, 9],
        [10, 19],
        [20, 20],
    ]
    assert shown["features"] == ["d20", "table"] and shown["compile_error"] is None


def test_parse_query() -> None:
    assert parse_query("d6 and d20") == ("d6", "d20")
    assert parse_query("Reroll") == ("reroll",)
    assert parse_query("goblin d6") is None


@pytest.mark.parametrize(
    ("compiled", "layout", "expected"),
    [
        pytest.param(None, "planar", ("planar",), id="plane without compiled form"),
        pytest.param(
            {"rolls": [{"sides": "planar", "table": None}], "effects": []},
            "normal",
            ("planar",),
            id="planar die",
        ),
        pytest.param({"rolls": [{"sides": "X", "count": 1}]}, "normal", ("dx",), id="variable sides"),
        pytest.param({"rolls": [{"sides": 6, "store": True}]}, "normal", ("d6", "stored"), id="store"),
        pytest.param({"rolls": [{"sides": 6, "store": False, "choose": False}]}, "normal", ("d6",), id="false flags"),
        pytest.param(
            {"rolls": [{"sides": 20, "ignore_lowest": "X - 1"}]},
            "normal",
            ("d20", "ignore"),
            id="ignore amount",
        ),
        pytest.param(
            {"effects": [{"kind": "reroll", "text": "choose a table", "effect": "ignore it"}]},
            "normal",
            ("reroll",),
            id="free text not read",
        ),
        pytest.param({"unsupported": ["Reroll a die."], "rolls": []}, "normal", (), id="unsupported not read"),
    ],
)
def test_dice_features(compiled: dict[str, Any] | None, layout: str, expected: tuple[str, ...]) -> None:
    assert dice_features(compiled, layout) == expected


# -- opening the index ---------------------------------------------------------------------------


def test_missing_index_says_how_to_build_one(tmp_path: Path) -> None:
    with pytest.raises(InputError) as raised:
        search(tmp_path / "nothing.sqlite", "d20")
    assert str(raised.value) == (
        f"{tmp_path / 'nothing.sqlite'}: no card index here; "
        "run 'mtgdice cards import FILE' or 'mtgdice cards download'"
    )
    assert not (tmp_path / "nothing.sqlite").exists()


@pytest.mark.parametrize("content", [b"not a database at all" * 100, None], ids=["not sqlite", "other sqlite"])
def test_a_foreign_file_is_not_an_index(tmp_path: Path, content: bytes | None) -> None:
    path = tmp_path / "other.sqlite"
    if content is None:
        with sqlite3.connect(path) as connection:
            connection.execute("CREATE TABLE log (id INTEGER)")
        connection.close()
    else:
        path.write_bytes(content)
    with pytest.raises(InputError, match="not an mtgdice card index"):
        search(path, "d20")


def test_default_index_path(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("MTGDICE_INDEX", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert default_index_path() == tmp_path / "mtgdice" / "cards.sqlite"
    monkeypatch.setenv("XDG_DATA_HOME", "relative/ignored")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert default_index_path() == tmp_path / "home" / ".local" / "share" / "mtgdice" / "cards.sqlite"
    monkeypatch.setenv("MTGDICE_INDEX", str(tmp_path / "mine.sqlite"))
    assert default_index_path() == tmp_path / "mine.sqlite"


# -- command line --------------------------------------------------------------------------------


def test_cli_import_and_search(tmp_path: Path) -> None:
    runner = CliRunner()
    db = tmp_path / "cards.sqlite"
    imported = runner.invoke(cards_app, ["import", str(ORACLE), "--db", str(db)])
    assert imported.exit_code == 0, imported.output
    assert f"Indexed {ORACLE_DICE_CARDS} cards with dice out of 12" in imported.stdout
    found = runner.invoke(cards_app, ["search", "d20", "--db", str(db), "--json"])
    assert found.exit_code == 0, found.output
    assert [card["name"] for card in json.loads(found.stdout)] == ["Contact Other Plane", "Delina, Wild Mage"]
    table = runner.invoke(cards_app, ["search", "planar", "--db", str(db)])
    assert "Glimmering Expanse" in table.stdout


def test_cli_errors_are_one_line_with_status_2(tmp_path: Path) -> None:
    runner = CliRunner()
    bad = tmp_path / "bad.json"
    bad.write_text('{"not": "an array"}', encoding="utf-8")
    for arguments in (
        ["import", str(bad), "--db", str(tmp_path / "cards.sqlite")],
        ["import", str(tmp_path / "missing.json"), "--db", str(tmp_path / "cards.sqlite")],
        ["search", "d20", "--db", str(tmp_path / "cards.sqlite")],
    ):
        result = runner.invoke(cards_app, arguments)
        assert result.exit_code == 2, result.output
        assert result.stderr.startswith("mtgdice: error: ")
        assert result.stderr.count("\n") == 1
        assert "Traceback" not in result.output
