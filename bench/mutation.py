"""Mutation testing as a measure: mutmut over ``rules/`` and ``odds/``, module by module.

Copies ``src/`` and ``tests/`` to a scratch folder (mutmut writes its ``mutants/`` tree next to the
code it mutates; the work tree stays clean), points mutmut at the chosen modules and the chosen
fast tests, runs it with one worker (the machine is shared) and a per-mutant CPU-time limit, and
writes a Markdown report to ``bench/results/mutation-<date>.md``: the score (killed or timed out /
every mutant run), the same per module, the counts mutmut gives, and every survivor by file:line,
kind and diff.

    .venv/bin/pip install -e '.[mutation]'
    .venv/bin/python bench/mutation.py                            # all of rules/ and odds/
    .venv/bin/python bench/mutation.py --modules odds --sample 4  # one mutant in 4 of odds/
    .venv/bin/python bench/mutation.py --modules rules/tables.py --tests tests/test_cr706.py

Not selected: ``tests/test_bad_input.py`` runs the installed ``mtgdice`` command in a subprocess,
which imports the package as installed, not mutmut's mutated copy, and mutmut cannot see which
functions a subprocess reaches; the one-line messages it checks are read in-process by
``tests/test_mutation_messages.py`` instead.

``--modules`` takes files or folders under ``src/mtgdice`` (a folder: every module in it and below).
``--sample N`` runs one mutant in N, taken within each module (every Nth by sorted name, from
``--offset``), so each module keeps its share; the report says so and scores the sample only.
``--rounds R`` runs that sample in R rounds, each itself one mutant in N x R within each module
(round r from ``--offset`` + r x N): mutmut runs the fastest mutants first, so a run cut short by
the wall-time budget would otherwise leave out exactly the slowest modules; cut short between
rounds, the completed rounds are still a sample that keeps every module's share, and the report
scores those.

Speed without changing a verdict: each mutant's tests run fastest first (a plugin added to the
scratch copy's ``conftest.py`` sorts them by the durations mutmut recorded), so ``-x`` stops a killed
mutant at its cheapest failing test; a survivor runs every test either way. ``--timeout S`` gives
each test a wall-time limit (pytest-timeout), a guard against a hang that the CPU-time limit does
not see; a test that runs out fails, and the mutant counts as killed.

Honesty of the count: mutmut hands each mutant the ids of the tests that reached its function; a
test id pytest cannot find back would end the run with "no tests" or an error that mutmut may count
as a kill. Before any mutant runs, every test id mutmut recorded is checked to be ASCII and to be
collected again by pytest, one for one; otherwise the run stops. A mutant no selected test reaches
counts as "no tests" and is reported apart (a gap of the selection, not of the code); it still
counts against the score.

The shared folder (card data) is found as the tests find it (``MTGDICE_SHARED`` or next to the
repository).
"""

from __future__ import annotations

import argparse
import ast
import datetime
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "mtgdice"

MODULES = ("rules", "odds")
"""Mutated by default: every module of ``rules/`` and ``odds/`` (folders expand to their modules)."""

SKIP_MODULES = ("rules/arrays.py",)
"""Modules left out of a folder: type aliases only (nothing mutmut can mutate that runs)."""

