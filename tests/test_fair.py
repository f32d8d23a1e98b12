"""Commit-reveal dice (mtgdice.fair.commit): the documented derivation, exact uniformity, rooms."""

from __future__ import annotations

import dataclasses
import hashlib
import hmac
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mtgdice.errors import InputError
from mtgdice.fair.commit import (
    WORD_SPACE,
    CommitRevealSource,
    Room,
    acceptance_bound,
    commitment,
    derive_faces,
    draw_index,
    join_client_seeds,
    new_seed,
    seed_hash,
    seed_matches,
    words,
)
from mtgdice.rules import PLANAR_DIE, DiceSource, Die, PlanarFace

SEED = bytes(range(32))


def reference_faces(server_seed: bytes, client_seeds: list[str], nonce: int, sizes: list[int | None]) -> list[object]:
    """The derivation exactly as fair/commit.py's docstring describes it, written independently."""
    joined = ",".join(sorted(client_seeds))
    planar = ["chaos", "planeswalk", "blank", "blank", "blank", "blank"]
    stream: list[int] = []
    cursor = 0
    faces: list[object] = []
    for sides in sizes:
        n = 6 if sides is None else sides
        while True:
            if not stream:
                block = hmac.new(server_seed, f"{joined}:{nonce}:{cursor}".encode(), hashlib.sha256).digest()
                stream = [int.from_bytes(block[i : i + 4], "big") for i in range(0, 32, 4)]
                cursor += 1
            x = stream.pop(0)
            if x < 2**32 - (2**32 % n):
                faces.append(planar[x % n] if sides is None else x % n + 1)
                break
    return faces


def as_plain(face: object) -> object:
    return face.value if isinstance(face, PlanarFace) else face


# -- the derivation ---------------------------------------------------------------------------------


def test_a_commitment_binds_the_seed_its_first_nonce_and_the_chain_it_covers() -> None:
    seed = new_seed()
    assert len(seed) == 32
    assert seed_hash(seed) == hashlib.sha256(seed).hexdigest()
    assert seed_matches(seed, seed_hash(seed).upper())
    assert not seed_matches(new_seed(), seed_hash(seed))
    digest = seed_hash(seed)
    published = commitment(digest, 4, "ab" * 32)
    assert published == hashlib.sha256(f"{digest}:4:{'ab' * 32}".encode()).hexdigest()
    assert len({published, commitment(digest, 3, "ab" * 32), commitment(digest, 4, "ac" * 32)}) == 3
    assert Room("t", seed, first_nonce=0, next_nonce=0, covers=None).commitment == digest  # made before chains


def test_known_answer_vector() -> None:
    """Pinned faces, for anyone writing a verifier in another language (e.g. the browser)."""
    dice = [Die(20), Die(20), Die(6), PLANAR_DIE, Die(100)]
    faces = [as_plain(face) for face in derive_faces(SEED, ["bob", "alice"], 7, dice)]
    assert faces == reference_faces(SEED, ["alice", "bob"], 7, [20, 20, 6, None, 100])
    assert faces == [3, 6, 2, "blank", 14]


@given(
    seed=st.binary(min_size=16, max_size=64),
    client_seeds=st.lists(st.text(alphabet="abcXYZ019-_!~", min_size=1, max_size=8), max_size=3),
    nonce=st.integers(0, 10**9),
    sizes=st.lists(st.sampled_from([None, 1, 2, 3, 4, 6, 8, 10, 12, 20, 100, 2**31 + 1, 2**32]), max_size=40),
)
def test_source_matches_reference(seed: bytes, client_seeds: list[str], nonce: int, sizes: list[int | None]) -> None:
    dice = [Die(sides) for sides in sizes]
    faces = derive_faces(seed, client_seeds, nonce, dice)
    assert [as_plain(face) for face in faces] == reference_faces(seed, client_seeds, nonce, sizes)
    assert all(die.has_face(face) for die, face in zip(dice, faces, strict=True))


def test_deterministic_and_order_of_client_seeds_irrelevant() -> None:
    dice = [Die(20)] * 10 + [PLANAR_DIE] * 5
    first = derive_faces(SEED, ["alice", "bob"], 3, dice)
    assert first == derive_faces(SEED, ("bob", "alice"), 3, dice)
    assert first != derive_faces(SEED, ["alice", "bob"], 4, dice)
    assert first != derive_faces(SEED, ["alice", "carol"], 3, dice)
    assert first != derive_faces(bytes(32), ["alice", "bob"], 3, dice)


def test_source_is_a_dice_source_and_records_draws() -> None:
    source = CommitRevealSource(SEED, ("alice",), nonce=2)
    assert isinstance(source, DiceSource)
    assert source.name == "commit-reveal"
    faces = [source.roll(Die(20)), source.roll(PLANAR_DIE), source.roll(Die(6))]
    assert source.draws == [(20, faces[0]), ("planar", faces[1]), (6, faces[2])]
    assert source.draws_json()[1] == ["planar", faces[1].value]  # type: ignore[union-attr]
    assert source.commitment == seed_hash(SEED)
    assert CommitRevealSource(SEED, nonce=2, commitment="cd" * 32).commitment == "cd" * 32


def test_stream_continues_with_the_next_cursor_block() -> None:
    stream = words(SEED, "alice", 0)
    first_nine = [next(stream) for _ in range(9)]
    block1 = hmac.new(SEED, b"alice:0:1", hashlib.sha256).digest()
    assert first_nine[8] == int.from_bytes(block1[:4], "big")


