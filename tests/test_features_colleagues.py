"""Colleagues: the apprentice's move features (simulate/games/colleagues/features.py, issue 41).

Hand-worked positions (built as tests/test_colleagues.py builds them) check the features of
particular moves; random games pass the contract's check (``tourney_sim.testing.check_features``:
finite, in their declared scales, nothing written beyond the moves' cells, the order of the moves,
reading only the seat's views) and every feature varies between the moves of some decision; and a
linear score with hand-set weights reproduces the most linear heuristic, ``dodger`` (its expected cost is a linear
function of the features), on nearly every decision.
"""
from __future__ import annotations

import numpy as np
import pytest

from tourney_sim.simulate.games import get_game
from tourney_sim.simulate.games.colleagues import features as F
from tourney_sim.simulate.games.colleagues import rules as cl
from tourney_sim.simulate.stepper import KernelGame
from tourney_sim.strategies import available
from tourney_sim.testing import Configuration, check_features, checked_features, feature_scales

from .support.colleagues import priv
from .test_colleagues import at, fresh, lay_out, play, token

SPEC = get_game("colleagues")
MON, TUE, WED, THU, FRI, OT = range(6)
PLUS, MINUS, ILL, MEETING = cl.PLUS, cl.MINUS, cl.ILLNESS, cl.MEETING
NAMES = [name for name, _ in F.FEATURES]
SENTINEL = 7.25


def features(state, moves=None):
    """{move: {feature name: value}} of the seat to move's legal moves (or of ``moves``)."""
    seat = int(state[cl.H_TO_MOVE])
    if moves is None:
        buf = np.zeros(cl.MAX_MOVES, np.int64)
        n = cl.legal_moves(state, buf)
        moves = buf[:n].copy()
    moves = np.asarray(moves, np.int64)
    out = np.full((len(moves), F.N_FEATURES), SENTINEL)
    F.move_features(cl.public_view(state), cl.private_view(state, seat), moves, len(moves), out)
    return {int(m): dict(zip(NAMES, row)) for m, row in zip(moves, out)}


def only(row, **expected):
    """Row ``row`` has the values ``expected`` and 0 everywhere else."""
    for name in NAMES:
        assert row[name] == pytest.approx(expected.get(name, 0.0), abs=1e-12), name


def test_the_feature_table():
    assert 0 < F.N_FEATURES == len(F.FEATURES) == len(feature_scales(F)) <= 23
    assert len(set(NAMES)) == len(NAMES)
    for name, meaning in F.FEATURES:
        assert f"``{name}``" in F.__doc__ and meaning


# ------------------------------------------------------------------ hand-worked positions
def play_position():
    """Seat 0 to play (turn 2 of week 1, 4 players). Tuesday: seat 1 shows 50, seat 2 shows 10,
    seat 3 has not played; its Work card is worth 4 (an icon), its Reprimand card 3 (an icon).
    Seat 0 holds 5, 30, 44, 58, 59 and a MEETING; 25 lies on its Monday."""
    state, _ = fresh(4)
    lay_out(state, first=0,
            rows={0: {MON: (25, [], False)}, 1: {MON: (26, [], False), TUE: (50, [], False)},
                  2: {MON: (27, [], False), TUE: (10, [], False)}, 3: {MON: (40, [], True)}},
            hands={0: [5, 30, 44, 58, 59], 1: [1, 2, 3, 4], 2: [6, 7, 8, 9], 3: [11, 12, 13, 14, 15]},
            held={0: [0, 0, 0, 1], 3: [0, 0, 0, 0]}, work=[1, 12, 4, 8, 2], reprimand=[1, 10, 5, 6, 2])
    at(state, cl.STAGE_MIDWEEK, turn=1, pos=0)
    return state


