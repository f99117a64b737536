"""Compañeros, Cardavia and Partners take their components as data (issue 31): each ships
``components.toml`` (its defaults, documented key by key), declares ``COMPONENTS`` in its rules,
and its ``make_params`` packs the table in force into the kernel's params, which ``init`` copies
into the state's public part. These tests check, game by game:

- the shipped file is the declaration's defaults, every key documented, and the defaults make
  exactly today's params (the digests and golden games check today's play byte for byte);
- a non-default table changes play as the rules say (paired games on the same deals and moves,
  worked by hand: a prize worth 3 instead of 2 adds 1 to each deal it is won in, ...);
- the kernel and the reference engine agree under a non-default table, and its positions round
  trip through the notation, which writes what differs from the defaults;
- every bad value is refused with one line: out of range, or a table that cannot make a playable
  game (a deck too small to deal, too many colours, values that do not rise, ...).
"""
from __future__ import annotations

import json
import re

import numpy as np
import pytest

from tourney_sim.simulate.games import get_game
from tourney_sim.simulate.games.spec import RuleError
from tourney_sim.simulate.seeding import new_stream, PyStream
from tourney_sim.simulate.stepper import KernelGame

from . import harness
from .support import for_game

GAMES = ("companeros", "cardavia", "partners")
#: a non-default table of each game, every group changed (with the players it is played by)
VARIANTS = {
    "companeros": (4, ["deck.extra_colours=1", "deck.values=1,2,3,4,5,6,7,8,12,15", "deal.hand=7",
                       "deal.extra_display=2", "compensation.points[seat2]=4"]),
    "cardavia": (4, ["prizes.most_cards=3", "bonuses.scua=2", "prizes.mata=0", "napula.run=2",
                     "napula.per_card=2", "compensation.points[team0]=2"]),
    "partners": (4, ["deck.counts[Swap]=8", "board.section=12", "board.house=5", "effects.forward[5]=4"]),
}


def round_trips(spec, state: np.ndarray) -> dict:
    """The position of ``state``, checked to come back through its JSON text as the same state
    (outside what is not part of a position)."""
    position = spec.describe_state(state)
    loaded = spec.load_state(json.loads(json.dumps(position)))
    assert spec.describe_state(loaded) == position
    assert not ((loaded != state) & ~for_game(spec.name).not_position(state)).any()
    return position


def components(game: str):
    return get_game(game).components


def variant(game: str):
    players, assignments = VARIANTS[game]
    return players, components(game).set(components(game).defaults, assignments)


def params_of(game: str, players: int, table=None, **options):
    spec = get_game(game)
    resolved = spec.resolve_options([f"{k}={v}" for k, v in options.items()])
    if table is not None:
        resolved["components"] = table
    return spec.make_params(players, resolved)


def paired_games(game: str, players: int, table, seeds: range, **options):
    """Random games with the defaults and with ``table``, each pair on the same deal and the same
    random picks: [(default KernelGame, variant KernelGame)] played to the end, their legal moves
    compared at every step (a table that changes only points must not change play)."""
    spec = get_game(game)
    pairs = []
    for g in seeds:
        a = KernelGame(spec, params_of(game, players, **options), 5, g)
        b = KernelGame(spec, params_of(game, players, table, **options), 5, g)
        pick = PyStream(5, g, harness.PICK_STREAM)
        while a.to_move() >= 0:
            moves = a.legal_moves()
            assert moves == b.legal_moves() and a.to_move() == b.to_move()
            move = moves[pick.below(len(moves))]
            a.apply(move)
            b.apply(move)
        assert b.to_move() < 0
        pairs.append((a, b))
    return pairs


