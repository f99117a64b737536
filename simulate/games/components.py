"""A game's components as data: the values a designer may change without touching code.

Each game ships one TOML file in its folder (``simulate/games/<game>/components.toml``), its
defaults, documented key by key in the file's comments, and declares in its ``rules.py`` what
each key may hold, once::

    COMPONENTS = Components(
        "cardavia", Path(__file__).with_name("components.toml"),
        values=[Value("prizes.most_cards", 0, 9, "points for taking more than half the cards"),
                Value("deck.counts", 0, 8, "copies of each kind", length=14, names=KIND_NAMES)],
        playable=_playable)

A table is a plain nested dict ``{group: {name: int | list[int]}}`` (JSON-serialisable: the
manifest records the whole table used). It reaches the kernel as the rule option
``components`` (every game has it; its value is a :class:`ComponentTable`), which the game's
``make_params`` packs into ``params`` (its ``rules.PARAMS`` says where); the rules copy what play
needs into the state's public part (the rules in force are public).

A value is addressed by its key, ``group.name``; one entry of a list by ``group.name[i]``, i
counting from 1, or ``group.name[Name]`` when the declaration names the entries. These are the
addresses of ``--component KEY=VALUE`` (``tourney run``, ``tournament``, ``tune``, ``bench``: the
rule ``components.KEY=VALUE``, applied over the table in force) and of ``tourney sweep
--component KEY=v1,v2,...``, and of the design search. ``GameSpec.components`` is the declaration;
the ``components`` rule option is made from it (``spec.components_option``). docs/components.md
lists every key of every game from the declarations (``scripts/components_doc.py``; the
``playable`` function's docstring says there what a playable table needs).
"""
from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator, Mapping, Sequence

from .spec import RuleError


@dataclass(frozen=True)
class Value:
    """What one key may hold: an integer from ``low`` to ``high``, or (``length`` given) a list
    of ``length`` such integers, whose entries ``names`` may name. ``step`` is the smallest
    change the design search makes; ``designable`` False keeps the search off the key.

    The rest is the key's **designer-sized range** (:meth:`Components.design_range`): the changes
    a designer would make, which ``tourney design`` searches by default (``--wide``: anywhere
    from ``low`` to ``high``). ``reach``: at most this many steps from the table's value (None:
    no such limit); ``shipped``: a list entry stays within the range of the values its key holds
    in the table (one Work card worth 1 to 4 like the others, never -39); ``keep_zero``: an entry
    that is 0 stays 0 and one that is not stays above 0 (a card without that effect does not gain
    it, one with it does not lose it: its kind of card is kept);
    ``rising``: a strictly rising list's entry stays between its neighbours."""

    key: str
    low: int
    high: int
    help: str = ""
    length: int | None = None
    names: tuple[str, ...] = ()
    step: int = 1
    designable: bool = True
    reach: int | None = None
    shipped: bool = False
    keep_zero: bool = False
    rising: bool = False
    #: a seat compensation lever (issue 42): what a seat or team gets to even the seats (points it
    #: starts with, ...), one entry per seat or team; the design run reports the best apart
    compensation: bool = False

    def designer_words(self) -> str:
        """The designer-sized range in words (docs/components.md)."""
        said = []
        if self.reach is not None:
            said.append(f"at most {self.reach * self.step} from its value")
        if self.shipped:
            said.append("within the range of its key's values" + (" (0 left out)" if self.keep_zero else ""))
        if self.keep_zero:
            said.append("0 stays 0, others stay above 0")
        if self.rising:
            said.append("between its neighbours")
        return "; ".join(said) or "anywhere in its range"

    def allowed(self) -> str:
        one = f"an integer from {self.low} to {self.high}"
        return one if self.length is None else f"a list of {self.length} integers from {self.low} to {self.high}"

    def check(self, value, source: str):
        def ok(v):
            return isinstance(v, int) and not isinstance(v, bool) and self.low <= v <= self.high

        if self.length is None:
            if not ok(value):
                raise RuleError(f"{source}: {self.key} must be {self.allowed()}, got {value!r}")
            return value
        if not (isinstance(value, list) and len(value) == self.length and all(ok(v) for v in value)):
            got = f"{len(value)} entries" if isinstance(value, list) and len(value) != self.length else repr(value)
            raise RuleError(f"{source}: {self.key} must be {self.allowed()}, got {got}")
        return list(value)

    def entry_names(self) -> tuple[str, ...]:
        """The names of a list's entries (``[i]`` from 1 when the declaration names none)."""
        return self.names or tuple(str(i + 1) for i in range(self.length or 0))


