"""Cardavia in JSON (``notation.py``, ``reference.py``), the scenarios of this game: positions with
derived keys left out and cards in any order, bad positions refused saying what is wrong, the
final position's prizes, moves spelled alike by the kernel's notation and the reference engine
(the deal's end in the last play), and written deals checked. What every game's notation promises
(the round trip, play going on from a loaded position, refusing what is no position, replaying
recorded chance events) is tests/contract/test_notation.py."""
import copy

import numpy as np
import pytest

from tourney_sim.simulate.games import get_game
from tourney_sim.simulate.games.cardavia import notation as ca_text
from tourney_sim.simulate.games.cardavia import reference as ref
from tourney_sim.simulate.games.cardavia import rules as ca
from tourney_sim.simulate.games.chance import ChanceError, ScriptedChance, StreamChance
from tourney_sim.simulate.games.spec import PositionError
from tourney_sim.simulate.seeding import PyStream
from tourney_sim.simulate.stepper import KernelGame

from . import harness
from .support.cardavia import CO, CU, card, last_turn_state, mv, params_of, ref_from, RE, SW

SPEC = get_game("cardavia")
PICK_STREAM = harness.PICK_STREAM  # the random moves of a game
#: the rule settings games are played under, in turn: the rulebook's, each CA-5 option changed,
#: and matches of K deals (CA-6), so that every field of the state takes its values
SETTINGS = [{}, {"single_match_forced": True}, {"last_sweep_scores": False}, {"napula_beyond_10": True},
            {"match_deals": 2}, {"match_deals": 3, "single_match_forced": True, "napula_beyond_10": True}]


def settings_of(game: int) -> np.ndarray:
    return params_of(**SETTINGS[game % len(SETTINGS)])


def without_scratch(state: np.ndarray) -> np.ndarray:
    """A copy of ``state`` with the documented scratch regions (not part of a position) zeroed."""
    out = state.copy()
    for _name, start, stop in ca_text.SCRATCH_FIELDS:
        out[start:stop] = 0
    return out


def assert_same_position(loaded: np.ndarray, state: np.ndarray, where: str) -> None:
    expected = without_scratch(state)
    if loaded.dtype != np.int32 or loaded.tobytes() != expected.tobytes():
        wrong = np.nonzero(loaded != expected)[0].tolist()
        raise AssertionError(f"{where}: state offsets {wrong[:10]} differ: loaded "
                             f"{loaded[wrong[:10]].tolist()}, real {expected[wrong[:10]].tolist()}")


def random_move(game, pick: PyStream) -> int:
    """A uniformly random legal move of ``game`` (a KernelGame or a reference Game)."""
    moves = game.legal_moves()
    return moves[pick.below(len(moves))]


# ------------------------------------------------------------------ positions: the round trip


def a_position() -> dict:
    """A position of deal 1 of a two-deal match (seat 1 started it) at turn 12 (each seat has had
    3 turns, each team 6), with cards in both teams' piles and a card just placed."""
    for game in range(100):
        k = KernelGame(SPEC, params_of(match_deals=2), 5, game)
        pick = PyStream(5, game, PICK_STREAM)
        while (k.state[ca.H_DEAL_NO], k.state[ca.H_TURN]) != (1, 12):
            k.apply(random_move(k, pick))
        position = ca_text.describe_state(k.state)
        if position["last_placed"] is not None and all(position["piles"]):
            return position
    raise AssertionError("no such position in 100 games")


def test_derived_keys_may_be_left_out_and_cards_come_in_any_order():
    """A hand-written position need not give the derived keys (to_move, dealer, the match score,
    ...) nor list cards in order: it loads to the same state."""
    position = a_position()
    state = ca_text.load_state(position)
    short = {key: copy.deepcopy(value) for key, value in position.items() if key not in ca_text.DERIVED_KEYS}
    for cards in short["hands"] + [short["table"]] + short["piles"]:
        cards.reverse()
    assert np.array_equal(ca_text.load_state(short), state)
    assert ca_text.describe_state(state) == position


def inside(position: dict, path: tuple):
    """The container holding ``position[path[0]][path[1]]...`` (the last step not taken)."""
    for step in path[:-1]:
        position = position[step]
    return position


def set_in(path: tuple, value):
    def spoil(position):
        inside(position, path)[path[-1]] = value
    return spoil