# ----------------------------------------------------------------------------- the shipped file
@pytest.mark.parametrize("game", GAMES)
def test_the_shipped_file_is_the_declared_defaults_and_documents_every_key(game):
    declared = components(game)
    assert declared is get_game(game).module.COMPONENTS
    assert declared.load(str(declared.file)) == declared.defaults
    lines = declared.file.read_text().splitlines()
    for i, line in enumerate(lines):
        key = re.match(r"^(\w+)\s*=", line)
        if key:  # the line above a key (or above its block of keys) is a comment
            above = next(text for text in reversed(lines[:i]) if not re.match(r"^\w+\s*=", text))
            assert above.startswith("#"), f"{declared.file.name}: {key.group(1)} is not documented"
    assert set(declared.values) == {f"{g}.{k}" for g, keys in declared.defaults.items() for k in keys}


@pytest.mark.parametrize("game", GAMES)
def test_the_defaults_make_todays_params(game):
    spec = get_game(game)
    for players in range(spec.min_players, spec.max_players + 1):
        today = params_of(game, players)
        assert np.array_equal(today, params_of(game, players, components(game).defaults))
        assert not np.array_equal(today, params_of(game, *variant(game))) or players != VARIANTS[game][0]


# ----------------------------------------------------------------------------- the kernel follows the table
@pytest.mark.parametrize("game", GAMES)
def test_kernel_and_reference_engine_play_a_variant_table_alike(game):
    spec = get_game(game)
    players, table = variant(game)
    games = {"companeros": 60, "cardavia": 30, "partners": 4}[game]
    assert harness.differential(spec, spec.reference, params_of(game, players, table), seed=41, games=games,
                                spell=True) > 0


@pytest.mark.parametrize("game", GAMES)
def test_positions_of_a_variant_table_round_trip_and_name_what_differs(game):
    spec = get_game(game)
    players, table = variant(game)
    k = KernelGame(spec, params_of(game, players, table), 3, 0)
    pick = PyStream(3, 0, harness.PICK_STREAM)
    step = 0
    while k.to_move() >= 0:
        if step % 7 == 0:
            round_trips(spec, k.state)
        moves = k.legal_moves()
        k.apply(moves[pick.below(len(moves))])
        step += 1
    position = round_trips(spec, k.state)
    default_position = spec.describe_state(KernelGame(spec, params_of(game, players), 3, 0).state)
    if game == "partners":  # its positions have named the board and the deck since PA-1, PA-2
        assert position["board"] == {"section": 12, "house": 5}
        assert position["deck"]["Swap"] == 8 and "deck" not in default_position
    else:
        written = position["components"] if game == "companeros" else position["options"]["components"]
        assert written == components(game).differing(table) != {}
        assert "components" not in json.dumps(default_position)


def test_cardavia_prizes_and_bonuses_score_the_points_of_the_table():
    """most_cards=3 and scua=2 on the same deals and moves: the team with most cards gets 3
    instead of 2 (its column 3, not 2) and each Scua counts 2, so a team's score grows by
    (its default most_cards points) / 2 + its Scua count; La Mata worth 0 gives nothing; the
    Napula from a run of 2 (not 3), 2 points a card."""
    players, assignments = 4, ["prizes.most_cards=3", "bonuses.scua=2", "prizes.mata=0"]
    table = components("cardavia").set(components("cardavia").defaults, assignments)
    cols = [name for name, _ in get_game("cardavia").columns]
    most, scua, mata = cols.index("most_cards"), cols.index("scua"), cols.index("mata")
    grew = 0
    for a, b in paired_games("cardavia", players, table, range(40)):
        (sa, _, ea), (sb, _, eb) = a.result(), b.result()
        for seat in range(players):
            assert eb[seat][most] == ea[seat][most] * 3 // 2
            assert eb[seat][scua] == ea[seat][scua] and eb[seat][mata] == 0
            assert sb[seat] == sa[seat] + ea[seat][most] // 2 + ea[seat][scua] - ea[seat][mata]
            grew += sb[seat] != sa[seat]
    assert grew > 0
    # the Napula: a run of two swords from the Asso scores (2 a card) with napula.run=2
    table = components("cardavia").set(components("cardavia").defaults, ["napula.run=2", "napula.per_card=2"])
    napula = cols.index("napula")
    seen = set()
    for a, b in paired_games("cardavia", players, table, range(200)):
        for seat in range(players):
            run = b.result()[2][seat][napula] // 2
            default = a.result()[2][seat][napula]
            assert b.result()[2][seat][napula] % 2 == 0 and default == (run if run >= 3 else 0)
            seen.add(run)
    assert 2 in seen  # a run of exactly two scored


