"""Strategy parameters as the engine sees them: :class:`Param` declarations and the length of a
strategy's row of values (:data:`MAX_PARAMS`).

A strategy declares named numeric parameters; its compiled function receives their values as the
last argument, a ``float64`` array in declaration order (a choice is stored as the index of its
name; an integer as a whole float). The kernel (``kernel.py``) and the search (``search.py``, whose
own settings are parameters too) need only this; settings, their notation and the shipped tuned
files are the strategies' business (``tourney_sim.strategies.params``, which re-exports these
names for plug-ins and tuned files).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from .errors import TourneyError

#: Most parameters a strategy may declare (the kernel's parameter rows are this long): 64, so an
#: apprentice of up to 31 features has a weight for each feature and each feature's curve.
MAX_PARAMS = 64

KINDS = ("real", "int", "choice")


@dataclass(frozen=True)
class Param:
    """One parameter: ``kind`` real (``low``..``high``), int (``low``..``high``, whole numbers) or
    choice (one of ``choices``, passed to the function as its index)."""

    name: str
    default: float | int | str
    help: str
    low: float | None = None
    high: float | None = None
    kind: str = "real"
    choices: tuple[str, ...] = ()

    def __post_init__(self):
        if self.kind not in KINDS:
            raise ValueError(f"parameter {self.name}: kind must be one of {', '.join(KINDS)}")
        if self.kind == "choice":
            if self.default not in self.choices:
                raise ValueError(f"parameter {self.name}: default {self.default!r} is not a choice")
        elif not (self.low <= self.default <= self.high):
            raise ValueError(f"parameter {self.name}: default {self.default} outside {self.low}..{self.high}")

    @staticmethod
    def real(name: str, default: float, low: float, high: float, help: str) -> "Param":
        return Param(name, float(default), help, float(low), float(high), "real")

    @staticmethod
    def int(name: str, default: int, low: int, high: int, help: str) -> "Param":
        return Param(name, int(default), help, int(low), int(high), "int")

    @staticmethod
    def choice(name: str, default: str, choices, help: str) -> "Param":
        return Param(name, default, help, kind="choice", choices=tuple(choices))

    def allowed(self) -> str:
        if self.kind == "real":
            return f"a number from {_fmt(self.low)} to {_fmt(self.high)}"
        if self.kind == "int":
            return f"a whole number from {self.low} to {self.high}"
        return "one of " + ", ".join(self.choices)

    def check(self, value, where: str):
        """The value as stored in a setting (float, int or choice name); ParamError otherwise."""
        bad = ParamError(f"{where}: parameter {self.name} expects {self.allowed()}, got {value!r}")
        if self.kind == "choice":
            if not isinstance(value, str) or value not in self.choices:
                raise bad
            return value
        if isinstance(value, bool):
            raise bad
        if isinstance(value, str):
            try:
                value = float(value.strip())
            except ValueError:
                raise bad from None
        if not isinstance(value, (int, float)) or not math.isfinite(value):
            raise bad
        if self.kind == "int":
            if value != int(value):
                raise bad
            value = int(value)
        else:
            value = float(value)
        if not (self.low <= value <= self.high):
            raise bad
        return value

    def number(self, value) -> float:
        """The value as the compiled function receives it."""
        return float(self.choices.index(value)) if self.kind == "choice" else float(value)

    def describe(self) -> str:
        return f"{self.name}={_fmt(self.default)} ({self.allowed()}): {self.help}"


class StrategyError(TourneyError):
    """Unknown or malformed strategy; the message is one line for the user."""


class ParamError(StrategyError):
    """A bad setting (unknown parameter, value out of range, unreadable file); one line."""


def _fmt(value) -> str:
    """A value as a label shows it: whole numbers without a point, reals as their shortest
    round-trip text (``repr``), choices as their name."""
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() and abs(value) < 1e15 else repr(value)
    return str(value)