def test_a_play_costs_what_the_day_estimate_says():
    state = play_position()
    f = features(state)
    # seen: the hand, the own 25, the face-up 26, 27, 50, 10 (seat 3's Monday is face down)
    unseen = 60 - 5 - 1 - 4
    seen = {5, 30, 44, 58, 59, 25, 26, 27, 50, 10}
    below_58 = sum(1 for c in range(1, 58) if c not in seen)
    above_5 = sum(1 for c in range(6, 61) if c not in seen)
    # the score race: seat 0's MEETING counts -1, every other score is 0: 1 point apart
    closeness = 1 - 1 / (4 * 4)
    # between the known 10 and 50: neither top nor bottom, whatever seat 3 plays
    row = f[play(30, TUE)]
    assert row["work"] == row["repr"] == row["tokens"] == row["spend"] == row["low_played"] == 0
    assert row["unknown"] == pytest.approx(1 / 3) and row["card_icons"] == 0
    # above the 50: the top unless seat 3's unknown card is higher (Work 4 of 4, its icon)
    p = below_58 / unseen
    row = f[play(58, TUE)]
    assert row["work"] == pytest.approx(p) and row["tokens"] == pytest.approx(p)
    assert row["repr"] == 0 and row["card_icons"] == 1 and row["spend"] == 0
    assert row["work_race"] == pytest.approx(p * closeness)
    # below the 10: the bottom unless seat 3's card is lower (Reprimand 3 of 3, its icon)
    p = above_5 / unseen
    row = f[play(5, TUE)]
    assert row["repr"] == pytest.approx(p) and row["tokens"] == pytest.approx(p) and row["work"] == 0
    assert row["repr_race"] == pytest.approx(0.5 * p)  # level with the others on Reprimands
    assert row["low_played"] == 1  # the lowest card, kept by the heuristics for Overtime
    # face down: spends the MEETING; the same estimate
    down = f[play(5, TUE) + 1]
    assert down["spend"] == 1 and down["repr"] == row["repr"]
    # the 5: 4 cards below it, 55 above
    assert down["down_extreme"] == pytest.approx(51 / 59) and row["down_extreme"] == 0
    # nobody has played Wednesday: all three others unknown
    assert f[play(30, WED)]["unknown"] == 1
    assert {m for m in f if f[m]["low_played"]} == {play(5, d) + face for d in range(1, 5) for face in (0, 1)}
    # what keeping the card costs: its estimate on the other open columns, Overtime included
    # (nobody's Overtime card is known: the top Overtime card, worth 2 of 4, goes to it unless one
    # of the three others is higher)
    for number in (5, 30, 44, 58, 59):
        p_ot = (sum(1 for c in range(1, number) if c not in seen) / unseen) ** 3
        for day in (TUE, WED, THU, FRI):
            others = [d for d in (TUE, WED, THU, FRI) if d != day]
            row = f[play(number, day)]
            assert row["later_work"] == pytest.approx(
                (sum(f[play(number, d)]["work"] for d in others) + p_ot * 2 / 4) / 4)
            assert row["later_repr"] == pytest.approx(sum(f[play(number, d)]["repr"] for d in others) / 4)
            assert f[play(number, day) + 1]["later_work"] == row["later_work"]
    assert f[play(59, TUE)]["later_work"] > f[play(30, TUE)]["later_work"]  # a high card is costly to keep
    assert f[play(5, TUE)]["later_repr"] > f[play(30, TUE)]["later_repr"]


def test_the_reprimand_race_weighs_reprimands_by_the_dismissal_pressure():
    state = play_position()
    state[cl.REPR_TOTAL + 0] = 6  # two Reprimand cards' worth (2 x 3) above everyone
    row = features(state)[play(5, TUE)]
    assert row["repr_race"] == pytest.approx(row["repr"])
    state[cl.REPR_TOTAL + 0] = 0
    state[cl.REPR_TOTAL + 2] = 6  # as far below the highest
    assert features(state)[play(5, TUE)]["repr_race"] == 0


def token_position():
    """Seat 0 (last this turn) places a token; every Monday and Tuesday card is known. Its 60 is
    Monday's sure top (Work 4, an icon), its 5 Tuesday's sure bottom (Reprimand 2, an icon) with
    12, 31, 32 beside it."""
    state, _ = fresh(4)
    lay_out(state, first=1,
            rows={0: {MON: (60, [], False), TUE: (5, [], False)},
                  1: {MON: (20, [], False), TUE: (12, [], False)},
                  2: {MON: (21, [], False), TUE: (31, [], False)},
                  3: {MON: (22, [], False), TUE: (32, [], False)}},
            hands={0: [40, 41, 42, 43], 1: [44, 45, 46, 47], 2: [48, 49, 50, 51], 3: [52, 53, 54, 55]},
            held={0: [1, 1, 1, 0]}, work=[12, 0, 1, 2, 3], reprimand=[0, 5, 1, 2, 3])
    at(state, cl.STAGE_MIDWEEK, turn=1, pos=3, decision=cl.DEC_TOKEN)
    assert cl.to_move(state) == 0
    return state


