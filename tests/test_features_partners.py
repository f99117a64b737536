"""Partners: the apprentice's move features (simulate/games/partners/features.py, issue 41).

Hand-worked positions (built as tests/test_partners.py builds them) check the features of
particular moves; random games pass the contract's check (``tourney_sim.testing.check_features``:
finite, in their declared scales, nothing written beyond the moves' cells, the order of the moves,
reading only the seat's views) and every feature varies between the moves of some decision; and a
linear score with hand-set weights reproduces the most linear heuristic, ``race`` (its move and card values are
linear functions of the features), on nearly every decision.
"""
from __future__ import annotations

import numpy as np
import pytest

from tourney_sim.simulate.games import get_game
from tourney_sim.simulate.games.partners import features as F
from tourney_sim.simulate.games.partners import rules as pa
from tourney_sim.simulate.stepper import KernelGame
from tourney_sim.strategies import available
from tourney_sim.testing import Configuration, check_features, checked_features, feature_scales

from .test_partners import build_state, enter, house, single, sp, split, swap

SPEC = get_game("partners")
Y, R, B, G = 0, 1, 2, 3
START, ACE, TWO, THREE, MINUS4, FIVE, SIX, SEVEN, EIGHT, NINE, TEN, SWAP, TWELVE, THIRTEEN = range(14)
RING = 56
NAMES = [name for name, _ in F.FEATURES]
SENTINEL = 7.25


def legal(state):
    buf = np.zeros(pa.MAX_MOVES, np.int64)
    n = pa.legal_moves(state, buf)
    return buf[:n].copy()


def features(state):
    """{move: {feature name: value}} of the seat to move's legal moves."""
    seat = int(state[pa.H_TO_MOVE])
    moves = legal(state)
    out = np.full((len(moves), F.N_FEATURES), SENTINEL)
    F.move_features(pa.public_view(state), pa.private_view(state, seat), moves, len(moves), out)
    return {int(m): dict(zip(NAMES, row)) for m, row in zip(moves, out)}


def only(row, **expected):
    """Row ``row`` has the values ``expected`` and 0 everywhere else."""
    for name in NAMES:
        assert row[name] == pytest.approx(expected.get(name, 0.0), abs=1e-12), name


def hit(count, unseen, hand):
    """Chance that ``hand`` cards from ``unseen`` hold one of ``count`` fitting cards."""
    return 1 - (1 - count / unseen) ** hand


def ahead(mine, theirs):
    return min(1.0, max(0.0, 0.5 + (mine - theirs) / (4 * RING)))


def test_the_feature_table():
    assert 0 < F.N_FEATURES == len(F.FEATURES) == len(feature_scales(F)) <= 29
    assert len(set(NAMES)) == len(NAMES)
    for name, meaning in F.FEATURES:
        assert f"``{name}``" in F.__doc__ and meaning


# ------------------------------------------------------------------ hand-worked positions
FOUR = [ACE, THREE, SIX, NINE]  # an opponent's hand: none of them moves 5 or 4 backwards


def test_landing_where_an_opponent_can_reach_is_a_risk():
    """Yellow on 20 holds a 2 and a 12; red stands on the space 26 (5 behind the 12's landing,
    5 ahead of the 2's) with four cards in hand. The 5s and the 7s (8 of the 54 cards yellow has
    not seen) hit the 12's landing; nothing threatens the 2's landing or the start."""
    state = build_state({Y: [20], R: [sp(R, 26)]}, {Y: [TWO, TWELVE], R: FOUR})
    f = features(state)
    assert set(f) == {single(TWO, 2, 20), single(TWELVE, 12, 20)}
    risk = hit(8, 54, 4)
    lead = ahead(20, sp(R, 26))
    # the 2 keeps the red piece as a target 5 ahead; the 12 passes it
    only(f[single(TWO, 2, 20)], progress=2 / RING, lead=20 / 60)
    only(f[single(TWELVE, 12, 20)], progress=12 / RING, lead=20 / 60, risk=risk, risk_steps=risk * 32 / RING,
         ahead_risk=risk * 32 / RING * lead, hunt=-1 / 4)


def test_a_piece_four_ahead_threatens_with_the_minus_4():
    state = build_state({Y: [20], R: [sp(R, 35)]}, {Y: [TWO, TWELVE], R: FOUR})
    f = features(state)
    risk = hit(4, 54, 4)  # the four -4 cards
    assert f[single(TWELVE, 12, 20)]["risk"] == pytest.approx(risk)
    assert f[single(TWO, 2, 20)]["risk"] == 0


