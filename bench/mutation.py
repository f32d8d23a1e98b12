"""Mutation testing as a measure: mutmut over chosen modules of ``rules/`` and ``odds/``.

Copies ``src/`` and ``tests/`` to a scratch folder (mutmut writes its ``mutants/`` tree next to the
code it mutates; the work tree stays clean), points mutmut at the chosen modules and the chosen
fast tests, runs it with a bounded number of workers and writes a Markdown report to
``bench/results/mutation-<date>.md``: the score (killed / every mutant generated), the same over
the mutants some selected test reaches, the counts mutmut gives, and every survivor with its diff.

    .venv/bin/pip install -e '.[mutation]'
    .venv/bin/python bench/mutation.py                      # the default modules and tests
    .venv/bin/python bench/mutation.py --modules rules/tables.py --tests tests/test_cr706.py

The shared folder (card data) is found as the tests find it (``MTGDICE_SHARED`` or next to the
repository). mutmut's own exit codes: 0 or 1 from the tests decide killed/survived; a mutant no
selected test reaches counts as "no tests" and is reported apart, since it is a gap of the test
selection, not of the code.
"""

from __future__ import annotations

import argparse
import datetime
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

MODULES = (
    "rules/conditions.py",
    "rules/tables.py",
    "rules/effects/modifier.py",
    "rules/effects/reroll.py",
    "rules/effects/replacement.py",
    "odds/chain.py",
)
"""Modules mutated by default: the ones the naive reference (tests/reference/) checks end to end."""

TESTS = (
    "tests/test_reference.py",
    "tests/test_reroll_permissions.py",
    "tests/test_bounds.py",
    "tests/test_cr706.py",
    "tests/test_rules_effects.py",
    "tests/test_odds.py",
    "tests/test_table_rows_and_pairs.py",
    "tests/test_modifiers_and_extra_dice.py",
)
"""Tests run against each mutant by default: fast, exact, and aimed at the modules above. (Test ids
with characters outside ASCII, as in tests/test_golden.py, do not survive mutmut's hand-over to
pytest: a missing test would count as a kill, so those files stay out.)"""

SLOW = (
    "tests/test_odds.py::test_fast_paths_equal_brute_force",
    "tests/test_odds.py::test_cli_odds_table_and_plot",
    "tests/test_rules_effects.py::test_the_nth_die_counts_across_repeats_and_earlier_rolls",
    "tests/test_rules_effects.py::test_repeat_two_more_times_counts_repeats_of_repeats",
    "tests/test_rules_effects.py::test_third_die_each_turn_with_an_intervening_its_result",
)
"""Tests left out of the default selection: seconds each, and every mutant they reach would run them."""

STATUS = re.compile(r"^\s*(?P<name>\S+): (?P<status>.+?)\s*$")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--modules", default=",".join(MODULES), help="modules under src/mtgdice, comma-separated")
    parser.add_argument("--tests", default=",".join(TESTS), help="test files, comma-separated")
    parser.add_argument("--children", type=int, default=1, help="mutmut workers (the machine is shared)")
    parser.add_argument("--deselect", default=",".join(SLOW), help="test ids left out, comma-separated")
    parser.add_argument("--minutes", type=float, default=20.0, help="wall-time budget; mutmut is stopped then")
    parser.add_argument("--sample", type=int, default=1, help="run every Nth mutant (sorted by name) only")
    parser.add_argument("--only", default="", help="run only these mutant names (comma-separated globs)")
    parser.add_argument("--keep", action="store_true", help="keep the scratch folder (printed)")
    parser.add_argument("--report-from", default=None, help="report on an existing scratch folder, run nothing")
    parser.add_argument("--out", default=None, help="report path (default bench/results/mutation-<date>.md)")
    args = parser.parse_args(argv)
    modules = [module.strip() for module in args.modules.split(",") if module.strip()]
    tests = [test.strip() for test in args.tests.split(",") if test.strip()]
    deselect = [test.strip() for test in args.deselect.split(",") if test.strip()]

    if args.report_from:
        return report(Path(args.report_from), modules, tests, deselect, None, args)
    scratch = Path(tempfile.mkdtemp(prefix="mtgdice-mutation-"))
    try:
        prepare(scratch, modules, tests, deselect)
        started = time.monotonic()
        names = [name.strip() for name in args.only.split(",") if name.strip()]
        sample: list[str] | None = None
        if args.sample > 1:
            sample = names = generated(scratch, args.children)[:: args.sample]
        log = (scratch / "mutmut-run.log").open("w")
        process = subprocess.Popen(
            ["mutmut", "run", "--max-children", str(args.children), *names],
            cwd=scratch,
            env=environment(),
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        try:
            process.wait(timeout=args.minutes * 60)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGTERM)  # mutmut and its workers: the session it leads
            process.wait()
        log.close()
        if process.returncode not in (0, -signal.SIGTERM):
            tail = (scratch / "mutmut-run.log").read_text(errors="replace")[-3000:]
            sys.stderr.write(f"mutation: mutmut run ended with status {process.returncode}:\n{tail}\n")
        return report(scratch, modules, tests, deselect, time.monotonic() - started, args, sample)
    finally:
        if args.keep:
            print(f"scratch folder kept: {scratch}")
        else:
            shutil.rmtree(scratch, ignore_errors=True)


