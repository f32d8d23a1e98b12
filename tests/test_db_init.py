"""``mtgdice db init``: the schema created in a fresh database, the role's rights checked, a role
that may not write named line by line (exit 1)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.timeout(300)


def db_init(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mtgdice.cli", "db", "init", *args], capture_output=True, text=True, timeout=120
    )


def test_db_init_creates_a_sqlite_schema(tmp_path: Path) -> None:
    done = db_init(str(tmp_path / "rooms.sqlite"))
    assert done.returncode == 0, done.stderr
    assert "FAIL" not in done.stdout and "ready for mtgdice serve" in done.stdout
    from mtgdice.log import open_log
    from mtgdice.log.store import SCHEMA_VERSION

    with open_log(tmp_path / "rooms.sqlite") as log:
        assert log.schema_versions()[-1] == SCHEMA_VERSION


def test_db_init_on_postgresql_checks_the_role(postgres: str) -> None:
    pytest.importorskip("psycopg")
    import psycopg

    done = db_init(postgres, "--workers", "4")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "may read, insert, update and delete in rolls" in done.stdout and "4 workers keep up to 32" in done.stdout
    # A role that may only read: every write right it lacks is named, exit status 1.
    name = postgres.rsplit("/", 1)[1]
    with psycopg.connect(postgres, autocommit=True) as connection:
        connection.execute("DROP ROLE IF EXISTS reader_" + name)
        connection.execute(f"CREATE ROLE reader_{name} LOGIN")
        connection.execute(f"GRANT SELECT ON ALL TABLES IN SCHEMA public TO reader_{name}")
    reader = postgres.replace("//mtgdice@", f"//reader_{name}@")
    refused = db_init(reader)
    assert refused.returncode == 1, refused.stdout + refused.stderr
    lines = [line for line in refused.stdout.splitlines() if line.startswith("FAIL")]
    assert any("insert, update and delete in rooms" in line for line in lines), refused.stdout
    assert any("sequence rolls_id_seq" in line for line in lines), refused.stdout


def test_db_init_names_an_unreachable_database() -> None:
    done = db_init("postgresql://nobody@127.0.0.1:1/none")
    assert done.returncode != 0 and done.stderr.count("\n") == 1 and "database" in done.stderr
