"""Real PostgreSQL and Redis servers for the tests, on 127.0.0.1, in a temporary folder.

``start(folder)`` runs ``initdb`` and ``pg_ctl start`` (as an unprivileged user when run as root:
PostgreSQL refuses root) and ``redis-server --save ''`` on free loopback ports, and returns their
addresses; ``stop(folder)`` stops both (also after a failure, from whatever was started). The
tests' fixture (``conftest.py``) uses the servers ``.ci/run`` started (``MTGDICE_TEST_DATABASE``,
``MTGDICE_TEST_BROKER``), else starts its own when the binaries are installed, else skips —
or fails when ``MTGDICE_REQUIRE_SERVICES=1``.

    python tests/services.py start FOLDER   # prints export lines for the shell
    python tests/services.py stop FOLDER
"""

from __future__ import annotations

import glob
import json
import os
import pwd
import shutil
import socket
import subprocess
import sys
import time
import uuid
from dataclasses import dataclass
from pathlib import Path

UNPRIVILEGED = "nobody"
PG_USER = "mtgdice"


class ServicesMissing(RuntimeError):
    """PostgreSQL or Redis is not installed here."""


@dataclass(frozen=True)
class Services:
    database: str
    """``postgresql://mtgdice@127.0.0.1:PORT/postgres`` (a maintenance database: make one per test)."""
    broker: str
    """``redis://127.0.0.1:PORT/0``."""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def pg_bin() -> Path:
    """The folder of PostgreSQL's programs: Debian's newest, else where ``pg_ctl`` is on the path."""
    candidates = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"), key=lambda path: int(path.split("/")[4]))
    if candidates:
        return Path(candidates[-1]).parent
    found = shutil.which("pg_ctl")
    if found and (Path(found).resolve().parent / "initdb").exists():
        return Path(found).resolve().parent
    raise ServicesMissing("PostgreSQL is not installed (no pg_ctl; Debian: apt-get install postgresql)")


def redis_bin() -> Path:
    found = shutil.which("redis-server") or ("/usr/bin/redis-server" if Path("/usr/bin/redis-server").exists() else "")
    if not found:
        raise ServicesMissing("Redis is not installed (no redis-server; Debian: apt-get install redis-server)")
    return Path(found)


def available() -> str | None:
    """Why the servers cannot be started here, or None when they can."""
    try:
        pg_bin()
        redis_bin()
    except ServicesMissing as missing:
        return str(missing)
    return None


def _as_user() -> dict[str, object]:
    if os.geteuid() != 0:
        return {}
    return {"user": UNPRIVILEGED, "group": pwd.getpwnam(UNPRIVILEGED).pw_gid}


def _own(path: Path) -> None:
    if os.geteuid() == 0:
        entry = pwd.getpwnam(UNPRIVILEGED)
        os.chown(path, entry.pw_uid, entry.pw_gid)


def _run(command: list[str], **options: object) -> None:
    result = subprocess.run(command, capture_output=True, text=True, timeout=120, **_as_user(), **options)  # type: ignore[call-overload]
    if result.returncode != 0:
        raise RuntimeError(f"{command[0]} failed: {(result.stdout + result.stderr)[-2000:]}")


def start(folder: Path) -> Services:
    """Start PostgreSQL and Redis under ``folder`` (created; made the unprivileged user's)."""
    folder.mkdir(parents=True, exist_ok=True)
    folder.chmod(0o755)
    _own(folder)
    bindir, redis = pg_bin(), redis_bin()
    pg_port, redis_port = free_port(), free_port()
    data = folder / "pg"
    _run([str(bindir / "initdb"), "-D", str(data), "-U", PG_USER, "--auth=trust", "-E", "UTF8", "--no-sync"])
    options = f"-p {pg_port} -k {folder} -c listen_addresses=127.0.0.1 -c max_connections=200"
    _run([str(bindir / "pg_ctl"), "-D", str(data), "-o", options, "-l", str(folder / "pg.log"), "-w", "start"])
    (folder / "services.json").write_text(
        json.dumps(
            {"pg_data": str(data), "pg_bin": str(bindir), "pg_options": options, "pg_log": str(folder / "pg.log")}
        )
    )
    _run(
        [
            str(redis),
            "--port",
            str(redis_port),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--appendonly",
            "no",
            "--daemonize",
            "yes",
            "--dir",
            str(folder),
            "--pidfile",
            str(folder / "redis.pid"),
            "--logfile",
            str(folder / "redis.log"),
        ]
    )
    deadline = time.monotonic() + 120  # a guard against a hang (a busy machine), not a timing claim
    while True:
        try:
            with socket.create_connection(("127.0.0.1", redis_port), timeout=1) as probe:
                probe.sendall(b"PING\r\n")
                if probe.recv(16).startswith(b"+PONG"):
                    break
        except OSError:
            if time.monotonic() > deadline:
                stop(folder)
                raise RuntimeError(f"redis-server did not answer on port {redis_port} within 120 s") from None
            time.sleep(0.05)
    return Services(f"postgresql://{PG_USER}@127.0.0.1:{pg_port}/postgres", f"redis://127.0.0.1:{redis_port}/0")


def stop(folder: Path) -> None:
    """Stop what :func:`start` started under ``folder`` (whatever of it is running) and remove it."""
    pidfile = folder / "redis.pid"
    if pidfile.exists():
        try:
            os.kill(int(pidfile.read_text().strip()), 15)
        except (ValueError, ProcessLookupError):
            pass
    info = folder / "services.json"
    if info.exists():
        paths = json.loads(info.read_text())
        subprocess.run(
            [str(Path(paths["pg_bin"]) / "pg_ctl"), "-D", paths["pg_data"], "-m", "fast", "-w", "stop"],
            capture_output=True,
            timeout=60,
            **_as_user(),  # type: ignore[call-overload]
        )
    shutil.rmtree(folder, ignore_errors=True)


def stop_postgres(folder: Path) -> None:
    """Stop the PostgreSQL of ``folder`` at once (``-m immediate``: as if it crashed), keeping its data."""
    paths = json.loads((folder / "services.json").read_text())
    _run([str(Path(paths["pg_bin"]) / "pg_ctl"), "-D", paths["pg_data"], "-m", "immediate", "-w", "stop"])


def start_postgres(folder: Path) -> None:
    """Start the PostgreSQL of ``folder`` again, on its port, with its data."""
    paths = json.loads((folder / "services.json").read_text())
    command = [str(Path(paths["pg_bin"]) / "pg_ctl"), "-D", paths["pg_data"], "-o", paths["pg_options"]]
    _run([*command, "-l", paths["pg_log"], "-w", "start"])


def new_database(maintenance: str) -> str:
    """A fresh, empty database on the server of ``maintenance``; its address."""
    import psycopg

    name = "t_" + uuid.uuid4().hex[:16]
    with psycopg.connect(maintenance, autocommit=True) as connection:
        connection.execute(f"CREATE DATABASE {name}")
    return maintenance.rsplit("/", 1)[0] + "/" + name


def flush_broker(broker: str) -> None:
    import redis

    client = redis.Redis.from_url(broker)
    client.flushall()
    client.close()


def main() -> None:
    if len(sys.argv) != 3 or sys.argv[1] not in ("start", "stop"):
        raise SystemExit("usage: services.py start|stop FOLDER")
    folder = Path(sys.argv[2])
    if sys.argv[1] == "stop":
        stop(folder)
        return
    services = start(folder)
    print(f"export MTGDICE_TEST_DATABASE={services.database}")
    print(f"export MTGDICE_TEST_BROKER={services.broker}")


if __name__ == "__main__":
    main()
