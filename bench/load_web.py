"""Load test of ``mtgdice serve``: roll throughput and latency over the JSON API, and websocket fan-out.

Starts the server on 127.0.0.1 (a free port, a temporary roll log, no rate limit) in a subprocess,
then, with a bounded number of requests and a time cap on every phase (it always stops by itself):

1. **throughput**: ``--clients`` keep-alive connections post rolls (a card with a replacement on the
   board, so every roll resolves the full pipeline and is committed to the log) to one room;
   prints rolls/s and the p50/p99 latency of a roll (request sent to response read);
2. **fan-out**: ``--sockets`` websockets join the room; rolls are posted one at a time, and for each
   the delay from the HTTP response to the moment every socket has the roll is measured
   (p50/p99/max over rolls), together with the time from sending the roll to the last socket.

Targets on a 2-core machine: >= 500 rolls/s, p99 < 50 ms, fan-out < 100 ms.

    .venv/bin/python bench/load_web.py --cards ../shared/cards/dice-cards.json

The client is one asyncio process, each connection an :class:`asyncio.Protocol` that sends a request's
bytes made once and cuts the answer by its ``Content-Length`` (it shares the machine with the server:
its own CPU per roll is reported too).

``--multi`` measures ``mtgdice serve --workers N`` for N = 1, 2, 4 against PostgreSQL and Redis
(the ones in ``MTGDICE_TEST_DATABASE`` / ``MTGDICE_TEST_BROKER``, else started for the run by
``tests/services.py`` in a temporary folder and stopped after): rolls/s and p50/p99 with the
clients on one room and with each client on a room of its own, and the fan-out to ``--sockets``
websockets spread over the workers by the kernel (how many each worker got is reported, and how
many of the clients' connections each took); the CPU each part used per roll (the server's
processes, PostgreSQL, Redis when this run started them, the client), ``--rounds`` times in turn.
The kernel gives a burst of connections to whichever worker wakes first (often 7 of 8 to one);
``--balance`` connects again until each worker has its even share of the clients (a front proxy's
job in a deployment);
with the SQLite default, one process (``--no-sqlite`` leaves it out). ``--report FILE`` writes the
tables as Markdown (``bench/results/``).

    .venv/bin/python bench/load_web.py --multi --sockets 200 --report bench/results/load-web-multi.md

``--cpu`` measures the server's CPU time per roll (user + system, every process of its group, from
``/proc``) for ``mtgdice serve`` (one process, SQLite) and for the anchor, ``bench/anchor_app.py`` (a
plain FastAPI app: the same request, ``random`` dice, one SQLite row committed per roll), with the
same clients, alternating the two over ``--rounds`` rounds in one run, and prints the ratio; with
the clients on one room and with a room per client.

    .venv/bin/python bench/load_web.py --cpu --rolls 3000 --report bench/results/cpu-per-roll.md

What this script leaves out: the pages (htmx) and browsers; ``tests/test_browser.py`` covers them.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

import live_server  # noqa: E402  (tests/live_server.py: the same server start as the tests)

ROLL = {"card": "Wizard's Spellbook", "battlefield": ["Pixie Guide"], "player": "bench"}
DEFAULT_CARDS = (
    Path(os.environ.get("MTGDICE_SHARED") or Path(__file__).resolve().parents[1].parent / "shared")
    / "cards"
    / "dice-cards.json"
)  # MTGDICE_SHARED names the shared folder when it does not sit next to the repository (a git worktree)


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    index = min(len(ordered) - 1, max(0, round(fraction * (len(ordered) - 1))))
    return ordered[index]


class _Answers(asyncio.Protocol):
    """One keep-alive connection's bytes: each response (status line, head, ``Content-Length`` body)
    completes the future of the request that waits for it. No stream reader, no line by line reading:
    the bench must cost the machine as little as it can, it shares the cores with the servers."""

    def __init__(self) -> None:
        self.transport: asyncio.Transport | None = None
        self.buffer = bytearray()
        self.waiter: asyncio.Future[tuple[int, bytes]] | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]

    def data_received(self, data: bytes) -> None:
        self.buffer += data
        waiter = self.waiter
        if waiter is None or waiter.done():
            return
        end = self.buffer.find(b"\r\n\r\n")
        if end < 0:
            return
        head = bytes(self.buffer[:end]).lower()
        length = 0
        found = head.find(b"\r\ncontent-length:")
        if found >= 0:
            line_end = head.find(b"\r\n", found + 2)
            length = int(head[found + 17 : line_end if line_end > 0 else len(head)])
        total = end + 4 + length
        if len(self.buffer) < total:
            return
        body = bytes(self.buffer[end + 4 : total])
        del self.buffer[:total]
        self.waiter = None
        waiter.set_result((int(head[9:12]), body))

    def connection_lost(self, exc: Exception | None) -> None:
        if self.waiter is not None and not self.waiter.done():
            self.waiter.set_exception(exc or ConnectionError("the server closed the connection"))


class Connection:
    """A minimal HTTP/1.1 keep-alive client over an :class:`asyncio.Protocol` (see :class:`_Answers`)."""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.answers: _Answers | None = None

    async def open(self) -> None:
        _, self.answers = await asyncio.get_running_loop().create_connection(_Answers, self.host, self.port)

    def request(self, path: str, body: bytes, headers: dict[str, str]) -> bytes:
        """A POST request's bytes (made once, sent as often as wanted)."""
        head = [
            f"POST {path} HTTP/1.1",
            f"Host: {self.host}:{self.port}",
            "Content-Type: application/json",
            f"Content-Length: {len(body)}",
            *(f"{k}: {v}" for k, v in headers.items()),
            "",
            "",
        ]
        return "\r\n".join(head).encode() + body

    async def send(self, raw: bytes) -> tuple[int, bytes]:
        """Send a request's bytes; its status and body."""
        answers = self.answers
        assert answers is not None and answers.transport is not None
        waiter: asyncio.Future[tuple[int, bytes]] = asyncio.get_running_loop().create_future()
        answers.waiter = waiter
        answers.transport.write(raw)
        return await waiter

    async def post(self, path: str, body: bytes, headers: dict[str, str]) -> tuple[int, bytes]:
        return await self.send(self.request(path, body, headers))

    async def close(self) -> None:
        if self.answers is not None and self.answers.transport is not None:
            self.answers.transport.close()


