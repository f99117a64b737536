"""A game's configuration end to end (simulate/games/config.py, issue 40): ``GameConfig`` built
once from what a user gives, checked against the game's declarations, and taken as it is by
``make_matchup``; and each game's params declared once (``rules.PARAMS``, simulate/games/layout.py),
from which ``make_params`` and the copy into the state are made."""
from __future__ import annotations

import ast
import inspect
import pickle

import numpy as np
import pytest

from tourney_sim.simulate.games import game_names, get_game
from tourney_sim.simulate.games.config import GameConfig
from tourney_sim.simulate.games.layout import Layout, Params
from tourney_sim.simulate.games.spec import RuleError, component_rules
from tourney_sim.simulate.matchup import from_description, make_matchup
from tourney_sim.simulate.stepper import KernelGame

GAMES = game_names()
#: (game, players, rules, components): what a user may give, components included
ASKED = [
    ("companeros", None, ["match_games=2"], ["deck.values[10]=12", " deal.hand = 8 "]),
    ("companeros", 5, [], []),
    ("cardavia", None, ["match_deals=3", "napula_beyond_10=true"], ["prizes.most_cards=3"]),
    ("colleagues", 2, ["grey_dismissal=shield"], ["work.values[3]=2", "tokens.plus10=12"]),
    ("partners", None, ["house_overshoot=bounce"], ["board.section=12"]),
]


@pytest.mark.parametrize("game, players, rules, components", ASKED)
def test_the_config_is_what_the_rule_strings_made(game, players, rules, components):
    """Built once, the config gives what the text went through before: the options
    ``resolve_options`` made of ``rules + components.KEY=VALUE``, the same params, and the rules
    a manifest records (the --rule values, then each --component value as components.KEY=VALUE)."""
    spec = get_game(game)
    config = GameConfig.build(game, players, rules, components)
    recorded = list(rules) + component_rules(components)
    assert config.rules == recorded and isinstance(config.rules, list)
    assert config.players == spec.player_count(players)
    old = spec.resolve_options(recorded)
    assert config.options == old and list(config.options) == list(old)
    assert repr(config.table) == repr(old["components"])
    assert np.array_equal(config.params(), spec.make_params(config.players, old))
    assert config.params().dtype == np.int32


@pytest.mark.parametrize("game, players, rules, components", ASKED)
def test_make_matchup_takes_the_config(game, players, rules, components):
    """``make_matchup(config, strategies, ...)`` is the old form's matchup, described (so recorded)
    byte for byte alike, and the description rebuilds it."""
    config = GameConfig.build(game, players, rules, components)
    new = make_matchup(config, ["random"], seed=3, record=("dealt",))
    old = make_matchup(game, players, ["random"], rules=list(rules) + component_rules(components), seed=3,
                       record=("dealt",))
    assert new.describe() == old.describe() and np.array_equal(new.params, old.params)
    assert new.config is config and new.options == config.options
    again = from_description(new.describe())
    assert again.describe() == new.describe() and np.array_equal(again.params, new.params)
    with pytest.raises(TypeError, match="the config's"):
        make_matchup(config, ["random"], rules=["match_games=2"])


def test_one_line_errors_as_before():
    """The same one-line RuleError as the rule strings gave; a bad --component's form is named first."""
    cases = [
        (dict(components=["prizes.most_cards"]), "--component expects KEY=VALUE (e.g. prizes.most_cards=3), got"),
        (dict(players=3), "cardavia is played by exactly 4 players, not 3"),
        (dict(rules=["match_deals"]), "--rule expects key=value, got 'match_deals'"),
        (dict(rules=["nope=1"]), "cardavia has no rule option 'nope'"),
        (dict(rules=["match_deals=99"]), "rule match_deals expects an integer from 1 to 20, got '99'"),
        (dict(components=["prizes.most_cards=99"]), "--component prizes.most_cards expects an integer from 0 to 9"),
        (dict(components=["prizes.nope=1"]), "--component: cardavia has no component 'prizes.nope'"),
        (dict(players=5, components=["bad"]), "--component expects KEY=VALUE"),
    ]
    for given, message in cases:
        with pytest.raises(RuleError) as err:
            GameConfig.build("cardavia", **given)
        assert str(err.value).startswith(message) and "\n" not in str(err.value), given
    with pytest.raises(RuleError, match="6 players with \\+2 make 8 colours; there are 1 to 6"):
        GameConfig.build("companeros", 6, components=["deck.extra_colours=2"])  # checked when built


