"""Colleagues in JSON (``simulate/games/colleagues/notation.py``), the scenarios of this game. What
every game's notation promises (the round trip, play going on from a loaded position, refusing
what is no position and edited positions, replaying recorded chance events) is
tests/contract/test_notation.py.

1. Positions: named as the rules name things, the end of a game, impossible positions refused
   with a one-line PositionError, the Grey Entity only with two players.
2. Spelling: the reference engine spells every legal move exactly as ``move_to_json`` does, every
   kind of action among them.
3. Chance: events come when the rules reveal them; impossible outcomes and garbage are refused
   with ChanceError.
"""
import copy
import json

import numpy as np
import pytest

from tourney_sim.simulate.games import get_game
from tourney_sim.simulate.games.chance import ChanceError, ScriptedChance, StreamChance
from tourney_sim.simulate.games.colleagues import notation as nt
from tourney_sim.simulate.games.colleagues import reference as ref
from tourney_sim.simulate.games.colleagues import rules as cl
from tourney_sim.simulate.games.spec import PositionError
from tourney_sim.simulate.seeding import PyStream
from tourney_sim.simulate.stepper import KernelGame

from . import harness
from .support.colleagues import FEW_TOKENS, ODD_COMPONENTS

SPEC = get_game("colleagues")
PICK_STREAM = harness.PICK_STREAM  # the tests' own stream for random moves


def kernel_result(state):
    seats = int(state[cl.H_SEATS])
    score = np.zeros(seats, np.int32)
    rank = np.zeros(seats, np.int8)
    extra = np.zeros((seats, len(SPEC.columns)), np.int32)
    cl.result(state, score, rank, extra)
    return score.tolist(), rank.tolist(), extra.tolist()


def round_trip(state):
    return nt.load_state(json.loads(json.dumps(nt.describe_state(state))))


# ------------------------------------------------------------------ 1. positions


def test_position_names_what_the_rules_name():
    """Positions read as the rules read them: the 2-player deal (hands of 6, the Grey Entity's
    five cards, 3 tokens each and the first player's extra one, the week's layout), a Midweek
    turn (hands of 6 less the row), a component table of its own (only what differs)."""
    k = KernelGame(SPEC, cl.make_params(2, {}), 3, 0)
    start = nt.describe_state(k.state)
    assert start["phase"] == "monday_briefing" and start["week"] == 1 and start["to_move"] == 0
    assert start["decision"] == "mulligan" and start["midweek_turn"] is None
    assert [len(h) for h in start["hands"]] == [6, 6] and len(start["deck"]) == 60 - 12 - 5
    assert [sum(t.values()) for t in start["tokens"]] == [4, 3]  # 3 each, +1 the first player
    assert start["grey_entity"]["cards"] and start["grey_entity"]["revealed"] == []
    assert start["options"] == {"grey_dismissal": "exclude", "components": {}}
    assert sorted(n for week in start["work_cards"] for n in week) == list(range(1, 16))
    assert start["work_taken"] == [[], [], []] and start["overtime_pile"] == [1, 2, 3]
    assert start["leader_at_two_thirds"] is None
    json.dumps(start)
    pick = PyStream(3, 0, PICK_STREAM)
    while k.state[cl.H_STAGE] != cl.STAGE_MIDWEEK or k.state[cl.H_TURN] < 2:
        moves = k.legal_moves()
        k.apply(moves[pick.below(len(moves))])
    mid = nt.describe_state(k.state)
    assert mid["phase"] == "midweek" and mid["midweek_turn"] == 3
    for p in range(2):
        placed = [cell for cell in mid["rows"][p][:5] if cell is not None]
        assert len(mid["hands"][p]) + len(placed) == 6
        assert mid["rows"][p][5] is None  # the Overtime column waits for Friday
    odd = nt.describe_state(KernelGame(SPEC, cl.make_params(3, {"components": ODD_COMPONENTS}), 1, 0).state)
    assert odd["options"]["components"] == ODD_COMPONENTS  # only what differs from the defaults


