"""Reading tourney datasets for the reports: find them, check them, and read only the needed
columns into one matrix per quantity, one row per game ("table") and one column per result seat.

A report may merge many datasets: a tournament directory (``_tournament.json`` listing its
seating datasets), several run directories, or both. Datasets are grouped into *configurations*
(player count, rules version and rule options); within a configuration a *deal* is identified by
(seed, game index), so the same deal played in different seatings (a duplicate tournament) or
under different rule variants (a sweep) is recognised and paired.

Anything that is not a dataset this version can read gives a :class:`DatasetError` with a one-line
message (never a traceback): a missing or foreign manifest, a manifest from an older tourney,
missing columns, unreadable parts, datasets of different games.
"""
from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from tourney_sim.simulate.games import game_names, get_game
from tourney_sim.simulate.games.spec import COMPONENTS_OPTION
from tourney_sim.simulate.jobdir import detect, not_a
from tourney_sim.simulate.results import (DATASET, MANIFEST, TOURNAMENT, TOURNAMENT_FILE, DatasetError, part_files,
                                          read_manifest, read_tournament)

#: manifest fields the reports need (all written by tourney 0.1.0's runner)
REQUIRED_FIELDS = ("game", "players", "seed", "options", "rules_version", "seats", "rotate",
                   "columns", "better", "team_game", "extra_seats")
BASE_COLUMNS = ("game", "seat", "strategy", "score", "rank", "win", "start_seat", "decisions")
DECISIVENESS_COLUMN = "leader_at_two_thirds"


@dataclass
class Source:
    """One dataset directory and what is known about it."""

    path: Path
    manifest: dict
    tournament: dict | None = None  # the tournament it belongs to, if any
    tournament_path: Path | None = None
    variant: str | None = None  # the rule-variant label the tournament gave it

    @property
    def label(self) -> str:
        return str(self.path)


def _check_manifest(directory: Path) -> dict:
    manifest = read_manifest(directory)
    missing = [k for k in REQUIRED_FIELDS if k not in manifest]
    if missing:
        raise DatasetError(f"{directory} was written by an older tourney "
                           f"({manifest.get('tool_version', 'unknown version')}): its manifest lacks "
                           f"{', '.join(missing)}; run it again with this version")
    return manifest


def discover(paths) -> list[Source]:
    """The datasets under the given paths (dataset directories, tournament directories, or
    directories holding datasets), each once, in a stable order."""
    if not paths:
        raise DatasetError("give at least one dataset or tournament directory")
    sources: list[Source] = []
    seen: set[Path] = set()

    def add(path: Path, tournament=None, tpath=None, variant=None):
        key = path.resolve()
        if key in seen:
            return
        seen.add(key)
        sources.append(Source(path, _check_manifest(path), tournament, tpath, variant))

    for raw in paths:
        p = Path(raw)
        if not os.path.exists(p):  # never an error, whatever the path
            raise DatasetError(f"{p} does not exist")
        if not os.path.isdir(p):
            raise DatasetError(f"{p} is not a directory (give a dataset or tournament directory)")
        kind = detect(p)
        if kind is DATASET:
            tdir = next((d for d in (p.parent, p.parent.parent) if detect(d) is TOURNAMENT), None)
            if tdir is not None:
                t = read_tournament(tdir)
                add(p, t, tdir, _variant_of(t, tdir, p))
            else:
                add(p)
        elif kind is not None and kind is not TOURNAMENT:  # a tuning run, a study: their own reports
            raise DatasetError(not_a(p, DATASET, f" (or a tournament), or `tourney report {p}` alone for its report"))
        elif kind is TOURNAMENT:
            t = read_tournament(p)
            entries = t.get("datasets") or []
            if not entries:
                raise DatasetError(f"tournament {p} lists no datasets")
            for entry in entries:
                d = p / entry["dir"]
                if not (d / MANIFEST).exists():
                    raise DatasetError(f"tournament {p} lists {entry['dir']}, which is missing")
                add(d, t, p, entry.get("variant"))
        else:
            found = sorted({m.parent for m in p.glob("*/" + MANIFEST)}
                           | {m.parent for m in p.glob("*/*/" + MANIFEST)})
            tournaments = sorted({m.parent for m in p.glob("*/" + TOURNAMENT_FILE)})
            if not found and not tournaments:
                raise DatasetError(f"{p} is not a tourney dataset or tournament (no {MANIFEST} "
                                   f"or {TOURNAMENT_FILE} in it or its sub-directories)")
            for tdir in tournaments:
                t = read_tournament(tdir)
                for entry in t.get("datasets") or []:
                    add(tdir / entry["dir"], t, tdir, entry.get("variant"))
            for d in found:
                add(d)
    games = sorted({s.manifest["game"] for s in sources})
    if len(games) > 1:
        where = "; ".join(f"{g} in {next(s.path for s in sources if s.manifest['game'] == g)}"
                          for g in games)
        raise DatasetError(f"the datasets are of different games ({where}): report one game at a time")
    return sources


