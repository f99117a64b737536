"""Partners in JSON, the scenarios of this game: positions named as the rules name things, bad
positions refused saying what is wrong, the spelling of moves (the kernel's ``move_to_json`` and
the reference engine's ``action``) and the reference engine's chance events (``deal``), as
documented in ``simulate/games/partners/notation.py``. What every game's notation promises (the
round trip, play going on from a loaded position, refusing what is no position and edited
positions, replaying recorded chance events) is tests/contract/test_notation.py.

Time (the file must run in a minute): the reference engine is slow (a random game of ~20 deals
takes it over a tenth of a second, twice here: recorded, then replayed), so its random games stop
at the deal cap ``REFERENCE_DEALS`` = 5 (PA-7: two dealers, the reshuffle, two deals from the
reshuffled deck); the late game's moves (houses, bounces, the partner's pieces, mixed 7s) are
spelled by both engines at positions sampled from full kernel games instead.
``PARTNERS_NOTATION_DEALS=500`` plays the reference games to their end.
"""
import json
import os
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np
import pytest

from tourney_sim.simulate.games import get_game
from tourney_sim.simulate.games.chance import ChanceError, ScriptedChance, StreamChance
from tourney_sim.simulate.games.partners import notation as pa_text
from tourney_sim.simulate.games.partners import reference as ref
from tourney_sim.simulate.games.partners import rules as pa
from tourney_sim.simulate.seeding import CHANCE_STREAM, PyStream
from tourney_sim.simulate.stepper import KernelGame

from . import harness

SPEC = get_game("partners")
REFERENCE_GAMES = 200  # random games the reference engine plays alongside the kernel
REFERENCE_DEALS = int(os.environ.get("PARTNERS_NOTATION_DEALS", "5"))


def variant_params():
    """Sections of 10 spaces, 5 house spaces, no -4 and six 7s (as in test_partners)."""
    table = pa.COMPONENTS.set(pa.COMPONENTS.defaults, ["board.section=10", "board.house=5",
                                                       "deck.counts[-4]=0", "deck.counts[7]=6"])
    return pa.make_params(4, {"components": table})