TESTS = (
    "tests/test_reference.py",
    "tests/test_reroll_permissions.py",
    "tests/test_bounds.py",
    "tests/test_cr706.py",
    "tests/test_rules_effects.py",
    "tests/test_rules_decisions.py",
    "tests/test_odds.py",
    "tests/test_odds_reading.py",
    "tests/test_compose.py",
    "tests/test_coins.py",
    "tests/test_budget.py",
    "tests/test_plain_dice.py",
    "tests/test_plain_notation.py::test_plain_rolls_read_their_faces",
    "tests/test_plain_notation.py::test_bad_notation_is_one_line_naming_dice",
    "tests/test_plain_notation.py::test_draws_are_bounded_whatever_the_faces",
    "tests/test_table.py",
    "tests/test_table_rows_and_pairs.py",
    "tests/test_modifiers_and_extra_dice.py",
    "tests/test_properties.py",
    "tests/test_golden.py",
    "tests/test_mutation_messages.py",
    "tests/test_mutation_describe.py",
    "tests/test_mutation_paths.py",
    "tests/test_mutation_chain.py",
    "tests/test_mutation_vector.py",
    "tests/test_mutation_laws.py",
    "tests/test_mutation_limits.py",
    "tests/test_mutation_values.py",
    "tests/test_mutation_json.py",
    "tests/test_mutation_board.py",
    "tests/test_mutation_decisions.py",
    "tests/test_mutation_coins.py",
    "tests/test_mutation_compare.py",
    "tests/test_mutation_budget_paths.py",
    "tests/test_mutation_more.py",
    "tests/test_mutation_sources.py",
    "tests/test_mutation_triggers.py",
    "tests/test_mutation_coin_odds.py",
    "tests/test_mutation_coin_rules.py",
    "tests/test_mutation_settle.py",
    "tests/test_mutation_lone_die.py",
    "tests/test_mutation_reroll_chains.py",
    # Fast subsets of the slow files: a few cases each, chosen to reach the vectorised simulation
    # and the differential comparisons without running every board per mutant.
    "tests/test_sim.py::test_seeded_simulation_is_reproducible",
    "tests/test_sim.py::test_large_pool_vectorised_matches_exact",
    "tests/test_sim.py::test_a_negative_seed_is_refused_naming_the_field",
    "tests/test_sim.py::test_simulation_agrees_with_exact_odds[Wizard's Spellbook+Pixie Guide]",
    "tests/test_sim.py::test_simulation_agrees_with_exact_odds[Hoarding Ogre+Pixie Guide+Critical Hit]",
    "tests/test_sim.py::test_simulation_agrees_with_exact_odds[Delina, Wild Mage+Pixie Guide]",
    "tests/test_sim.py::test_simulation_agrees_with_exact_odds[Treasure Chest+Barbarian Class]",
    "tests/test_sim.py::test_simulation_agrees_with_exact_odds[Netherese Puzzle-Ward+alone]",
    "tests/test_sim.py::test_simulation_agrees_with_exact_odds[Goblin Bowling Team+Clam-I-Am]",
    "tests/test_differential.py::test_every_dev_card_roll_agrees_with_the_naive_reference[pair each die]",
    "tests/test_differential.py::test_every_dev_card_roll_agrees_with_the_naive_reference[reroll permission]",
)
"""Tests run against each mutant by default (mutmut runs, per mutant, only those that reached the
mutated function): fast, exact, and aimed at the modules above."""

SLOW = (
    "tests/test_odds.py::test_fast_paths_equal_brute_force",
    "tests/test_odds.py::test_cli_odds_table_and_plot",
    "tests/test_rules_effects.py::test_the_nth_die_counts_across_repeats_and_earlier_rolls",
    "tests/test_rules_effects.py::test_repeat_two_more_times_counts_repeats_of_repeats",
    "tests/test_rules_effects.py::test_third_die_each_turn_with_an_intervening_its_result",
    "tests/test_compose.py::test_dev_card_rolls_composed_equal_brute_force[thumb and pixie, decline]",
    "tests/test_coins.py::test_roll_odds_and_replay_of_a_coin_card",
    "tests/test_compose.py::test_a_stored_roll_with_a_reroll_composes_to_brute_force[pixie+thumb-accept]",
)
"""Tests left out of the default selection: seconds each, and every mutant they reach would run them."""

