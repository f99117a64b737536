"""Compañeros: the apprentice's move features (issue 41, ``simulate/games/companeros/features.py``):
hand-worked positions (the rulebook's CO-6 trick), what they promise over many random positions
(finite, within the scale each declares, per move;
the order of the moves and reading only the seat's views are the contract's hidden check,
``tourney_sim.testing.check_features``), and that a
linear score over them plays as the ``greedy`` heuristic does."""
from __future__ import annotations

import numpy as np
import pytest

from tourney_sim.simulate.games import get_game
from tourney_sim.simulate.games.companeros import features as fe
from tourney_sim.simulate.games.companeros import rules as co
from tourney_sim.simulate.stepper import KernelGame
from tourney_sim.strategies import companeros as heuristics
from tourney_sim.testing import checked_features

SPEC = get_game("companeros")
COLOURS = ("red", "yellow", "green", "blue", "purple", "orange")
F = {name: j for j, (name, _) in enumerate(fe.FEATURES)}


def card(colour: str, value: int) -> int:
    return COLOURS.index(colour) * co.VALUES + value - 1


def features(state) -> tuple[list[int], np.ndarray]:
    """The legal moves of ``state`` and their features, from the mover's views."""
    seat = int(co.to_move(state))
    moves = np.zeros(co.MAX_MOVES, np.int64)
    n = co.legal_moves(state, moves)
    out = np.full((n, fe.N_FEATURES), np.nan)
    fe.move_features(co.public_view(state), co.private_view(state, seat), moves, n, out)
    return [int(m) for m in moves[:n]], out


def row(state, move) -> dict:
    moves, out = features(state)
    return {name: out[moves.index(move), j] for name, j in F.items()}



# ----------------------------------------------------------------------------- the CO-6 trick
def co6_position(last_hand):
    """The rulebook's example (CO-6), 6 players, round 0: display yellow 7, yellow 4, red 8, red 1,
    green 6, blue 4; seats 0-4 have played green 7, green 2, yellow 9, red 5, blue 10; seat 5,
    to play, holds ``last_hand`` (9 cards); the others hold the rest."""
    display = [card("yellow", 7), card("yellow", 4), card("red", 8), card("red", 1), card("green", 6),
               card("blue", 4)]
    played = [card("green", 7), card("green", 2), card("yellow", 9), card("red", 5), card("blue", 10)]
    rest = [c for c in range(60) if c not in display + played + last_hand]
    hands = [rest[8 * p: 8 * p + 8] for p in range(5)] + [last_hand]
    js = SPEC.notation.card_json
    position = {
        "players": 6, "match_games": 1, "match_game": 0, "round": 0, "phase": "play", "starter": 0,
        "game_starter": 0, "to_move": 5, "hands": [[js(c) for c in sorted(h)] for h in hands],
        "display": [js(c) for c in display], "played": [js(c) for c in played] + [None],
        "still_to_take": [], "first_taker": None, "taken": [[] for _ in range(6)], "points": [0] * 6,
        "cards_taken": [0] * 6, "rounds_first_taker": [0] * 6, "leader_at_two_thirds": None}
    return SPEC.load_state(position)


LAST_HAND = [card("red", 6), card("blue", 1), card("yellow", 1), card("purple", 10), card("purple", 3),
             card("orange", 2), card("orange", 5), card("green", 3), card("red", 2)]


def test_the_co6_trick_red_6_takes_first_the_richest_colour():
    state = co6_position(LAST_HAND)
    r = row(state, card("red", 6))
    # red 5 + 6 = 11 beats blue 10; green 9 and yellow 9 tie, so the takers are red 6, red 5, blue 10
    assert r["taker_now"] == 1 and r["first_now"] == 1 and r["take_place"] == 1
    # the display by colour: yellow 11, red 9, green 6, blue 4: I take yellow, they red and green
    assert r["my_take"] == pytest.approx(11 / 55)
    assert r["rivals_take"] == pytest.approx((9 + 6) / 110)
    assert r["lead_margin"] == pytest.approx((11 - 10) / 10)  # the last to play: one card value
    assert r["overtake_risk"] == 0 and r["overtake_share"] == 0  # nobody plays after me
    assert r["safe_take"] == r["my_take"] and r["rivals_final"] == r["rivals_take"]  # settled
    assert r["card_value"] == pytest.approx(0.6) and r["value_x_left"] == pytest.approx(0.6)
    assert r["hand_rank"] == pytest.approx(7 / 8)  # lower: 1, 1, 3, 2, 5, 3, 2 (not the 10)
    assert r["joins_leader"] == 0  # blue (10) led the round
    assert r["colour_unseen"] == 0.5  # red 3, 4, 7, 9, 10 are in other hands
    assert all(r[name] == 0 for name in ("take_points", "pass", "take_starts", "rivals_left"))
    # the rules agree: it is scored first, of three takers
    moves, out = features(state)
    after = state.copy()
    co.apply_move(after, card("red", 6), np.zeros(4, np.uint64))
    assert after[co.H_N_TAKERS] == 3 and after[co.TAKE_ORDER] == 5