def test_the_end_of_a_game_is_a_position_too():
    k = KernelGame(SPEC, cl.make_params(3, {}), 8, 1)
    pick = PyStream(8, 1, PICK_STREAM)
    while k.to_move() >= 0:
        moves = k.legal_moves()
        k.apply(moves[pick.below(len(moves))])
    end = nt.describe_state(k.state)
    assert end["phase"] == "over" and end["to_move"] is None and end["decision"] is None
    assert end["hands"] == [[], [], []] and sorted(end["deck"]) == list(range(1, 61))
    assert sum(len(t) for t in end["work_taken"]) + len(end["discarded"]["work"]) == 15
    assert end["tallies"]["score"] == kernel_result(k.state)[0]
    assert np.array_equal(round_trip(k.state)[~nt.scratch_mask(k.state)], k.state[~nt.scratch_mask(k.state)])


def midweek_position(players, seed=6, game=2, turn=2):
    """A real position at Midweek turn ``turn`` (1-based) of a random game, as JSON."""
    k = KernelGame(SPEC, cl.make_params(players, {}), seed, game)
    pick = PyStream(seed, game, PICK_STREAM)
    while not (k.state[cl.H_STAGE] == cl.STAGE_MIDWEEK and k.state[cl.H_TURN] == turn - 1
               and k.state[cl.H_DECISION] == cl.DEC_PLAY):
        moves = k.legal_moves()
        k.apply(moves[pick.below(len(moves))])
    return json.loads(json.dumps(nt.describe_state(k.state)))


def move_card(position, source, target):
    """Move the first card of list ``source`` to list ``target`` (both in ``position``)."""
    target.append(source.pop(0))
    return position


BAD_POSITIONS = {
    "missing key": (lambda p: p.pop("deck"), "position: missing key 'deck'"),
    "unknown key": (lambda p: p.update(colour="grey"), "position: unknown key 'colour'"),
    "wrong type": (lambda p: p.update(hands="six cards"), "hands must be a list"),
    "bool for a number": (lambda p: p.update(players=True), "players must be an integer from 2 to 5"),
    "unknown card": (lambda p: p["hands"][0].__setitem__(0, 61), "unknown card 61 (cards are 1 to 60)"),
    "card twice": (lambda p: p["hands"][0].__setitem__(0, p["deck"][0]), "is in two places"),
    "card missing": (lambda p: p["deck"].pop(), "is nowhere (1 missing)"),
    "seat out of range": (lambda p: p.update(to_move=4), "to_move must be an integer from 0 to 1"),
    "hand too big": (lambda p: move_card(p, p["deck"], p["hands"][1]), "hands[1]: seat 1 holds"),
    "row too short": (lambda p: p["rows"][0].__setitem__(
        next(c for c in range(5) if p["rows"][0][c]), None), "weekday card(s) in its row"),
    "face-down Overtime card": (lambda p: p["rows"][0].__setitem__(5, {"card": p["deck"][0], "face": "down"}),
                                "the Overtime card is face up"),
    "token kind on a card": (lambda p: p["rows"][1].__setitem__(
        next(c for c in range(5) if p["rows"][1][c]), {"card": 1, "face": "up", "tokens": ["MEETING"]}),
        "must be one of +10, -10, ILLNESS"),
    "tokens do not add up": (lambda p: p["coffee_room"].update({"+10": p["coffee_room"]["+10"] + 1}),
                             "+10 tokens: the component table has 9"),
    "unknown phase": (lambda p: p.update(phase="weekend"), "phase must be one of monday_briefing"),
    "decision of another phase": (lambda p: p.update(decision="mulligan"),
                                  "decision (phase midweek) must be one of grey_entity, play, token"),
    "look without a token": (lambda p: (p["grey_entity"]["looked_at"].__setitem__(0, ["Friday"]),
                                        p["grey_entity"]["peek_tokens_spent"].__setitem__(0, {})),
                             "seat 0 looked at 1 card(s) and spent 0 token(s)"),
    "future Work card taken": (lambda p: p["work_taken"][0].append(p["work_cards"][2][0]),
                               "is not in a week over"),
    "Overtime card before week end": (lambda p: p["overtime_taken"][1].append(1),
                                      "at most one Overtime card per week over"),
    "bad component table": (lambda p: p.update(options={"components": {"work": {"values": [1, 2]}}}),
                            "options.components: work.values must be a list of 15"),
    "wrong tallies": (lambda p: p["tallies"]["score"].__setitem__(0, 99), "tallies must be"),
    "leader too early": (lambda p: p.update(leader_at_two_thirds=0), "leader_at_two_thirds must be null"),
    "token count out of range": (lambda p: p["tokens"][0].update({"-10": -1}),
                                 "tokens[0]['-10'] must be an integer"),
}


