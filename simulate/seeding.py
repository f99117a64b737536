"""Random streams: every random number of a run derives from (seed, game index, stream).

A run with seed S gives game i its own independent streams, so game i is the same whatever the
number of workers, the chunk size or the machine:

- stream :data:`CHANCE_STREAM` (0) is the *chance* stream of game i: the deal, reshuffles, token draws;
- stream :data:`FIRST_SEAT_STREAM` + s (1 + s) is the decision stream of seat s (what a strategy
  at seat s may use).

A stream is a xoshiro256** generator (Blackman & Vigna) whose four state words come from a
splitmix64 sequence started at ``key = mix(mix(mix(S) ^ i) ^ stream)``, where ``mix`` is one
splitmix64 output step. Its state lives in a ``uint64[4]`` array, so streams are cheap to copy.

``below(rng, k)`` draws an integer in [0, k) as ``((next >> 32) * k) >> 32`` (k < 2**32; the
bias is below k / 2**32, far under any statistical test's resolution). ``shuffle`` is the
Fisher-Yates shuffle from the last position down, drawing ``below(rng, j + 1)`` for j = n-1..1.

Every function exists twice: compiled (``@njit``) for the kernels, and as plain Python
(``py_*``) for the reference engines; tests check the two against each other and against the
published reference outputs of both generators.

numba trap (see shared notes): uint64 mixed with a plain int literal silently becomes int64, so
every constant here is written as ``np.uint64(k)``.
"""
from __future__ import annotations

import numpy as np
from numba import njit

MASK64 = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15
_MIX1 = 0xBF58476D1CE4E5B9
_MIX2 = 0x94D049BB133111EB

U_GOLDEN = np.uint64(_GOLDEN)
U_MIX1 = np.uint64(_MIX1)
U_MIX2 = np.uint64(_MIX2)
U5 = np.uint64(5)
U9 = np.uint64(9)
U17 = np.uint64(17)
U27 = np.uint64(27)
U30 = np.uint64(30)
U31 = np.uint64(31)
U32 = np.uint64(32)
U7 = np.uint64(7)
U57 = np.uint64(57)
U45 = np.uint64(45)
U19 = np.uint64(19)

#: the stream id of a game's chance events
CHANCE_STREAM = 0
#: the stream id of seat 0's decisions; seat s decides with stream ``FIRST_SEAT_STREAM + s``
FIRST_SEAT_STREAM = 1


# ----------------------------------------------------------------------------- compiled
@njit(cache=True, inline="always")
def splitmix_mix(x):
    """One splitmix64 output for state ``x`` (the state advanced once, then finalised)."""
    z = x + U_GOLDEN
    z = (z ^ (z >> U30)) * U_MIX1
    z = (z ^ (z >> U27)) * U_MIX2
    return z ^ (z >> U31)


@njit(cache=True, inline="always")
def seed_stream(rng, seed, game, stream):
    """Fill ``rng`` (uint64[4]) with the stream (seed, game, stream)."""
    key = splitmix_mix(splitmix_mix(splitmix_mix(np.uint64(seed)) ^ np.uint64(game)) ^ np.uint64(stream))
    for w in range(4):
        rng[w] = splitmix_mix(key)
        key = key + U_GOLDEN


@njit(cache=True, inline="always")
def next_u64(rng):
    """The next xoshiro256** output of ``rng`` (uint64[4], advanced in place)."""
    s1 = rng[1]
    x = s1 * U5
    result = ((x << U7) | (x >> U57)) * U9
    t = s1 << U17
    rng[2] ^= rng[0]
    rng[3] ^= rng[1]
    rng[1] ^= rng[2]
    rng[0] ^= rng[3]
    rng[2] ^= t
    s3 = rng[3]
    rng[3] = (s3 << U45) | (s3 >> U19)
    return result


@njit(cache=True, inline="always")
def below(rng, k):
    """A uniform integer in [0, k) for 0 < k < 2**32."""
    return np.int64(((next_u64(rng) >> U32) * np.uint64(k)) >> U32)


@njit(cache=True, inline="always")
def shuffle(rng, items, start, n):
    """Fisher-Yates shuffle of ``items[start:start + n]`` in place, from the last position down."""
    for j in range(n - 1, 0, -1):
        i = start + below(rng, j + 1)
        tmp = items[start + j]
        items[start + j] = items[i]
        items[i] = tmp


# ----------------------------------------------------------------------------- plain Python
def py_splitmix_mix(x: int) -> int:
    z = (x + _GOLDEN) & MASK64
    z = ((z ^ (z >> 30)) * _MIX1) & MASK64
    z = ((z ^ (z >> 27)) * _MIX2) & MASK64
    return z ^ (z >> 31)


class PyStream:
    """Plain-Python twin of a compiled stream, for the reference engines and tests."""

    def __init__(self, seed: int, game: int, stream: int):
        key = py_splitmix_mix(py_splitmix_mix(py_splitmix_mix(seed & MASK64) ^ (game & MASK64)) ^ stream)
        words = []
        for _ in range(4):
            words.append(py_splitmix_mix(key))
            key = (key + _GOLDEN) & MASK64
        self.s = words

    @classmethod
    def from_state(cls, words) -> "PyStream":
        obj = cls.__new__(cls)
        obj.s = [int(w) & MASK64 for w in words]
        return obj

    def next_u64(self) -> int:
        s = self.s
        x = (s[1] * 5) & MASK64
        result = ((((x << 7) | (x >> 57)) & MASK64) * 9) & MASK64
        t = (s[1] << 17) & MASK64
        s[2] ^= s[0]
        s[3] ^= s[1]
        s[1] ^= s[2]
        s[0] ^= s[3]
        s[2] ^= t
        s[3] = ((s[3] << 45) | (s[3] >> 19)) & MASK64
        return result

    def below(self, k: int) -> int:
        return ((self.next_u64() >> 32) * k) >> 32

    def shuffle(self, items: list) -> None:
        for j in range(len(items) - 1, 0, -1):
            i = self.below(j + 1)
            items[i], items[j] = items[j], items[i]


def new_stream(seed: int, game: int, stream: int) -> np.ndarray:
    """A compiled-stream state array for (seed, game, stream)."""
    rng = np.zeros(4, np.uint64)
    seed_stream(rng, np.uint64(seed & MASK64), np.uint64(game), np.uint64(stream))
    return rng