class ComponentTable(dict):
    """A complete, checked component table (a plain dict, recorded as JSON) that prints as a short
    label (``defaults`` or the file it came from and the keys set) instead of every number."""

    def __init__(self, table: dict, label: str):
        super().__init__(table)
        self.label = label

    def __repr__(self) -> str:
        return self.label

    __str__ = __repr__


_ADDRESS = re.compile(r"^([A-Za-z_][\w]*\.[A-Za-z_][\w]*)(?:\[([^\]]+)\])?$")


class Components:
    """A game's component declaration: its shipped file and what every key may hold."""

    def __init__(self, game: str, file: Path, values: Sequence[Value],
                 playable: Callable[[dict, int], str | None] | None = None,
                 nearest: dict[str, tuple[str, int]] | None = None):
        self.game = game
        #: a dealt kind (``DEALT_KINDS``) -> the address its nearest change moves and by how much
        #: (one fewer copy: ``("deck.counts[Swap]", -1)``), for the study's paired checks
        self.nearest = dict(nearest or {})
        self.file = Path(file)
        self.values = {v.key: v for v in values}
        #: ``playable(table, n_players)``: None, or one line saying why the table cannot be played
        self.playable = playable
        self.defaults = ComponentTable(self.check(self._read(self.file, "defaults"), f"{self.file.name}",
                                                  complete=True), "defaults (components.toml)")

    def where(self) -> str:
        """The shipped file as the docs name it (``simulate/games/<game>/components.toml``)."""
        parts = self.file.parts
        return "/".join(parts[len(parts) - 1 - parts[::-1].index("simulate"):]) if "simulate" in parts else str(self.file)

    # ------------------------------------------------------------------ reading and checking
    def groups(self) -> list[str]:
        return list(dict.fromkeys(k.split(".")[0] for k in self.values))

    @staticmethod
    def _read(path: Path, what: str) -> dict:
        try:
            with open(path, "rb") as f:
                return tomllib.load(f)
        except OSError as exc:
            raise RuleError(f"rule components: cannot read {path}: {exc.strerror or exc}") from None
        except tomllib.TOMLDecodeError as exc:
            raise RuleError(f"rule components: {path} is not valid TOML: {exc}") from None

    def check(self, table: dict, source: str = "components", complete: bool = False) -> dict:
        """The whole table: ``table`` over the defaults (every key, when ``complete``), each
        value checked; a bad or unknown key raises RuleError with one line naming it."""
        if not isinstance(table, dict):
            raise RuleError(f"{source}: expected a table of " + ", ".join(f"[{g}]" for g in self.groups()))
        out: dict = {} if complete else {g: dict(keys) for g, keys in self.defaults.items()}
        for group, keys in table.items():
            if group not in self.groups():
                raise RuleError(f"{source}: unknown key {group!r} (keys: {', '.join(self.groups())})")
            if not isinstance(keys, dict):
                raise RuleError(f"{source}: {group} must be a table ([{group}])")
            for name, value in keys.items():
                key = f"{group}.{name}"
                if key not in self.values:
                    known = ", ".join(k.split(".", 1)[1] for k in self.values if k.startswith(group + "."))
                    raise RuleError(f"{source}: unknown key {key} (keys of [{group}]: {known})")
                out.setdefault(group, {})[name] = self.values[key].check(value, source)
        if complete:
            missing = [k for k in self.values if k.split(".", 1)[1] not in out.get(k.split(".")[0], {})]
            if missing:
                raise RuleError(f"{source}: missing {', '.join(missing)}")
        return out

    def nearest_change(self, kind: str, table: dict) -> tuple[str, int] | None:
        """The nearest change of a dealt kind under ``table``: (address, new value), or None when
        the game names none for it or the step would leave the key's range."""
        if kind not in self.nearest:
            return None
        address, step = self.nearest[kind]
        value, _ = self.resolve(address)
        new = self.get(table, address) + step
        return (address, new) if value.low <= new <= value.high else None

    def check_playable(self, table: dict, n_players: int, source: str = "components") -> None:
        """Raise RuleError when ``table`` cannot make a playable game of ``n_players``."""
        if self.playable is not None:
            why = self.playable(table, n_players)
            if why:
                raise RuleError(f"{source}: {why}")

    def load(self, path: str) -> ComponentTable:
        """``--rule components=FILE``: a TOML table; keys left out keep their defaults."""
        return ComponentTable(self.check(self._read(Path(path), "file"), f"rule components: {path}"), str(path))

    # ------------------------------------------------------------------ addresses
    def resolve(self, address: str) -> tuple[Value, int | None]:
        """The declaration an address names and the list index it picks (None: the whole key)."""
        m = _ADDRESS.match(address.strip())
        value = self.values.get(m.group(1)) if m else None
        if value is None:
            raise RuleError(f"--component: {self.game} has no component {address.strip()!r} "
                            f"(keys: {', '.join(self.values)})")
        if m.group(2) is None:
            return value, None
        if value.length is None:
            raise RuleError(f"--component: {value.key} is one integer, not a list: write {value.key}=N")
        names = value.entry_names()
        index = m.group(2).strip()
        if index in names:
            return value, names.index(index)
        raise RuleError(f"--component: {value.key} has no entry [{index}] "
                        f"(entries: {names[0]} to {names[-1]}" + (")" if not value.names else
                                                                  f": {', '.join(names)})"))

    def parse(self, address: str, text: str):
        """The value ``text`` gives ``address`` (an integer; a whole list as ``1,2,3``)."""
        value, index = self.resolve(address)
        whole_list = value.length is not None and index is None
        expects = value.allowed() if whole_list else f"an integer from {value.low} to {value.high}"
        where = f"--component {address.strip()} expects {expects}, got"
        try:
            parsed = [int(t) for t in text.split(",")] if whole_list else int(text)
        except ValueError:
            raise RuleError(f"{where} {text!r}") from None
        if whole_list and len(parsed) != value.length:
            raise RuleError(f"{where} {len(parsed)} entries")
        if not all(value.low <= v <= value.high for v in (parsed if whole_list else [parsed])):
            raise RuleError(f"{where} {text!r}")
        return parsed

    def get(self, table: dict, address: str):
        value, index = self.resolve(address)
        group, name = value.key.split(".", 1)
        got = table[group][name]
        return got if index is None else got[index]

    def differing(self, table: dict) -> dict:
        """The entries of ``table`` that differ from the defaults, in the table's shape (a whole
        list when any entry of it differs; {} for the defaults): what a position writes."""
        out: dict = {}
        for group, keys in table.items():
            changed = {k: v for k, v in keys.items() if v != self.defaults[group][k]}
            if changed:
                out[group] = changed
        return out

    def set(self, table: dict, assignments: Sequence[str] | Mapping[str, int | list[int]]) -> ComponentTable:
        """``table`` with values set, checked: ``KEY=VALUE`` assignments as ``--component`` gives
        them (parsed here), or ``{address: value}`` (an int, or a whole list of ints)."""
        out = {g: {k: (list(v) if isinstance(v, list) else v) for k, v in keys.items()}
               for g, keys in table.items()}
        pairs = assignments.items() if isinstance(assignments, Mapping) else (
            self._split(text) for text in assignments)
        shown = []
        for address, given in pairs:
            value, index = self.resolve(address)
            group, name = value.key.split(".", 1)
            parsed = self.parse(address, given.strip()) if isinstance(given, str) else self.typed(address, given)
            if index is None:
                out[group][name] = parsed
            else:
                out[group][name][index] = parsed
            shown.append(f"{address}={given}".strip() if isinstance(given, str) else
                         f"{address.strip()}={','.join(map(str, given)) if isinstance(given, list) else given}")
        base = getattr(table, "label", "defaults")
        label = base + " with " + ", ".join(shown) if shown else base
        return ComponentTable(self.check(out, "--component", complete=True), label)

    @staticmethod
    def _split(text: str) -> tuple[str, str]:
        if "=" not in text:
            raise RuleError(f"--component expects KEY=VALUE, got {text!r}")
        address, _, raw = text.partition("=")
        return address, raw

    def typed(self, address: str, given):
        """A value given as a number (or a whole list of numbers) for ``address``, checked as
        :meth:`parse` checks a text."""
        value, index = self.resolve(address)
        whole_list = value.length is not None and index is None
        expects = value.allowed() if whole_list else f"an integer from {value.low} to {value.high}"
        items = list(given) if whole_list and isinstance(given, (list, tuple)) else [given]
        ok = all(isinstance(v, int) and not isinstance(v, bool) and value.low <= v <= value.high for v in items)
        if not ok or (whole_list and (not isinstance(given, (list, tuple)) or len(items) != value.length)):
            raise RuleError(f"--component {address.strip()} expects {expects}, got {given!r}")
        return items if whole_list else given

    def addresses(self) -> Iterator[tuple[str, Value, int | None]]:
        """Every single integer a design may change: (address, declaration, list index)."""
        for key, value in self.values.items():
            if value.length is None:
                yield key, value, None
            else:
                for i, name in enumerate(value.entry_names()):
                    yield f"{key}[{name}]", value, i

    def design_range(self, table: dict, address: str, wide: bool = False) -> tuple[int, int]:
        """The values ``tourney design`` tries at ``address`` from ``table`` (:class:`Value`'s
        designer-sized range; ``wide``: the declared ``low`` to ``high``). Always holds the
        table's own value; low == high: nothing to try."""
        value, index = self.resolve(address)
        group, name = value.key.split(".", 1)
        entries = table[group][name]
        now = entries if index is None else entries[index]
        low, high = value.low, value.high
        if wide:
            return low, high
        if value.reach is not None:
            low, high = max(low, now - value.reach * value.step), min(high, now + value.reach * value.step)
        if value.keep_zero:
            if now == 0:
                return now, now
            low = max(low, 1)
        if value.shipped and index is not None:
            kept = [v for v in entries if not (value.keep_zero and v == 0)]
            low, high = max(low, min(kept)), min(high, max(kept))
        if value.rising and index is not None:
            if index > 0:
                low = max(low, entries[index - 1] + 1)
            if index + 1 < len(entries):
                high = min(high, entries[index + 1] - 1)
        return min(low, now), max(high, now)

    def changes(self, table: dict) -> dict:
        """{address: (default, value)} for every single integer ``table`` changes."""
        return {a: (self.get(self.defaults, a), self.get(table, a))
                for a, _, _ in self.addresses() if self.get(self.defaults, a) != self.get(table, a)}

    def changes_text(self, table: dict) -> str:
        """What ``table`` changes, as ``--component`` would set it: ``prizes.most_cards=3 (default
        2), ...``, or ``defaults``."""
        return ", ".join(f"{a}={new} (default {old})" for a, (old, new) in self.changes(table).items()) or "defaults"

    def to_toml(self, table: dict) -> str:
        """``table`` as a components file (``--rule components=FILE`` reads it back: the same
        table), each key with its help as a comment."""
        lines = [f"# {self.game}: a component table (see {self.where()} for the defaults)"]
        for group in self.groups():
            lines += ["", f"[{group}]"]
            for key, value in self.values.items():
                if key.split(".")[0] != group:
                    continue
                name = key.split(".", 1)[1]
                got = table[group][name]
                lines += [f"# {value.help} ({value.allowed()})" if value.help else f"# {value.allowed()}",
                          f"{name} = " + (f"[{', '.join(map(str, got))}]" if isinstance(got, list) else str(got))]
        return "\n".join(lines) + "\n"