def test_recorded_options_come_back():
    """``from_record``: a manifest's option values over the defaults; ``check`` checks each as a
    --rule value (a hand-written trace), an unchecked record keeps them as they are."""
    config = GameConfig.build("cardavia", rules=["match_deals=2"], components=["prizes.mata=3"])
    recorded = config.options
    back = GameConfig.from_record("cardavia", 4, recorded, check=True)
    assert back.options == recorded and np.array_equal(back.params(), config.params())
    assert GameConfig.from_record("cardavia", 4, {"match_deals": "2"}, check=True).options["match_deals"] == 2
    with pytest.raises(RuleError, match="has no rule option 'nope'"):
        GameConfig.from_record("cardavia", 4, {"nope": 1}, check=True)
    with pytest.raises(RuleError, match="rule match_deals expects"):
        GameConfig.from_record("cardavia", 4, {"match_deals": 0}, check=True)
    over = GameConfig.from_record("cardavia", None, {"match_deals": 5}, rules=["match_deals=2", "napula_beyond_10=true"])
    assert over.options["match_deals"] == 5 and over.options["napula_beyond_10"] is True
    assert over.rules == ["match_deals=2", "napula_beyond_10=true"]


def test_component_values_set_typed_or_as_text():
    """``with_components``: ``{address: value}`` sets the same table as its text, and the rules
    record it as the text; a bad typed value is refused with the text's message."""
    base = GameConfig.build("colleagues", 3, ["grey_dismissal=shield"])
    typed = base.with_components({"work.values[3]": 2, "commitment.icons": [1] * 60})
    text = base.with_components(["work.values[3]=2", "commitment.icons=" + ",".join(["1"] * 60)])
    assert typed.options == text.options and typed.rules == text.rules
    assert typed.rules == GameConfig.build("colleagues", 3, ["grey_dismissal=shield"], [
        "work.values[3]=2", "commitment.icons=" + ",".join(["1"] * 60)]).rules
    assert np.array_equal(typed.params(), text.params())
    with pytest.raises(RuleError, match=r"--component work.values\[3\] expects an integer from -99 to 99, got 500"):
        base.with_components({"work.values[3]": 500})
    with pytest.raises(RuleError, match="expects a list of 60 integers"):
        base.with_components({"commitment.icons": [1, 2]})


def test_a_config_is_a_value():
    """Frozen, compared by value, pickled by name (a spec holds the game's functions); its options
    are a new dict each time, so a caller's change never reaches it."""
    a = GameConfig.build("companeros", 4, ["match_games=2"])
    b = GameConfig.build("companeros", None, ["match_games=2"])
    assert a == b and hash(a) == hash(b)
    assert pickle.loads(pickle.dumps(a)) == a
    a.options["match_games"] = 7
    assert a.options["match_games"] == 2
    with pytest.raises(AttributeError):
        a.players = 5
    assert "match_games=2" in repr(a) and "components=defaults" in repr(a)


# ----------------------------------------------------------------------------- the params layout
@pytest.mark.parametrize("game", GAMES)
def test_params_are_declared_once(game):
    """``rules.PARAMS`` tiles params; each ``P_*`` name is a plain int module constant made from
    it (no module statement assigns one by hand); ``make_params`` is the declaration's."""
    m = get_game(game).module
    if not isinstance(getattr(m, "PARAMS", None), Params):
        pytest.skip(f"{game} packs its params by hand")
    constants = m.PARAMS.constants()
    at = 0
    for p in m.PARAMS.pieces:
        assert p.offset == at and type(getattr(m, p.name)) is int and getattr(m, p.name) == p.offset
        at += p.size
    assert m.PARAMS_SIZE == at == constants["PARAMS_SIZE"]
    tree = ast.parse(inspect.getsource(m))
    assigned = {n.id for node in tree.body if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign))
                for t in (node.targets if isinstance(node, ast.Assign) else [node.target])
                for n in ast.walk(t) if isinstance(n, ast.Name)}
    assert not assigned & set(constants), sorted(assigned & set(constants))
    assert "def make_params" not in inspect.getsource(m)
    assert get_game(game).make_params is m.make_params