def generated(scratch: Path, children: int) -> list[str]:
    """Every mutant name, from a first ``mutmut run`` stopped once it has generated the mutants and
    collected which tests reach which function (the second run, on a sample, reuses both)."""
    process = subprocess.Popen(
        ["mutmut", "run", "--max-children", str(children)],
        cwd=scratch,
        env=environment(),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    stats = scratch / "mutants" / "mutmut-stats.json"
    while process.poll() is None and not stats.exists():
        time.sleep(2)
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait()
    listed = subprocess.run(
        ["mutmut", "results", "--all", "true"], cwd=scratch, env=environment(), capture_output=True, text=True
    )
    return sorted(parse(listed.stdout))


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
    listed = subprocess.run(
        ["mutmut", "results", "--all", "true"], cwd=scratch, env=environment(), capture_output=True, text=True
    )
    statuses = parse(listed.stdout)
    if sample is not None:
        statuses = {name: status for name, status in statuses.items() if name in set(sample)}
    if not statuses:
        sys.stderr.write(listed.stdout[-4000:] + listed.stderr[-4000:])
        sys.stderr.write("mutation: mutmut reported no mutants (output above)\n")
        return 1
    diffs = {
        name: subprocess.run(
            ["mutmut", "show", name], cwd=scratch, env=environment(), capture_output=True, text=True
        ).stdout
        for name, status in statuses.items()
        if status in ("survived", "timeout", "suspicious")
    }
    text = render(modules, tests, deselect, statuses, diffs, seconds, args.children, args.sample)
    out = Path(args.out) if args.out else ROOT / "bench" / "results" / f"mutation-{datetime.date.today()}.md"
    out.write_text(text, encoding="utf-8")
    print(text.split("\n## Survivors")[0])
    print(f"report written to {out}")
    return 0


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


def prepare(scratch: Path, modules: list[str], tests: list[str], deselect: list[str]) -> None:
    """The scratch copy: src/, tests/ and a pyproject.toml that configures mutmut and pytest."""
    shutil.copytree(ROOT / "src", scratch / "src", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(ROOT / "tests", scratch / "tests", ignore=shutil.ignore_patterns("__pycache__"))
    for module in modules:
        if not (scratch / "src" / "mtgdice" / module).is_file():
            raise SystemExit(f"mutation: --modules: {module!r} is not a file under src/mtgdice")
    for test in tests:
        if not (scratch / test).is_file():
            raise SystemExit(f"mutation: --tests: {test!r} is not a test file")
    only = ", ".join(f'"src/mtgdice/{module}"' for module in modules)
    selection = ", ".join(f'"{test}"' for test in tests)
    options = ", ".join(f'"--deselect", "{test}"' for test in deselect)
    (scratch / "pyproject.toml").write_text(
        "[tool.mutmut]\n"
        'source_paths = ["src"]\n'
        f"only_mutate = [{only}]\n"
        f"pytest_add_cli_args_test_selection = [{selection}]\n"
        f'pytest_add_cli_args = ["-p", "no:cacheprovider", "-q", "-x"{", " + options if options else ""}]\n'
        "use_git_change_detection = false\n"
        "\n[tool.pytest.ini_options]\n"
        'markers = ["browser: browser", "slow: slow"]\n',
        encoding="utf-8",
    )


def parse(text: str) -> dict[str, str]:
    """``mutmut results`` lines (``name: status``) as a mapping."""
    found = {}
    for line in text.splitlines():
        match = STATUS.match(line)
        if match and "." in match["name"]:
            found[match["name"]] = match["status"]
    return found


def render(
    modules: list[str],
    tests: list[str],
    deselect: list[str],
    statuses: dict[str, str],
    diffs: dict[str, str],
    seconds: float | None,
    children: int,
    every: int = 1,
) -> str:
    counts: dict[str, int] = {}
    for status in statuses.values():
        counts[status] = counts.get(status, 0) + 1
    killed = counts.get("killed", 0)
    run = sum(n for status, n in counts.items() if status not in ("not checked", "skipped"))
    reached = sum(n for status, n in counts.items() if status not in ("not checked", "skipped", "no tests"))
    score = killed / run if run else 0.0
    reached_score = killed / reached if reached else 0.0
    wall = "unknown (report from a kept folder)" if seconds is None else f"{seconds / 60:.1f} min"
    lines = [
        f"# Mutation testing, {datetime.date.today()}",
        "",
        "Command: `python bench/mutation.py` (mutmut in a scratch copy; the machine was shared and busy).",
        "",
        f"- modules mutated: {', '.join(f'`{m}`' for m in modules)}",
        f"- tests run against each mutant: {', '.join(f'`{t}`' for t in tests)}",
        f"- left out (seconds each): {', '.join(f'`{t}`' for t in deselect) or 'none'}",
        f"- workers: {children}; wall time: {wall}",
        f"- mutants run: {'every one' if every <= 1 else f'a sample, one mutant in {every} (by sorted name)'}",
        f"- mutants in this report: {len(statuses)}; "
        + ", ".join(f"{status}: {n}" for status, n in sorted(counts.items())),
        f'- **score: {score:.1%}** (killed / mutants run; "not checked" = not run within the time budget);'
        f' {reached_score:.1%} of the mutants some selected test reaches ("no tests": none does)',
        "",
        "## Survivors",
        "",
    ]
    for name, diff in sorted(diffs.items()):
        lines += [f"### {name} ({statuses[name]})", "", "```diff", diff.strip(), "```", ""]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    raise SystemExit(main())