STATUS = re.compile(r"^\s*(?P<name>\S+): (?P<status>.+?)\s*$")
MUTANT = re.compile(r"^(?P<module>[\w.]+)\.x(?:ǁ(?P<cls>\w+)ǁ)?_?(?P<function>\w+?)__mutmut_(?P<number>\d+)$")
DETECTED = ("killed", "timeout")
"""Statuses that count as detected: a test failed, or the mutant ran past its CPU-time limit (an
endless loop the tests ran into; mutmut scores it the same way)."""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--modules", default=",".join(MODULES), help="files or folders under src/mtgdice, comma-separated"
    )
    parser.add_argument("--tests", action="append", default=None, help="a test file or id (repeat the option for more)")
    parser.add_argument("--children", type=int, default=1, help="mutmut workers (the machine is shared)")
    parser.add_argument(
        "--deselect", action="append", default=None, help="a test id left out (repeat the option for more)"
    )
    parser.add_argument("--minutes", type=float, default=60.0, help="wall-time budget; mutmut is stopped then")
    parser.add_argument("--sample", type=int, default=1, help="run one mutant in N within each module")
    parser.add_argument("--offset", type=int, default=0, help="which one of the N (0 .. N-1)")
    parser.add_argument("--rounds", type=int, default=1, help="run the sample in R stratified rounds")
    parser.add_argument("--timeout", type=float, default=0.0, help="per-test wall-time limit, s (0: none)")
    parser.add_argument("--only", default="", help="run only these mutant names (comma-separated globs)")
    parser.add_argument(
        "--timeout-multiplier",
        type=float,
        default=3.0,
        help="per-mutant CPU-time limit: 2 x multiplier x (the clean time of its tests + the constant)",
    )
    parser.add_argument("--timeout-constant", type=float, default=2.0, help="seconds added before multiplying")
    parser.add_argument("--keep", action="store_true", help="keep the scratch folder (printed)")
    parser.add_argument("--report-from", default=None, help="report on an existing scratch folder, run nothing")
    parser.add_argument(
        "--merge",
        default=None,
        help="with --report-from: a kept folder of a later run (--only) whose verdicts replace the first's",
    )
    parser.add_argument(
        "--equivalent",
        default=None,
        help="a file of mutant names shown equivalent (one a line, # comments): scored apart as well",
    )
    parser.add_argument("--out", default=None, help="report path (default bench/results/mutation-<date>.md)")
    args = parser.parse_args(argv)
    modules = expand([module.strip() for module in args.modules.split(",") if module.strip()])
    tests = list(args.tests or TESTS)
    deselect = list(args.deselect if args.deselect is not None else SLOW)

    if args.report_from:
        scratch = Path(args.report_from)
        sample = None
        if args.sample > 1:
            known = parse(results(scratch))
            sample = pick(list(known), args.sample, args.offset)
            if args.rounds > 1:
                rounds = [
                    pick(list(known), args.sample * args.rounds, args.offset + r * args.sample)
                    for r in range(args.rounds)
                ]
                done = [chosen for chosen in rounds if all(known[name] != "not checked" for name in chosen)]
                args.rounds_done = len(done)
                sample = [name for chosen in done for name in chosen] or sample
        return report(scratch, modules, tests, deselect, None, args, sample)
    scratch = Path(tempfile.mkdtemp(prefix="mtgdice-mutation-"))
    try:
        prepare(scratch, modules, tests, deselect, args)
        started = time.monotonic()
        every = generated(scratch, args.children, args.minutes * 60)
        check_test_ids(scratch)
        names = [name.strip() for name in args.only.split(",") if name.strip()]
        sample: list[str] | None = None
        rounds: list[list[str]] = [names]
        if args.sample > 1:
            sample = pick(every, args.sample, args.offset)
            rounds = [pick(every, args.sample * args.rounds, args.offset + r * args.sample) for r in range(args.rounds)]
        completed: list[str] = []
        for number, chosen in enumerate(rounds, 1):
            left = args.minutes * 60 - (time.monotonic() - started)
            finished = run_mutants(scratch, chosen, args.children, left, number)
            if not finished:
                sys.stderr.write(f"mutation: round {number} of {len(rounds)} cut short by the wall-time budget\n")
                break
            completed += chosen
        args.rounds_done = len(rounds)
        if sample is not None and args.rounds > 1:
            sample = completed or sample
            args.rounds_done = sum(1 for chosen in rounds if set(chosen) <= set(completed))
        return report(scratch, modules, tests, deselect, time.monotonic() - started, args, sample)
    finally:
        if args.keep:
            print(f"scratch folder kept: {scratch}")
        else:
            shutil.rmtree(scratch, ignore_errors=True)