@pytest.mark.parametrize("game", GAMES)
def test_init_copies_what_the_declaration_says(game):
    """After ``init``, each copied piece's entries are in the state where the declaration puts
    them, under the default table and a changed one."""
    spec = get_game(game)
    m = spec.module
    if not isinstance(getattr(m, "PARAMS", None), Params):
        pytest.skip(f"{game} packs its params by hand")
    changed = {"companeros": ["deck.values[10]=14", "deal.hand=8"], "cardavia": ["prizes.mata=4"],
               "colleagues": ["tokens.plus10=12", "work.values[1]=-5"], "partners": ["board.section=12"]}
    for components in ([], changed.get(game, [])):
        config = GameConfig.build(game, None, [], components)
        params = config.params()
        state = KernelGame(spec, params, 1, 0).state
        for src, dst, size in m.PARAMS.copies():
            assert np.array_equal(state[dst:dst + size], params[src:src + size]), (game, src, dst)
        assert len(m.PARAMS.copies()) == sum(p.to is not None for p in m.PARAMS.pieces)


def test_params_from_pieces():
    """A small declaration: offsets, the copies, the table, make_params; refused declarations."""
    layout = Layout(public=[("H_N", 1, "n"), ("H_K", 1, "k"), ("ROW", 3, "a row"), ("MORE", 2, "more")],
                    private=[("PV", 1, "p")], seats=2, scratch=[("S", 2, "s")])
    params = Params(layout, [("P_N", 1, "H_N", lambda c: c.players, "players"),
                             ("P_CAP", 1, None, lambda c: c.options.get("cap", 9)),
                             ("P_ROW", 5, "ROW", lambda c: [1, 2, 3, 4, 5])],
                    extra={"bonus": 0})
    assert params.constants() == {"P_N": 0, "P_CAP": 1, "P_ROW": 2, "PARAMS_SIZE": 7}
    assert params.copies() == ((0, 0, 1), (2, 2, 5))
    assert params.make_params(3, {}).tolist() == [3, 9, 1, 2, 3, 4, 5]
    assert params.read(params.make_params(2, {"cap": 4})) == {"P_N": 2, "P_CAP": 4, "P_ROW": [1, 2, 3, 4, 5]}
    with pytest.raises(TypeError, match="unexpected keyword argument 'nope'"):
        params.make_params(3, {}, nope=1)
    namespace = {"__name__": "somewhere"}
    params.install(namespace)
    assert namespace["P_ROW"] == 2 and namespace["make_params"](2, {}).tolist()[:2] == [2, 9]
    assert namespace["make_params"].__module__ == "somewhere"
    state = np.zeros(layout.state_size, np.int32)
    namespace["copy_params"](state, namespace["make_params"](2, {}))
    assert state[:7].tolist() == [2, 0, 1, 2, 3, 4, 5]
    for pieces, message in [
        ([("P_A", 1, "PV", lambda c: 0)], "not a public or scratch piece"),
        ([("P_A", 1, "NOPE", lambda c: 0)], "not a public or scratch piece"),
        ([("P_A", 2, "ROW", lambda c: 0)], "do not end at the end of a piece"),
        ([("P_A", 3, "MORE", lambda c: 0)], "do not end at the end of a piece"),
        ([("P_A", 1, None, lambda c: 0), ("P_A", 1, None, lambda c: 0)], "given twice"),
        ([("H_N", 1, None, lambda c: 0)], "given twice"),
        ([("p_a", 1, None, lambda c: 0)], "upper-case"),
        ([("P_A", 0, None, lambda c: 0)], "positive int"),
    ]:
        with pytest.raises(ValueError, match=message):
            Params(layout, pieces)
    with pytest.raises(ValueError, match="5 entries declared, 2 computed"):
        Params(layout, [("P_ROW", 5, "ROW", lambda c: [1, 2])]).make_params(2, {})
