"""Every game that declares its components (``GameSpec.components``, simulate/games/components.py)
keeps the promises of "components as data" (issue 31), read from the registry: a game without a
declaration (the toy game of tests/toy) has nothing to check, and a game ships a components.toml
exactly when it declares one.

- the ``components`` rule option is made from the declaration (its default the shipped table);
- each shipped file loads and round-trips (written back as TOML and read: the same table), and so
  does a table with any single value changed;
- the defaults give the params the game had before (the option's default is what ``make_params``
  uses when it is left out; Colleagues: the params recorded before it read components.toml);
- every bad value is refused with one line naming the key and what is allowed;
- ``--component`` works end to end through the CLI (tests/test_cli_components.py plays it).
"""
from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest

from tourney_sim.simulate.games import RuleError, game_names, get_game
from tourney_sim.simulate.games.components import Components
from tourney_sim.simulate.games.spec import GameSpec, RuleOption

DECLARED = [g for g in game_names() if get_game(g).components is not None]
PLAYABLE_CHECKED = [g for g in DECLARED if get_game(g).components.playable is not None]
RECORDED_PARAMS = Path(__file__).parents[1] / "data" / "colleagues-default-params.json"


def _components(game) -> Components:
    return get_game(game).components


def _one_line(exc: pytest.ExceptionInfo, *words: str) -> str:
    message = str(exc.value)
    assert "\n" not in message, message
    for word in words:
        assert word in message, (word, message)
    return message


def _changed(value, low_or_high):
    """A legal value of a declaration other than ``low_or_high``'s default entry."""
    return value.low if low_or_high != value.low else value.high


def test_a_game_ships_a_components_file_exactly_when_it_declares_components():
    for game in game_names():
        spec = get_game(game)
        shipped = Path(spec.module.__file__).with_name("components.toml").exists()
        assert shipped == (spec.components is not None), game
    assert "colleagues" in DECLARED


# ------------------------------------------------------------------ the generated option
@pytest.mark.parametrize("game", DECLARED)
def test_the_components_option_is_made_from_the_declaration(game):
    spec, components = get_game(game), _components(game)
    option = spec.option("components")
    assert [o.name for o in spec.options].count("components") == 1
    assert option.kind == "file" and option.default == components.defaults
    assert option.parse(str(components.file)) == components.defaults
    assert components.where() in option.help


def test_a_hand_written_components_option_beside_a_declaration_is_an_error():
    spec = get_game("colleagues")
    fields = {name: getattr(spec, name) for name in spec.__dataclass_fields__}
    fields["options"] = (RuleOption("components", "file", {}, "by hand", loader=str),) + tuple(
        o for o in spec.options if o.name != "components")
    with pytest.raises(ValueError, match="hand-written 'components' rule option"):
        GameSpec(**fields)


# ------------------------------------------------------------------ round trips
@pytest.mark.parametrize("game", DECLARED)
def test_the_shipped_file_round_trips(game, tmp_path):
    components = _components(game)
    text = components.to_toml(components.defaults)
    assert components.check(tomllib.loads(text), complete=True) == components.defaults
    path = tmp_path / "written.toml"
    path.write_text(text)
    assert components.load(str(path)) == components.defaults
    json.loads(json.dumps(components.defaults))  # recorded in manifests


@pytest.mark.parametrize("game", DECLARED)
def test_every_address_can_be_set_written_and_read_back(game, tmp_path):
    components = _components(game)
    addresses = list(components.addresses())
    assert addresses
    for address, value, _index in addresses:
        new = _changed(value, components.get(components.defaults, address))
        table = components.set(components.defaults, [f"{address}={new}"])
        assert components.get(table, address) == new
        assert components.changes(table) == {address: (components.get(components.defaults, address), new)}
        path = tmp_path / "one.toml"
        path.write_text(components.to_toml(table))
        assert components.load(str(path)) == table
    assert components.changes(components.defaults) == {}
    assert components.changes_text(components.defaults) == "defaults"


# ------------------------------------------------------------------ the defaults play today's games
@pytest.mark.parametrize("game", DECLARED)
def test_the_default_table_is_what_make_params_uses_when_the_option_is_left_out(game):
    spec = get_game(game)
    for n in range(spec.min_players, spec.max_players + 1):
        options = spec.resolve_options([])
        left_out = {k: v for k, v in options.items() if k != "components"}
        assert spec.make_params(n, options).tolist() == spec.make_params(n, left_out).tolist(), n


def test_colleagues_default_params_are_the_ones_recorded_before_components_py():
    spec = get_game("colleagues")
    recorded = json.loads(RECORDED_PARAMS.read_text())["params"]
    assert len(recorded) == 2 * (spec.max_players - spec.min_players + 1)
    for case, params in recorded.items():
        players, dismissal = case.split("p-")
        options = spec.resolve_options([f"grey_dismissal={dismissal}"])
        # the params recorded then, followed by the seat compensation appended since (issue 42): 0 per seat
        assert spec.make_params(int(players), options).tolist() == params + [0] * spec.module.SEATS, case