def _variant_of(t: dict, tdir: Path, path: Path) -> str | None:
    for entry in t.get("datasets") or []:
        if (tdir / entry["dir"]).resolve() == path.resolve():
            return entry.get("variant")
    return None


# ----------------------------------------------------------------------------- configurations
def options_label(options: dict, game: str | None = None) -> str:
    """``key=value`` list of rule options; the component table of ``game`` shows what it changes
    from the defaults (``tokens.plus10=12 (default 9)``, or ``components=defaults``), another
    structured value as a short content hash."""
    spec = get_game(game) if game is not None and game in game_names() else None
    parts = []
    for k, v in options.items():
        if spec is not None and k == COMPONENTS_OPTION and spec.components is not None:
            parts.append(spec.option_text(k, v))
        elif isinstance(v, (dict, list)):
            digest = hashlib.sha256(json.dumps(v, sort_keys=True).encode()).hexdigest()[:8]
            parts.append(f"{k}=#{digest}")
        else:
            parts.append(f"{k}={json.dumps(v) if isinstance(v, bool) else v}")
    return ", ".join(parts) if parts else "no rule options"


def config_key(manifest: dict) -> tuple:
    return (int(manifest["players"]), int(manifest["rules_version"]),
            json.dumps(manifest["options"], sort_keys=True))


@dataclass
class Config:
    """The games of one configuration (players, rules version, rule options), as matrices with
    one row per game played ("table") and one column per result seat."""

    game: str
    players: int
    rules_version: int
    options: dict
    team_game: bool
    better: str
    extra_seats: list[str]
    columns: dict[str, str]
    sources: list[Source]
    names: list[str]  # the report's strategy names (global ids index this), non-players included
    is_player: np.ndarray  # bool per name
    strat: np.ndarray = None  # int16 [T, S] global strategy id
    win: np.ndarray = None  # bool [T, S]
    rank: np.ndarray = None  # int8 [T, S]
    score: np.ndarray = None  # int32 [T, S]
    start: np.ndarray = None  # int8 [T]
    decisions: np.ndarray = None  # int32 [T]
    game_index: np.ndarray = None  # int64 [T]
    seed: np.ndarray = None  # uint64 [T]
    source: np.ndarray = None  # int16 [T] index into sources
    extra: dict = field(default_factory=dict)  # column name -> int32 [T, S]
    deal: np.ndarray = None  # int64 [T]: dense deal id within this configuration
    deal_key: np.ndarray = None  # int64 [D]: a number identifying each deal across configurations
    deal_seed: np.ndarray = None  # uint64 [D]
    deal_game: np.ndarray = None  # int64 [D]
    label: str = ""

    @property
    def tables(self) -> int:
        return len(self.start)

    @property
    def deals(self) -> int:
        return len(self.deal_game)

    @property
    def seats(self) -> int:
        return self.strat.shape[1]

    @property
    def key(self) -> tuple:
        return (self.players, self.rules_version, json.dumps(self.options, sort_keys=True))


def _read_arrays(src: Source, columns: list[str], files=None) -> dict:
    import pyarrow as pa
    import pyarrow.dataset as ds

    files = list(files) if files is not None else part_files(src.path)
    if not files:
        raise DatasetError(f"{src.path} holds no result parts yet")
    try:
        dataset = ds.dataset([str(f) for f in files], format="parquet")
        names = set(dataset.schema.names)
        missing = [c for c in columns if c not in names]
        if missing:
            raise DatasetError(f"{src.path} lacks column(s) {', '.join(missing)}: written by an older "
                               f"tourney ({src.manifest.get('tool_version', 'unknown version')}) or "
                               f"not a {src.manifest['game']} dataset")
        table = dataset.to_table(columns=columns)
    except DatasetError:
        raise
    except (pa.ArrowException, OSError) as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise DatasetError(f"{src.path}: cannot read its parts: {first}") from None
    out = {}
    for c in columns:
        col = table.column(c)
        if c == "strategy":
            out[c] = col
        else:
            out[c] = col.to_numpy()
    return out