def delete_in(path: tuple):
    def spoil(position):
        del inside(position, path)[path[-1]]
    return spoil


def set_key(key, value):
    return set_in((key,), value)


def hand(seat):
    return lambda position: position["hands"][seat]


def table(position):
    return position["table"]


def move_card(source, target):
    """Move the first card of ``source`` (a function of the position giving a list) to ``target``."""
    def spoil(position):
        target(position).append(source(position).pop(0))
    return spoil


def copy_card(source, target):
    """Copy the first card of ``source`` to ``target`` too."""
    def spoil(position):
        target(position).append(copy.deepcopy(source(position)[0]))
    return spoil


def hand_card_as_last_placed(position):
    position["last_placed"] = copy.deepcopy(position["hands"][0][0])


BAD_POSITIONS = {
    "missing key": (delete_in(("hands",)), "the position has no 'hands'"),
    "unknown key": (set_key("hand", []), "unknown key 'hand'"),
    "table not a list": (set_key("table", "7 of cups"), "table must be a list"),
    "unknown card": (set_in(("table", 0), {"rank": "11", "suit": "swords"}), "table[0] is not a card"),
    "card misspelt": (set_in(("hands", 1, 0), {"rank": "Asso", "suit": "spade"}), "hands[1][0] is not a card"),
    "card as a list": (set_in(("piles", 0, 0), ["7", "cups"]), "piles[0][0] is not a card"),
    "hand not a list": (set_in(("hands", 3), None), "hands[3] must be a list of cards"),
    "bonuses not a list": (set_key("bonuses", {"scua": 1}), "bonuses must be a list"),
    "card twice": (copy_card(hand(0), table), "is listed twice (hands[0] and table)"),
    "card missing": (delete_in(("piles", 1, 0)), "is nowhere"),
    "hand too small": (move_card(hand(2), table), "hands[2] holds"),
    "pile of a team that never captured": (set_key("last_capturer", None), "nobody has"),
    "seat out of range": (set_key("to_move", 4), "to_move is 4"),
    "team out of range": (set_key("last_capturer", 2), "last_capturer is 2; allowed: 0 to 1"),
    "turn out of range": (set_key("turn", 49), "turn is 49; allowed: 0 to 48"),
    "turn a boolean": (set_key("turn", True), "turn must be an integer"),
    "deal beyond the match": (set_key("deal", 2), "deal is 2; allowed: 0 to 1"),
    "match_deals out of range": (set_in(("options", "match_deals"), 21),
                                 "options['match_deals'] is 21; allowed: 1 to 20"),
    "option not a boolean": (set_in(("options", "napula_beyond_10"), 1),
                             "options['napula_beyond_10'] must be true or false"),
    "options incomplete": (delete_in(("options", "last_sweep_scores")), "options must be an object"),
    "last placed card not on the table": (hand_card_as_last_placed, "which is not on the table"),
    "too many bonuses": (set_in(("bonuses", 0, "scua"), 30), "bonuses[0]['scua'] is 30; allowed: 0 to 6"),
    "bonus key missing": (delete_in(("bonuses", 1, "picada")), "bonuses[1] must be an object"),
    "odd most_cards": (set_in(("match_columns", 0, "most_cards"), 1), "most_cards'] is not a multiple of 2"),
    "match column beyond a deal": (set_in(("match_columns", 1, "mata"), 2),
                                   "match_columns[1]['mata'] is 2; allowed: 0 to 1"),
    "match score disagrees": (set_key("match_score", [99, 0]), "match_score is [99, 0]"),
    "leader before two thirds": (set_key("leader_at_two_thirds", 0), "must be null before turn 64"),
    "dealer wrong": (set_key("dealer", 3), "dealer is 3"),
    "prizes before the end": (set_in(("prizes", 0, "mata"), 1), "prizes is"),
}


@pytest.mark.parametrize("mistake", list(BAD_POSITIONS))
def test_bad_positions_are_refused_with_one_line(mistake):
    """Each mistake in a position is refused with a PositionError saying what is wrong (checked
    by a fragment of its one-line message)."""
    spoil, fragment = BAD_POSITIONS[mistake]
    position = a_position()
    assert (position["deal"], position["turn"]) == (1, 12)  # the limits the fragments name
    spoil(position)
    message = harness.refusal(ca_text.load_state, position)
    assert fragment in message, message