async def create_room(port: int) -> dict[str, Any]:
    connection = Connection("127.0.0.1", port)
    await connection.open()
    status, body = await connection.post("/api/rooms", b"{}", {})
    await connection.close()
    assert status == 201, body
    return json.loads(body)  # type: ignore[no-any-return]


async def throughput(
    port: int,
    room: dict[str, Any] | list[dict[str, Any]],
    clients: int,
    total: int,
    seconds: float,
    spread: dict[str, int] | None = None,
    balance: int = 0,
) -> dict[str, float]:
    """``clients`` connections posting rolls; client ``i`` rolls in room ``i`` of a list (one room: all).
    ``spread`` (if given) counts the connections each worker took; with ``balance`` (the number of
    workers) a connection a worker took beyond its even share is made again (at most 50 times)."""
    rooms = room if isinstance(room, list) else [room]
    body = json.dumps(ROLL).encode()
    latencies: list[float] = []
    errors = 0
    remaining = total
    deadline = time.perf_counter() + seconds

    async def worker(target: dict[str, Any]) -> None:
        nonlocal remaining, errors
        headers = {"Authorization": f"Bearer {target['token']}"}
        connection = Connection("127.0.0.1", port)
        await connection.open()
        attempts = 0
        while spread is not None:  # which worker took this connection (its /health says)
            status, answer = await connection.send(f"GET /health HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
            worker_id = str(json.loads(answer).get("worker", "?")) if status in (200, 503) else "?"
            attempts += 1
            if balance and spread.get(worker_id, 0) >= -(-clients // balance) and attempts < 50:
                await connection.close()  # that worker has its share: connect again
                connection = Connection("127.0.0.1", port)
                await connection.open()
                continue
            spread[worker_id] = spread.get(worker_id, 0) + 1
            break
        raw = connection.request(f"/api/rooms/{target['id']}/rolls", body, headers)
        clock = time.perf_counter
        try:
            while remaining > 0 and clock() < deadline:
                remaining -= 1
                started = clock()
                status, _ = await connection.send(raw)
                latencies.append(clock() - started)
                errors += status != 200
        finally:
            await connection.close()

    started, cpu = time.perf_counter(), time.process_time()
    await asyncio.gather(*(worker(rooms[i % len(rooms)]) for i in range(clients)))
    elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu
    return {
        "rolls": len(latencies),
        "errors": errors,
        "seconds": elapsed,
        "rolls_per_s": len(latencies) / elapsed,
        "p50_ms": percentile(latencies, 0.5) * 1000,
        "p99_ms": percentile(latencies, 0.99) * 1000,
        "client_cpu_ms_per_roll": cpu * 1000 / max(1, len(latencies)),
    }


async def fan_out(port: int, room: dict[str, Any], sockets: int, rolls: int, seconds: float) -> dict[str, float]:
    import websockets

    url = f"ws://127.0.0.1:{port}/ws/rooms/{room['id']}"
    connections = [await websockets.connect(url, max_size=2**20) for _ in range(sockets)]
    spread: dict[str, int] = {}
    for connection in connections:
        worker = connection.response.headers.get("x-mtgdice-worker", "?")
        spread[worker] = spread.get(worker, 0) + 1
    arrivals: dict[int, list[float]] = {}
    expected = {"count": 0}

    async def listen(connection: Any) -> None:
        async for raw in connection:
            message = json.loads(raw)
            if message.get("kind") == "roll":
                arrivals.setdefault(message["id"], []).append(time.perf_counter())

    listeners = [asyncio.create_task(listen(connection)) for connection in connections]
    await asyncio.sleep(0.3)
    body = json.dumps(ROLL).encode()
    headers = {"Authorization": f"Bearer {room['token']}"}
    poster = Connection("127.0.0.1", port)
    await poster.open()
    after_response: list[float] = []
    after_send: list[float] = []
    deadline = time.perf_counter() + seconds
    for _ in range(rolls):
        if time.perf_counter() > deadline:
            break
        sent = time.perf_counter()
        status, raw = await poster.post(f"/api/rooms/{room['id']}/rolls", body, headers)
        answered = time.perf_counter()
        assert status == 200, raw
        roll_id = json.loads(raw)["id"]
        expected["count"] += 1
        wait_until = answered + 2.0
        while len(arrivals.get(roll_id, [])) < sockets and time.perf_counter() < wait_until:
            await asyncio.sleep(0.0005)
        got = arrivals.get(roll_id, [])
        if len(got) < sockets:
            raise SystemExit(f"roll {roll_id}: only {len(got)} of {sockets} sockets got it within 2 s")
        last = max(got)
        after_response.append(max(0.0, last - answered))
        after_send.append(last - sent)
        await asyncio.sleep(0.01)
    await poster.close()
    for task in listeners:
        task.cancel()
    for connection in connections:
        await connection.close()
    return {
        "sockets": sockets,
        "sockets_per_worker": sorted(spread.values(), reverse=True),  # type: ignore[dict-item]
        "rolls": len(after_send),
        "fanout_p50_ms": percentile(after_response, 0.5) * 1000,
        "fanout_p99_ms": percentile(after_response, 0.99) * 1000,
        "fanout_max_ms": max(after_response) * 1000,
        "send_to_last_socket_p50_ms": percentile(after_send, 0.5) * 1000,
        "send_to_last_socket_p99_ms": percentile(after_send, 0.99) * 1000,
    }


async def throughput_with_sockets(
    port: int, room: dict[str, Any], sockets: int, clients: int, total: int, seconds: float
) -> dict[str, float]:
    """Throughput while ``sockets`` websockets listen (each roll goes to every socket)."""
    import websockets

    url = f"ws://127.0.0.1:{port}/ws/rooms/{room['id']}"
    connections = [await websockets.connect(url, max_size=2**20) for _ in range(sockets)]
    received = {"count": 0}

    async def drain(connection: Any) -> None:
        async for _ in connection:
            received["count"] += 1

    listeners = [asyncio.create_task(drain(connection)) for connection in connections]
    result = await throughput(port, room, clients, total, seconds)
    await asyncio.sleep(1.0)
    for task in listeners:
        task.cancel()
    for connection in connections:
        await connection.close()
    result["messages_received"] = received["count"]
    return result


async def main_async(args: argparse.Namespace) -> dict[str, Any]:
    port = live_server.free_port()
    with tempfile.TemporaryDirectory() as folder:
        try:
            _, server = live_server.start(Path(args.cards), Path(folder) / "rolls.sqlite", port)
        except live_server.ServerError as error:
            raise SystemExit(str(error)) from None
        try:
            room = await create_room(port)
            await throughput(port, room, 4, 200, 10)  # warm-up: compile caches, connections
            report: dict[str, Any] = {"cpus": os.cpu_count()}
            room = await create_room(port)
            report["throughput"] = await throughput(port, room, args.clients, args.rolls, args.seconds)
            room = await create_room(port)
            report["fan_out"] = await fan_out(port, room, args.sockets, args.fanout_rolls, args.seconds)
            if args.loaded:
                report["throughput_with_sockets"] = await throughput_with_sockets(
                    port, await create_room(port), args.sockets, args.clients, args.rolls // 2, args.seconds
                )
            return report
        finally:
            live_server.stop(server)


async def multi_async(args: argparse.Namespace, database: str, broker: str) -> dict[str, Any]:
    """Each worker count against PostgreSQL + Redis (a fresh database each), and the SQLite default."""
    import services

    report: dict[str, Any] = {"cpus": os.cpu_count(), "runs": [], "load": os.getloadavg()}
    configurations: list[tuple[str, int]] = [] if args.no_sqlite else [("sqlite", 1)]
    configurations += [("postgresql", n) for _ in range(args.rounds) for n in args.workers]

    async def measured(server: Any, call: Any, engine: str) -> dict[str, float]:
        """A throughput phase with the CPU each part used per roll: the server's processes, PostgreSQL and
        Redis (when this run started them), the bench client; and the machine's load when it began."""
        load = os.getloadavg()[0]
        before = group_cpu(server.pid), services_cpu(args.services_folder) if engine == "postgresql" else {}
        phase: dict[str, Any] = await call
        after = group_cpu(server.pid), services_cpu(args.services_folder) if engine == "postgresql" else {}
        rolls = max(1, phase["rolls"])
        phase["load"] = load
        phase["server_cpu_ms_per_roll"] = (after[0] - before[0]) * 1000 / rolls
        for part in after[1]:
            phase[f"{part}_cpu_ms_per_roll"] = (after[1][part] - before[1].get(part, 0.0)) * 1000 / rolls
        return phase

    for engine, workers in configurations:
        port = live_server.free_port()
        with tempfile.TemporaryDirectory() as folder:
            if engine == "sqlite":
                target: str | Path = Path(folder) / "rolls.sqlite"
                started = live_server.start(Path(args.cards), target, port)
            else:
                target = services.new_database(database)
                started = live_server.start(Path(args.cards), target, port, broker=broker, workers=workers)
            _, server = started
            try:
                await throughput(port, [await create_room(port) for _ in range(args.clients)], args.clients, 400, 10)
                run: dict[str, Any] = {"engine": engine, "workers": workers}
                one = throughput(port, await create_room(port), args.clients, args.rolls, args.seconds)
                run["one_room"] = await measured(server, one, engine)
                rooms = [await create_room(port) for _ in range(args.clients)]
                spread: dict[str, int] = {}
                balance = workers if args.balance and engine == "postgresql" else 0
                own = throughput(port, rooms, args.clients, args.rolls, args.seconds, spread, balance)
                run["own_rooms"] = await measured(server, own, engine)
                run["own_rooms"]["connections_per_worker"] = sorted(spread.values(), reverse=True)
                if args.sockets:
                    run["fan_out"] = await fan_out(
                        port, await create_room(port), args.sockets, args.fanout_rolls, args.seconds
                    )
                report["runs"].append(run)
                print(summary_line(run), flush=True)
            finally:
                live_server.stop(server)
    return report


def services_cpu(folder: Path | None) -> dict[str, float]:
    """CPU seconds used so far by the PostgreSQL (the postmaster and its live children) and the Redis
    that ``tests/services.py`` started in ``folder`` (empty when this run did not start them)."""
    if folder is None:
        return {}
    ticks = os.sysconf("SC_CLK_TCK")
    try:
        postmaster = int((folder / "pg" / "postmaster.pid").read_text().split()[0])
        redis = int((folder / "redis.pid").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return {}
    used = {"postgresql": 0.0, "redis": 0.0}
    for pid, fields in _processes():
        parent = int(fields[1])
        part = "postgresql" if postmaster in (pid, parent) else "redis" if pid == redis else None
        if part is not None:
            used[part] += (int(fields[11]) + int(fields[12])) / ticks
    return used


def _processes() -> Iterator[tuple[int, list[str]]]:
    """Every live process's id and the fields of its ``/proc/PID/stat`` after the command name
    (``fields[1]`` the parent, ``[2]`` the process group, ``[11]``/``[12]`` user and system ticks)."""
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        yield int(entry.name), fields


def group_cpu(group: int) -> float:
    """CPU seconds (user + system) used so far by every live process of process group ``group``."""
    ticks = os.sysconf("SC_CLK_TCK")
    used = sum(int(fields[11]) + int(fields[12]) for _, fields in _processes() if int(fields[2]) == group)
    return used / ticks


def start_anchor(port: int, folder: Path) -> Any:
    """The anchor app under uvicorn (same protocol and loop as ``mtgdice serve``), in its own process group."""
    import subprocess
    import urllib.request

    root = Path(__file__).resolve().parents[1]
    env = {**os.environ, "ANCHOR_DB": str(folder / "anchor.sqlite"), "PYTHONPATH": str(root)}
    process = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "bench.anchor_app:app", "--host", "127.0.0.1", "--port", str(port),
         "--no-access-log", "--log-level", "warning", "--http", "httptools"],
        cwd=root, env=env, start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    deadline = time.monotonic() + 30
    while True:
        try:
            request = urllib.request.Request(f"http://127.0.0.1:{port}/api/rooms", data=b"{}", method="POST")
            with urllib.request.urlopen(request, timeout=1):
                return process
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                live_server.stop(process)
                raise SystemExit("the anchor app did not start") from None
            time.sleep(0.1)


async def cpu_phase(port: int, pid: int, clients: int, rolls: int, seconds: float, own_rooms: bool) -> dict[str, float]:
    rooms = [await create_room(port) for _ in range(clients if own_rooms else 1)]
    await throughput(port, rooms, clients, 300, 10)  # warm-up
    load = os.getloadavg()[0]
    before = group_cpu(pid)
    result = await throughput(port, rooms, clients, rolls, seconds)
    result["cpu_ms_per_roll"] = (group_cpu(pid) - before) * 1000 / max(1, result["rolls"])
    result["load"] = load
    return result


async def cpu_async(args: argparse.Namespace) -> dict[str, Any]:
    """mtgdice and the anchor, alternated round by round, on the same clients."""
    report: dict[str, Any] = {"cpus": os.cpu_count(), "load": os.getloadavg(), "rounds": []}
    for _ in range(args.rounds):
        for server_name in ("anchor", "mtgdice"):
            port = live_server.free_port()
            with tempfile.TemporaryDirectory() as folder:
                if server_name == "anchor":
                    process = start_anchor(port, Path(folder))
                else:
                    _, process = live_server.start(Path(args.cards), Path(folder) / "rolls.sqlite", port)
                try:
                    for own in (False, True):
                        phase = await cpu_phase(port, process.pid, args.clients, args.rolls, args.seconds, own)
                        phase.update(server=server_name, own_rooms=own)
                        report["rounds"].append(phase)
                        print(
                            f"{server_name:8} {'a room per client' if own else 'one room':17} "
                            f"{phase['cpu_ms_per_roll']:.3f} ms CPU/roll, {phase['rolls_per_s']:.0f} rolls/s, "
                            f"p50 {phase['p50_ms']:.1f} ms, errors {phase['errors']:.0f}, client "
                            f"{phase['client_cpu_ms_per_roll']:.3f} ms CPU/roll, load {phase['load']:.1f}",
                            flush=True,
                        )
                finally:
                    live_server.stop(process)
    return report


def cpu_markdown(report: dict[str, Any], args: argparse.Namespace) -> str:
    def best(server: str, own: bool) -> float:
        return min(r["cpu_ms_per_roll"] for r in report["rounds"] if r["server"] == server and r["own_rooms"] == own)

    def median(server: str, own: bool) -> float:
        return statistics.median(
            r["cpu_ms_per_roll"] for r in report["rounds"] if r["server"] == server and r["own_rooms"] == own
        )

    when = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    load = ", ".join(f"{value:.1f}" for value in report["load"])
    lines = [
        f"# CPU per roll: mtgdice serve against the anchor, {when}",
        "",
        f"{report['cpus']} CPUs shared with other work (load average at the start: {load}: the machine was "
        "busy, so times are noisy; the ratio is from one run, the two servers alternated round by round). "
        f"{args.clients} keep-alive clients, {args.rolls} rolls per phase after 300 warm-up rolls; CPU = user + "
        "system of every process of the server's group (/proc). mtgdice: one process, SQLite log (WAL); "
        "the anchor: bench/anchor_app.py.",
        "",
        "    .venv/bin/python bench/load_web.py " + " ".join(args.argv),
        "",
        "| round | server | rooms | CPU ms / roll | rolls/s | p50 / p99 ms | bench client CPU ms / roll "
        "| load (1 min) |",
        "|---:|---|---|---:|---:|---:|---:|---:|",
    ]
    for position, run in enumerate(report["rounds"]):
        lines.append(
            f"| {position // 4 + 1} | {run['server']} | {'a room per client' if run['own_rooms'] else 'one room'} "
            f"| {run['cpu_ms_per_roll']:.3f} | {run['rolls_per_s']:.0f} | {run['p50_ms']:.1f} / {run['p99_ms']:.1f} "
            f"| {run['client_cpu_ms_per_roll']:.3f} | {run['load']:.1f} |"
        )
    lines.append("")
    for own in (False, True):
        ratio = best("mtgdice", own) / best("anchor", own)
        lines.append(
            f"Best of the rounds, {'a room per client' if own else 'one room'}: mtgdice "
            f"{best('mtgdice', own):.3f} ms, anchor {best('anchor', own):.3f} ms: **{ratio:.2f}x** (target <= 1.2x); "
            f"medians {median('mtgdice', own):.3f} and {median('anchor', own):.3f} ms: "
            f"{median('mtgdice', own) / median('anchor', own):.2f}x."
        )
    return "\n".join(lines) + "\n"


def summary_line(run: dict[str, Any]) -> str:
    one, own = run["one_room"], run["own_rooms"]
    line = (
        f"{run['engine']} x{run['workers']}: one room {one['rolls_per_s']:.0f} rolls/s "
        f"(p50 {one['p50_ms']:.1f}, p99 {one['p99_ms']:.1f} ms); own rooms {own['rolls_per_s']:.0f} rolls/s "
        f"(p50 {own['p50_ms']:.1f}, p99 {own['p99_ms']:.1f} ms, connections per worker "
        f"{own['connections_per_worker']}); CPU ms/roll own rooms: {cpu_parts(own)}; load {own['load']:.1f}"
    )
    if "fan_out" in run:
        fan = run["fan_out"]
        line += (
            f"; fan-out to {fan['sockets']} sockets {fan['sockets_per_worker']}: p50 {fan['fanout_p50_ms']:.1f}, "
            f"p99 {fan['fanout_p99_ms']:.1f} ms after the response, send to last socket p99 "
            f"{fan['send_to_last_socket_p99_ms']:.1f} ms"
        )
    return line


CPU_PARTS = ("server", "postgresql", "redis", "client")


def cpu_parts(phase: dict[str, Any]) -> str:
    """``server / postgresql / redis / client = total`` CPU ms per roll of a phase (— where not measured)."""
    values = [phase.get(f"{part}_cpu_ms_per_roll") for part in CPU_PARTS]
    shown = " / ".join("—" if value is None else f"{value:.2f}" for value in values)
    return f"{shown} = {sum(value or 0.0 for value in values):.2f}"


def markdown(report: dict[str, Any], args: argparse.Namespace) -> str:
    when = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    load = ", ".join(f"{value:.1f}" for value in report["load"])
    lines = [
        f"# mtgdice serve under load, {when}",
        "",
        f"{report['cpus']} CPUs shared with other work (load average at the start: {load}), loopback; the bench "
        f"client, the workers, PostgreSQL and Redis on the same machine. Each roll: {ROLL['card']} with "
        f"{ROLL['battlefield'][0]} (full rules), committed to the log before the response. {args.clients} "
        f"keep-alive clients (one asyncio process), at most {args.rolls} rolls per phase. CPU per roll = user + "
        "system time of each part over the phase (/proc): the server's process group, PostgreSQL's postmaster "
        "and backends, Redis, the bench client.",
        "",
        "    .venv/bin/python bench/load_web.py " + " ".join(args.argv),
        "",
        "| server | rolls/s, one room | p50 / p99 ms | rolls/s, a room per client | p50 / p99 ms "
        "| connections per worker | CPU ms / roll, a room per client: server / PostgreSQL / Redis / client = all "
        "| load (1 min) |",
        "|---|---:|---:|---:|---:|---|---|---:|",
    ]
    for run in report["runs"]:
        one, own = run["one_room"], run["own_rooms"]
        server = "SQLite, 1 process" if run["engine"] == "sqlite" else f"PostgreSQL + Redis, {run['workers']} worker(s)"
        errors = one["errors"] + own["errors"]
        lines.append(
            f"| {server}{f' ({errors:.0f} errors)' if errors else ''} | {one['rolls_per_s']:.0f} "
            f"| {one['p50_ms']:.1f} / {one['p99_ms']:.1f} | {own['rolls_per_s']:.0f} | {own['p50_ms']:.1f} / "
            f"{own['p99_ms']:.1f} | {', '.join(map(str, own['connections_per_worker']))} | {cpu_parts(own)} "
            f"| {own['load']:.1f} |"
        )
    fans = [run for run in report["runs"] if "fan_out" in run]
    if fans:
        lines += [
            "",
            f"Fan-out: {args.sockets} websockets on one room, {args.fanout_rolls} rolls posted one at a time.",
            "",
            "| server | fan-out after response p50 / p99 ms | roll sent → last socket p99 ms | sockets per worker |",
            "|---|---:|---:|---|",
        ]
        for run in fans:
            fan = run["fan_out"]
            lines.append(
                f"| {run['engine']}, {run['workers']} worker(s) | {fan['fanout_p50_ms']:.1f} / "
                f"{fan['fanout_p99_ms']:.1f} | {fan['send_to_last_socket_p99_ms']:.1f} | "
                f"{', '.join(map(str, fan['sockets_per_worker']))} |"
            )
    by_workers: dict[int, list[float]] = {}
    for run in report["runs"]:
        if run["engine"] == "postgresql":
            by_workers.setdefault(run["workers"], []).append(run["own_rooms"]["rolls_per_s"])
    if 1 in by_workers and len(by_workers) > 1:
        lines.append("")
        for workers, rates in sorted(by_workers.items()):
            if workers == 1:
                continue
            pairs = ", ".join(f"{a / b:.2f}x" for a, b in zip(rates, by_workers[1], strict=False))
            lines.append(
                f"A room per client, {workers} workers against 1 (PostgreSQL + Redis), round by round: {pairs}; "
                f"best against best: **{max(rates) / max(by_workers[1]):.2f}x** (target >= 1.5x)."
            )
    return "\n".join(lines) + "\n"


def run_multi(args: argparse.Namespace) -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
    import services

    database, broker = os.environ.get("MTGDICE_TEST_DATABASE"), os.environ.get("MTGDICE_TEST_BROKER")
    folder = None
    if not (database and broker):
        missing = services.available()
        if missing:
            raise SystemExit(f"--multi needs PostgreSQL and Redis: {missing}")
        folder = Path(tempfile.mkdtemp(prefix="mtgdice-bench-"))
        started = services.start(folder)
        database, broker = started.database, started.broker
    args.services_folder = folder
    try:
        report = asyncio.run(multi_async(args, database, broker))
    finally:
        if folder is not None:
            services.stop(folder)
    if args.json:
        print(json.dumps(report, indent=2))
    text = markdown(report, args)
    if args.report:
        Path(args.report).write_text(text, encoding="utf-8")
    print(text)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cards", default=os.environ.get("MTGDICE_CARDS", str(DEFAULT_CARDS)))
    parser.add_argument("--clients", type=int, default=8, help="concurrent HTTP connections (throughput)")
    parser.add_argument("--rolls", type=int, default=5000, help="rolls in the throughput phase (at most)")
    parser.add_argument("--sockets", type=int, default=100, help="websockets in the room (fan-out)")
    parser.add_argument("--fanout-rolls", type=int, default=200, help="rolls in the fan-out phase (at most)")
    parser.add_argument("--seconds", type=float, default=30.0, help="time cap of each phase")
    parser.add_argument("--loaded", action="store_true", help="also measure throughput with the sockets listening")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.add_argument("--multi", action="store_true", help="workers against PostgreSQL + Redis (see above)")
    parser.add_argument("--workers", type=lambda text: [int(n) for n in text.split(",")], default=[1, 2, 4])
    parser.add_argument("--report", help="with --multi or --cpu: write the Markdown report here")
    parser.add_argument("--cpu", action="store_true", help="CPU per roll against the anchor app (see above)")
    parser.add_argument(
        "--rounds", type=int, default=2, help="--cpu: rounds of the two servers; --multi: of the workers"
    )
    parser.add_argument("--no-sqlite", action="store_true", help="with --multi: leave out the SQLite run")
    parser.add_argument(
        "--balance", action="store_true", help="with --multi: spread the clients' connections evenly over the workers"
    )
    args = parser.parse_args()
    args.argv = sys.argv[1:]
    if args.multi:
        run_multi(args)
        return
    if args.cpu:
        text = cpu_markdown(asyncio.run(cpu_async(args)), args)
        if args.report:
            Path(args.report).write_text(text, encoding="utf-8")
        print(text)
        return
    report = asyncio.run(main_async(args))
    if args.json:
        print(json.dumps(report, indent=2))
        return
    t, f = report["throughput"], report["fan_out"]
    sync = "NORMAL" if os.environ.get("MTGDICE_LOG_SYNC", "").lower() == "normal" else "FULL"
    print(f"machine: {report['cpus']} CPUs; server: uvicorn, 1 process, SQLite log (WAL) synchronous={sync}")
    print(
        f"throughput: {t['rolls_per_s']:.0f} rolls/s ({t['rolls']:.0f} rolls, {args.clients} clients, "
        f"{t['errors']:.0f} errors); latency p50 {t['p50_ms']:.1f} ms, p99 {t['p99_ms']:.1f} ms "
        f"[targets: >= 500 rolls/s, p99 < 50 ms]"
    )
    print(
        f"fan-out to {f['sockets']:.0f} sockets ({f['rolls']:.0f} rolls): after the response p50 "
        f"{f['fanout_p50_ms']:.1f} ms, p99 {f['fanout_p99_ms']:.1f} ms, max {f['fanout_max_ms']:.1f} ms; "
        f"roll sent to last socket p50 {f['send_to_last_socket_p50_ms']:.1f} ms, "
        f"p99 {f['send_to_last_socket_p99_ms']:.1f} ms [target: < 100 ms]"
    )
    if "throughput_with_sockets" in report:
        w = report["throughput_with_sockets"]
        print(
            f"throughput with {args.sockets} sockets listening: {w['rolls_per_s']:.0f} rolls/s, p50 "
            f"{w['p50_ms']:.1f} ms, p99 {w['p99_ms']:.1f} ms, {w['messages_received']:.0f} messages delivered"
        )


if __name__ == "__main__":
    main()