# -- exact uniformity -------------------------------------------------------------------------------


@given(st.integers(1, WORD_SPACE))
def test_acceptance_bound_is_the_largest_multiple(count: int) -> None:
    bound = acceptance_bound(count)
    assert bound % count == 0
    assert WORD_SPACE - count < bound <= WORD_SPACE
    # Every face has exactly bound // count accepted words: x % count over range(bound) is uniform.


@pytest.mark.parametrize("count", [1, 2, 3, 5, 6, 7, 10, 12, 20, 100, 255, 256])
def test_rejection_is_exactly_uniform_over_a_synthetic_word_space(count: int) -> None:
    """Shrink the word space to 8 bits and enumerate it: every face gets the same number of words."""
    space = 2**8
    bound = space - space % count
    faces = Counter(x % count for x in range(space) if x < bound)
    assert set(faces) == set(range(count))
    assert len(set(faces.values())) == 1
    # The real bound has the same form, so the same argument holds for 2**32.
    assert acceptance_bound(count) == WORD_SPACE - WORD_SPACE % count


@given(
    count=st.integers(1, WORD_SPACE),
    rejected=st.lists(st.integers(0, 2**32 - 1)),
    accepted=st.integers(0, 2**32 - 1),
)
def test_draw_index_skips_every_rejected_word(count: int, rejected: list[int], accepted: int) -> None:
    bound = acceptance_bound(count)
    too_big = [bound + word % (WORD_SPACE - bound) for word in rejected] if bound < WORD_SPACE else []
    accepted %= bound
    assert draw_index(iter([*too_big, accepted, 0]), count) == accepted % count


def test_large_die_rejects_about_half_the_words() -> None:
    """2**31 + 1 faces: the bound is 2**31 + 1, so nearly half of all words are rejected."""
    assert acceptance_bound(2**31 + 1) == 2**31 + 1
    assert draw_index(iter([2**32 - 1, 2**31 + 1, 5]), 2**31 + 1) == 5


def test_planar_die_and_d20_frequencies() -> None:
    """Statistical smoke test (fixed seed, so deterministic): 1/6 chaos, 1/6 planeswalk, 4/6 blank."""
    from scipy.stats import chisquare

    source = CommitRevealSource(SEED, ("table",), 0)
    planar = Counter(source.roll(PLANAR_DIE) for _ in range(60_000))
    assert chisquare([planar[PlanarFace.CHAOS], planar[PlanarFace.PLANESWALK], planar[PlanarFace.BLANK]],
                     [10_000, 10_000, 40_000]).pvalue > 1e-4  # fmt: skip
    d20 = Counter(source.roll(Die(20)) for _ in range(60_000))
    assert chisquare([d20[face] for face in range(1, 21)]).pvalue > 1e-4


def test_too_many_faces_is_refused() -> None:
    with pytest.raises(InputError, match="faces"):
        CommitRevealSource(SEED).roll(Die(2**32 + 1))


# -- client seeds -----------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", ["", "a,b", "with space", "tab\t", "é", "x" * 65])
def test_bad_client_seeds(seed: str) -> None:
    with pytest.raises(InputError, match=r"client_seeds\[0\]"):
        join_client_seeds([seed])


def test_join_is_sorted_and_comma_separated() -> None:
    assert join_client_seeds(["zed", "Alice", "bob"]) == "Alice,bob,zed"
    assert join_client_seeds([]) == ""


# -- rooms ------------------------------------------------------------------------------------------


def test_room_is_frozen_and_advances_by_value() -> None:
    room = Room.open("table", ("bob", "alice"))
    assert room.client_seeds == ("alice", "bob")
    with pytest.raises(dataclasses.FrozenInstanceError):
        room.next_nonce = 5  # type: ignore[misc]
    source, after = room.next_source()
    assert (source.nonce, room.next_nonce, after.next_nonce) == (0, 0, 1)
    assert room.server_seed.hex() not in repr(room) and repr(room.server_seed) not in repr(room)


def test_rotate_reveals_the_committed_seed_and_continues_the_nonces() -> None:
    room = Room.open("table")
    published = room.commitment
    for _ in range(3):
        _, room = room.next_source()
    room = room.logged("ef" * 32)
    reveal, room = room.rotate()
    assert reveal.commitment == published and seed_matches(reveal.seed, reveal.seed_hash)
    assert (reveal.first_nonce, reveal.end_nonce, reveal.count, reveal.chain) == (0, 3, 3, "ef" * 32)
    assert room.commitment == commitment(room.seed_hash, 3, "ef" * 32) != published
    assert (room.first_nonce, room.next_nonce) == (3, 3)
    source, room = room.next_source()
    assert source.nonce == 3
    second, _ = room.rotate()
    assert (second.first_nonce, second.end_nonce) == (3, 4)


def test_room_client_seeds_apply_from_the_next_roll() -> None:
    room = Room.open("table").with_client_seeds(["carol"])
    assert room.source().client_seeds == ("carol",)
    with pytest.raises(InputError):
        room.with_client_seeds(["bad seed"])


def test_a_reveal_ends_the_players_seeds() -> None:
    """They were known before the next seed was drawn: the next commitment starts without them."""
    room = Room.open("table").with_client_seeds(["alice"])
    _, room = room.next_source()
    _, rotated = room.rotate()
    assert room.client_seeds == ("alice",) and rotated.client_seeds == ()