def test_the_final_position_loads_with_its_scores_and_a_wrong_prize_is_refused():
    """After the last deal the position carries the deal's prizes and points (rule 5), which
    load_state recomputes from the piles and checks."""
    k = KernelGame(SPEC, params_of(), 23, 0)
    pick = PyStream(23, 0, PICK_STREAM)
    while k.to_move() >= 0:
        k.apply(random_move(k, pick))
    position = ca_text.describe_state(k.state)
    assert position["to_move"] == -1 and position["turn"] == 48
    assert position["deal_points"] == position["match_score"] == k.result()[0][:2]
    assert sum(position["prizes"][0].values()) + sum(position["prizes"][1].values()) > 0
    assert_same_position(ca_text.load_state(position), k.state, "the end")
    position["prizes"][0]["mata"] = 1 - position["prizes"][0]["mata"]
    with pytest.raises(PositionError, match="prizes is"):
        ca_text.load_state(position)


# ------------------------------------------------------------------ moves: one spelling
def test_reference_spells_every_legal_move_as_the_kernel_notation():
    """At every decision of 200 random games (kernel and reference engine side by side, the
    rule settings in turn), for every legal move: ``reference.action(m) ==
    notation.move_to_json(state, m)``; the deal's last play tells its end (``end_of_deal`` in a
    match, ``end_of_game`` in a one-deal game). The reference engine's recorded deals are the
    kernel's deals."""
    spelled = deals = 0
    for game in range(200):
        params = settings_of(game)
        end_key = ca_text.end_key(int(params[ca.P_MATCH_DEALS]))
        events = []
        k = KernelGame(SPEC, params, 24, game)
        r = ref.Game(params, StreamChance(PyStream(24, game, 0), record=events))
        pick = PyStream(24, game, PICK_STREAM)
        while k.to_move() >= 0:
            turn = int(k.state[ca.H_TURN])
            if turn == 0:  # a new deal: the last event recorded is the kernel's deal
                position = ca_text.describe_state(k.state)
                assert events[-1] == {"deal": {"table": position["table"], "hands": position["hands"]}}
                deals += 1
            moves = k.legal_moves()
            assert r.legal_moves() == moves
            for move in moves:
                spelling = ca_text.move_to_json(k.state, move)
                assert r.action(move) == spelling, (game, ca_text.describe_move(k.state, move))
                assert (end_key in spelling) == (turn == ca.TURNS - 1), spelling
                spelled += 1
            move = moves[pick.below(len(moves))]
            k.apply(move)
            r.apply(move)
        assert len(events) == int(params[ca.P_MATCH_DEALS]) and k.result() == tuple(r.result())
    assert deals == sum(int(settings_of(game)[ca.P_MATCH_DEALS]) for game in range(200))
    assert spelled > 100_000  # 155,023: about 11 legal moves a decision


def test_the_last_play_spells_the_deal_end():
    """Rule 5 by hand: seat 3 places its last card, the 9 of swords; the table (5 of cups, Re of
    coins and it) goes to team 0, who captured last, with no bonus: 4 cards and 1 sword against
    team 1's 1 card, so most cards (2) and most swords (1) to team 0. In a one-deal game this is
    the end of the game; in a match, of deal 0 (seat 1 starts deal 1)."""
    nine, five, re = card(9, SW), card(5, CU), card(RE, CO)
    for deals, key in ((1, "end_of_game"), (2, "end_of_deal")):
        state = last_turn_state([nine], [five, re], ((card(1, CO),), (card(2, CO),)), 0, match_deals=deals)
        spelling = ca_text.move_to_json(state, mv(nine))
        zero = dict.fromkeys(ca_text.COLUMN_NAMES, 0)
        assert spelling == {
            "action": "place", "card": {"rank": "9", "suit": "swords"},
            key: {"deal": 0, "table_to": 0,
                  "table_cards": [{"rank": "5", "suit": "cups"}, {"rank": "9", "suit": "swords"},
                                  {"rank": "Re", "suit": "coins"}],
                  "columns": [dict(zero, cards_taken=4, swords=1, most_cards=2, most_swords=1),
                              dict(zero, cards_taken=1)],
                  "points": [3, 0], "match": [3, 0], "next_starter": None if deals == 1 else 1}}
        assert ref_from(state).action(mv(nine)) == spelling