def _strategy_codes(col, lookup: dict[str, int], names: list[str]) -> np.ndarray:
    import pyarrow as pa
    import pyarrow.compute as pc

    parts = []
    for chunk in col.chunks:
        if not pa.types.is_dictionary(chunk.type):
            chunk = pc.dictionary_encode(chunk)
        dictionary = chunk.dictionary.to_pylist()
        mapping = np.empty(len(dictionary), np.int16)
        for i, name in enumerate(dictionary):
            if name not in lookup:
                lookup[name] = len(names)
                names.append(name)
            mapping[i] = lookup[name]
        parts.append(mapping[chunk.indices.to_numpy(zero_copy_only=False)])
    return np.concatenate(parts) if parts else np.zeros(0, np.int16)


def load_rows(src: Source, seats: int, columns: list[str], lookup: dict, names: list, files=None) -> dict:
    """One dataset's columns as [games, seats] matrices (per-game columns as [games])."""
    a = _read_arrays(src, list(BASE_COLUMNS) + columns, files)
    n = len(a["game"])
    if n % seats:
        raise DatasetError(f"{src.path}: {n} rows is not a whole number of games of {seats} seats")
    game = a["game"].reshape(-1, seats)
    seat = a["seat"].reshape(-1, seats)
    order = None
    if not ((seat == np.arange(seats)).all() and (game == game[:, :1]).all()):
        order = np.lexsort((a["seat"], a["game"]))
        game = a["game"][order].reshape(-1, seats)
        seat = a["seat"][order].reshape(-1, seats)
        if not ((seat == np.arange(seats)).all() and (game == game[:, :1]).all()):
            raise DatasetError(f"{src.path}: rows do not form whole games (seats 0..{seats - 1} per game)")
    first = game[:, 0]
    if not (np.all(np.diff(first) > 0) or len(np.unique(first)) == len(first)):
        raise DatasetError(f"{src.path}: a game index appears twice")

    def mat(x):
        x = x if order is None else x[order]
        return x.reshape(-1, seats)

    out = {
        "strat": mat(_strategy_codes(a["strategy"], lookup, names)),
        "win": mat(a["win"].astype(bool, copy=False)),
        "rank": mat(a["rank"].astype(np.int8, copy=False)),
        "score": mat(a["score"].astype(np.int32, copy=False)),
        "start": mat(a["start_seat"])[:, 0].astype(np.int8),
        "decisions": mat(a["decisions"])[:, 0].astype(np.int32),
        "game_index": game[:, 0].astype(np.int64),
        "extra": {c: mat(a[c].astype(np.int32, copy=False)) for c in columns},
    }
    return out


def group_configs(sources: list[Source]) -> dict[tuple, list[Source]]:
    groups: dict[tuple, list[Source]] = {}
    for s in sources:
        groups.setdefault(config_key(s.manifest), []).append(s)
    return groups


def load(paths, files_by_source: dict | None = None) -> list[Config]:
    """Every configuration found under ``paths``, loaded; ``files_by_source`` (resolved dataset
    path -> part files) restricts the parts read (the sequential tester reads new parts only)."""
    return load_sources(discover(paths), files_by_source)