def test_the_co6_trick_other_cards():
    state = co6_position(LAST_HAND)
    blue = row(state, card("blue", 1))  # blue 11 over red 5: second behind blue 10, takes red 9
    assert blue["taker_now"] == 1 and blue["first_now"] == 0 and blue["take_place"] == pytest.approx(1 - 1 / 5)
    assert blue["my_take"] == pytest.approx(9 / 55) and blue["rivals_take"] == pytest.approx(11 / 110)
    assert blue["joins_leader"] == 1
    yellow = row(state, card("yellow", 1))  # yellow 10 ties blue 10: nobody takes
    assert yellow["taker_now"] == 0 and yellow["my_take"] == 0 and yellow["rivals_take"] == 0
    assert yellow["take_place"] == 0 and yellow["lead_margin"] == 0
    purple = row(state, card("purple", 3))  # blue 10 takes alone (yellow and green tie at 9)
    assert purple["taker_now"] == 0 and purple["rivals_take"] == pytest.approx(11 / 110)
    assert purple["lead_margin"] == pytest.approx((3 - 10) / 10)
    assert row(state, card("purple", 10))["rivals_take"] == 0  # ties blue at 10: nobody
    assert row(state, card("purple", 10))["hand_rank"] == 1


def test_the_co6_take_phase():
    state = co6_position(LAST_HAND)
    co.apply_move(state, card("red", 6), np.zeros(4, np.uint64))
    assert co.to_move(state) == 5 and state[co.H_PHASE] == co.PHASE_TAKE
    moves, out = features(state)
    yellow = row(state, co.MOVE_TAKE + 1)
    assert yellow["take_points"] == pytest.approx(11 / 55) and yellow["take_richest"] == 1
    assert yellow["take_cards"] == pytest.approx(0.2) and yellow["take_starts"] == 1 and yellow["pass"] == 0
    assert yellow["rivals_left"] == pytest.approx((9 + 6) / 110)  # red 5, then blue 10 take after me
    assert yellow["refill"] == pytest.approx(9 / 55)  # the yellow 9 lies alone in yellow next round
    red = row(state, co.MOVE_TAKE + 0)
    assert red["take_richest"] == 0 and red["rivals_left"] == pytest.approx((11 + 6) / 110)
    passing = row(state, co.MOVE_PASS)
    assert passing["pass"] == 1 and passing["take_points"] == 0 and passing["take_starts"] == 0
    assert passing["rivals_left"] == pytest.approx((11 + 9) / 110)
    for j in fe.PLAY_FEATURES:
        assert (out[:, j] == 0).all()
    # once someone took, taking no longer makes me the next round's starter
    co.apply_move(state, co.MOVE_TAKE + 1, np.zeros(4, np.uint64))  # seat 5 takes yellow
    assert co.to_move(state) == 3  # red 5
    assert all(row(state, m)["take_starts"] == 0 for m in features(state)[0])