@pytest.mark.parametrize("mistake", list(BAD_POSITIONS))
def test_impossible_positions_are_refused_with_one_line(mistake):
    position = midweek_position(2)
    nt.load_state(copy.deepcopy(position))  # the position itself is fine
    spoil, fragment = BAD_POSITIONS[mistake]
    spoil(position)
    message = harness.refusal(nt.load_state, position)
    assert fragment in message, message


def test_grey_entity_only_in_the_two_player_game():
    position = midweek_position(3)
    position["grey_entity"] = midweek_position(2)["grey_entity"]
    with pytest.raises(PositionError, match="only the 2-player game has a Grey Entity"):
        nt.load_state(position)
    two = midweek_position(2)
    del two["grey_entity"]
    with pytest.raises(PositionError, match="missing key 'grey_entity'"):
        nt.load_state(two)


# ------------------------------------------------------------------ 2. spelling
ALL_ACTIONS = {"keep", "mulligan", "grey_none", "grey_reveal", "grey_peek", "play", "no_token", "token"}


def test_reference_spells_every_legal_move_as_the_kernel_notation():
    """At every decision of 200 random games (kernel and reference side by side), every legal
    move: ``reference.action(m) == notation.move_to_json(kernel_state, m)``."""
    seen = set()
    for g in range(200):
        players = (2, 2, 3, 4, 5)[g % 5]
        params = cl.make_params(players, {"components": FEW_TOKENS} if g % 4 == 3 else {})
        k = KernelGame(SPEC, params, 31, g)
        r = ref.Game(params, PyStream(31, g, 0))
        pick = PyStream(31, g, PICK_STREAM)
        while k.to_move() >= 0:
            moves = k.legal_moves()
            assert moves == r.legal_moves()
            for move in moves:
                spelled = nt.move_to_json(k.state, move)
                assert r.action(move) == spelled, (g, move)
                seen.add((spelled["action"], spelled.get("draw_token"), spelled.get("face")))
            move = moves[pick.below(len(moves))]
            k.apply(move)
            r.apply(move)
    assert {action for action, _, _ in seen} == ALL_ACTIONS
    assert ("keep", False, None) in seen and ("keep", True, None) in seen  # the room runs dry
    assert ("play", None, "down") in seen


def test_spelling_says_what_a_keep_draws_and_which_grey_card():
    state = KernelGame(SPEC, cl.make_params(2, {}), 1, 0).state.copy()
    assert nt.move_to_json(state, cl.MOVE_MULLIGAN) == {"action": "keep", "draw_token": True}
    hand = nt.describe_state(state)["hands"][0]
    assert nt.move_to_json(state, cl.MOVE_MULLIGAN + 0b100001) == {"action": "mulligan",
                                                                  "discard": [hand[0], hand[5]]}
    grey = nt.describe_state(state)["grey_entity"]["cards"]
    assert nt.move_to_json(state, cl.MOVE_REVEAL + 3)["card"] == grey[3]
    assert nt.move_to_json(state, cl.MOVE_PEEK + 4 * 1 + cl.MEETING) == {
        "action": "grey_peek", "day": "Tuesday", "spend": "MEETING", "card": grey[1]}
    state[cl.S_ROOM:cl.S_ROOM + 4] = 0
    state[cl.H_ROOM] = 0
    assert nt.move_to_json(state, cl.MOVE_MULLIGAN) == {"action": "keep", "draw_token": False}
    assert "no token" in nt.describe_move(state, cl.MOVE_MULLIGAN)


# ------------------------------------------------------------------ 3. chance
def record_game(players, seed, g, options=None):
    """A random reference game on the recorded stream: (params, events, moves, the legal moves
    of each step, result)."""
    params = cl.make_params(players, options or {})
    events = []
    game = ref.Game(params, StreamChance(PyStream(seed, g, 0), record=events))
    pick = PyStream(seed, g, PICK_STREAM)
    moves, legal = [], []
    while game.to_move() >= 0:
        legal.append(game.legal_moves())
        moves.append(legal[-1][pick.below(len(legal[-1]))])
        game.apply(moves[-1])
    return params, events, moves, legal, game.result()


