"""What the cheaper roll path keeps: the log's chain hash and texts as before, requests remembered only
once they read, one worker hand-over per batch that still answers errors and deadlines."""

from __future__ import annotations

import asyncio
import json
import random
import threading
from pathlib import Path
from typing import Any

import pytest

from mtgdice.io import record as codec
from mtgdice.rules.errors import InputError

CHARACTERS = ["a", "Z", "0", " ", "\x7f", "\x00", "\x1f", "\n", "\t", '"', "\\", "/", "é", "\u2028", "ы", "😀"]


def json_value(rng: random.Random, depth: int = 0) -> Any:
    """A JSON value with what JSON writers disagree on: escapes, non-ASCII text, big and real numbers."""
    pick = rng.random()
    if depth > 3 or pick < 0.4:
        return rng.choice(
            [
                None,
                True,
                False,
                rng.randint(-(10**20), 10**20),
                rng.randint(0, 30),
                rng.random() * 10 ** rng.randint(-20, 20),
                "".join(rng.choice(CHARACTERS) for _ in range(rng.randint(0, 5))),
            ]
        )
    if pick < 0.7:
        return [json_value(rng, depth + 1) for _ in range(rng.randint(0, 3))]
    keys = ("".join(rng.choice(CHARACTERS) for _ in range(rng.randint(0, 3))) for _ in range(rng.randint(0, 3)))
    return {key: json_value(rng, depth + 1) for key in keys}


def test_the_fast_chain_hash_is_the_one_verify_recomputes(monkeypatch: pytest.MonkeyPatch) -> None:
    codec.use_fast_json()
    standard = codec.roll_hash
    fallbacks: list[int] = []
    monkeypatch.setattr(codec, "roll_hash", lambda prev, roll: fallbacks.append(1) or standard(prev, roll))
    rng = random.Random(19)
    for _ in range(3000):
        head = {"player": rng.choice([None, "bob", "Zoë", "a\x7f"]), "nonce": rng.randint(0, 10**6), "room": "r1"}
        texts = {key: codec._compact(json_value(rng)) for key in ("faces", "request", "outcome")}
        slow = standard("0" * 64, {**head, **{key: json.loads(text) for key, text in texts.items()}})
        assert codec._chain_hash("0" * 64, head, texts) == slow, (head, texts)
    assert 100 < 3000 - len(fallbacks) and len(fallbacks) > 100  # both ways taken, each the same hash


def test_a_log_text_reads_back_as_the_value_written() -> None:
    codec.use_fast_json()
    rng = random.Random(7)
    for _ in range(3000):
        value = json_value(rng)
        assert json.loads(codec._written(value)) == json.loads(codec._compact(value))


def test_a_logged_request_is_worked_out_once_and_is_the_same_json() -> None:
    from mtgdice.io.jsonio import request_from_json, request_json

    request = request_from_json({"kind": "dice", "notation": "3d6"})
    value, text = codec._logged_request(request, None)
    again = codec._logged_request(request_from_json({"kind": "dice", "notation": "3d6"}), None)
    assert again[0] is value and json.loads(text) == request_json(request) == value


def test_a_request_is_remembered_only_once_it_reads() -> None:
    pytest.importorskip("fastapi")
    from mtgdice.web.memo import RequestMemo

    memo = RequestMemo(size=2)
    for _ in range(2):  # refused each time it is sent, never kept
        with pytest.raises(InputError, match="kind"):
            memo({"kind": "dicee", "notation": "d6"})
    for _ in range(2):  # dice notation is read with the request: refused, never kept
        with pytest.raises(InputError, match="not dice notation"):
            memo({"kind": "dice", "notation": "3q6"})
    assert not memo.known
    unpreparable = memo({"kind": "planar", "roller": 1})  # reads, but a planar die names no other roller
    for _ in range(2):
        with pytest.raises(InputError, match="roller"):
            memo.prepared(unpreparable, None)
    assert not memo._prepared
    memo.known.clear()
    first = memo({"kind": "dice", "notation": "d6"})
    assert memo({"kind": "dice", "notation": "d6"}) is first
    memo({"kind": "dice", "notation": "d8"})
    memo({"kind": "dice", "notation": "d10"})
    assert len(memo.known) == 2 and memo({"kind": "dice", "notation": "d6"}) is not first  # the oldest went


def test_one_hand_over_gives_the_result_or_the_error_and_a_cancelled_caller_leaves_the_job_whole() -> None:
    pytest.importorskip("fastapi")
    from mtgdice.web.work import WorkPool

    pool = WorkPool(workers=1)
    release, finished = threading.Event(), threading.Event()

    def slow() -> str:
        release.wait(30)
        finished.set()
        return "done"

    def refuse() -> None:
        raise InputError("roll", "refused")

    async def scenario() -> None:
        assert await pool.call(sum, [1, 2, 3]) == 6
        with pytest.raises(InputError, match="refused"):
            await pool.call(refuse)
        waiting = asyncio.ensure_future(pool.call(slow))
        await asyncio.sleep(0.05)
        waiting.cancel()
        with pytest.raises(asyncio.CancelledError):
            await waiting
        release.set()
        assert await pool.call(lambda: "next") == "next"  # the one worker ran the job to its end first

    asyncio.run(scenario())
    assert finished.is_set()
    pool.close()


def test_a_caller_that_waits_past_its_deadline_behind_a_batch_is_told_so_and_spends_no_nonce(tmp_path: Path) -> None:
    pytest.importorskip("fastapi")
    from mtgdice.log import RollLog
    from mtgdice.rules.budget import Budget, Meter
    from mtgdice.rules.errors import RollLimitError
    from mtgdice.web.rooms import Rooms

    log = RollLog(tmp_path / "rolls.sqlite")
    rooms = Rooms(log, None, budget=Budget(dice=10**12, options=10**12, seconds=1.0))
    endless = {"text": "Roll 10000 d6. If you roll a 6, repeat this process."}

    async def scenario() -> Any:
        state, _ = await rooms.create()
        heavy = asyncio.ensure_future(rooms.api_roll(state, dict(endless)))  # holds the room's batch to its deadline
        await asyncio.sleep(0.05)
        short = Meter(Budget(dice=10**12, options=10**12, seconds=0.0))  # given up by its timer while it waits
        with pytest.raises(RollLimitError, match="took more than"):
            await rooms.api_roll(state, {"text": "Roll a d6."}, short)
        with pytest.raises(RollLimitError):
            await heavy
        return await rooms.api_roll(state, {"text": "Roll a d6."})

    after = asyncio.run(scenario())
    assert after.proof.nonce == 0 and [roll.nonce for roll in log.rolls()] == [0]
    log.close()