def compensated(game: str, players: int, assignment: str, games: int = 40):
    """The table with one seat compensation value set, and the (scores, ranks) of each random game
    without and with it, on the same deals and moves (:func:`paired_games`)."""
    table = components(game).set(components(game).defaults, [assignment])
    return table, [(a.result()[:2], b.result()[:2]) for a, b in paired_games(game, players, table, range(games))]


def test_cardavia_seat_compensation_is_the_points_a_team_starts_with():
    """Issue 42: compensation.points gives a team points before the first card (komi): the same
    deals and moves end with that team's total higher by exactly them and the other's unchanged,
    the result ranks on the totals with them, the match score shows them from the start (the
    leader at two thirds reads it), and the reference engine plays the table alike."""
    spec = get_game("cardavia")
    table, results = compensated("cardavia", 4, "compensation.points[team0]=3")
    for (sa, _), (sb, rb) in results:
        assert [sb[p] - sa[p] for p in range(4)] == [3, 0, 3, 0]
        assert rb == [1 if sb[p] >= sb[1 - p % 2] else 2 for p in range(4)]
    assert any(ra != rb for (_, ra), (_, rb) in results)  # 3 points decide some of 40 single deals
    start = KernelGame(spec, params_of("cardavia", 4, table), 5, 0)
    assert start.state[spec.module.MATCH_SCORE:spec.module.MATCH_SCORE + 2].tolist() == [3, 0]
    assert harness.differential(spec, spec.reference, params_of("cardavia", 4, table, match_deals=2), seed=42,
                                games=10, spell=True) > 0


def test_companeros_seat_compensation_is_the_victory_points_a_seat_starts_with():
    """Issue 42: compensation.points gives a seat victory points before the first card: the same
    deals and moves end with that seat's points higher by exactly them (the others' unchanged)
    and the ranks follow the points with them; a seat beyond the player count is refused."""
    spec = get_game("companeros")
    table, results = compensated("companeros", 4, "compensation.points[seat0]=6")
    for (sa, _), (sb, rb) in results:
        assert [sb[p] - sa[p] for p in range(4)] == [6, 0, 0, 0]
        assert rb == [1 + sum(sb[q] > sb[p] for q in range(4)) for p in range(4)]
    assert any(ra != rb for (_, ra), (_, rb) in results)
    start = KernelGame(spec, params_of("companeros", 4, table), 5, 0)
    assert start.state[spec.module.SCORE:spec.module.SCORE + 4].tolist() == [6, 0, 0, 0]
    assert harness.differential(spec, spec.reference, params_of("companeros", 4, table, match_games=2), seed=43,
                                games=20, spell=True) > 0
    beyond = components("companeros").set(components("companeros").defaults, ["compensation.points[seat5]=1"])
    with pytest.raises(RuleError, match=r"compensation.points\[seat5\]: there is no seat 5 at 4 players"):
        params_of("companeros", 4, beyond)


