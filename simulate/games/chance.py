"""Where a reference engine's chance events come from: the seeded stream, or a written record.

Every random thing a game does (a deal, a reshuffle, a draw, a token) is one *chance event*. The
reference engines (``games/<game>/reference.py``) ask for each one through :meth:`Chance.event`,
naming its kind in the rules file's terms and saying how to draw it from the stream::

    deal = self.chance.event("deal", sample=lambda stream: ..., check=lambda outcome: ...)

- :class:`StreamChance` draws the outcome from the game's chance stream (``PyStream``), exactly as
  the compiled kernel does, and records ``{kind: outcome}`` in order: this is how a trace
  (``tourney-trace/2``) learns the chance events of a game the kernel played.
- :class:`ScriptedChance` takes the outcome from a written record instead (``tourney check``
  replaying a trace, possibly written by hand): the engine's ``check`` says whether the outcome is
  possible in the current position (the right cards, each once, in the right numbers), and a
  wrong kind or an impossible outcome raises :class:`ChanceError` with a one-line reason.

An outcome is plain JSON (dicts, lists, strings, numbers) in the rules file's terms: cards spelled
as ``notation.py`` spells them, seats by number. The engine turns it back into its own objects, in
both modes alike, so the scripted path is exercised by every differential test.
"""
from __future__ import annotations

from typing import Any, Callable

from ..errors import TourneyError
from ..seeding import PyStream

Outcome = Any
Sample = Callable[[PyStream], Outcome]
Check = Callable[[Outcome], "str | None"]


class ChanceError(TourneyError):
    """A chance event of a written record that cannot happen here; the message is one line."""


class Chance:
    """The source of a game's chance events (see the module docstring)."""

    def event(self, kind: str, sample: Sample, check: Check | None = None) -> Outcome:
        raise NotImplementedError


class StreamChance(Chance):
    """Outcomes drawn from the seeded chance stream; each one appended to ``record`` as
    ``{kind: outcome}`` when a record is kept."""

    def __init__(self, stream: PyStream, record: list | None = None):
        self.stream = stream
        self.record = record

    def event(self, kind: str, sample: Sample, check: Check | None = None) -> Outcome:
        outcome = sample(self.stream)
        if self.record is not None:
            self.record.append({kind: outcome})
        return outcome


class ScriptedChance(Chance):
    """Outcomes taken from a record: ``next_outcome(kind)`` returns the next written outcome of
    that kind (or raises :class:`ChanceError` when the record has something else there)."""

    def __init__(self, next_outcome: Callable[[str], Outcome]):
        self.next_outcome = next_outcome

    @classmethod
    def from_events(cls, events: list[dict]) -> "ScriptedChance":
        """Outcomes from a plain list of ``{kind: outcome}`` events, in order."""
        pending = list(events)

        def next_outcome(kind: str) -> Outcome:
            if not pending:
                raise ChanceError(f"the record has no more chance events, and the game needs a {kind!r}")
            (written, outcome), = pending.pop(0).items()
            if written != kind:
                raise ChanceError(f"the record has a {written!r} where the game needs a {kind!r}")
            return outcome

        return cls(next_outcome)

    def event(self, kind: str, sample: Sample, check: Check | None = None) -> Outcome:
        outcome = self.next_outcome(kind)
        problem = check(outcome) if check is not None else None
        if problem:
            raise ChanceError(f"impossible {kind}: {problem}")
        return outcome


def as_chance(chance: "Chance | PyStream") -> Chance:
    """A reference engine's ``chance`` argument: a :class:`Chance`, or a bare stream (drawn from,
    not recorded), which is how the differential tests call them."""
    return chance if isinstance(chance, Chance) else StreamChance(chance)