def test_a_start_block_shields_the_spaces_behind_it_and_counts_cards_seen():
    """Yellow on 29 moves 2 to 31; red on 26 is 3 behind the start and 5 behind the landing,
    blue's start space (between 27 and 28) lies in between: empty, red reaches both; a blue
    piece on it blocks red. Yellow holds two 3s, so only 2 + 4 of the 53 cards it has not seen
    move 3."""
    pieces = {Y: [30], R: [sp(R, 26)]}
    state = build_state(pieces, {Y: [TWO, THREE, THREE], R: FOUR})
    row = features(state)[single(TWO, 2, 30)]
    assert row["risk"] == pytest.approx(hit(8, 53, 4) - hit(6, 53, 4))
    state = build_state({**pieces, B: [0]}, {Y: [TWO, THREE, THREE], R: FOUR})
    row = features(state)[single(TWO, 2, 30)]
    assert row["risk"] == 0 and row["risk_steps"] == 0


def test_moving_away_from_an_opponents_start_piece_lowers_the_risk():
    """Green on its start (between 41 and 42) reaches yellow's 43 with a 2 or a 7 (8 cards) and
    the 6's landing 49 with an 8 only (4 cards)."""
    state = build_state({Y: [44], G: [0]}, {Y: [SIX], G: FOUR})
    row = features(state)[single(SIX, 6, 44)]
    assert row["risk"] == pytest.approx(hit(4, 55, 4) - hit(8, 55, 4)) and row["risk"] < 0
    assert row["risk_steps"] == pytest.approx((hit(4, 55, 4) * 50 - hit(8, 55, 4) * 44) / RING)


def test_knock_outs_of_opponents_team_mates_and_the_mover():
    state = build_state({Y: [10], R: [sp(R, 14)]}, {Y: [FIVE, TWO]})
    f = features(state)
    row = f[single(FIVE, 5, 10)]
    assert row["knock"] == 1 and row["knock_steps"] == pytest.approx(1 / RING)
    assert row["behind_knock"] == pytest.approx(1 / RING * (1 - ahead(10, 1)))
    assert row["lost"] == 0 and row["progress"] == pytest.approx(5 / RING)
    assert f[single(TWO, 2, 10)]["knock"] == 0
    # the partner's piece: a team mate lost with its steps
    row = features(build_state({Y: [10], B: [sp(B, 14)]}, {Y: [FIVE]}))[single(FIVE, 5, 10)]
    assert row["lost"] == 1 and row["knock"] == 0 and row["progress"] == pytest.approx((5 - sp(B, 14)) / RING)
    # two red pieces: the mover is knocked out
    row = features(build_state({Y: [30], R: [sp(R, 31)] * 2}, {Y: [TWO]}))[single(TWO, 2, 30)]
    assert row["lost"] == 1 and row["knock"] == 0 and row["progress"] == pytest.approx(-30 / RING)


def test_entering_pairs_the_house_and_the_start_block():
    only(features(build_state({}, {Y: [START]}))[enter(START)], enter=1)
    row = features(build_state({Y: [10, 15]}, {Y: [FIVE]}))[single(FIVE, 5, 10)]
    assert row["pair"] == 1 and row["progress"] == pytest.approx(5 / RING)
    row = features(build_state({Y: [54]}, {Y: [THREE]}))[single(THREE, 3, 54)]
    assert row["house"] == 1 and row["progress"] == pytest.approx(3 / RING)
    assert row["lead"] == pytest.approx(54 / 60)
    only(features(build_state({Y: [house(1)]}, {Y: [TWO]}))[single(TWO, 2, house(1))],
         in_house=1, progress=2 / RING, lead=57 / 60)
    row = features(build_state({Y: [0]}, {Y: [FIVE]}))[single(FIVE, 5, 0)]
    assert row["leave_start"] == 1 and row["progress"] == pytest.approx(5 / RING) and row["lead"] == 0


def test_a_seven_adds_up_its_sub_moves():
    f = features(build_state({Y: [10, 20]}, {Y: [SEVEN]}))
    row = f[split([(10, 3), (20, 4)], 2)]
    assert row["progress"] == pytest.approx(7 / RING) and row["lead"] == pytest.approx(30 / 60)
    row = f[split([(20, 7)], 1)]
    assert row["progress"] == pytest.approx(7 / RING) and row["lead"] == pytest.approx(20 / 60)


