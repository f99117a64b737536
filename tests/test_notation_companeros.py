"""Compañeros in JSON, the scenarios of this game: what a position compares, bad positions refused
saying what is wrong, the rulebook's example CO-6, complete move spellings (``move_to_json`` and
the reference engine's ``Game.action``, the recorded deal the kernel's) and impossible deals.
What every game's notation promises (the round trip, play going on from a loaded position,
refusing what is no position and edited positions, replaying recorded chance events) is
tests/contract/test_notation.py."""
import copy
import json

import pytest

from tourney_sim.simulate.games import get_game
from tourney_sim.simulate.games.chance import ChanceError, ScriptedChance, StreamChance
from tourney_sim.simulate.games.companeros import notation as nt
from tourney_sim.simulate.games.companeros import reference as ref
from tourney_sim.simulate.games.companeros import rules as co
from tourney_sim.simulate.seeding import PyStream
from tourney_sim.simulate.stepper import KernelGame

from . import harness
from .support.companeros import BLUE, build_state, card, GREEN, not_position, play, RED, YELLOW

SPEC = get_game("companeros")
PICK_STREAM = harness.PICK_STREAM  # the random move choices of the tests' own games
#: (players, match_games): every player count, single games and CO-5 matches
CONFIGS = [(3, 1), (4, 1), (5, 1), (6, 1), (3, 2), (4, 3), (5, 2), (6, 2)]


def params_of(players, match_games):
    return co.make_params(players, {"match_games": match_games})


def through_json(value):
    return json.loads(json.dumps(value, check_circular=False))


def same_position(a, b):
    """States ``a`` and ``b`` hold the same position: equal outside the fields that are not part
    of one (``notation.not_position_fields``, the same fields for both)."""
    return (nt.not_position_fields(a) == nt.not_position_fields(b)
            and not ((a != b) & ~not_position(a)).any())


def random_game(config, seed, game):
    """A kernel game of ``config`` and the stream choosing its random moves."""
    return KernelGame(SPEC, params_of(*config), seed, game), PyStream(seed, game, PICK_STREAM)


def random_step(k, pick):
    moves = k.legal_moves()
    move = moves[pick.below(len(moves))]
    k.apply(move)
    return move


# ------------------------------------------------------------------ a. positions round trip


def test_positions_compare_all_but_the_fields_that_are_not_part_of_one():
    """What the round trip compares: the scratch area never counts, the taking bookkeeping only
    in the take phase, everything else always."""
    k, pick = random_game((4, 1), 3, 0)
    while k.state[co.H_PHASE] != co.PHASE_TAKE:
        random_step(k, pick)
    taking = k.state.copy()
    random_step(k, pick)
    while k.state[co.H_PHASE] != co.PHASE_PLAY:
        random_step(k, pick)
    playing = k.state.copy()
    for state, taking_counts in ((taking, True), (playing, False)):
        for index, counts in ((co.SCRATCH + 3, False), (co.TAKE_ORDER + 1, taking_counts),
                              (co.H_FIRST_TAKER, taking_counts), (co.PLAYED_SUM, True),
                              (co.PRIVATE + co.PRIVATE_SIZE + 2, True), (co.H_LEADER_2_3, True)):
            changed = state.copy()
            changed[index] += 7
            assert same_position(state, changed) is not counts, (index, taking_counts)
    assert not same_position(taking, playing)


# ------------------------------------------------------------------ b. bad positions
#: random decisions from the deal of a 4-player, 2-game match (seed 5) to the positions the bad
#: cases start from: round 1 of game 1, in the take phase (seats 1 and 3 decided, 2 and 0 still
#: to take; cards taken) and in the play phase (seats 2 and 3 played, seat 0 to play)
BASE_STEPS = {"take": 83, "play": 79}


def a_position(phase):
    k, pick = random_game((4, 2), 5, 0)
    for _ in range(BASE_STEPS[phase]):
        random_step(k, pick)
    return nt.describe_state(k.state)