def load_sources(sources: list[Source], files_by_source: dict | None = None) -> list[Config]:
    names: list[str] = []
    lookup: dict[str, int] = {}
    non_players: set[str] = set()
    configs = []
    for key, group in sorted(group_configs(sources).items(), key=lambda kv: (kv[0][0], kv[0][1], kv[0][2])):
        m0 = group[0].manifest
        for s in group[1:]:
            for f in ("team_game", "better", "extra_seats"):
                if s.manifest[f] != m0[f]:
                    raise DatasetError(f"{s.path} and {group[0].path} disagree on {f} for the same "
                                       f"game, players and rules version")
        columns = [c for c in m0["columns"] if all(c in s.manifest["columns"] for s in group)]
        non_players.update(m0["extra_seats"])
        seats = int(m0["players"]) + len(m0["extra_seats"])
        parts = []
        for i, s in enumerate(group):
            files = None
            if files_by_source is not None:
                files = files_by_source.get(s.path.resolve())
                if not files:
                    continue
            rows = load_rows(s, seats, columns, lookup, names, files)
            rows["source"] = np.full(len(rows["start"]), i, np.int16)
            rows["seed"] = np.full(len(rows["start"]), int(s.manifest["seed"]), np.uint64)
            parts.append(rows)
        if not parts:
            continue
        cfg = Config(game=m0["game"], players=int(m0["players"]), rules_version=int(m0["rules_version"]),
                     options=m0["options"], team_game=bool(m0["team_game"]), better=m0["better"],
                     extra_seats=list(m0["extra_seats"]), columns={c: m0["columns"][c] for c in columns},
                     sources=group, names=names, is_player=None)
        for k in ("strat", "win", "rank", "score", "start", "decisions", "game_index", "seed", "source"):
            setattr(cfg, k, np.concatenate([p[k] for p in parts]) if len(parts) > 1 else parts[0][k])
        cfg.extra = {c: (np.concatenate([p["extra"][c] for p in parts]) if len(parts) > 1
                         else parts[0]["extra"][c]) for c in columns}
        del parts
        _assign_deals(cfg)
        configs.append(cfg)
    if not configs:
        raise DatasetError("the datasets hold no games yet")
    is_player = np.array([n not in non_players for n in names], bool)
    for cfg in configs:
        cfg.names = names
        cfg.is_player = is_player
    _label_configs(configs)
    return configs


def _assign_deals(cfg: Config) -> None:
    """Dense deal ids: one per (seed, game index) in this configuration."""
    seeds = np.unique(cfg.seed[np.r_[0, np.flatnonzero(np.diff(cfg.seed)) + 1]])  # seeds come in runs
    seed_idx = np.searchsorted(seeds, cfg.seed) if len(seeds) > 1 else np.zeros(len(cfg.seed), np.int64)
    span = int(cfg.game_index.max()) + 1
    key = seed_idx.astype(np.int64) * span + cfg.game_index
    if np.all(np.diff(key) > 0):  # one dataset (or seeds in order): already distinct, sorted
        uniq, inverse = key, np.arange(len(key), dtype=np.int64)
    elif len(seeds) * span <= 8 * len(key) + 1_000_000:  # dense keys: mark and count, no sort
        present = np.zeros(len(seeds) * span, bool)
        present[key] = True
        uniq = np.flatnonzero(present)
        inverse = (np.cumsum(present) - 1)[key]
    else:
        uniq, inverse = np.unique(key, return_inverse=True)
    cfg.deal = inverse.astype(np.int64)
    cfg.deal_game = uniq % span
    cfg.deal_seed = seeds[uniq // span]
    # a number for the deal that is the same in every configuration (for bootstrap blocks)
    cfg.deal_key = cfg.deal_game + (cfg.deal_seed % np.uint64(1 << 20)).astype(np.int64) * 7919


def _label_configs(configs: list[Config]) -> None:
    """A short label per configuration: the options that differ between configurations of the
    same player count (the rule variant), else the player count alone."""
    for cfg in configs:
        same = [c for c in configs if c.players == cfg.players]
        base = f"{cfg.players} players"
        if len(same) == 1:
            cfg.label = base
            continue
        keys = sorted({k for c in same for k in c.options}
                      | ({"rules_version"} if len({c.rules_version for c in same}) > 1 else set()))
        differing = [k for k in keys if k != "rules_version"
                     and len({json.dumps(c.options.get(k), sort_keys=True) for c in same}) > 1]
        variant = None
        for s in cfg.sources:
            if s.variant:
                variant = s.variant
                break
        if variant is None:
            variant = options_label({k: cfg.options.get(k) for k in differing}, cfg.game) if differing else ""
            if len({c.rules_version for c in same}) > 1:
                variant = (variant + ", " if variant else "") + f"rules v{cfg.rules_version}"
        cfg.label = f"{base}, {variant}" if variant else base
