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

Its *setting text* is the name followed by the values that differ from the defaults, in
declaration order (``guard:risk=0.7``): a recorded run rebuilds exactly the same strategy from it.
Its *label* (what results, tables and plots show) is that text, except for a file's setting: a
short name, the file's ``name = "..."`` or else ``NAME@STEM`` (``guard@best`` for
``guard@runs/tune-guard/best.toml``); the manifest keeps the setting text beside it.
"""
from __future__ import annotations

import tomllib
from pathlib import Path

# the declarations live in the engine (the search declares its own settings with them); their
# names stay importable from here, for plug-ins and tuned files
from tourney_sim.simulate.params import KINDS, MAX_PARAMS, Param, ParamError, StrategyError, _fmt

__all__ = ["KINDS", "MAX_PARAMS", "Param", "ParamError", "StrategyError", "parse_assignments", "read_toml",
           "file_label"]

#: what a setting's short name may not contain (it stands where a setting is named)
_NOT_IN_NAME = ":,= \t"


def file_label(name: str, path: str) -> str:
    """The short name of the setting of strategy ``name`` in the file ``path`` when the file
    names none: ``NAME@STEM`` (``guard@best`` for ``runs/tune-guard/best.toml``; a character a
    name may not hold becomes ``_``)."""
    return f"{name}@" + "".join("_" if c in _NOT_IN_NAME else c for c in Path(path).stem)


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


def read_toml(path: str, name: str, where: str) -> tuple[dict, str, dict | None]:
    """The parameter values of a TOML file (top-level keys, or a ``[params]`` table), the
    setting's short name (its ``name = "..."``, else :func:`file_label`) and the table the values
    were made for (its ``[table]``: ``game``, ``players``, ``rules`` and ``id``, as
    ``tourney train`` writes them; None when it names none). A directory stands for its
    ``best.toml`` (what ``tourney tune`` and ``tourney train`` write)."""
    p, given = Path(path), path  # a directory's setting is named after the directory
    if p.is_dir():
        p, path = p / "best.toml", str(p / "best.toml")
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
    label = data.get("name", file_label(name, given.rstrip("/\\") or given))
    if not isinstance(label, str) or not label or any(c in label for c in _NOT_IN_NAME):
        raise ParamError(f"{where}: {path}: name must be a short text without spaces, ':', ',' or '=', "
                         f"got {label!r}")
    values = data.get("params", None)
    if values is None:
        values = {k: v for k, v in data.items() if k not in ("strategy", "game", "meta", "name", "table")}
    if not isinstance(values, dict):
        raise ParamError(f"{where}: {path}: [params] must be a table of key = value")
    table = data.get("table")
    if table is not None and not (isinstance(table, dict) and isinstance(table.get("id"), str)
                                  and isinstance(table.get("game"), str) and isinstance(table.get("players"), int)
                                  and isinstance(table.get("rules", []), list)):
        raise ParamError(f"{where}: {path}: [table] must give game (text), players (a number), rules (a list) "
                         f"and id (text), as tourney train writes them")
    return values, label, table