def test_the_first_player_counts_the_unseen_cards_that_overtake_it():
    """The first to play (4 players, round 0): a card of value v is overtaken by any unseen card of
    another colour of value v or more; every player plays after it (share x 3/3), and the later
    hands hold every unseen card, so the chance that they hold one is 1 unless there is none."""
    k = KernelGame(SPEC, SPEC.make_params(4, SPEC.resolve_options([])), 3, 0)
    state = k.state
    moves, out = features(state)
    assert state[co.H_N_PLAYED] == 0
    assert (out[:, F["taker_now"]] == 1).all() and (out[:, F["first_now"]] == 1).all()
    seen = set(moves) | {c for c in range(40) if state[co.DISPLAY_MASK + c // 10] >> (c % 10) & 1}
    unseen = [c for c in range(40) if c not in seen]
    for i, m in enumerate(moves):
        bad = sum(1 for c in unseen if c // 10 != m // 10 and c % 10 >= m % 10)
        assert out[i, F["overtake_share"]] == pytest.approx(bad / len(unseen))
        assert out[i, F["overtake_risk"]] == (1.0 if bad else 0.0)  # the 27 unseen are all in later hands
    assert len(set(out[:, F["overtake_share"]])) > 3


def test_the_features_are_declared_and_documented():
    """At most 23 (the weights travel in a strategy's 24 params, one reserved), each named once
    and described in the module docstring."""
    names = [name for name, _ in fe.FEATURES]
    assert fe.N_FEATURES == len(names) == len(set(names)) <= 25
    for name in names:
        assert f"``{name}``" in fe.__doc__, name


# ----------------------------------------------------------------------------- random positions
def random_positions(n_players, games, seed=7):
    """(state, seat, moves, n) at every decision of ``games`` seeded games of random play."""
    rng = np.random.default_rng(seed)
    params = SPEC.make_params(n_players, SPEC.resolve_options([]))
    for g in range(games):
        k = KernelGame(SPEC, params, seed, g)
        while k.to_move() >= 0:
            n = k._legal()
            yield k.state.copy(), k.to_move(), k.moves[:n].copy(), n
            k.apply(int(k.moves[rng.integers(n)]))


#: (players, position) over 6 random games each of 3, 4 and 6 players: about 1,400 decisions
SNAPS = [(p, d) for p in (3, 4, 6) for d in random_positions(p, 6)]


def test_every_feature_is_finite_within_its_scale_and_of_its_kind_only():
    for _, (state, seat, moves, n) in SNAPS:
        x = checked_features(fe, co, state, seat, moves, n)  # finite, in scale, nothing else written
        other = fe.TAKE_FEATURES if state[co.H_PHASE] == co.PHASE_PLAY else fe.PLAY_FEATURES
        assert (x[:, list(other)] == 0).all()


def test_the_last_player_reads_the_trick_as_the_rules_score_it():
    """For the last seat to play, ``taker_now``, ``first_now`` and ``take_place`` are exactly the
    rules' taking order after the card, and my_take + rivals_take the richest colours they take."""
    checked = 0
    for n_players, (state, seat, moves, n) in SNAPS:
        if state[co.H_PHASE] != co.PHASE_PLAY or state[co.H_N_PLAYED] != n_players - 1:
            continue
        out = np.zeros((n, fe.N_FEATURES))
        fe.move_features(co.public_view(state), co.private_view(state, seat), moves, n, out)
        sums = sorted((int(state[co.DISPLAY_SUM + d]) for d in range(n_players)), reverse=True)
        for i, m in enumerate(moves[:n]):
            after = state.copy()
            co.apply_move(after, int(m), np.zeros(4, np.uint64))
            takers = list(after[co.TAKE_ORDER:co.TAKE_ORDER + after[co.H_N_TAKERS]])
            place = takers.index(seat) if seat in takers else -1
            assert out[i, F["taker_now"]] == (place >= 0) and out[i, F["first_now"]] == (place == 0)
            assert out[i, F["take_place"]] == pytest.approx(1 - place / (n_players - 1) if place >= 0 else 0)
            mine = sums[place] if place >= 0 else 0
            assert out[i, F["my_take"]] == pytest.approx(mine / 55)
            assert out[i, F["rivals_take"]] == pytest.approx(min(1, (sum(sums[:len(takers)]) - mine) / 110))
            assert out[i, F["safe_take"]] == out[i, F["my_take"]]
            assert out[i, F["rivals_final"]] == out[i, F["rivals_take"]]
            checked += 1
    assert checked > 100


# ----------------------------------------------------------------------------- the heuristics' knowledge
def linear_choice(out, n, weights):
    return int(np.argmax(out[:n, :fe.N_FEATURES] @ weights))  # the first best, as the heuristics


def greedy_weights(first_only=False, min_take=0):
    """greedy as a linear score: be a taker (first: ``first_only``), as early as possible, with the
    cheapest card; else the lowest; take the richest colour (pass below ``min_take`` points when
    taking would make me start the next round)."""
    w = np.zeros(fe.N_FEATURES)
    if first_only:
        w[F["first_now"]] = 3.0
    else:
        w[F["taker_now"]], w[F["take_place"]] = 7.0, 5.0
    w[F["card_value"]] = -1.0
    w[F["take_points"]], w[F["pass"]] = 1.0, -0.001
    w[F["take_starts"]] = -(min_take - 0.5) / 55 if min_take else 0.0
    return w


@pytest.mark.parametrize("tuned", [False, True], ids=["greedy", "greedy-tuned"])
def test_a_linear_score_plays_as_greedy(tuned):
    """greedy (the defaults: any card, any place; tuned: min_take 3, max_card 10, max_position 0)
    reproduced by hand-set weights on at least 80% of the decisions (measured: all of them)."""
    params = np.array([3.0, 10.0, 0.0]) if tuned else np.array([0.0, 10.0, 5.0])
    weights = greedy_weights(first_only=tuned, min_take=3 if tuned else 0)
    same = total = 0
    for _, (state, seat, moves, n) in SNAPS:
        pub, priv = co.public_view(state), co.private_view(state, seat)
        out = np.zeros((n, fe.N_FEATURES))
        fe.move_features(pub, priv, moves, n, out)
        want = heuristics.greedy(pub, priv, moves, n, np.zeros(4, np.uint64), params)
        same += linear_choice(out, n, weights) == want
        total += 1
    share = same / total
    print(f"greedy{'-tuned' if tuned else ''}: the linear score agrees on {same}/{total} = {share:.3f}")
    assert share >= 0.8