def test_the_positions_the_bad_cases_start_from_are_fine():
    """The bad cases break real positions: round 1 of the second game, mid-trick scoring (with
    cards taken in this game and points from the first) and mid-play."""
    take, play = a_position("take"), a_position("play")
    assert (take["phase"], take["match_game"], take["round"], take["still_to_take"]) == ("take", 1, 1, [2, 0])
    assert take["first_taker"] == 1 and [len(t) for t in take["taken"]] == [0, 3, 1, 1]
    assert sum(take["points"]) > sum(c["value"] for cards in take["taken"] for c in cards)
    assert (play["phase"], play["starter"], play["to_move"]) == ("play", 2, 0)
    assert [c is not None for c in play["played"]] == [False, False, True, True]
    for position in (take, play):
        assert same_position(nt.load_state(position), nt.load_state(through_json(position)))


def move_card(position, source, target):
    """Move the first card of list ``source`` (a path of keys) to the end of list ``target``."""
    def at(path):
        value = position
        for key in path:
            value = value[key]
        return value
    at(target).append(at(source).pop(0))


def without(key):
    return lambda p: p.pop(key)


def setting(key, value):
    return lambda p: p.__setitem__(key, value)


def unplay(seat):
    """The card ``seat`` played back into its hand."""
    def edit(p):
        p["hands"][seat].append(p["played"][seat])
        p["played"][seat] = None
    return edit


#: mistake -> (the position it starts from, the edit, a fragment of the reason)
BAD_POSITIONS = {
    "missing key": ("take", without("display"), "the position has no display"),
    "nearly every key missing": ("take", lambda p: p.clear() or p.update(players=4),
                                 "the position has no match_games, match_game, round"),
    "unknown key": ("take", setting("dealer", 0), "unknown keys dealer"),
    "players out of range": ("take", setting("players", 7), "players is 7; it must be from 3 to 6"),
    "players of the wrong type": ("take", setting("players", "4"), "players must be an integer from 3 to 6"),
    "unknown phase": ("take", setting("phase", "bidding"), "phase must be one of play, take, over"),
    "seat out of range": ("take", setting("starter", 4), "starter is seat 4; it must be a seat from 0 to 3"),
    "hands not a list": ("take", setting("hands", "all of them"), "hands must be a list of 4"),
    "one hand too few": ("take", lambda p: p["hands"].pop(), "hands has 3 entries; it must have 4"),
    "unknown colour": ("take", lambda p: p["display"].append({"colour": "pink", "value": 3}),
                       "display: unknown card"),
    "colour of no seat": ("take", lambda p: p["display"].append({"colour": "purple", "value": 3}),
                          'one of red, yellow, green, blue, "value": 1 to 10'),
    "value out of range": ("take", lambda p: p["hands"][0].__setitem__(0, {"colour": "red", "value": 11}),
                           "hands[0]: unknown card"),
    "boolean value": ("take", lambda p: p["hands"][0].__setitem__(0, {"colour": "red", "value": True}),
                      "hands[0]: unknown card"),
    "card twice": ("take", lambda p: p["display"].append(dict(p["hands"][1][0])),
                   "is in hands[1] and in display: every card lies in exactly one place"),
    "card missing": ("take", lambda p: p["display"].pop(), "is missing: every card of the game"),
    "hand size": ("take", lambda p: move_card(p, ["hands", 0], ["display"]),
                  "hands[0] holds 6 cards; in round 1 it holds 7"),
    "unplayed card in the take phase": ("take", unplay(0), "3 of 4 seats have played; in the take phase every"),
    "played out of turn": ("play", unplay(2),
                           "seats [3] have played, but the first 1 to play from the starter are seats [2]"),
    "full trick in the play phase": ("play", lambda p: p.update(phase="take"),
                                     "2 of 4 seats have played; in the take phase every seat has"),
    "nobody left to take": ("take", setting("still_to_take", []),
                            "still_to_take is []; it must be the last (at least one) of the taking order [1, 3, 2, 0]"),
    "taker out of range": ("take", setting("still_to_take", [2, 9]),
                           "still_to_take[1] is seat 9; it must be a seat from 0 to 3"),
    "first taker yet to take": ("take", setting("first_taker", 2), "first_taker is seat 2, who is not among"),
    "taking in the play phase": ("play", setting("still_to_take", [1]), "still_to_take and first_taker are for"),
    "to_move wrong": ("take", setting("to_move", 0), "to_move is 0, but the seat to decide is 2"),
    "negative points": ("take", lambda p: p["points"].__setitem__(0, -1), "points[0] is -1; it must be from 0 to"),
    "points below the cards taken": ("take", lambda p: p["points"].__setitem__(1, 0),
                                     "points[1] is 0, but seat 1 took"),
    "too many first takes": ("take", lambda p: p["rounds_first_taker"].__setitem__(2, 50),
                             "rounds_first_taker[2] is 50; it must be from 0 to 10"),
    "leader before two thirds": ("take", setting("leader_at_two_thirds", 1),
                                 "leader_at_two_thirds is null until 12 rounds"),
    "over too early": ("take", setting("phase", "over"), "once it is over, match_game is 2 and round 9"),
    "first game started by another seat": ("take", lambda p: p.update(match_game=0, game_starter=2),
                                           "seat 0 starts the first game"),
}