def replay(params, events, moves, legal=None):
    """The same game from its chance events alone; checks the legal moves against ``legal``
    (a list per step) when given; returns (result, events consumed)."""
    scripted = ScriptedChance.from_events(events)
    next_outcome = scripted.next_outcome
    used = []
    scripted.next_outcome = lambda kind: used.append(kind) or next_outcome(kind)
    game = ref.Game(params, scripted)
    for step, move in enumerate(moves):
        if legal is not None:
            assert game.legal_moves() == legal[step]
        game.apply(move)
    assert game.to_move() < 0
    return game.result(), len(used)


def test_chance_events_come_when_the_rules_reveal_them():
    """Setup: the shuffle, 3 tokens each and the first player's extra one (2 players), the first
    deal (hands and the Grey Entity's cards). Then each mulligan brings its draw at once, each
    keep its token (none when the room is empty), each week its deal; a Grey Entity move none."""
    kept = set()  # draw_token of the keeps seen
    for g in range(10):
        events = []
        params = cl.make_params(2, {"components": FEW_TOKENS})
        game = ref.Game(params, StreamChance(PyStream(5, g, 0), record=events))
        assert [kind for event in events for kind in event] == ["shuffle", "token", "token", "token", "deal"]
        setup_tokens = [(e["token"]["seat"], len(e["token"]["tokens"])) for e in events[1:4]]
        assert setup_tokens == [(0, 3), (1, 3), (0, 1)]
        deal = events[4]["deal"]
        assert [len(hand) for hand in deal["hands"]] == [6, 6] and len(deal["grey_entity"]) == 5
        pick = PyStream(5, g, PICK_STREAM)
        while (seat := game.to_move()) >= 0:
            moves = game.legal_moves()
            move = moves[pick.below(len(moves))]
            if move < 64 and pick.below(4):
                move = cl.MOVE_MULLIGAN  # keep the hand 3 times in 4, not one time in 64
            action = game.action(move)
            before = len(events)
            game.apply(move)
            new = events[before:]
            if action["action"] == "mulligan":
                assert [list(e) for e in new] == [["draw"]] and new[0]["draw"]["seat"] == seat
                assert len(new[0]["draw"]["cards"]) == len(action["discard"])
            elif action["action"] == "keep":
                assert [list(e) for e in new] == ([["token"]] if action["draw_token"] else [])
                kept.add(action["draw_token"])
            elif action["action"].startswith("grey"):
                assert new == []
        assert sum("deal" in e for e in events) == cl.WEEKS
    assert kept == {True, False}


#: what a ``_tamper`` change returns to leave an outcome alone
PASS_OVER = object()


def _tamper(events, kind, change):
    """A copy of the events with the first outcome of ``kind`` that ``change(outcome, events)``
    takes replaced by what it returns (``PASS_OVER``: not that one)."""
    events = copy.deepcopy(events)
    for event in events:
        if kind in event:
            changed = change(copy.deepcopy(event[kind]), events)
            if changed is not PASS_OVER:
                event[kind] = changed
                return events
    raise AssertionError(f"no {kind} event to tamper with")


def _card_in_two_hands(deal, _):
    deal["hands"][0][1] = deal["hands"][1][2]
    return deal


def _card_twice_in_a_hand(deal, _):
    deal["hands"][1][0] = deal["hands"][1][3]
    return deal


def _draw_from_a_hand(draw, events):
    """A mulligan's draw naming a card the week's deal gave a hand (so not in the deck)."""
    dealt = next(e["deal"]["hands"] for e in events if "deal" in e)
    draw["cards"][0] = dealt[draw["seat"]][0]
    return draw


def _kind_the_room_lacks(token, _):
    """Three +10 tokens drawn at once (``ODD_COMPONENTS`` has two)."""
    token["tokens"] = ["+10"] * len(token["tokens"])
    return token if len(token["tokens"]) >= 3 else PASS_OVER