def test_swaps():
    f = features(build_state({Y: [10], R: [20]}, {Y: [SWAP]}))
    a, b = sorted([(10 - 1) % RING, (20 - 1 + 14) % RING])
    row = f[swap(a, b)]
    assert row["progress"] == pytest.approx((34 - 10) / RING)  # yellow to red's space 33
    assert row["swap_opp"] == pytest.approx((sp(R, 9) - 20) / RING)  # red back to yellow's 9
    assert row["card_swap"] == 1
    only(features(build_state({Y: [10, 12]}, {Y: [SWAP]}))[swap(0, 0)], idle_swap=1, card_swap=1)


def test_the_cards_kept_can_finish_a_piece_exactly():
    """Yellow on 40 (16 spaces before its house entrance: 17..20 steps reach a free house space)
    holds 5, 9 and 12. After the 5 (on 45: 12..15 steps) the 12 it keeps lands it in the house;
    after the 12 (on 52: 5..8) the 5 does; after the 9 (on 49: 8..11) neither the 5 nor the 12."""
    f = features(build_state({Y: [40]}, {Y: [FIVE, NINE, TWELVE]}))
    assert f[single(FIVE, 5, 40)]["kept_finish"] == 1
    assert f[single(TWELVE, 12, 40)]["kept_finish"] == 1
    assert f[single(NINE, 9, 40)]["kept_finish"] == 0
    # on 47 (10..13 steps) the 12 finishes; after the 2 (on 49: 8..11) it no longer does
    f = features(build_state({Y: [47]}, {Y: [TWO, TWELVE]}))
    assert f[single(TWO, 2, 47)]["kept_finish"] == -1
    # a taken first house space closes the house: no window
    f = features(build_state({Y: [40, house(1)]}, {Y: [FIVE, NINE, TWELVE]}))
    assert all(row["kept_finish"] == 0 for row in f.values())
    # the 7 counts as any of 1..7: after the 12 (on 52: 5..8), a kept 7 finishes too
    assert features(build_state({Y: [40]}, {Y: [SEVEN, TWELVE]}))[single(TWELVE, 12, 40)]["kept_finish"] == 1


def test_a_card_that_starts_a_piece_spent_on_steps_and_kept():
    """Yellow on 10 with three pieces outside holds an 8 (starts a piece, or moves 8) and a 2."""
    f = features(build_state({Y: [10]}, {Y: [EIGHT, TWO]}))
    assert f[single(EIGHT, 8, 10)]["card_start"] == 1 and f[single(EIGHT, 8, 10)]["kept_start"] == 0
    assert f[enter(EIGHT)]["card_start"] == 0 and f[enter(EIGHT)]["enter"] == 1
    assert f[single(TWO, 2, 10)]["kept_start"] == 1 and f[single(TWO, 2, 10)]["card_start"] == 0
    # every piece on the board: nothing to start, so neither counts
    f = features(build_state({Y: [10, 20, 30, 40]}, {Y: [EIGHT, TWO]}))
    assert all(row["card_start"] == row["kept_start"] == 0 for row in f.values())


def test_the_card_to_give_that_finishes_a_piece():
    """Exchange: yellow on 52 (4 before its house entrance: 5..8 steps finish), blue (the partner)
    on its own 46 (11..14). Of yellow's 5, 9 and 12: the 5 would finish yellow's, the 12 blue's."""
    state = build_state({Y: [52], B: [46]}, {Y: [FIVE, NINE, TWELVE]})
    state[pa.H_PHASE] = pa.PHASE_EXCHANGE
    f = features(state)
    give = {kind: int(pa.MOVE_GIVE) + kind for kind in (FIVE, NINE, TWELVE)}
    assert (f[give[FIVE]]["give_finish_me"], f[give[FIVE]]["give_finish_partner"]) == (1, 0)
    assert (f[give[TWELVE]]["give_finish_me"], f[give[TWELVE]]["give_finish_partner"]) == (0, 1)
    assert (f[give[NINE]]["give_finish_me"], f[give[NINE]]["give_finish_partner"]) == (0, 0)


def test_discarding_an_unusable_hand_has_no_features():
    only(features(build_state({}, {Y: [TWO, THREE]}))[int(pa.MOVE_DISCARD)])