def differs(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The indexes where two states differ outside the kernel's scratch."""
    different = (a != b) & position_part(int(a[pa.S_DECK_POS]))
    return np.nonzero(different)[0] if different.any() else NOWHERE


NOWHERE = np.zeros(0, np.int64)


@lru_cache(maxsize=None)
def position_part(dealt: int) -> np.ndarray:
    """Where a state holds its position (not scratch), given its dealt part of the deck."""
    state = np.zeros(pa.STATE_SIZE, np.int32)
    state[pa.S_DECK_POS] = dealt
    return ~pa_text.scratch_mask(state)


# ------------------------------------------------------------------ positions of full games
@dataclass
class Walk:
    """Positions sampled from full kernel games, for the spelling of the late game."""
    spelling: list = field(default_factory=list)  # (params, KernelGame)
    positions: int = 0


def walk_games(walk: Walk, params, seed: int, games: int, lineup=None) -> None:
    """Play ``games`` games (random moves, or ``lineup`` of strategies rotating over the seats)
    and keep every 127th decision for the spelling checks."""
    for g in range(games):
        k = KernelGame(SPEC, params, seed, g)
        pick = PyStream(seed, g, harness.PICK_STREAM)
        while True:
            walk.positions += 1  # every decision and the final position
            if walk.positions % 127 == 0 and k.to_move() >= 0:
                walk.spelling.append((params, k.copy()))
            if k.to_move() < 0:
                break
            if lineup is None:
                moves = k.legal_moves()
                move = moves[pick.below(len(moves))]
            else:
                move = k.choose(lineup[(k.to_move() + g) % len(lineup)])
            k.apply(move)


@pytest.fixture(scope="module")
def walk():
    w = Walk()
    walk_games(w, pa.make_params(4, {}), seed=61, games=115)
    walk_games(w, pa.make_params(4, {"house_overshoot": "bounce"}), seed=62, games=40)
    walk_games(w, variant_params(), seed=63, games=10)
    heuristics = [s for s in harness.heuristics("partners") if s.name != "random" and not s.needs_setting]
    walk_games(w, pa.make_params(4, {}), seed=64, games=80, lineup=heuristics)
    walk_games(w, pa.make_params(4, {"house_overshoot": "bounce"}), seed=65, games=25,
               lineup=heuristics)
    return w


def test_a_position_is_plain_json_named_as_the_rules_name_things():
    k = KernelGame(SPEC, pa.make_params(4, {}), 8, 0)
    position = pa_text.describe_state(k.state)
    assert json.loads(json.dumps(position)) == position
    assert position["phase"] == "exchange" and position["dealer"] == 3 and position["to_move"] == 0
    assert [len(h) for h in position["hands"]] == [4, 4, 4, 4] and len(position["pile"]) == 40
    assert sorted(sum(position["hands"], []) + position["pile"]) == sorted(
        f"{name}#{copy}" for name in pa.KIND_NAMES for copy in range(1, 5))
    assert position["pieces"]["blue"] == [{"where": "outside"}] * 4
    assert "deck" not in position and "card_effects" not in position  # the rules file's (PA-2)
    variant = pa_text.describe_state(KernelGame(SPEC, variant_params(), 8, 0).state)
    assert variant["deck"]["-4"] == 0 and variant["deck"]["7"] == 6 and variant["board"]["section"] == 10
    assert variant["card_effects"]["Ace"] == {"forward": 1, "forward_alt": 14}
    # the pile in dealing order: the dealer's next deal gives seat 0 (after the dealer, seat 3)
    # the pile's first 4 cards, seat 1 the next 4, ...
    while k.state[pa.H_DEALS] == 1:
        k.apply(k.legal_moves()[0])
    hands = pa_text.describe_state(k.state)["hands"]
    assert [set(hand) for hand in hands] == [set(position["pile"][4 * j:4 * j + 4]) for j in range(4)]


def test_rule_options_left_out_take_the_rules_defaults():
    k = KernelGame(SPEC, pa.make_params(4, {}), 8, 1)
    position = pa_text.describe_state(k.state)
    for key in pa_text.RULE_KEYS + ("players", "teams", "colours"):
        position.pop(key, None)
    assert not len(differs(pa_text.load_state(position), k.state))


# ------------------------------------------------------------------ positions: refused
@pytest.fixture(scope="module")
def positions():
    """A position in play with pieces on the ring and in a house, and one in the exchange."""
    k = KernelGame(SPEC, pa.make_params(4, {}), 3, 0)
    pick = PyStream(3, 0, harness.PICK_STREAM)
    exchange = None
    while True:
        moves = k.legal_moves()
        k.apply(moves[pick.below(len(moves))])
        state = k.state
        if exchange is None and state[pa.H_PHASE] == pa.PHASE_EXCHANGE and state[pa.H_EXCHANGED] == 1 \
                and state[pa.H_DEALS] > 1:
            exchange = pa_text.describe_state(state)
        if exchange and state[pa.H_PHASE] == pa.PHASE_PLAY and (state[pa.HOME:pa.HOME + 4] > 0).any() \
                and state[pa.RING_CNT:pa.RING_CNT + 56].sum() >= 4 and state[pa.H_DEALER_DEALS] == 2:
            return pa_text.describe_state(state), exchange


def put(position, key, value):
    position[key] = value


def move_card(position, source, target):
    position[target].append(position[source].pop())


def share_a_space(position):
    """A piece of another colour put on the space of the first piece on the ring."""
    colour, place = next((colour, p) for colour, places in position["pieces"].items()
                         for p in places if p["where"] == "ring")
    other = next(c for c in position["pieces"] if c != colour)
    position["pieces"][other][0] = dict(place)


def share_a_house_space(position):
    """A second piece of a colour put on the house space of its first piece in the house."""
    colour, i = next((colour, i) for colour, places in position["pieces"].items()
                     for i, p in enumerate(places) if p["where"] == "house")
    position["pieces"][colour][(i + 1) % 4] = dict(position["pieces"][colour][i])


def hand_to_move(position):
    return position["hands"][position["to_move"]]


BAD_IN_PLAY = [
    ("missing key", lambda p: p.pop("pile"), "the position has no 'pile' (the cards not dealt"),
    ("unknown key", lambda p: put(p, "score", 3), "unknown key 'score' (keys: players"),
    ("not an object", None, "a position must be an object, got [1, 2]"),
    ("wrong type", lambda p: put(p, "hands", "Ace#1"), "hands must be a list, got 'Ace#1'"),
    ("unknown card", lambda p: hand_to_move(p).__setitem__(0, "Ace#9"),
     "unknown card 'Ace#9' (a card is a kind and its copy, Start#1 .. 13#4)"),
    ("card twice", lambda p: p["played"].append(p["pile"][0]), "is in two places: pile and played"),
    ("card missing", lambda p: p["pile"].pop(), "is nowhere: every card of the deck must be in"),
    ("pile count", lambda p: move_card(p, "pile", "discarded"),
     "the pile holds 23 cards; after 2 deal(s) of this dealer from 56 cards it holds 24"),
    ("seat out of range", lambda p: put(p, "to_move", 4),
     "to_move must be the seat to move (0 to 3), -1 when the game is over, got 4"),
    ("too many cards", lambda p: hand_to_move(p).extend(p["pile"].pop() for _ in range(4)),
     "cards; a hand holds at most 4"),
    ("place out of range", lambda p: put(p["pieces"], "red", [{"where": "ring", "space": 56}] * 4),
     'pieces red[0] must be a place: {"where": "outside"}, {"where": "start"}, {"where": "ring", '
     '"space": 0..55} or {"where": "house", "space": 1..4}; got'),
    ("three pieces", lambda p: p["pieces"]["green"].pop(), "pieces green must hold 4 entries, not 3"),
    ("two colours on a space", share_a_space, "pieces; a space holds pieces of one colour"),
    ("two pieces in a house space", share_a_house_space, "holds two pieces; a house space holds one"),
    ("dealer", lambda p: put(p, "dealer", (p["dealer"] + 1) % 4),
     "(seat 3 deals first and each dealer deals 3 times, PA-10)"),
    ("deal past the cap", lambda p: put(p, "max_deals", 1), "deal must be an integer from 1 to max_deals (1)"),
    ("phase", lambda p: put(p, "phase", "bidding"), "phase must be 'exchange' or 'play' or 'over'"),
    ("over without an end", lambda p: (put(p, "phase", "over"), put(p, "to_move", -1)),
     "a game over has a winner or is truncated"),
    ("a winner in play", lambda p: put(p, "winner", 1), "the game is over when a team has all 8 pieces"),
    ("received and given", lambda p: put(p, "received", [p["received"][2]] + p["received"][1:]),
     "received[0] must be the card its partner gave, given[2]"),
    ("leads too short", lambda p: p["leads"].pop(), "leads must hold"),
    ("lead value", lambda p: p["leads"].__setitem__(0, 2), "leads[0] must be 0, 1 or -1 (level), got 2"),
    ("negative tally", lambda p: p["swaps"].__setitem__(1, -1), "swaps[1] must be an integer from 0"),
    ("board", lambda p: put(p, "board", {"section": 30, "house": 4}),
     "board section must be an integer from 4 to 20, got 30"),
    ("card effects", lambda p: put(p, "card_effects", {**pa_text.DEFAULTS["card_effects"],
                                                       "Swap": {"swap": 1, "forward": 3}}),
     "card_effects: the Swap card mixes effects of 2 families"),
    ("deck too small", lambda p: put(p, "deck", {**pa_text.DEFAULTS["deck"], **dict.fromkeys(
        ("Ace", "2", "3", "5", "6", "9", "10", "12"), 0)}),
     "the deck holds 24 cards; it must hold 48"),
    ("option", lambda p: put(p, "house_overshoot", "wrap"), "house_overshoot must be 'illegal' or 'bounce'"),
    ("players", lambda p: put(p, "players", 3), "players must be 4, got 3"),
]


@pytest.mark.parametrize("mistake,mutate,message", BAD_IN_PLAY, ids=[b[0] for b in BAD_IN_PLAY])
def test_a_bad_position_is_refused_saying_what_is_wrong(positions, mistake, mutate, message):
    position = json.loads(json.dumps(positions[0]))
    pa_text.load_state(position)  # as written, it loads
    if mutate is None:
        position = [1, 2]
    else:
        mutate(position)
    assert message in harness.refusal(pa_text.load_state, position)


BAD_IN_EXCHANGE = [
    ("gives out of turn", lambda p: put(p, "given", [p["given"][0], None, None, p["hands"][3].pop()]),
     "in the exchange the seats give in turn from seat"),
    ("received before all gave", lambda p: put(p, "received", [None, None, p["given"][0], None]),
     "must be null in the exchange"),
    ("next giver", lambda p: put(p, "to_move", (p["to_move"] + 1) % 4), "is the next to give in the exchange"),
    ("hand size", lambda p: p["pile"].append(p["hands"][2].pop()),
     "in the exchange a seat holds 4, 3 once it has given"),
]


@pytest.mark.parametrize("mistake,mutate,message", BAD_IN_EXCHANGE, ids=[b[0] for b in BAD_IN_EXCHANGE])
def test_a_bad_exchange_is_refused_saying_what_is_wrong(positions, mistake, mutate, message):
    position = json.loads(json.dumps(positions[1]))
    pa_text.load_state(position)  # as written, it loads
    mutate(position)
    assert message in harness.refusal(pa_text.load_state, position)


# ------------------------------------------------------------------ spelling
def reference_at(params, state: np.ndarray) -> ref.Game:
    """The reference engine in the kernel state's position (board, hands, whose turn): enough
    for its legal moves and their spelling."""
    position = pa_text.describe_state(state)
    game = ref.Game(params, PyStream(0, 0, 0))
    places = {"outside": lambda p: ref.OUT, "start": lambda p: ref.START,
              "ring": lambda p: ("ring", p["space"]), "house": lambda p: ("house", p["space"])}
    for c, colour in enumerate(pa_text.COLOUR_NAMES):
        for i, place in enumerate(position["pieces"][colour]):
            game.board.put(c, i, places[place["where"]](place))
    game.hands = [[game.card_id[card] for card in hand] for hand in position["hands"]]
    seat = position["to_move"]
    order = [(position["dealer"] + 1 + j) % 4 for j in range(4)]
    game.exchanging = order[order.index(seat):] if position["phase"] == "exchange" else []
    game.turn = seat
    return game


def shapes(action: dict, seat: int) -> set:
    """The kinds of spelling an action shows (for the coverage of the spelling checks)."""
    found = {action["action"]}
    if action["action"] != "play":
        return found
    pieces = action.get("split") or ([action] if "colour" in action else [])
    found.add("split" if "split" in action else "swap" if "swap" in action else "single")
    if "split" in action and len({p["colour"] for p in pieces}) > 1:
        found.add("split with the partner's pieces")
    if action.get("swap") == "same colour":
        found.add("swap of one colour")
    for p in pieces:
        if p["colour"] != pa_text.COLOUR_NAMES[seat]:
            found.add("partner's piece")
        if p["from"]["where"] == "outside":
            found.add("start")
        if p.get("steps", 0) < 0:
            found.add("back")
        if p["to"]["where"] == "house":
            found.add("into the house" if p["from"]["where"] != "house" else "in the house")
        for knocked in p.get("knocked_out", []):
            found.add("knocks out the mover" if knocked["colour"] == p["colour"] else "knocks out")
    return found


def spell_all(kernel_state, game: ref.Game, legal: list, seen: set) -> list:
    """Every legal move spelled by the kernel's notation and by the reference; the moves whose
    spellings differ."""
    seat = int(kernel_state[pa.H_TO_MOVE])
    wrong = []
    for move in legal:
        spelled = pa_text.move_to_json(kernel_state, move)
        if game.action(move) != spelled:
            wrong.append((move, spelled, game.action(move)))
        seen |= shapes(spelled, seat)
    return wrong


@dataclass
class Recorded:
    """A random game the reference engine played on a recording chance stream."""
    params: np.ndarray
    events: list
    steps: list  # (legal moves, move) at each decision
    result: tuple


@pytest.fixture(scope="module")
def recorded():
    """REFERENCE_GAMES random games (capped at REFERENCE_DEALS deals), kernel and reference side
    by side, the reference on a recording chance stream; every legal move spelled by both."""
    games, misspelled, disagreements, seen, spelled = [], [], [], set(), 0
    for g in range(REFERENCE_GAMES):
        overshoot = "bounce" if g % 4 == 3 else "illegal"
        params = pa.make_params(4, {"house_overshoot": overshoot}, max_deals=REFERENCE_DEALS)
        k = KernelGame(SPEC, params, 71, g)
        events = []
        r = ref.Game(params, StreamChance(PyStream(71, g, CHANCE_STREAM), record=events))
        pick = PyStream(71, g, harness.PICK_STREAM)
        steps = []
        while (seat := k.to_move()) >= 0:
            legal = k.legal_moves()
            if r.to_move() != seat or r.legal_moves() != legal:
                disagreements.append((g, len(steps)))
                break
            misspelled += spell_all(k.state, r, legal, seen)
            spelled += len(legal)
            move = legal[pick.below(len(legal))]
            steps.append((legal, move))
            k.apply(move)
            r.apply(move)
        if tuple(r.result()) != k.result():
            disagreements.append((g, "result"))
        games.append(Recorded(params, events, steps, tuple(r.result())))
    return games, misspelled, disagreements, seen, spelled


def test_the_reference_spells_every_legal_move_as_the_kernel_does(recorded, walk):
    games, misspelled, disagreements, seen, spelled = recorded
    assert disagreements == []
    assert sum(len(g.steps) for g in games) > 80 * REFERENCE_GAMES
    # the late game, from positions of full random and heuristic games
    late = 0
    for params, k in walk.spelling:
        game = reference_at(params, k.state)
        legal = k.legal_moves()
        assert game.legal_moves() == legal
        misspelled += spell_all(k.state, game, legal, seen)
        late += len(legal)
    assert misspelled[:3] == []
    assert spelled > 50_000 and late > 3_000
    assert seen >= {"give", "discard", "single", "start", "back", "split", "split with the partner's pieces",
                    "swap", "swap of one colour", "partner's piece", "into the house", "in the house",
                    "knocks out", "knocks out the mover"}


def hand_over(position, seat: int, cards: list) -> None:
    """Put ``cards`` in the seat's hand: each one not there yet trades places with one of the
    seat's cards that is not wanted, wherever it is (another hand, the pile)."""
    hand = position["hands"][seat]
    spare = [c for c in hand if c not in cards]
    for card in cards:
        if card not in hand:
            holder = next(h for h in position["hands"] + [position["pile"]] if card in h)
            mine = spare.pop()
            holder[holder.index(card)] = mine
            hand[hand.index(mine)] = card


def test_a_move_spells_its_pieces_places_and_steps():
    """Yellow on space 10 holds a 3 (onto red's lone piece on 13), a 10 (onto blue's pair on 20),
    a Swap and a Start."""
    k = KernelGame(SPEC, pa.make_params(4, {}), 8, 2)
    position = pa_text.describe_state(k.state)
    hand_over(position, 0, ["3#1", "10#1", "Swap#1", "Start#1"])
    position.update(phase="play", to_move=0)
    position["pieces"]["yellow"][0] = {"where": "ring", "space": 10}
    position["pieces"]["red"][0] = {"where": "ring", "space": 13}
    position["pieces"]["blue"][:2] = [{"where": "ring", "space": 20}] * 2
    k.state = pa_text.load_state(position)
    spelled = {pa_text.describe_move(k.state, m): pa_text.move_to_json(k.state, m) for m in k.legal_moves()}
    assert spelled["plays 3: yellow 3 forward from space 10"] == {
        "action": "play", "card": "3", "colour": "yellow", "from": {"where": "ring", "space": 10},
        "steps": 3, "to": {"where": "ring", "space": 13},
        "knocked_out": [{"colour": "red", "from": {"where": "ring", "space": 13}}]}
    assert spelled["plays 10: yellow 10 forward from space 10"] == {
        "action": "play", "card": "10", "colour": "yellow", "from": {"where": "ring", "space": 10},
        "steps": 10, "to": {"where": "outside"},
        "knocked_out": [{"colour": "yellow", "from": {"where": "ring", "space": 20}}]}
    assert spelled["plays Swap: yellow on space 10 <-> red on space 13"] == {
        "action": "play", "card": "Swap", "swap": [{"colour": "yellow", "from": {"where": "ring", "space": 10}},
                                                   {"colour": "red", "from": {"where": "ring", "space": 13}}]}
    assert spelled["plays Start: a yellow piece enters its start space"] == {
        "action": "play", "card": "Start", "colour": "yellow", "from": {"where": "outside"},
        "to": {"where": "start"}}
    assert len(spelled) == 4  # the blue pair cannot be swapped


# ------------------------------------------------------------------ chance events
def test_a_recorded_game_has_one_deal_event_a_deal(recorded):
    """(That the record replays the game is every game's contract: tests/contract/test_notation.py.)"""
    games = recorded[0]
    for game in games:
        assert all(list(e) == ["deal"] for e in game.events) and len(game.events) == game.result[2][0][0]
    assert len(games) >= 200 and sum(len(game.events) > 3 for game in games) > 150


def test_a_deal_names_each_seats_cards_from_the_pile(recorded):
    game = recorded[0][0]
    first, second = game.events[0]["deal"], game.events[1]["deal"]
    dealt = sum(first["hands"], [])
    assert len(set(dealt)) == 16 and all(len(h) == 4 for h in first["hands"])
    assert not set(dealt) & set(sum(second["hands"], []))  # the same dealer deals from the rest
    k = KernelGame(SPEC, game.params, 71, 0)
    assert pa_text.describe_state(k.state)["hands"] == first["hands"]


def replace_first_deal(events, change):
    events = json.loads(json.dumps(events))
    change(events[0]["deal"])
    return events


IMPOSSIBLE_DEALS = [
    ("a card twice", lambda d: d["hands"][1].__setitem__(0, d["hands"][0][0]), "is dealt twice"),
    ("an unknown card", lambda d: d["hands"][2].__setitem__(3, "Ace#5"),
     "seat 2 is dealt an unknown card 'Ace#5'"),
    ("a hand of 3", lambda d: d["hands"][0].pop(), "seat 0 must be dealt a list of 4 cards"),
    ("three hands", lambda d: d["hands"].pop(), "hands must be a list of 4 hands"),
    ("a string for a hand", lambda d: d["hands"].__setitem__(1, "Ace#1"),
     "seat 1 must be dealt a list of 4 cards"),
    ("not a deal", lambda d: d.update(dealer=3), 'a deal is {"hands": [4 lists of 4 cards, by seat]}'),
    ("a number for a card", lambda d: d["hands"][3].__setitem__(0, 7), "seat 3 is dealt an unknown card 7"),
]


@pytest.mark.parametrize("mistake,change,message", IMPOSSIBLE_DEALS, ids=[d[0] for d in IMPOSSIBLE_DEALS])
def test_an_impossible_deal_is_refused(recorded, mistake, change, message):
    game = recorded[0][0]
    events = replace_first_deal(game.events, change)
    with pytest.raises(ChanceError, match="impossible deal") as refused:
        ref.Game(game.params, ScriptedChance.from_events(events))
    assert message in str(refused.value)


def test_a_deal_of_a_card_dealt_before_is_refused_when_it_is_dealt(recorded):
    game = recorded[0][0]
    events = json.loads(json.dumps(game.events))
    events[1]["deal"]["hands"][0][0] = events[0]["deal"]["hands"][3][0]
    replay = ref.Game(game.params, ScriptedChance.from_events(events))
    with pytest.raises(ChanceError, match=r"impossible deal: card \S+ \(to seat 0\) is not in the pile"):
        for _, move in game.steps:
            replay.apply(move)


def test_a_record_with_another_event_or_too_few_is_refused(recorded):
    game = recorded[0][0]
    with pytest.raises(ChanceError, match="the record has a 'shuffle' where the game needs a 'deal'"):
        ref.Game(game.params, ScriptedChance.from_events([{"shuffle": list(range(56))}]))
    replay = ref.Game(game.params, ScriptedChance.from_events(game.events[:1]))
    with pytest.raises(ChanceError, match="no more chance events"):
        for _, move in game.steps:
            replay.apply(move)