#: case -> (kind of event, change(outcome, events), fragment of the ChanceError's message)
BAD_OUTCOMES = {
    "deal: a card twice in a hand": ("deal", _card_twice_in_a_hand, "hands[1]: card"),
    "deal: a card in two hands": ("deal", _card_in_two_hands, "is there twice"),
    "deal: a string for the hands": ("deal", lambda o, _: {**o, "hands": "all of them"}, "hands must be a list"),
    "deal: hands missing": ("deal", lambda o, _: {"grey_entity": o.get("grey_entity")}, "missing key 'hands'"),
    "deal: unknown card": ("deal", lambda o, _: {**o, "hands": [[0, 1, 2, 3, 4, 5]] + o["hands"][1:]},
                           "unknown card 0"),
    "draw: a card not in the deck": ("draw", _draw_from_a_hand, "is not in the deck (it "),
    "draw: too few cards": ("draw", lambda o, _: {**o, "cards": o["cards"][1:]}, "must hold"),
    "draw: a float card": ("draw", lambda o, _: {**o, "cards": [float(c) for c in o["cards"]]}, "unknown card"),
    "token: wrong seat": ("token", lambda o, _: {**o, "seat": o["seat"] + 1}, "draws tokens here"),
    "token: unknown kind": ("token", lambda o, _: {**o, "tokens": ["+20"] * len(o["tokens"])},
                            "must be one of +10, -10, ILLNESS, MEETING"),
    "token: more of a kind than the room holds": ("token", _kind_the_room_lacks,
                                                  "the Coffee Room holds 2 +10 token(s), not 3"),
    "token: not an object": ("token", lambda o, _: ["+10"], "token must be an object"),
    "shuffle: a Work card twice": ("shuffle", lambda o, _: {**o, "work": [[1, 1, 2, 3, 4]] + o["work"][1:]},
                                   "work card 1 is there twice"),
    "shuffle: a Reprimand card missing": ("shuffle", lambda o, _: {**o, "reprimand": o["reprimand"][:2]},
                                          "must hold 3 entries"),
}


def _game_with(kind, options=None):
    """The first recorded random game (2 or 3 players) that has an event of ``kind``."""
    for g in range(20):
        params, events, moves, _, result = record_game(2 + g % 2, 17, g, options)
        if any(kind in e for e in events):
            return params, events, moves, result
    raise AssertionError(f"no game with a {kind} event")


@pytest.mark.parametrize("case", list(BAD_OUTCOMES))
def test_impossible_chance_outcomes_are_refused(case):
    kind, change, fragment = BAD_OUTCOMES[case]
    options = {"components": ODD_COMPONENTS} if "+10" in fragment else {}
    params, events, moves, result = _game_with(kind, options)
    assert replay(params, events, moves)[0] == result  # untouched, the record replays
    with pytest.raises(ChanceError) as err:
        replay(params, _tamper(events, kind, change), moves)
    message = str(err.value)
    assert message.startswith(f"impossible {kind}: ") and fragment in message and "\n" not in message, message


GARBAGE = [None, 3, 2.5, "deal", [], {}, [[]], {"seat": None}, {"seat": 0, "tokens": None},
           {"hands": [[None]]}, {"cards": {"a": 1}}, {"work": [[[1]]]}, {"tokens": [{}], "seat": 0}]


@pytest.mark.parametrize("kind", ["shuffle", "token", "deal", "draw"])
def test_chance_checks_give_a_reason_for_any_garbage(kind):
    """``check`` never raises: whatever JSON stands in an outcome's place is refused with a
    ChanceError (one line), never another exception."""
    params, events, moves, _ = _game_with(kind)
    for garbage in GARBAGE:
        with pytest.raises(ChanceError) as err:
            replay(params, _tamper(events, kind, lambda o, _: garbage), moves)
        assert "\n" not in str(err.value)


def test_a_record_out_of_step_with_the_game_is_refused():
    params, events, moves, _, _ = record_game(3, 2, 0)
    with pytest.raises(ChanceError, match="the record has a 'token' where the game needs a 'shuffle'"):
        replay(params, events[1:], moves)
    with pytest.raises(ChanceError, match="no more chance events"):
        replay(params, events[:-1], moves)