def test_the_card_to_give_weighs_its_use_to_me_against_its_use_to_the_partner():
    """Yellow holds Start, 5, 5, Swap with every piece outside; blue (the partner) has a piece
    on 10 and three outside."""
    state = build_state({B: [10]}, {Y: [START, FIVE, FIVE, SWAP]})
    state[pa.H_PHASE] = pa.PHASE_EXCHANGE
    f = features(state)
    give = {kind: int(pa.MOVE_GIVE) + kind for kind in (START, FIVE, SWAP)}
    assert set(f) == set(give.values())
    only(f[give[START]], give_use_me=20 / 112, give_usable_me=1, give_use_partner=20 / 112,
         give_usable_partner=1)
    only(f[give[FIVE]], give_use_partner=5 / 112, give_usable_partner=1, give_dup=1 / 3)
    only(f[give[SWAP]], give_usable_me=1, give_usable_partner=1, give_swap=1)
    # all yellow pieces home: yellow plays for blue, and "me" is blue
    state = build_state({Y: [house(h) for h in range(1, 5)], B: [10]}, {Y: [START, FIVE, FIVE, SWAP]})
    state[pa.H_PHASE] = pa.PHASE_EXCHANGE
    row = features(state)[give[FIVE]]
    assert row["give_use_me"] == pytest.approx(5 / 112) and row["give_usable_me"] == 1


# ------------------------------------------------------------------ random positions
def test_random_positions_pass_the_contracts_feature_check_and_every_feature_varies():
    """At 700 decisions of random games at each of (4,) players, the contract's check
    (finite, in scale, its own cells only, the moves' order, the seat's views); and every feature
    tells some moves of some decision apart (a constant one would be useless)."""
    varied = np.zeros(F.N_FEATURES, bool)
    for players in (4,):
        assert check_features(Configuration("partners", players), seed=11, positions=700, varied=varied) == 700
    assert varied.all(), [name for name, v in zip(NAMES, varied) if not v]


# ------------------------------------------------------------------ the heuristics' knowledge
def race_weights(public, strategy):
    """Hand-set weights under which the linear score is race's move value (piece values: outside
    ``outside_value``, a numbered space its steps, a house space + ``home_bonus``; a team mate
    knocked out costs its value; ``lead_weight`` x the moved piece's value; an idle Swap
    ``idle_swap_cost``) and, in the exchange, minus race's value of the card kind (``kind_value``:
    unusable -1000, a Swap ``swap_card_value``)."""
    s = strategy.settings()
    assert s["knock_weight"] == s["danger_weight"] == s["pair_bonus"] == s["swap_harm_weight"] == 0
    assert s["team_knock_weight"] == 1
    assert (s["outside_value"], s["home_bonus"]) == (F.USE_OUTSIDE, F.USE_HOME_BONUS)
    ring, house_size = public[pa.H_RING], public[pa.H_HOUSE]
    w = np.zeros(F.N_FEATURES)
    w[F.F_PROGRESS] = ring
    w[F.F_ENTER] = -s["outside_value"]
    w[F.F_HOUSE] = s["home_bonus"]
    w[F.F_LOST] = s["outside_value"]
    w[F.F_LEAD] = s["lead_weight"] * (ring + house_size)
    w[F.F_IN_HOUSE] = s["lead_weight"] * s["home_bonus"]
    w[F.F_IDLE_SWAP] = -s["idle_swap_cost"]
    w[F.F_GIVE_USE_ME] = -2 * ring
    w[F.F_GIVE_USABLE_ME] = -1000.0
    w[F.F_GIVE_SWAP] = -s["swap_card_value"]
    return w


def test_a_linear_score_of_the_features_plays_like_race():
    strategy = available("partners")["race"]
    rng = np.random.default_rng(5)
    same = total = 0
    for g in range(3):
        k = KernelGame(SPEC, SPEC.make_params(4, SPEC.resolve_options([])), 21, g)
        while k.to_move() >= 0:
            seat = k.to_move()
            moves = np.array(k.legal_moves(), np.int64)
            choice = k.choose(strategy)
            if len(moves) > 1:
                public = pa.public_view(k.state)
                f = checked_features(F, pa, k.state, seat, moves, len(moves))
                total += 1
                same += int(moves[int(np.argmax(f @ race_weights(public, strategy)))] == choice)
            k.apply(choice if rng.random() < 0.7 else int(moves[rng.integers(len(moves))]))
    share = same / total
    print(f"race: the linear score agrees on {same} of {total} decisions ({share:.2%})")
    assert total > 300 and share >= 0.95
