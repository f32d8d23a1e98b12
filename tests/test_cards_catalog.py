"""Card records from Scryfall JSON and lookup by name: folding, suggestions, ambiguity, data sources."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from mtgdice.cards import CardCatalog, CardRecord, Face, default_catalog, import_bulk, iter_records
from mtgdice.cards.scryfall import fold_name, record_from_json
from mtgdice.errors import AmbiguousCardError, InputError, UnknownCardError
from shared_data import shared_path

FIXTURES = Path(__file__).parent / "fixtures" / "cards"
ORACLE = FIXTURES / "oracle-cards.json"


@pytest.fixture(scope="module")
def catalog() -> CardCatalog:
    return CardCatalog.from_path(ORACLE)


@pytest.fixture
def clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """No card data from the environment; the default index lives under ``tmp_path``."""
    monkeypatch.delenv("MTGDICE_CARDS", raising=False)
    monkeypatch.delenv("MTGDICE_INDEX", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    return tmp_path


# -- records -------------------------------------------------------------------------------------


def test_record_keeps_the_rules_fields(catalog: CardCatalog) -> None:
    record = catalog.lookup("Contact Other Plane")
    assert record.oracle_text.startswith("Roll a d20.\n1\u20149 | ")
    assert (record.layout, record.type_line, record.lang, record.set) == ("normal", "Sorcery", "en", "afr")
    assert record.oracle_id == "00000000-0000-4000-8000-000000000002"
    assert record.faces == () and record.printed_name is None and record.printed_text is None


def test_multi_face_record_joins_faces_and_keeps_them(catalog: CardCatalog) -> None:
    record = catalog.lookup("Gambler's Door // Gambler's Key")
    assert record.layout == "modal_dfc"
    assert record.oracle_text == "Roll a d8. Draw cards equal to the result.\n{T}: Add {R}."
    assert record.faces == (
        Face("Gambler's Door", "Roll a d8. Draw cards equal to the result.", "Sorcery", "{2}{R}"),
        Face("Gambler's Key", "{T}: Add {R}.", "Land", ""),
    )


def test_planes_have_the_planar_layout(catalog: CardCatalog) -> None:
    assert catalog.lookup("Glimmering Expanse").layout == "planar"


def test_non_english_printing_keeps_printed_words() -> None:
    records = list(iter_records(FIXTURES / "all-cards.json"))
    german = next(record for record in records if record.lang == "de" and record.name == "Pixie Guide")
    assert german.printed_name == "Feenf\u00fchrerin"
    assert german.printed_text is not None and german.printed_text.startswith("Fliegend\n")
    assert "roll one or more dice" in german.oracle_text


def test_reversible_card_takes_its_oracle_id_from_the_faces() -> None:
    record = record_from_json(
        {
            "name": "Front // Back",
            "layout": "reversible_card",
            "card_faces": [
                {"name": "Front", "oracle_id": "abc", "oracle_text": "Roll a d4.", "type_line": "Instant"},
                {"name": "Back", "oracle_id": "abc", "oracle_text": "Roll a d4.", "type_line": "Instant"},
            ],
        }
    )
    assert record.oracle_id == "abc"
    assert record.type_line == "Instant // Instant"


def test_reading_is_streamed_so_a_bad_tail_fails_only_when_reached(tmp_path: Path) -> None:
    path = tmp_path / "tail.json"
    path.write_text('[{"name": "First", "oracle_text": "Roll a d6."}, {"name": "Second", ', encoding="utf-8")
    records = iter_records(path)
    assert next(records).name == "First"
    with pytest.raises(InputError, match="not valid JSON"):
        next(records)


# -- lookup --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("query", "name"),
    [
        pytest.param("contact other plane", "Contact Other Plane", id="lower case"),
        pytest.param("  CONTACT   OTHER PLANE \n", "Contact Other Plane", id="upper case, spaces"),
        pytest.param("Chicken a la King", "Chicken \u00e0 la King", id="accent dropped"),
        pytest.param("CHICKEN \u00c0 LA KING", "Chicken \u00e0 la King", id="accent upper"),
        pytest.param("Chicken a\u0300 la King", "Chicken \u00e0 la King", id="combining accent"),
        pytest.param("Krark\u2019s Other Thumb", "Krark's Other Thumb", id="curly apostrophe"),
        pytest.param("Krark`s other thumb", "Krark's Other Thumb", id="backtick apostrophe"),
        pytest.param("Gambler\u2019s Door", "Gambler's Door // Gambler's Key", id="front face"),
        pytest.param("gambler's door // gambler's key", "Gambler's Door // Gambler's Key", id="full name"),
    ],
)
def test_lookup_ignores_case_accents_quotes_and_spaces(catalog: CardCatalog, query: str, name: str) -> None:
    assert catalog.lookup(query).name == name


def test_curly_quotes_in_the_data_match_straight_ones_typed() -> None:
    catalog = CardCatalog.from_records([CardRecord("Urza\u2019s \u201cScience\u201d Fair", "Roll a d6.")])
    assert catalog.lookup('urza\'s "science" fair').oracle_text == "Roll a d6."


def test_unknown_name_suggests_near_names(catalog: CardCatalog) -> None:
    with pytest.raises(UnknownCardError) as raised:
        catalog.lookup("Pixy Guide")
    assert str(raised.value) == f"card: no card named 'Pixy Guide' in {ORACLE}; did you mean 'Pixie Guide'?"
    assert isinstance(raised.value, LookupError)


def test_suggestions_are_at_most_three_and_one_line() -> None:
    catalog = CardCatalog.from_records(
        [CardRecord(f"Goblin Dice Thrower {n}", "Roll a d6.") for n in range(6)], source="cards.json"
    )
    with pytest.raises(UnknownCardError) as raised:
        catalog.lookup("Goblin Dice Thrower")
    message = str(raised.value)
    assert "\n" not in message
    assert message.count("'Goblin Dice Thrower ") == 3
    assert " or 'Goblin Dice Thrower " in message


def test_no_suggestion_for_a_name_like_nothing(catalog: CardCatalog) -> None:
    with pytest.raises(UnknownCardError) as raised:
        catalog.lookup("zzzzqqqq")
    assert str(raised.value) == f"card: no card named 'zzzzqqqq' in {ORACLE}"


def test_identical_reprints_are_not_ambiguous() -> None:
    records = [
        CardRecord("Clam-I-Am", "If you roll a 3 on a six-sided die, you may reroll that die.", set=set_code)
        for set_code in ("ust", "sld", "unf")
    ]
    assert CardCatalog.from_records(records).lookup("clam-i-am").set == "ust"


def test_two_texts_under_one_name_are_ambiguous() -> None:
    catalog = CardCatalog.from_path(shared_path("cards", "dice-cards.json"))
    with pytest.raises(AmbiguousCardError) as raised:
        catalog.lookup("garbage elemental")
    message = str(raised.value)
    assert "\n" not in message
    assert "'Garbage Elemental' names 2 cards with different texts" in message
    assert '"text"' in message
    assert isinstance(raised.value, LookupError)


def test_dev_card_file_loads_and_folds(tmp_path: Path) -> None:
    catalog = CardCatalog.from_path(shared_path("cards", "dice-cards.json"))
    assert len(catalog) > 100
    assert catalog.lookup("PIXIE GUIDE").name == "Pixie Guide"


def test_fold_name_is_idempotent() -> None:
    for name in ["Chicken \u00e0 la King", "Krark\u2019s Other Thumb", "  \u00c6ther  Vial "]:
        assert fold_name(fold_name(name)) == fold_name(name)


# -- files ---------------------------------------------------------------------------------------


def test_gzip_is_recognised_by_its_bytes_not_its_name(tmp_path: Path) -> None:
    disguised = tmp_path / "cards.json"
    disguised.write_bytes(gzip.compress(ORACLE.read_bytes()))
    plain_named_gz = tmp_path / "cards.json.gz"
    plain_named_gz.write_bytes(ORACLE.read_bytes())
    expected = [record.name for record in iter_records(ORACLE)]
    assert [record.name for record in iter_records(disguised)] == expected
    assert [record.name for record in iter_records(plain_named_gz)] == expected


def test_a_byte_order_mark_and_leading_spaces_are_fine(tmp_path: Path) -> None:
    path = tmp_path / "bom.json"
    path.write_bytes(b"\xef\xbb\xbf \n" + json.dumps([{"name": "A", "oracle_text": ""}]).encode())
    assert CardCatalog.from_path(path).lookup("a").name == "A"


BAD_FILES = [
    pytest.param(None, "no such file", id="missing"),
    pytest.param(b"", "is empty", id="empty"),
    pytest.param(b"name,oracle_text\n", "is not a JSON array of card objects", id="csv"),
    pytest.param(b'{"object": "list", "data": []}', "is a JSON object, not an array", id="object"),
    pytest.param(b'[{"name": "A"}, 3]', "item 1 is not a card object", id="number item"),
    pytest.param(b'[{"name": "A"}, {"oracle_text": "x"}]', "item 1 has no 'name'", id="no name"),
    pytest.param(b'[{"name": "A"}, {"name": ""}]', "item 1 has no 'name'", id="empty name"),
    pytest.param(b'[{"name": "A"}, {"name": "B"', "not valid JSON (parse error: premature EOF)", id="truncated"),
    pytest.param(b'[{"name": "A"}] trailing', "not valid JSON (parse error: trailing garbage)", id="trailing"),
    pytest.param(gzip.compress(b'[{"name": "A"}]' * 50)[:-12], "corrupt gzip data", id="truncated gzip"),
]


@pytest.mark.parametrize(("content", "problem"), BAD_FILES)
def test_bad_files_give_one_line_naming_the_file(tmp_path: Path, content: bytes | None, problem: str) -> None:
    path = tmp_path / "cards.json"
    if content is not None:
        path.write_bytes(content)
    with pytest.raises(InputError) as raised:
        CardCatalog.from_path(path)
    message = str(raised.value)
    assert message.startswith(f"{path}: ")
    assert problem in message
    assert "\n" not in message


def test_a_directory_is_not_a_card_file(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="is a directory"):
        CardCatalog.from_path(tmp_path)


def test_an_index_file_can_be_passed_as_cards(tmp_path: Path) -> None:
    db = tmp_path / "cards.sqlite"
    import_bulk(ORACLE, db, progress=False)
    catalog = CardCatalog.from_path(db)
    assert catalog.lookup("contact other plane").layout == "normal"
    assert "Grizzly Bears" not in catalog


# -- where card data comes from ------------------------------------------------------------------


def test_explicit_path_comes_first(clean_env: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MTGDICE_CARDS", str(clean_env / "does-not-exist.json"))
    assert default_catalog(ORACLE).source == str(ORACLE)


def test_environment_comes_second(clean_env: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MTGDICE_CARDS", str(ORACLE))
    import_bulk(FIXTURES / "all-cards.json", clean_env / "data" / "mtgdice" / "cards.sqlite", progress=False)
    assert default_catalog(None).source == str(ORACLE)


def test_local_index_comes_third(clean_env: Path) -> None:
    import_bulk(ORACLE, clean_env / "data" / "mtgdice" / "cards.sqlite", progress=False)
    catalog = default_catalog(None)
    assert catalog.source.startswith("the card index ")
    assert catalog.lookup("Pixie Guide").oracle_text.startswith("Flying\n")


def test_index_path_from_environment(clean_env: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = clean_env / "elsewhere.sqlite"
    import_bulk(ORACLE, db, progress=False)
    monkeypatch.setenv("MTGDICE_INDEX", str(db))
    assert default_catalog(None).lookup("clam-i-am").name == "Clam-I-Am"


def test_no_card_data_says_what_to_do(clean_env: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MTGDICE_EMBEDDED_CARDS", "0")  # else the data inside the package is found
    with pytest.raises(InputError) as raised:
        default_catalog(None)
    assert str(raised.value) == (
        "cards: no card data: pass --cards PATH, set MTGDICE_CARDS, or run 'mtgdice cards import FILE'"
    )