# ------------------------------------------------------------------ bad values: one line each
def _bad_files(components: Components) -> list[tuple[str, str]]:
    """(TOML text, a word the error must name) for every kind of bad file, from the declaration."""
    scalar = next((v for v in components.values.values() if v.length is None), None)
    listed = next((v for v in components.values.values() if v.length is not None), None)
    first = next(iter(components.values.values()))
    group, name = first.key.split(".", 1)
    cases = [("[no_such_group]\nx = 1\n", "no_such_group"),
             (f"[{group}]\nno_such_key = 1\n", f"{group}.no_such_key"),
             (f"{group} = 5\n", group),
             (f"[{group}]\n{name} = 'x'\n", first.key),
             (f"[{group}]\n{name} = true\n", first.key),
             (f"[{group}\n", "not valid TOML")]
    if scalar is not None:
        g, n = scalar.key.split(".", 1)
        cases += [(f"[{g}]\n{n} = {scalar.high + 1}\n", scalar.key), (f"[{g}]\n{n} = {scalar.low - 1}\n", scalar.key),
                  (f"[{g}]\n{n} = [{scalar.low}]\n", scalar.key)]
    if listed is not None:
        g, n = listed.key.split(".", 1)
        ok = [listed.low] * listed.length
        cases += [(f"[{g}]\n{n} = {ok + [listed.low]}\n", listed.key), (f"[{g}]\n{n} = {ok[1:]}\n", listed.key),
                  (f"[{g}]\n{n} = {[listed.high + 1] + ok[1:]}\n", listed.key), (f"[{g}]\n{n} = {listed.low}\n", listed.key)]
    return cases


@pytest.mark.parametrize("game", DECLARED)
def test_every_bad_file_is_refused_in_one_line_naming_the_key(game, tmp_path):
    spec = get_game(game)
    for i, (text, word) in enumerate(_bad_files(spec.components)):
        path = tmp_path / f"bad{i}.toml"
        path.write_text(text)
        with pytest.raises(RuleError) as exc:
            spec.resolve_options([f"components={path}"])
        _one_line(exc, word, str(path))
    with pytest.raises(RuleError) as exc:
        spec.resolve_options([f"components={tmp_path / 'missing.toml'}"])
    _one_line(exc, "cannot read", "missing.toml")


def _bad_component_values(components: Components) -> list[tuple[str, str]]:
    """(--component text, words the error must name) for every kind of bad value."""
    scalar = next((v for v in components.values.values() if v.length is None), None)
    listed = next((v for v in components.values.values() if v.length is not None), None)
    cases = [("no_such.key=1", "no component 'no_such.key'"), ("nodot=1", "no component 'nodot'"),
             ("just_a_key", "KEY=VALUE")]
    if scalar is not None:
        cases += [(f"{scalar.key}={scalar.high + 1}", f"from {scalar.low} to {scalar.high}"),
                  (f"{scalar.key}=three", f"from {scalar.low} to {scalar.high}"),
                  (f"{scalar.key}[1]={scalar.low}", "not a list")]
    if listed is not None:
        names = listed.entry_names()
        cases += [(f"{listed.key}[{len(names) + 1 if not listed.names else 'NoSuchEntry'}]={listed.low}",
                   f"entries: {names[0]}"),
                  (f"{listed.key}[0]={listed.low}", "no entry [0]"),
                  (f"{listed.key}[{names[0]}]={listed.high + 1}", f"from {listed.low} to {listed.high}"),
                  (f"{listed.key}={listed.low}", f"a list of {listed.length} integers"),
                  (f"{listed.key}=" + ",".join([str(listed.low)] * (listed.length + 1)), f"{listed.length + 1} entries")]
    return cases


@pytest.mark.parametrize("game", DECLARED)
def test_every_bad_component_value_is_refused_in_one_line(game):
    from tourney_sim.simulate.games.spec import component_rules
    spec = get_game(game)
    for text, words in _bad_component_values(spec.components):
        with pytest.raises(RuleError) as exc:
            spec.resolve_options(component_rules([text]))
        _one_line(exc, words)


@pytest.mark.parametrize("game", PLAYABLE_CHECKED)
def test_a_table_that_cannot_be_played_is_refused_in_one_line(game):
    """The extreme tables (every value at its lowest, at its highest): the game's ``playable``
    refuses at least one of them, through ``make_params`` as a run would reach it."""
    spec = get_game(game)
    components = spec.components
    refused = []
    for end in ("low", "high"):
        table = components.set(components.defaults, [
            f"{key}=" + ",".join([str(getattr(v, end))] * (v.length or 1)) for key, v in components.values.items()])
        options = {**spec.resolve_options([]), "components": table}
        for n in range(spec.min_players, spec.max_players + 1):
            try:
                spec.make_params(n, options)
            except RuleError as exc:
                refused.append(str(exc))
    assert refused, f"{game}: playable() refuses neither extreme table"
    assert all("\n" not in m and m.startswith("components: ") for m in refused), refused


def test_a_game_without_components_refuses_component_values():
    spec = get_game("colleagues")
    fields = {name: getattr(spec, name) for name in spec.__dataclass_fields__}
    fields.update(components=None, options=tuple(o for o in spec.options if o.name != "components"))
    bare = GameSpec(**fields)
    with pytest.raises(RuleError) as exc:
        bare.resolve_options(["components.tokens.plus10=3"])
    _one_line(exc, "colleagues has no components")