def run_mutants(scratch: Path, names: list[str], children: int, seconds: float, number: int) -> bool:
    """One ``mutmut run`` of ``names`` (every mutant if empty); False if the budget cut it short."""
    with (scratch / f"mutmut-run-{number}.log").open("w") as log:
        process = subprocess.Popen(
            ["mutmut", "run", "--max-children", str(children), *names],
            cwd=scratch,
            env=environment(),
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        try:
            process.wait(timeout=max(seconds, 1))
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGTERM)  # mutmut and its workers: the session it leads
            process.wait()
            return False
    if process.returncode != 0:
        tail = (scratch / f"mutmut-run-{number}.log").read_text(errors="replace")[-3000:]
        sys.stderr.write(f"mutation: mutmut run {number} ended with status {process.returncode}:\n{tail}\n")
    return True


def expand(named: list[str]) -> list[str]:
    """Files and folders under src/mtgdice as module paths (``rules/tables.py``), sorted, once each."""
    found: list[str] = []
    for name in named:
        path = PACKAGE / name
        if path.is_dir():
            found += [
                module
                for module in (str(p.relative_to(PACKAGE)) for p in sorted(path.rglob("*.py")))
                if module not in SKIP_MODULES
            ]
        elif path.is_file() and path.suffix == ".py":
            found.append(name)
        else:
            raise SystemExit(f"mutation: --modules: {name!r} is neither a module nor a folder under src/mtgdice")
    return sorted(dict.fromkeys(found))


def pick(names: list[str], every: int, offset: int) -> list[str]:
    """One name in ``every`` within each module, from ``offset``: a sample that keeps each module's share."""
    by_module: dict[str, list[str]] = {}
    for name in sorted(names):
        by_module.setdefault(module_of(name), []).append(name)
    return [name for group in by_module.values() for name in group[offset % every :: every]]


def module_of(name: str) -> str:
    match = MUTANT.match(name)
    return match["module"] if match else name.rsplit(".", 1)[0]


