"""Strategy parameters: declarations, settings, and the ``NAME:key=value`` / ``NAME@file.toml`` notation.

A strategy declares named numeric parameters (:class:`Param`); its compiled function receives
their values as the last argument, a ``float64`` array in declaration order (a choice is stored
as the index of its name; an integer as a whole float). One compiled function serves every
setting: the values are data, never compiled in.

A *setting* names a strategy and overrides some of its parameters:

- ``guard`` — the defaults;
- ``guard:risk=0.7,card_worth=0.1`` — these values, the rest at their defaults;
- ``guard@tuned.toml`` — the values in a TOML file: top-level ``key = value`` lines, or a
  ``[params]`` table (``tourney tune`` writes one, with ``strategy = "guard"`` beside it).

Its *label* (what results, manifests and reports show) is the name followed by the values that
differ from the defaults, in declaration order (``guard:risk=0.7``); the label is itself a
setting, so a recorded run rebuilds exactly the same strategy from it.
"""
from __future__ import annotations

import math
import tomllib
from dataclasses import dataclass
from pathlib import Path

from tourney_sim.simulate.errors import TourneyError

#: Most parameters a strategy may declare (the kernel's parameter rows are this long).
MAX_PARAMS = 24

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


def parse_assignments(text: str, where: str) -> dict[str, str]:
    """``key=value,key=value`` -> {key: value text}."""
    out: dict[str, str] = {}
    for item in text.split(","):
        key, eq, value = item.partition("=")
        key, value = key.strip(), value.strip()
        if not eq or not key or not value:
            raise ParamError(f"{where}: expected key=value[,key=value...], got {item.strip()!r}")
        if key in out:
            raise ParamError(f"{where}: parameter {key} is given twice")
        out[key] = value
    return out


def read_toml(path: str, name: str, where: str) -> dict:
    """The parameter values of a TOML file (top-level keys, or a ``[params]`` table)."""
    p = Path(path)
    try:
        data = tomllib.loads(p.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ParamError(f"{where}: no such file {path}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ParamError(f"{where}: cannot read {path}: {getattr(exc, 'strerror', None) or exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ParamError(f"{where}: {path} is not valid TOML ({exc})") from None
    declared = data.get("strategy")
    if declared is not None and declared != name:
        raise ParamError(f"{where}: {path} holds settings of strategy {declared!r}, not {name!r}")
    values = data.get("params", None)
    if values is None:
        values = {k: v for k, v in data.items() if k not in ("strategy", "game", "meta")}
    if not isinstance(values, dict):
        raise ParamError(f"{where}: {path}: [params] must be a table of key = value")
    return values