def test_partners_extra_swap_cards_are_in_the_deck_and_dealt():
    table = components("partners").set(components("partners").defaults, ["deck.counts[Swap]=8"])
    pa = get_game("partners").module
    params = params_of("partners", 4, table)
    assert params[pa.P_N_CARDS] == 60
    swaps_dealt = 0
    k = KernelGame(get_game("partners"), params, 7, 0)
    kinds = k.state[pa.CARD_KIND:pa.CARD_KIND + 60]
    assert (kinds == pa.K_SWAP).sum() == 8 and k.state[pa.H_N_CARDS] == 60
    deck = k.state[pa.DECK:pa.DECK + 60]
    assert sorted(deck.tolist()) == list(range(60))  # the whole deck of 60 shuffled
    for seat in range(4):
        base = pa.PRIVATE + seat * pa.PRIVATE_SIZE
        hand = k.state[base + pa.PV_HAND:base + pa.PV_HAND + k.state[base + pa.PV_SIZE]]
        swaps_dealt += int((kinds[hand] == pa.K_SWAP).sum())
    assert swaps_dealt == int((kinds[k.state[pa.DECK:pa.DECK + 16]] == pa.K_SWAP).sum())
    # over many first deals, a dealt card is a Swap 8 times in 60, not 4 in 56
    shares = []
    for g in range(300):
        state = KernelGame(get_game("partners"), params, 8, g).state
        shares.append((state[pa.CARD_KIND:pa.CARD_KIND + 60][state[pa.DECK:pa.DECK + 16]] == pa.K_SWAP).mean())
    assert abs(np.mean(shares) - 8 / 60) < 0.02 and abs(np.mean(shares) - 4 / 56) > 0.04
    board = components("partners").set(components("partners").defaults, ["board.section=10"])
    assert KernelGame(get_game("partners"), params_of("partners", 4, board), 1, 0).state[pa.H_RING] == 40