def generated(scratch: Path, children: int, budget: float) -> list[str]:
    """Every mutant name, from a first ``mutmut run`` stopped once it has generated the mutants and
    collected which tests reach which function (the second run, on a sample, reuses both)."""
    process = subprocess.Popen(
        ["mutmut", "run", "--max-children", str(children)],
        cwd=scratch,
        env=environment(),
        stdout=(scratch / "mutmut-stats.log").open("w"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    stats = scratch / "mutants" / "mutmut-stats.json"
    started = time.monotonic()
    while process.poll() is None and not stats.exists() and time.monotonic() - started < budget:
        time.sleep(2)
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait()
    if not stats.exists():
        tail = (scratch / "mutmut-stats.log").read_text(errors="replace")[-3000:]
        raise SystemExit(f"mutation: mutmut collected no test statistics:\n{tail}")
    return sorted(parse(results(scratch)))


def check_test_ids(scratch: Path) -> None:
    """Stop unless every test id mutmut recorded is ASCII and pytest collects each of them back."""
    stats = json.loads((scratch / "mutants" / "mutmut-stats.json").read_text(encoding="utf-8"))
    recorded = set(stats.get("duration_by_test", {}))
    for tests in stats.get("tests_by_mangled_function_name", {}).values():
        recorded |= set(tests)
    if not recorded:
        raise SystemExit("mutation: mutmut recorded no test at all")
    foreign = sorted(test for test in recorded if not test.isascii())
    if foreign:
        raise SystemExit(f"mutation: test ids outside ASCII would not reach pytest intact: {foreign[:5]}")
    listing = scratch / "mutation-ids.txt"
    listing.write_text("\n".join(sorted(recorded)) + "\n", encoding="utf-8")
    collected = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", "--rootdir=."]
        + sorted(recorded),
        cwd=scratch / "mutants",
        env=environment(),
        capture_output=True,
        text=True,
    )
    found = {line.strip() for line in collected.stdout.splitlines() if "::" in line}
    missing = sorted(recorded - found)
    if collected.returncode != 0 or missing:
        raise SystemExit(
            f"mutation: pytest does not collect back {len(missing)} recorded test id(s), e.g. {missing[:3]}"
            f" (status {collected.returncode}):\n{collected.stdout[-2000:]}{collected.stderr[-2000:]}"
        )


def results(scratch: Path) -> str:
    return subprocess.run(
        ["mutmut", "results", "--all", "true"], cwd=scratch, env=environment(), capture_output=True, text=True
    ).stdout


def report(
    scratch: Path,
    modules: list[str],
    tests: list[str],
    deselect: list[str],
    seconds: float | None,
    args: Any,
    sample: list[str] | None = None,
) -> int:
    """Read mutmut's results in ``scratch`` and write the Markdown report (over ``sample`` only, if given)."""
    listed = results(scratch)
    statuses = parse(listed)
    later = Path(args.merge) if getattr(args, "merge", None) else None
    rerun: dict[str, str] = {}
    if later is not None:
        # A later run of some of these mutants (the survivors and untested, against tests written
        # since): a kill there stands; anything else leaves the first run's verdict, since the later
        # run may select only the new tests.
        rerun = {name: status for name, status in parse(results(later)).items() if status in DETECTED}
        statuses.update({name: status for name, status in rerun.items() if name in statuses})
    if sample is not None:
        chosen = set(sample)
        statuses = {name: status for name, status in statuses.items() if name in chosen}
    if not statuses:
        sys.stderr.write(listed[-4000:])
        sys.stderr.write("mutation: mutmut reported no mutants (output above)\n")
        return 1
    diffs = show([name for name, status in statuses.items() if status not in (*DETECTED, "not checked")], scratch)
    text = render(modules, tests, deselect, statuses, diffs, seconds, args)
    if rerun:
        again = sum(1 for name in rerun if name in statuses)
        text = text.replace(
            "\n## By module",
            f"\n{again} of these mutants, survivors or untested in the first run, were killed by a second run"
            " of those mutants against the tests written since (verdicts of the rest: the first run).\n"
            "\n## By module",
            1,
        )
    out = Path(args.out) if args.out else ROOT / "bench" / "results" / f"mutation-{datetime.date.today()}.md"
    out.write_text(text, encoding="utf-8")
    print(text.split("\n## Survivors")[0])
    print(f"report written to {out}")
    return 0


SHOW = """
import json, sys
from mutmut.mutation.data import SourceFileMutationData
from mutmut.mutation.diff_apply import get_diff_for_mutant
from mutmut.utils.file_utils import walk_mutatable_files
paths = {}
for path in walk_mutatable_files():
    data = SourceFileMutationData(path=path)
    data.load()
    paths.update(dict.fromkeys(data.exit_code_by_key, path))
names = json.load(sys.stdin)
print(json.dumps({name: get_diff_for_mutant(name, path=paths[name]) for name in names if name in paths}))
"""
"""``mutmut show`` for many mutants in one process (``mutmut show`` loads every module's data per name)."""


def show(names: list[str], scratch: Path) -> dict[str, str]:
    """The diff of each mutant in ``names`` (mutmut's own diff; one ``mutmut show`` each as a fallback)."""
    if not names:
        return {}
    done = subprocess.run(
        [sys.executable, "-c", SHOW],
        cwd=scratch,
        env=environment(),
        input=json.dumps(names),
        capture_output=True,
        text=True,
    )
    try:
        found: dict[str, str] = json.loads(done.stdout)
    except json.JSONDecodeError:
        found = {}
    for name in names:
        if name not in found:
            found[name] = subprocess.run(
                ["mutmut", "show", name], cwd=scratch, env=environment(), capture_output=True, text=True
            ).stdout
    return found


def environment() -> dict[str, str]:
    """The environment mutmut runs in: no PYTHONPATH (mutmut puts its mutated copy first)."""
    env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    env["MTGDICE_REQUIRE_SHARED"] = "1"
    env["MTGDICE_SHARED"] = str(shared_folder())
    env["HYPOTHESIS_PROFILE"] = "ci"  # derandomized: every mutant meets the same examples as the clean run
    return env


def shared_folder() -> Path:
    named = os.environ.get("MTGDICE_SHARED")
    return Path(named) if named else ROOT.parent / "shared"


def toml_list(items: list[str]) -> str:
    return ", ".join(json.dumps(item) for item in items)


def prepare(scratch: Path, modules: list[str], tests: list[str], deselect: list[str], args: Any) -> None:
    """The scratch copy: src/, tests/ and a pyproject.toml that configures mutmut and pytest."""
    shutil.copytree(ROOT / "src", scratch / "src", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(ROOT / "tests", scratch / "tests", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(ROOT / "docs", scratch / "docs")  # tests read the documented limits
    for test in tests:
        if not (scratch / test.split("::")[0]).is_file():
            raise SystemExit(f"mutation: --tests: {test!r} is not in a test file")
    options = ["-p", "no:cacheprovider", "-q", "-x"]
    with (scratch / "tests" / "conftest.py").open("a", encoding="utf-8") as conftest:
        conftest.write(FASTEST_FIRST.replace("TIMEOUT_S = 0.0", f"TIMEOUT_S = {float(args.timeout)!r}"))
    for test in deselect:
        options += ["--deselect", test]
    (scratch / "pyproject.toml").write_text(
        "[tool.mutmut]\n"
        'source_paths = ["src"]\n'
        'also_copy = ["docs"]\n'
        f"only_mutate = [{toml_list([f'src/mtgdice/{module}' for module in modules])}]\n"
        f"pytest_add_cli_args_test_selection = [{toml_list(tests)}]\n"
        f"pytest_add_cli_args = [{toml_list(options)}]\n"
        f"timeout_multiplier = {args.timeout_multiplier}\n"
        f"timeout_constant = {args.timeout_constant}\n"
        "use_git_change_detection = false\n"
        "\n[tool.pytest.ini_options]\n"
        'markers = ["browser: browser", "slow: slow"]\n',
        encoding="utf-8",
    )


FASTEST_FIRST = """

# Added by bench/mutation.py to the scratch copy only: once mutmut has its statistics (the clean
# run and the mutants, not the traced run), each test gets the wall-time limit and the tests run
# fastest first.
_mutation_earlier_hook = pytest_collection_modifyitems
TIMEOUT_S = 0.0


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    import json as _json

    _mutation_earlier_hook(config, items)
    stats = Path("mutmut-stats.json")  # mutmut runs the tests from its mutants/ folder
    if stats.is_file():
        durations = _json.loads(stats.read_text(encoding="utf-8")).get("duration_by_test", {})
        items.sort(key=lambda item: durations.get(item.nodeid, 0.0))
        for item in items:
            if TIMEOUT_S and item.get_closest_marker("timeout") is None:
                item.add_marker(pytest.mark.timeout(TIMEOUT_S, method="signal"))
"""
"""Appended to the scratch copy's ``tests/conftest.py``: with ``-x``, a killed mutant stops at its
cheapest failing test; the set of tests each mutant runs is mutmut's, unchanged. The traced run
that records which tests reach which function runs many times slower, so it gets no limit."""


def parse(text: str) -> dict[str, str]:
    """``mutmut results`` lines (``name: status``) as a mapping."""
    found = {}
    for line in text.splitlines():
        match = STATUS.match(line)
        if match and "." in match["name"]:
            found[match["name"]] = match["status"]
    return found


def where(name: str, diff: str) -> str:
    """``rules/tables.py:42``: the first changed line of a mutant, in the unmutated source."""
    match = MUTANT.match(name)
    if not match:
        return "?"
    path = PACKAGE.joinpath(*match["module"].split(".")[1:]).with_suffix(".py")
    if not path.is_file():
        path = path.with_suffix("") / "__init__.py"
    relative = str(path.relative_to(PACKAGE))
    try:
        tree = ast.parse(path.read_text(encoding="utf-8"))
    except (OSError, SyntaxError):
        return relative
    scope: list[ast.stmt] = tree.body
    if match["cls"]:
        owner = next((n for n in scope if isinstance(n, ast.ClassDef) and n.name == match["cls"]), None)
        scope = owner.body if owner else []
    candidates = {match["function"], "_" + match["function"]}
    found = [n for n in scope if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef) and n.name in candidates]
    if not found:
        return relative
    # mutmut names "_solve" "x__solve": prefer the exact name, then the one with the underscore.
    function = min(found, key=lambda n: n.name != match["function"])
    start = function.lineno
    offset = changed_line(diff)
    return f"{relative}:{start + offset - 1}" if offset else f"{relative}:{start}"


def changed_line(diff: str) -> int | None:
    """The line (1 = the ``def``) of the first removed line in a ``mutmut show`` diff of one function."""
    line = None
    for text in diff.splitlines():
        hunk = re.match(r"^@@ -(\d+)", text)
        if hunk:
            line = int(hunk[1])
            continue
        if line is None or text.startswith(("---", "+++")):
            continue
        if text.startswith("-"):
            return line
        if text.startswith("+"):
            continue
        line += 1
    return line


def kind(name: str, diff: str) -> str:
    """A rough class of a surviving mutant, for reading the report (the explanations are by hand)."""
    function = (MUTANT.match(name) or {"function": ""})["function"]
    changed = [t[1:] for t in diff.splitlines() if t.startswith(("-", "+")) and not t.startswith(("---", "+++"))]
    if function in ("_details", "describe", "to_json", "details"):
        return "describe"
    if function in ("footprint", "limits"):
        return "footprint"
    if any('"XX' in t or "'XX" in t for t in changed) or any(re.search(r'f?"[^"]*[a-z ]{6,}', t) for t in changed):
        return "message"
    return "logic"


def wilson(successes: int, trials: int, z: float = 1.959964) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95 % for the default ``z``).

    >>> [round(x, 3) for x in wilson(9, 10)]
    [0.596, 0.982]
    """
    if trials == 0:
        return 0.0, 1.0
    share = successes / trials
    centre = share + z * z / (2 * trials)
    spread = z * ((share * (1 - share) + z * z / (4 * trials)) / trials) ** 0.5
    scale = 1 + z * z / trials
    return (centre - spread) / scale, (centre + spread) / scale


def wilson_text(successes: int, trials: int) -> str:
    low, high = wilson(successes, trials)
    return f"{low:.1%} to {high:.1%} ({successes} of {trials})"


def equivalent_lines(statuses: dict[str, str], args: Any) -> list[str]:
    """The score with the mutants listed in ``--equivalent`` left out of the count."""
    named = getattr(args, "equivalent", None)
    if not named:
        return []
    listed = {
        line.split("#")[0].strip()
        for line in Path(named).read_text(encoding="utf-8").splitlines()
        if line.split("#")[0].strip()
    }
    run = [name for name, status in statuses.items() if status not in ("not checked", "skipped")]
    equivalent = [name for name in run if name in listed and statuses[name] not in DETECTED]
    detected = sum(1 for name in run if statuses[name] in DETECTED)
    left = len(run) - len(equivalent)
    return [
        f"- **without the {len(equivalent)} mutants of the sample shown equivalent** (listed below): "
        f"{detected} / {left} = {detected / left if left else 0:.1%}; Wilson 95 %: {wilson_text(detected, left)}"
    ]


def render(
    modules: list[str],
    tests: list[str],
    deselect: list[str],
    statuses: dict[str, str],
    diffs: dict[str, str],
    seconds: float | None,
    args: Any,
) -> str:
    counts: dict[str, int] = {}
    per_module: dict[str, dict[str, int]] = {}
    for name, status in statuses.items():
        counts[status] = counts.get(status, 0) + 1
        row = per_module.setdefault(module_of(name), {})
        row[status] = row.get(status, 0) + 1

    def score(found: dict[str, int]) -> tuple[int, int, int]:
        detected = sum(found.get(status, 0) for status in DETECTED)
        run = sum(n for status, n in found.items() if status not in ("not checked", "skipped"))
        reached = run - found.get("no tests", 0)
        return detected, run, reached

    detected, run, reached = score(counts)
    wall = "unknown (report from a kept folder)" if seconds is None else f"{seconds / 60:.1f} min"
    every = args.sample
    lines = [
        f"# Mutation testing, {datetime.date.today()}",
        "",
        "Command: `python bench/mutation.py"
        + (f" --sample {every} --offset {args.offset}" if every > 1 else "")
        + "` (mutmut in a scratch copy; the machine was shared and busy).",
        "",
        f"- modules mutated: {', '.join(f'`{m}`' for m in modules)}",
        "- tests run against each mutant (those of them that reach its function): "
        + ", ".join(f"`{t}`" for t in tests),
        f"- left out (seconds each): {', '.join(f'`{t}`' for t in deselect) or 'none'}",
        f"- workers: {args.children}; per-mutant CPU limit: 2 x {args.timeout_multiplier} x (clean time of its"
        f" tests + {args.timeout_constant} s); wall time: {wall}",
        "- mutants run: "
        + ("every one" if every <= 1 else f"a sample, one mutant in {every} within each module (sorted by name)")
        + (
            f", in {args.rounds} stratified rounds ({getattr(args, 'rounds_done', '?')} completed and scored)"
            if every > 1 and args.rounds > 1
            else ""
        ),
        f"- per-test wall-time limit (pytest-timeout): {f'{args.timeout:g} s' if args.timeout else 'none'};"
        " each mutant's tests run fastest first (by mutmut's recorded durations), `-x`",
        f"- mutants in this report: {len(statuses)}; "
        + ", ".join(f"{status}: {n}" for status, n in sorted(counts.items())),
        f"- **score: {detected} / {run} = {detected / run if run else 0:.1%}** (killed or timed out / mutants"
        f' run; "not checked" = not run within the time budget, left out);'
        f" {detected / reached if reached else 0:.1%} of the {reached} some selected test reaches",
        f"- Wilson 95 % interval of the score: {wilson_text(detected, run)}",
        *equivalent_lines(statuses, args),
        "",
        "## By module",
        "",
        "| module | mutants | killed | timeout | survived | no tests | other | score |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for module, found in sorted(per_module.items()):
        got, ran, _ = score(found)
        other = ran - got - found.get("survived", 0) - found.get("no tests", 0)
        lines.append(
            f"| `{module}` | {sum(found.values())} | {found.get('killed', 0)} | {found.get('timeout', 0)} |"
            f" {found.get('survived', 0)} | {found.get('no tests', 0)} | {other} | "
            + (f"{got / ran:.0%} |" if ran else "– |")
        )
    lines += ["", "## Survivors", "", "| mutant | where | kind | status |", "|---|---|---|---|"]
    for name, diff in sorted(diffs.items()):
        short = name.split(".", 2)[-1]
        lines.append(f"| `{short}` | {where(name, diff)} | {kind(name, diff)} | {statuses[name]} |")
    lines.append("")
    for name, diff in sorted(diffs.items()):
        lines += [f"### {name} ({statuses[name]})", "", "```diff", diff.strip(), "```", ""]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    raise SystemExit(main())