# ------------------------------------------------------------------ chance events: the deals


def recorded_deal(game: int = 0) -> dict:
    events = []
    ref.Game(params_of(), StreamChance(PyStream(26, game, 0), record=events))
    return events[0]["deal"]


def test_a_written_deal_in_any_order_deals_those_cards():
    """A hand-written deal may list the cards in any order: the game deals exactly them."""
    deal = recorded_deal()
    written = {"table": deal["table"][::-1], "hands": [hand[::-1] for hand in deal["hands"]]}
    game = ref.Game(params_of(), ScriptedChance.from_events([{"deal": written}]))
    assert sorted(game.table) == [ref.Card.from_json(c) for c in deal["table"]]
    assert [sorted(h) for h in game.hands] == [[ref.Card.from_json(c) for c in h] for h in deal["hands"]]
    drawn = ref.Game(params_of(), PyStream(26, 0, 0))
    assert game.legal_moves() == drawn.legal_moves()


def twice(deal):
    deal["hands"][1][0] = copy.deepcopy(deal["table"][0])


def replace(path: tuple, value):
    """Set ``deal[path[0]]...`` (as :func:`set_in`); a card given as (rank, suit) is spelled
    ``{"rank": rank, "suit": suit}``."""
    if isinstance(value, tuple):
        value = {"rank": value[0], "suit": value[1]}
    return set_in(path, value)


IMPOSSIBLE_DEALS = {
    "a card twice": (twice, "is dealt twice (to the table and to seat 1)"),
    "unknown card": (replace(("table", 0), ("0", "swords")), "is not a card"),
    "rank as a number": (replace(("hands", 3, 5), (7, "cups")), "is not a card"),
    "table of 3": (delete_in(("table", 0)), "the table gets 4 cards"),
    "hand of 13": (lambda deal: deal["hands"][2].append(deal["table"][0]), "seat 2 gets 12 cards"),
    "hand a string": (replace(("hands", 0), "twelve cards"), "seat 0 gets 12 cards"),
    "hands a string": (replace(("hands",), "abc"), "hands are 4 lists"),
    "three hands": (delete_in(("hands", 3)), "hands are 4 lists"),
    "extra key": (replace(("dealer",), 3), "a deal is"),
    "missing key": (delete_in(("table",)), "a deal is"),
}


@pytest.mark.parametrize("mistake", list(IMPOSSIBLE_DEALS))
def test_impossible_deals_are_refused(mistake):
    spoil, reason = IMPOSSIBLE_DEALS[mistake]
    deal = recorded_deal()
    spoil(deal)
    assert ref.impossible_deal(deal) is not None
    with pytest.raises(ChanceError) as refused:
        ref.Game(params_of(), ScriptedChance.from_events([{"deal": deal}]))
    message = str(refused.value)
    assert reason in message and message.startswith("impossible deal: ") and "\n" not in message, message


@pytest.mark.parametrize("outcome", [
    None, [], "deal", 52, {"table": None, "hands": None},
    {"table": [["7", "cups"]] * 4, "hands": [[{"rank": ["7"], "suit": "cups"}] * 12] * 4}])
def test_a_deal_that_is_no_deal_is_refused_without_an_exception(outcome):
    assert ref.impossible_deal(outcome) is not None


def test_the_next_deal_of_a_match_is_checked_too():
    """A two-deal match replayed from its record with the second deal spoilt (a card twice):
    the first deal plays out, and the last play of deal 0 raises ChanceError."""
    params = params_of(match_deals=2)
    events = []
    played = ref.Game(params, StreamChance(PyStream(27, 0, 0), record=events))
    pick = PyStream(27, 0, PICK_STREAM)
    moves = []
    while played.to_move() >= 0:
        moves.append(random_move(played, pick))
        played.apply(moves[-1])
    twice(events[1]["deal"])
    replayed = ref.Game(params, ScriptedChance.from_events(events))
    for move in moves[:ca.TURNS - 1]:
        replayed.apply(move)
    with pytest.raises(ChanceError, match="dealt twice"):
        replayed.apply(moves[ca.TURNS - 1])