def test_companeros_values_colours_and_sizes_change_play_as_the_rules_say():
    co = get_game("companeros").module
    declared = components("companeros")
    # values doubled: every comparison (colour values, their ties) is as before, so the same
    # moves are legal and taken, and every seat scores exactly twice its points
    doubled = declared.set(declared.defaults, ["deck.values=" + ",".join(str(2 * v) for v in range(1, 11))])
    for a, b in paired_games("companeros", 3, doubled, range(60), match_games=2):
        assert b.result()[0] == [2 * s for s in a.result()[0]]
        assert b.result()[2] == a.result()[2]  # cards taken, first takes, the leader
    # one colour more, hands of 7, a display of 6: 50 cards, 34 dealt, 16 undealt and unseen
    players, table = variant("companeros")
    colours_seen = set()
    for g in range(30):
        k = KernelGame(get_game("companeros"), params_of("companeros", players, table), 2, g)
        s = k.state
        assert s[co.H_COLOURS] == 5 and s[co.H_HAND_SIZE] == 7 and s[co.H_DISPLAY_CARDS] == 6
        hands = [s[co.PRIVATE + p * co.PRIVATE_SIZE + 1:co.PRIVATE + (p + 1) * co.PRIVATE_SIZE].tolist()
                 for p in range(players)]
        assert all(len([c for c in h if c >= 0]) == 7 for h in hands)
        colours_seen |= {c // co.VALUES for h in hands for c in h if c >= 0}
        plays = 0
        while k.to_move() >= 0:
            plays += s[co.H_PHASE] == co.PHASE_PLAY
            if s[co.H_PHASE] == co.PHASE_PLAY and plays % 5 == 1:
                # the search's sample: the other hands drawn from the unseen cards, 16 of which
                # stay undealt
                seat = co.to_move(s)
                sample = np.zeros(co.STATE_SIZE, np.int32)
                drawn = co.determinize(co.public_view(s), co.private_view(s, seat), sample, new_stream(1, g, 0))
                hidden = sum(int(s[co.PRIVATE + p * co.PRIVATE_SIZE]) for p in range(players) if p != seat)
                assert drawn == hidden + 16
                for p in range(players):
                    base = co.PRIVATE + p * co.PRIVATE_SIZE
                    assert sample[base] == s[base]
            moves = k.legal_moves()
            k.apply(moves[g % len(moves)])
        assert plays == 7 * players
    assert 4 in colours_seen  # the fifth colour is dealt


# ----------------------------------------------------------------------------- refused, in one line
REFUSED = [
    ("companeros", 4, ["deck.extra_colours=4"], "deck.extra_colours|from -2 to 3"),
    ("companeros", 4, ["deck.extra_colours=3"], "make 7 colours; there are 1 to 6"),
    ("companeros", 3, ["deck.extra_colours=-2", "deal.hand=2", "deal.extra_display=-2"], None),  # one colour
    ("companeros", 4, ["deck.values=1,2,3,4,5,6,7,8,9,9"], "deck.values must rise strictly"),
    ("companeros", 4, ["deck.values=0,2,3,4,5,6,7,8,9,10"], "deck.values|10 integers from 1 to 62"),
    ("companeros", 4, ["deck.values=1,2,3,4"], "deck.values|10 integers from 1 to 62|4 entries"),
    ("companeros", 6, ["deck.values=1,2,3,4,5,6,7,8,20,25"], "can be worth 71 in one round; at most 62"),
    ("companeros", 4, ["deal.extra_display=1"], "too small to deal a display of 5 and 4 hands of 9"),
    ("companeros", 3, ["deck.extra_colours=-1", "deal.hand=7"], "too small to deal a display of 3 and 3 hands of 7"),
    ("companeros", 4, ["deal.hand=0"], "deal.hand|from 1 to 9"),
    ("companeros", 4, ["deal.extra_display=-4"], "deal.extra_display|from -3 to 20"),
    ("cardavia", 4, ["prizes.most_cards=10"], "prizes.most_cards|from 0 to 9"),
    ("cardavia", 4, ["napula.run=0"], "napula.run|from 1 to 10"),
    ("cardavia", 4, ["bonuses.scua=-1"], "bonuses.scua|from 0 to 9"),
    ("cardavia", 4, ["prizes.la_mata=1"], "has no component 'prizes.la_mata'"),
    ("partners", 4, ["deck.counts[Swap]=17"], "deck.counts[Swap]|from 0 to 16"),
    ("partners", 4, ["deck.counts=3,3,3,3,3,3,3,3,3,3,3,3,3,3"], "deck holds 42 cards; it must hold from 48"),
    ("partners", 4, ["deck.counts=5,5,5,5,5,5,5,5,5,5,5,5,5,5"], "deck holds 70 cards; it must hold from 48 (a "
                                                                  "dealer's 3 deals of 4 cards to 4 seats) to 64"),
    ("partners", 4, ["effects.back[Ace]=2"], "the Ace card mixes effects of 2 families"),
    ("partners", 4, ["effects.swap[7]=1"], "the 7 card mixes effects of 2 families"),
    ("partners", 4, ["effects.forward_alt[5]=5"], "forward_alt repeats its forward steps"),
    ("partners", 4, ["effects.split[7]=8"], "effects.split[7]|from 0 to 7"),
    ("partners", 4, ["board.section=3"], "board.section|from 4 to 20"),
    ("partners", 4, ["board.house=3"], "board.house|from 4 to 8"),
    ("partners", 4, ["board.section=21"], "board.section|from 4 to 20"),
]


@pytest.mark.parametrize("game, players, assignments, refused", REFUSED,
                         ids=[f"{g}-{' '.join(a)}" for g, _, a, _ in REFUSED])
def test_every_bad_value_is_refused_in_one_line(game, players, assignments, refused):
    def build():
        table = components(game).set(components(game).defaults, assignments)
        return params_of(game, players, table)

    if refused is None:
        k = KernelGame(get_game(game), build(), 1, 0)
        while k.to_move() >= 0:
            k.apply(k.legal_moves()[0])
        return
    with pytest.raises(RuleError) as raised:
        build()
    message = str(raised.value)
    assert "\n" not in message and all(part in message for part in refused.split("|")), message


@pytest.mark.parametrize("game", GAMES)
def test_a_bad_file_is_refused_in_one_line(game, tmp_path):
    group, name = next(iter(components(game).values)).split(".")
    bad = tmp_path / "bad.toml"
    bad.write_text(f"[{group}]\n{name} = \"many\"\n")
    with pytest.raises(RuleError, match=f"{group}.{name} must be") as raised:
        components(game).load(str(bad))
    assert "\n" not in str(raised.value)
    bad.write_text("[nonsense]\nx = 1\n")
    with pytest.raises(RuleError, match="unknown key 'nonsense'"):
        components(game).load(str(bad))