@pytest.mark.parametrize("mistake", BAD_POSITIONS)
def test_bad_position_is_refused_with_a_reason(mistake):
    base, break_it, fragment = BAD_POSITIONS[mistake]
    position = a_position(base)
    break_it(position)
    assert fragment in harness.refusal(nt.load_state, position)


# ------------------------------------------------------------------ positions and moves by example
def settle_tallies(state):
    """``build_state`` counts the cards out of play as taken by the last seat; give that seat the
    points and card count that go with them, as a real game would have."""
    n = int(state[co.H_PLAYERS])
    taken = nt.taken_cards(state, n - 1)
    state[co.SCORE + n - 1] = sum(co.value_of(c) for c in taken)
    state[co.CARDS_TAKEN + n - 1] = len(taken)
    return state


def spelled(colour, value):
    return {"colour": nt.COLOUR_NAMES[colour], "value": value}


def test_position_and_moves_of_the_rulebook_example_co6():
    """CO-6, as the last round of a game: red 6 (seat 5), red 5 (seat 3) and blue 10 (seat 4)
    take, in that order. A take names the cards and their points; after seat 5 took yellow the
    position names seats 3 and 4 still to take and seat 5 the first taker."""
    plays = [card(GREEN, 7), card(GREEN, 2), card(YELLOW, 9), card(RED, 5), card(BLUE, 10), card(RED, 6)]
    display = [card(YELLOW, 7), card(YELLOW, 4), card(RED, 8), card(RED, 1), card(GREEN, 6), card(BLUE, 4)]
    state = settle_tallies(build_state(6, [[plays[p]] for p in range(6)], display))
    state[co.H_ROUND] = co.ROUNDS - 1  # one card in each hand: the last round
    assert nt.move_to_json(state, card(RED, 6)) == {"action": "play", "card": spelled(RED, 6)}
    play(state, plays)
    assert nt.move_to_json(state, co.MOVE_TAKE + YELLOW) == {
        "action": "take", "colour": "yellow", "cards": [spelled(YELLOW, 4), spelled(YELLOW, 7)], "points": 11}
    assert nt.move_to_json(state, co.MOVE_PASS) == {"action": "pass"}
    earlier_points = int(state[co.SCORE + 5])
    play(state, [co.MOVE_TAKE + YELLOW])
    position = nt.describe_state(state)
    assert position["phase"] == "take" and position["to_move"] == 3 and position["round"] == co.ROUNDS - 1
    assert position["still_to_take"] == [3, 4] and position["first_taker"] == 5
    assert position["played"] == [spelled(c // 10, c % 10 + 1) for c in plays]
    assert position["points"] == [0, 0, 0, 0, 0, earlier_points + 11]
    assert spelled(YELLOW, 7) in position["taken"][5] and spelled(YELLOW, 7) not in position["display"]
    assert position["hands"] == [[] for _ in range(6)]
    assert same_position(nt.load_state(through_json(position)), state)


def test_position_at_the_deal_names_every_hand_and_the_display():
    k = KernelGame(SPEC, params_of(3, 2), 7, 4)
    position = nt.describe_state(k.state)
    assert list(position) == list(nt.POSITION_KEYS)
    assert position["phase"] == "play" and position["to_move"] == 0 and position["starter"] == 0
    assert [len(h) for h in position["hands"]] == [9, 9, 9] and len(position["display"]) == 3
    assert position["played"] == [None] * 3 and position["taken"] == [[], [], []]
    assert position["points"] == [0, 0, 0] and position["leader_at_two_thirds"] is None
    assert position["match_game"] == 0 and position["match_games"] == 2
    cards = [(c["colour"], c["value"]) for place in position["hands"] + [position["display"]] for c in place]
    assert sorted(cards) == sorted((colour, v) for colour in ("red", "yellow", "green") for v in range(1, 11))


# ------------------------------------------------------------------ c. moves spelled alike
def test_reference_action_spells_every_legal_move_as_the_kernel_notation():
    """At every decision of 200 random games (kernel and reference side by side), every legal
    move: ``reference.action(m) == notation.move_to_json(kernel_state, m)``, and each deal the
    reference records is the kernel's hands and display."""
    spellings = takes_with_cards = 0
    for g in range(200):
        config = CONFIGS[g % len(CONFIGS)]
        k, pick = random_game(config, 17, g)
        events = []
        r = ref.Game(params_of(*config), StreamChance(PyStream(17, g, 0), record=events))
        dealt = 0
        while True:
            if len(events) > dealt:  # a deal just happened, in both
                position = nt.describe_state(k.state)
                assert events[-1] == {"deal": {"display": position["display"], "hands": position["hands"]}}
                dealt = len(events)
            if k.to_move() < 0:
                break
            moves = k.legal_moves()
            assert moves == r.legal_moves()
            for move in moves:
                action = r.action(move)
                assert action == nt.move_to_json(k.state, move), (g, move)
                spellings += 1
                takes_with_cards += action["action"] == "take" and len(action["cards"]) > 1
            move = moves[pick.below(len(moves))]
            k.apply(move)
            r.apply(move)
        assert dealt == config[1]
    assert spellings > 30_000 and takes_with_cards > 1000


# ------------------------------------------------------------------ d. chance events


def recorded_deal(players=4, match_games=1, seed=3):
    events = []
    ref.Game(params_of(players, match_games), StreamChance(PyStream(seed, 0, 0), record=events))
    return copy.deepcopy(events[0]["deal"])


def first_card_dealt_twice(deal):
    deal["hands"][1][0] = dict(deal["hands"][0][0])


BAD_DEALS = {
    "a card twice": (first_card_dealt_twice, "is dealt twice"),
    "a colour of no seat": (lambda d: d["display"].__setitem__(0, {"colour": "orange", "value": 2}),
                            "the game's colours are red, yellow, green, blue"),
    "an unknown colour": (lambda d: d["hands"][2].__setitem__(3, {"colour": "pink", "value": 2}), "unknown card"),
    "a value out of range": (lambda d: d["hands"][0].__setitem__(0, {"colour": "red", "value": 0}),
                             "values are the integers 1 to 10"),
    "a card of the wrong shape": (lambda d: d["display"].__setitem__(1, "red 4"), "a card is"),
    "a short hand": (lambda d: d["hands"][3].pop(), "the hand of seat 3 has 8 cards; it must have 9"),
    "a hand too many": (lambda d: d["hands"].append([]), "hands has 5 hands; it must have 4"),
    "a string for the display": (lambda d: d.__setitem__("display", "red 1"),
                                 "the display must be a list of 4 cards, not str"),
    "a missing key": (lambda d: d.pop("hands"), "a deal is"),
}


@pytest.mark.parametrize("mistake", BAD_DEALS)
def test_impossible_deal_is_refused(mistake):
    break_it, fragment = BAD_DEALS[mistake]
    deal = recorded_deal()
    break_it(deal)
    with pytest.raises(ChanceError) as refused:
        ref.Game(params_of(4, 1), ScriptedChance.from_events([{"deal": deal}]))
    assert str(refused.value).startswith("impossible deal: ") and fragment in str(refused.value)


def test_impossible_second_deal_of_a_match_is_refused_when_it_is_dealt():
    """In a CO-5 match the next deal is read when the last round of a game ends: a bad one is
    refused there, and a good record plays on."""
    events = []
    game = ref.Game(params_of(3, 2), StreamChance(PyStream(4, 0, 0), record=events))
    moves = []
    while game.games_done == 0:
        moves.append(game.legal_moves()[0])
        game.apply(moves[-1])
    bad = copy.deepcopy(events)
    bad[1]["deal"]["display"][0] = bad[1]["deal"]["display"][1]
    replay = ref.Game(params_of(3, 2), ScriptedChance.from_events(bad))
    with pytest.raises(ChanceError, match="dealt twice"):
        for move in moves:
            replay.apply(move)
    good = ref.Game(params_of(3, 2), ScriptedChance.from_events(events))
    for move in moves:
        good.apply(move)
    assert good.hands == game.hands and good.display == game.display
