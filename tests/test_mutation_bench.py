"""The mutation measure itself (bench/mutation.py): test ids mutmut can hand back to pytest, a sample
that keeps each module's share, and survivors located by file and line in the unmutated source."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]


def _bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_mutation", ROOT / "bench" / "mutation.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_golden_test_ids_are_ascii_and_distinct() -> None:
    from test_golden import GOLDEN, golden_id

    ids = [golden_id(fixture) for fixture in GOLDEN]
    assert all(test_id.isascii() for test_id in ids)
    assert len(set(ids)) == len(ids) == len(GOLDEN)
    assert "Chicken a la King" in ids  # "Chicken à la King", accent dropped


def test_the_sample_takes_one_in_n_within_each_module() -> None:
    bench = _bench()
    names = [f"mtgdice.rules.tables.x_check_rows__mutmut_{i}" for i in range(1, 8)]
    names += [f"mtgdice.odds.chain.x__solve__mutmut_{i}" for i in range(1, 4)]
    picked = bench.pick(names, 3, 0)
    assert [name for name in picked if ".tables." in name] == sorted(n for n in names if ".tables." in n)[::3]
    assert len([name for name in picked if ".chain." in name]) == 1
    assert set(bench.pick(names, 3, 1)).isdisjoint(picked)
    assert sorted(bench.pick(names, 1, 0)) == sorted(names)


def test_the_default_selection_exists_and_expands_the_folders() -> None:
    bench = _bench()
    for test in bench.TESTS:
        assert (ROOT / test.split("::")[0]).is_file(), test
    modules = bench.expand(["rules", "odds/chain.py"])
    assert "rules/effects/reroll.py" in modules and "odds/chain.py" in modules
    assert "rules/arrays.py" not in modules and modules == sorted(set(modules))


def test_a_survivor_is_placed_on_its_line() -> None:
    bench = _bench()
    diff = "\n".join(
        [
            "--- src/mtgdice/rules/tables.py",
            "+++ src/mtgdice/rules/tables.py",
            "@@ -3,4 +3,4 @@",  # line 1 is the def, line 2 its docstring
            "     previous_high: int | None = None",
            "     for position, row in enumerate(rows):",
            "-        if row.high is not None and row.high < row.low:",
            "+        if row.high is not None and row.high <= row.low:",
        ]
    )
    assert bench.changed_line(diff) == 5
    source = (ROOT / "src" / "mtgdice" / "rules" / "tables.py").read_text(encoding="utf-8").splitlines()
    where = bench.where("mtgdice.rules.tables.x_check_rows__mutmut_3", diff)
    path, line = where.split(":")
    assert path == "rules/tables.py"
    assert source[int(line) - 1].strip() == "if row.high is not None and row.high < row.low:"
    assert bench.module_of("mtgdice.rules.conditions.xǁInRangeǁdescribe__mutmut_11") == "mtgdice.rules.conditions"
    assert bench.kind("mtgdice.rules.conditions.xǁInRangeǁdescribe__mutmut_11", diff) == "describe"


def test_rounds_of_a_sample_partition_it_and_each_keeps_every_module() -> None:
    bench = _bench()
    names = [f"mtgdice.rules.tables.x_check_rows__mutmut_{i}" for i in range(1, 41)]
    names += [f"mtgdice.odds.chain.x__solve__mutmut_{i}" for i in range(1, 21)]
    sample = bench.pick(names, 10, 0)
    rounds = [bench.pick(names, 20, 0 + r * 10) for r in range(2)]
    assert sorted(rounds[0] + rounds[1]) == sorted(sample) and set(rounds[0]).isdisjoint(rounds[1])
    for chosen in rounds:
        assert any(".tables." in name for name in chosen) and any(".chain." in name for name in chosen)


def test_the_scratch_conftest_plugin_sets_the_limit_it_is_given() -> None:
    bench = _bench()
    assert "TIMEOUT_S = 0.0" in bench.FASTEST_FIRST  # the placeholder prepare() replaces
    compile(bench.FASTEST_FIRST.replace("TIMEOUT_S = 0.0", "TIMEOUT_S = 120.0"), "conftest", "exec")


def test_the_wilson_interval_matches_the_textbook_values() -> None:
    bench = _bench()
    # Wilson (1927) score interval, 95 %: 9 of 10 → 0.596 to 0.982; 0 of 10 → 0 to 0.278.
    assert [round(x, 3) for x in bench.wilson(9, 10)] == [0.596, 0.982]
    assert [round(x, 3) for x in bench.wilson(0, 10)] == [0.0, 0.278]