def test_a_token_is_worth_the_change_it_makes_on_its_column():
    f = features(token_position())
    only(f[cl.MOVE_TOKEN_NONE])
    late = (0 * 6 + 2) / 18  # week 1, turn 2
    closeness = 1 - 3 / (4 * 4)  # seat 0's three tokens: its score -3, the others' 0
    # ILLNESS on the sure top: the Work card (4 of 4, its icon) is no longer mine
    only(f[token(MON, ILL)], work=-1, work_race=-closeness, tokens=-1, spend=1, spend_late=late)
    # -10 or +10 leaves 60 on top
    only(f[token(MON, MINUS)], spend=1, spend_late=late)
    only(f[token(MON, PLUS)], spend=1, spend_late=late)
    # +10 lifts the 5 to 15, above the 12: the Reprimand (2 of 3, its icon) goes to seat 1
    only(f[token(TUE, PLUS)], repr=-2 / 3, repr_race=-1 / 3, tokens=-1, spend=1, spend_late=late)
    only(f[token(TUE, ILL)], repr=-2 / 3, repr_race=-1 / 3, tokens=-1, spend=1, spend_late=late)
    only(f[token(TUE, MINUS)], spend=1, spend_late=late)


def test_a_token_on_a_card_out_with_illness_changes_nothing():
    state = token_position()
    b = priv(0)
    state[b + cl.P_ILL + MON] = 1
    state[cl.ROW_ILL + MON] = 1
    state[cl.ROW_NTOK + MON] = 1
    cl.derive_views(state)
    f = features(state)
    late = 2 / 18
    for kind in (PLUS, MINUS, ILL):
        only(f[token(MON, kind)], spend=1, spend_late=late)


def test_the_monday_choice():
    state, _ = fresh(4)
    hand = [1, 2, 30, 31, 59, 60]
    lay_out(state, hands={0: hand, 1: [3, 4, 5, 6, 7, 8], 2: [9, 10, 11, 12, 13, 14],
                          3: [15, 16, 17, 18, 19, 20]})
    at(state, cl.STAGE_MONDAY)
    f = features(state)
    assert len(f) == 64
    only(f[cl.MOVE_MULLIGAN + 0], mull_keep=1)
    # a fresh card: a uniform draw from the 54 cards not in the hand
    rest = [c for c in range(1, 61) if c not in hand]
    signed = {c: (2 * (c - 1) - 59) / 59 for c in range(1, 61)}
    e_low = np.mean([max(0.0, -signed[c]) for c in rest])
    e_high = np.mean([max(0.0, signed[c]) for c in rest])
    icons = {c: int(c <= 5 or c >= 56) for c in range(1, 61)}
    e_icons = np.mean([icons[c] for c in rest])
    for mask in range(1, 64):
        gone = [hand[j] for j in range(6) if (mask >> j) & 1]
        only(f[cl.MOVE_MULLIGAN + mask],
             mull_count=len(gone) / 6,
             mull_low=sum(max(0.0, -signed[c]) - e_low for c in gone) / 6,
             mull_high=sum(max(0.0, signed[c]) - e_high for c in gone) / 6,
             mull_icons=sum(icons[c] - e_icons for c in gone) / 6)
    assert f[cl.MOVE_MULLIGAN + 1]["mull_low"] > 0 > f[cl.MOVE_MULLIGAN + 4]["mull_low"]  # 1 out, 30 out
    assert f[cl.MOVE_MULLIGAN + 32]["mull_high"] > 0  # the 60 out


