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

What this script leaves out: the pages (htmx) and browsers; ``tests/test_browser.py`` covers them.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

import live_server  # noqa: E402  (tests/live_server.py: the same server start as the tests)

ROLL = {"card": "Wizard's Spellbook", "battlefield": ["Pixie Guide"], "player": "bench"}
DEFAULT_CARDS = Path(__file__).resolve().parents[1].parent / "shared" / "cards" / "dice-cards.json"


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    index = min(len(ordered) - 1, max(0, round(fraction * (len(ordered) - 1))))
    return ordered[index]


class Connection:
    """A minimal HTTP/1.1 keep-alive client (the bench must not be slower than the server)."""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def open(self) -> None:
        self.reader, self.writer = await asyncio.open_connection(self.host, self.port)

    async def post(self, path: str, body: bytes, headers: dict[str, str]) -> tuple[int, bytes]:
        assert self.reader is not None and self.writer is not None
        head = [
            f"POST {path} HTTP/1.1",
            f"Host: {self.host}:{self.port}",
            "Content-Type: application/json",
            f"Content-Length: {len(body)}",
            *(f"{k}: {v}" for k, v in headers.items()),
            "",
            "",
        ]
        self.writer.write("\r\n".join(head).encode() + body)
        await self.writer.drain()
        status_line = await self.reader.readline()
        status = int(status_line.split()[1])
        length = 0
        while True:
            line = await self.reader.readline()
            if line in (b"\r\n", b""):
                break
            name, _, value = line.decode().partition(":")
            if name.lower() == "content-length":
                length = int(value)
        return status, await self.reader.readexactly(length)

    async def close(self) -> None:
        if self.writer is not None:
            self.writer.close()


async def create_room(port: int) -> dict[str, Any]:
    connection = Connection("127.0.0.1", port)
    await connection.open()
    status, body = await connection.post("/api/rooms", b"{}", {})
    await connection.close()
    assert status == 201, body
    return json.loads(body)  # type: ignore[no-any-return]


async def throughput(port: int, room: dict[str, Any], clients: int, total: int, seconds: float) -> dict[str, float]:
    body = json.dumps(ROLL).encode()
    headers = {"Authorization": f"Bearer {room['token']}"}
    path = f"/api/rooms/{room['id']}/rolls"
    latencies: list[float] = []
    errors = 0
    remaining = total
    deadline = time.perf_counter() + seconds

    async def worker() -> None:
        nonlocal remaining, errors
        connection = Connection("127.0.0.1", port)
        await connection.open()
        try:
            while remaining > 0 and time.perf_counter() < deadline:
                remaining -= 1
                started = time.perf_counter()
                status, _ = await connection.post(path, body, headers)
                latencies.append(time.perf_counter() - started)
                errors += status != 200
        finally:
            await connection.close()

    started = time.perf_counter()
    await asyncio.gather(*(worker() for _ in range(clients)))
    elapsed = time.perf_counter() - started
    return {
        "rolls": len(latencies),
        "errors": errors,
        "seconds": elapsed,
        "rolls_per_s": len(latencies) / elapsed,
        "p50_ms": percentile(latencies, 0.5) * 1000,
        "p99_ms": percentile(latencies, 0.99) * 1000,
    }


async def fan_out(port: int, room: dict[str, Any], sockets: int, rolls: int, seconds: float) -> dict[str, float]:
    import websockets

    url = f"ws://127.0.0.1:{port}/ws/rooms/{room['id']}"
    connections = [await websockets.connect(url, max_size=2**20) for _ in range(sockets)]
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
    args = parser.parse_args()
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