def test_the_grey_entity_choice():
    state, _ = fresh(2)
    lay_out(state, rows={0: {MON: (20, [], False)}, 1: {MON: (21, [], False)}},
            hands={0: [50, 51, 52, 53, 54], 1: [55, 56, 57, 58, 59]}, held={0: [0, 0, 0, 1]},
            grey=[40, 41, 42, 43, 44], work=[12, 0, 4, 8, 1], reprimand=[10, 0, 5, 1, 2])
    b = priv(0)
    state[b + cl.P_SEEN + TUE] = 40  # looked at Tuesday's Grey card (card 41) before
    state[cl.PEEKS + 0] = 1 << TUE
    cl.derive_views(state)
    at(state, cl.STAGE_MIDWEEK, turn=1, pos=0, decision=cl.DEC_GREY)
    f = features(state)
    assert set(f) == ({cl.MOVE_GREY_NONE} | {cl.MOVE_REVEAL + d for d in range(5)}
                      | {cl.MOVE_PEEK + 4 * d + MEETING for d in range(5)})
    only(f[cl.MOVE_GREY_NONE])
    stakes = {MON: (4 + 3) / 7, TUE: (1 + 1) / 7, WED: (2 + 2) / 7}
    only(f[cl.MOVE_REVEAL + MON], grey_reveal=1, grey_stakes=stakes[MON])  # my Monday is played
    only(f[cl.MOVE_REVEAL + TUE], grey_reveal=1, grey_open=1, grey_known=1, grey_stakes=stakes[TUE])
    late = 2 / 18
    only(f[cl.MOVE_PEEK + 4 * WED + MEETING], grey_peek=1, grey_open=1, spend=1, spend_late=late,
         grey_stakes=stakes[WED])


# ------------------------------------------------------------------ random positions
def test_random_positions_pass_the_contracts_feature_check_and_every_feature_varies():
    """At 200 decisions of random games at each of (4, 2, 3, 5) players, the contract's check
    (finite, in scale, its own cells only, the moves' order, the seat's views); and every feature
    tells some moves of some decision apart (a constant one would be useless)."""
    varied = np.zeros(F.N_FEATURES, bool)
    for players in (4, 2, 3, 5):
        assert check_features(Configuration("colleagues", players), seed=11, positions=200, varied=varied) == 200
    assert varied.all(), [name for name, v in zip(NAMES, varied) if not v]


# ------------------------------------------------------------------ the heuristics' knowledge
def dodger_weights(public, strategy):
    """Hand-set weights under which the linear score is -(dodger's expected cost) - the token's
    point threshold x tokens spent, never the Overtime card while others can go, keep the hand,
    leave the Grey Entity alone: dodger's choices."""
    settings = strategy.settings()
    wscale = max(1, *np.abs(public[cl.W_VALUE:cl.W_VALUE + cl.N_WORK]),
                 *np.abs(public[cl.OT_VALUE:cl.OT_VALUE + cl.N_OT]))
    rscale = max(1, *np.abs(public[cl.R_VALUE:cl.R_VALUE + cl.N_REPR]))
    tscale = max(1, *public[cl.W_ICONS:cl.W_ICONS + cl.N_WORK], *public[cl.R_ICONS:cl.R_ICONS + cl.N_REPR])
    w = np.zeros(F.N_FEATURES)
    w[F.F_WORK] = -wscale
    w[F.F_REPR] = -settings["reprimand_weight"] * rscale
    w[F.F_TOKENS] = tscale
    w[F.F_SPEND] = -settings["token_threshold"]
    w[F.F_LOW_PLAYED] = -100.0
    w[F.F_MULL_KEEP] = 100.0
    w[F.F_GREY_REVEAL] = w[F.F_GREY_PEEK] = -100.0
    return w


@pytest.mark.parametrize("name", ["dodger", "dodger-tuned"])
def test_a_linear_score_of_the_features_plays_like_dodger(name):
    strategy = available("colleagues")[name]
    rng = np.random.default_rng(5)
    same = total = 0
    for g, n in enumerate((4, 2, 3, 5, 4, 2)):
        k = KernelGame(SPEC, SPEC.make_params(n, SPEC.resolve_options([])), 21, g)
        while k.to_move() >= 0:
            seat = k.to_move()
            moves = np.array(k.legal_moves(), np.int64)
            choice = k.choose(strategy)
            if len(moves) > 1:
                public = cl.public_view(k.state)
                f = checked_features(F, cl, k.state, seat, moves, len(moves))
                total += 1
                same += int(moves[int(np.argmax(f @ dodger_weights(public, strategy)))] == choice)
            k.apply(choice if rng.random() < 0.7 else int(moves[rng.integers(len(moves))]))
    share = same / total
    print(f"{name}: the linear score agrees on {same} of {total} decisions ({share:.2%})")
    assert total > 300 and share >= 0.95
