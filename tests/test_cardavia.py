"""Cardavia: hand-worked rules and decisions CA-1..CA-6 (the match of K deals), reference engine,
invariants, the move bound, and the heuristics against random (no peeking, for every game:
tests/contract/test_hidden.py)."""
import numpy as np
import pytest
from numba import njit

from tourney_sim.simulate.games.cardavia import rules as ca
from tourney_sim.simulate.games.cardavia import notation as ca_text
from tourney_sim.simulate.games.cardavia import reference as ref
from tourney_sim.simulate.seeding import PyStream, new_stream
from tourney_sim.simulate.stepper import KernelGame
from tourney_sim.strategies import available

from . import harness
from .support.cardavia import (
    STATS, CAVALLO, CL, CO, CU, DEFAULTS, FANTE, RE, SPEC, SW, build_state, card, invariant,
    last_turn_state, mv, params_of, ref_from,
)


def legal(state):
    buf = np.zeros(ca.MAX_MOVES, np.int64)
    n = ca.legal_moves(state, buf)
    return [int(x) for x in buf[:n]]


def play(state, moves, check_reference=True, game=0, g=None, chance=None):
    """Apply moves, each checked legal; the reference engine (``g``, else one made by
    :func:`ref_from`) must list the same moves. Both draw a next deal (CA-6) from chance stream
    (0, game, 0) (or carry on with ``g`` and ``chance``, the kernel's stream, if given)."""
    if g is None and check_reference:
        g = ref_from(state, game)
    if chance is None:
        chance = new_stream(0, game, 0)
    for m in moves:
        lm = legal(state)
        assert m in lm, (ca_text.describe_move(state, m), [ca_text.describe_move(state, x) for x in lm])
        if g is not None:
            assert g.legal_moves() == lm
            g.apply(m)
        ca.apply_move(state, np.int64(m), chance)
    if g is not None:
        assert g.to_move() == ca.to_move(state)
        if g.to_move() >= 0:
            assert g.legal_moves() == legal(state)
    return g


def stats(state, team):
    base = ca.TEAM_STATS + team * ca.N_STATS
    return dict(zip(STATS, state[base:base + ca.N_STATS].tolist()))


def bonuses(state, team):
    s = stats(state, team)
    return {k: s[k] for k in ("scua", "picada", "simili", "quadriglia") if s[k]}


def result(state):
    score, rank, extra = np.zeros(4, np.int32), np.zeros(4, np.int8), np.zeros((4, ca.N_STATS), np.int32)
    ca.result(state, score, rank, extra)
    return score.tolist(), rank.tolist(), extra.tolist()


# ------------------------------------------------------------------ turn order, teams (CA-1)
def test_ca1_seat0_starts_and_play_runs_0_1_2_3():
    params = params_of()
    for g in range(10):
        k = KernelGame(SPEC, params, 5, g)
        seats = []
        while k.to_move() >= 0:
            seats.append(k.to_move())
            k.apply(k.legal_moves()[0])
        assert seats == [0, 1, 2, 3] * 12  # 48 turns, one card each


def test_deal_4_on_the_table_12_each():
    k = KernelGame(SPEC, params_of(), 1, 0)
    d = ca_text.describe_state(k.state)
    assert len(d["table"]) == 4 and [len(h) for h in d["hands"]] == [12] * 4
    assert d["teams"] == [[0, 2], [1, 3]]


# ------------------------------------------------------------------ captures (rule 3, CA-2)
def test_rule3_seven_on_7_3_4_ca2():
    """The rulebook example: a 7 on a table 7, 3, 4: take the 7, take 3+4, or place."""
    seven, t7, t3, t4 = card(7, SW), card(7, CU), card(3, CO), card(4, CL)
    state = build_state([[seven]], [t7, t3, t4])
    assert legal(state) == sorted([mv(seven), mv(seven, t7), mv(seven, t3, t4)])
    play(state, [mv(seven, t3, t4)])
    assert ca_text.describe_state(state)["table"] == [{"rank": "7", "suit": "cups"}]
    assert stats(state, 0)["cards_taken"] == 3 and bonuses(state, 0) == {}
    assert state[ca.H_LAST_CAPTURER] == 0 and state[ca.H_LAST_PLACED] == -1


def test_ca2_every_distinct_set_is_its_own_move():
    """Two table 3s of different suits: two single captures for a 3, and each with 2+Asso as
    distinct sums for a 6; the 3+3 pair is a sum for the 6 too."""
    a, b, two, ace = card(3, CU), card(3, CO), card(2, SW), card(1, CL)
    three, six = card(3, CL), card(6, SW)
    state = build_state([[three, six]], [a, b, two, ace])
    expected = [mv(three), mv(three, a), mv(three, b), mv(three, two, ace),
                mv(six), mv(six, a, b), mv(six, a, two, ace), mv(six, b, two, ace)]
    assert legal(state) == sorted(expected)
    assert ref_from(state).legal_moves() == sorted(expected)


def test_rule3_court_takes_only_one_card_of_its_rank_never_a_sum():
    """5 + 6 = 11 is no capture for a Fante (courts never take sums), and courts are never part
    of a numeral's sum; a Fante takes the table Fante, a Cavallo nothing."""
    five, six, fante_co, re_cu = card(5, CU), card(6, CO), card(FANTE, CO), card(RE, CU)
    fante, cavallo, ten = card(FANTE, SW), card(CAVALLO, CL), card(10, CL)
    state = build_state([[fante, cavallo, ten]], [five, six, fante_co, re_cu])
    assert legal(state) == sorted([mv(fante), mv(fante, fante_co), mv(cavallo), mv(ten)])
    play(state, [mv(fante, fante_co)])
    assert stats(state, 0)["cards_taken"] == 2


def test_rule3_capturing_is_optional():
    """Place-only is legal even when a capture is possible; the card joins the table."""
    seven, t7 = card(7, SW), card(7, CU)
    state = build_state([[seven, card(9, CU)], [card(2, CU)]], [t7])
    assert mv(seven) in legal(state)
    play(state, [mv(seven)])
    assert sorted(state[ca.TABLE:ca.TABLE + 2]) == [seven, t7] and state[ca.H_TABLE_N] == 2
    assert state[ca.H_LAST_PLACED] == seven and state[ca.H_LAST_CAPTURER] == -1
    assert ca.to_move(state) == 1


def test_ca5_single_match_forced():
    """With single_match_forced, a 7 that can take the table 7 may not take 3+4; a card with no
    single match still takes sums; placing stays legal."""
    seven, t7, t3, t4 = card(7, SW), card(7, CU), card(3, CO), card(4, CL)
    state = build_state([[seven]], [t7, t3, t4], single_match_forced=True)
    assert legal(state) == [mv(seven), mv(seven, t7)]
    assert ref_from(state).legal_moves() == [mv(seven), mv(seven, t7)]
    state = build_state([[seven]], [t3, t4], single_match_forced=True)
    assert legal(state) == [mv(seven), mv(seven, t3, t4)]


# ------------------------------------------------------------------ bonuses (rule 4, CA-4)
def test_scua_alone():
    state = build_state([[card(7, CL)]], [card(4, CU), card(3, CO)])
    play(state, [mv(card(7, CL), card(4, CU), card(3, CO))])
    assert bonuses(state, 0) == {"scua": 1}


def test_picada_alone():
    """Seat 3 placed the 5 of coins last turn; seat 0 takes exactly it with a 5."""
    five_co = card(5, CO)
    state = build_state([[card(5, CU)]], [five_co, card(9, SW)], last_placed=five_co)
    play(state, [mv(card(5, CU), five_co)])
    assert bonuses(state, 0) == {"picada": 1}


def test_simili_alone():
    state = build_state([[card(7, CU)]], [card(3, CU), card(4, CU), card(9, SW)])
    play(state, [mv(card(7, CU), card(3, CU), card(4, CU))])
    assert bonuses(state, 0) == {"simili": 1}


def test_quadriglia_alone():
    taken = [card(1, CO), card(2, CU), card(4, CL)]
    state = build_state([[card(7, SW)]], taken + [card(9, SW)])
    play(state, [mv(card(7, SW), *taken)])
    assert bonuses(state, 0) == {"quadriglia": 1}


def test_scua_with_simili_and_quadriglia_on_one_capture_ca4():
    """Three bonuses on one capture, each recorded in its own result column (CA-4); the result
    is read at the end (here the capture is the deal's last play, by seat 3)."""
    taken = [card(1, CU), card(2, CU), card(4, CU)]
    state = build_state([[card(7, CU)]], taken)
    play(state, [mv(card(7, CU), *taken)])
    assert bonuses(state, 0) == {"scua": 1, "simili": 1, "quadriglia": 1}
    state = last_turn_state([card(7, CU)], taken, ((), ()), 0)
    play(state, [mv(card(7, CU), *taken)])
    score, rank, extra = result(state)
    assert [extra[1][STATS.index(k)] for k in ("scua", "simili", "quadriglia")] == [1, 1, 1]


def test_scua_with_picada_on_one_capture():
    """The table was empty; seat 0 places the 6 of coins; seat 1 takes it: sweep and Picada."""
    six_co, six_cl = card(6, CO), card(6, CL)
    state = build_state([[six_co], [six_cl]], [])
    play(state, [mv(six_co), mv(six_cl, six_co)])
    assert bonuses(state, 1) == {"scua": 1, "picada": 1} and bonuses(state, 0) == {}


def test_picada_only_when_the_previous_turn_was_a_placement():
    """Seat 0 places the 5 of coins, seat 1 captures something else, seat 2 takes the 5 of
    coins: no Picada (the previous turn was a capture). And a capture of the placed card
    together with another card is no Picada either."""
    five_co = card(5, CO)
    hands = [[five_co], [card(9, CU)], [card(5, CU)]]
    state = build_state(hands, [card(9, SW), card(FANTE, CL)])
    play(state, [mv(five_co), mv(card(9, CU), card(9, SW)), mv(card(5, CU), five_co)])
    assert bonuses(state, 0) == {} and bonuses(state, 1) == {}
    three_co = card(3, CO)
    state = build_state([[three_co], [card(7, SW)]], [card(4, CU), card(FANTE, CL)])
    play(state, [mv(three_co), mv(card(7, SW), three_co, card(4, CU))])
    assert bonuses(state, 1) == {}
    # the same table, taking only the placed card by rank: Picada
    state = build_state([[three_co], [card(3, SW)]], [card(4, CU), card(FANTE, CL)])
    play(state, [mv(three_co), mv(card(3, SW), three_co)])
    assert bonuses(state, 1) == {"picada": 1}


def test_bonuses_count_on_the_last_play_and_ca5_last_sweep_scores():
    taken = [card(1, CU), card(2, CU), card(4, CU)]
    for option, expected in ((True, {"scua": 1, "simili": 1, "quadriglia": 1}),
                             (False, {"simili": 1, "quadriglia": 1})):
        state = last_turn_state([card(7, CU)], taken, ((), ()), 0, last_sweep_scores=option)
        g = play(state, [mv(card(7, CU), *taken)])
        assert ca.to_move(state) == -1
        assert bonuses(state, 1) == expected
        assert g.bonuses[1] == dict({"scua": 0, "picada": 0, "simili": 0, "quadriglia": 0}, **expected)


# ------------------------------------------------------------------ the end of the deal (rule 5)
def test_rule5_table_goes_to_the_last_capturer_without_bonus():
    """Seat 3 places its last card; the table (2 cards + it) goes to team 0, who captured last,
    with no Scua."""
    table = [card(5, CU), card(RE, CO)]
    state = last_turn_state([card(9, SW)], table, ((card(1, CO),), (card(2, CO),)), 0)
    g = play(state, [mv(card(9, SW))])
    s0 = stats(state, 0)
    assert s0["cards_taken"] == 4 and s0["swords"] == 1 and bonuses(state, 0) == {}
    assert state[ca.H_TABLE_N] == 0
    assert result(state) == tuple(g.result())


def test_ca3_nobody_captures_the_table_stays_unclaimed_and_it_is_a_draw():
    k = KernelGame(SPEC, params_of(), 3, 7)
    while k.to_move() >= 0:
        k.apply(k.legal_moves()[0])  # the lowest code: always a placement
    assert k.state[ca.H_TABLE_N] == 52
    assert all(k.state[ca.CARD_PUB + c] == ca.PUB_TABLE for c in range(52))
    score, rank, extra = k.result()
    assert score == [0, 0, 0, 0] and rank == [1, 1, 1, 1]
    assert all(v == 0 for row in extra for v in row[:ca.STAT_LEADER])
    assert all(row[ca.STAT_LEADER] == -1 for row in extra)  # level at two thirds: no leader


def final(pile0, last_card=card(RE, CL), **options):
    """Score a deal in which team 0 holds exactly ``pile0`` and team 1 everything else: seat 3
    (team 1, the last capturer) places ``last_card`` on an empty table on the last turn."""
    pile0 = set(pile0)
    pile1 = [c for c in range(52) if c not in pile0 and c != last_card]
    state = last_turn_state([last_card], [], (sorted(pile0), pile1), 1, **options)
    g = play(state, [mv(last_card)])
    assert result(state) == tuple(g.result())
    return stats(state, 0), stats(state, 1), result(state)


def filler(n, avoid=()):
    """n cards that carry no prize: no swords, not the 10 of coins or Fante of cups."""
    out = [c for c in range(52) if c % 4 != SW and c not in (ca.TEN_OF_COINS, ca.FANTE_OF_CUPS)
           and c not in avoid]
    return out[:n]


def test_prize_most_cards_and_26_26_scores_nothing():
    s0, s1, _ = final(filler(27))
    assert (s0["most_cards"], s1["most_cards"]) == (2, 0)
    s0, s1, (score, rank, _) = final(filler(26))
    assert (s0["cards_taken"], s1["cards_taken"]) == (26, 26)
    assert (s0["most_cards"], s1["most_cards"]) == (0, 0)


def test_prize_most_swords():
    swords7 = [card(r, SW) for r in (4, 5, 6, 7, 8, 9, 10)]  # no Mata, no Napula
    s0, s1, _ = final(swords7)
    assert (s0["swords"], s1["swords"], s0["most_swords"], s1["most_swords"]) == (7, 6, 1, 0)
    s0, s1, _ = final(swords7[:6])
    assert (s0["most_swords"], s1["most_swords"]) == (0, 1)


def test_prize_mata_ten_of_coins_fante_of_cups():
    for prize, column in ((ca.MATA, "mata"), (ca.TEN_OF_COINS, "ten_of_coins"),
                          (ca.FANTE_OF_CUPS, "fante_of_cups")):
        s0, s1, (score, rank, extra) = final([prize])
        assert s0[column] == 1 and s1[column] == 0
        assert score[0] == 1  # the prize card is team 0's only point
    assert card(2, SW) == ca.MATA and card(10, CO) == ca.TEN_OF_COINS and card(FANTE, CU) == ca.FANTE_OF_CUPS


@pytest.mark.parametrize("ranks,beyond,points", [
    ((1, 2, 3), False, 3),
    ((1, 2, 3, 4), False, 4),
    ((1, 2, 3, 4, 6, 7), False, 4),  # the run breaks at the missing 5
    ((1, 2, 3, 4, 5, 6, 7, 8, 9, 10), False, 10),
    ((1, 3, 4, 5, 6), False, 0),  # without the 2: no Napula
    ((2, 3, 4, 5), False, 0),  # without the Asso
    ((1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13), False, 10),  # up to the 10 by default
    ((1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11), True, 11),  # CA-5 napula_beyond_10: the Fante extends
    ((1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13), True, 13),
])
def test_napula(ranks, beyond, points):
    """Team 0 holds these swords (and four filler cards, so that most cards goes to team 1);
    ``beyond`` is the CA-5 option napula_beyond_10."""
    s0, s1, (score, _, _) = final([card(r, SW) for r in ranks] + filler(4), napula_beyond_10=beyond)
    assert s0["napula"] == points and s1["napula"] == 0
    expected = points + s0["mata"] + s0["most_swords"]
    assert score[0] == expected


def test_result_partners_share_team_score_rank_and_columns():
    """Team 0 wins 5-4 here: both partners get 5 and rank 1, the opponents 4 and rank 2; a draw
    ranks both teams 1. The result is the match's (MATCH_*: one deal's when K = 1)."""
    state = build_state([[], [], [], []], [], turn=48, to_move=-1)
    state[ca.MATCH_SCORE:ca.MATCH_SCORE + 2] = [5, 4]
    state[ca.MATCH_STATS + ca.STAT_SCUA] = 5
    state[ca.MATCH_STATS + ca.N_STATS + ca.STAT_PICADA] = 4
    score, rank, extra = result(state)
    assert score == [5, 4, 5, 4] and rank == [1, 2, 1, 2]
    assert extra[0] == extra[2] and extra[1] == extra[3]
    assert extra[0][STATS.index("scua")] == 5 and extra[1][STATS.index("picada")] == 4
    state[ca.MATCH_SCORE:ca.MATCH_SCORE + 2] = [3, 3]
    assert result(state)[1] == [1, 1, 1, 1]


def test_describe_and_json():
    seven, t3, t4 = card(7, SW), card(3, CO), card(4, CL)
    state = build_state([[seven]], [t3, t4])
    assert ca_text.describe_move(state, mv(seven, t3, t4)) == "plays 7 of swords, takes 3 of coins + 4 of clubs (scua)"
    assert ca_text.move_to_json(state, mv(seven)) == {"action": "place", "card": {"rank": "7", "suit": "swords"}}
    j = ca_text.move_to_json(state, mv(seven, t3, t4))
    assert j["action"] == "capture" and len(j["captured"]) == 2 and j["bonuses"] == ["scua"]


# ------------------------------------------------------------------ the match (CA-6)
def deal_starts(deals, seed, game):
    """Play a match of ``deals`` deals (the highest legal move each time): per deal, the seats
    in the order they played and the state at its first decision."""
    k = KernelGame(SPEC, params_of(match_deals=deals), seed, game)
    seats, starts = [], []
    while k.to_move() >= 0:
        if k.state[ca.H_TURN] == 0:
            seats.append([])
            starts.append(k.state.copy())
        seats[-1].append(k.to_move())
        k.apply(k.legal_moves()[-1])
    return seats, starts, k


def test_ca6_deal_k_is_started_by_seat_k_mod_4():
    """Six deals: started by seats 0, 1, 2, 3, 0, 1 (dealt by 3, 0, 1, 2, 3, 0), 48 turns each
    in seat order from the starter; each deal begins with 12 cards a hand and 4 on the table."""
    seats, starts, k = deal_starts(6, 5, 0)
    assert len(seats) == 6
    for deal, (order, state) in enumerate(zip(seats, starts)):
        assert order == [(deal + t) % 4 for t in range(48)]
        d = ca_text.describe_state(state)
        assert (d["deal"], d["starter"], d["dealer"]) == (deal, deal % 4, (deal + 3) % 4)
        assert [len(h) for h in d["hands"]] == [12] * 4 and len(d["table"]) == 4
        assert state[ca.H_LAST_PLACED] == -1 and state[ca.H_LAST_CAPTURER] == -1
        assert state[ca.TEAM_STATS:ca.TEAM_STATS + ca.STAT_LEADER].tolist() == [0] * ca.STAT_LEADER
    assert k.to_move() == -1 and k.state[ca.H_DEAL_NO] == 5


def test_ca6_every_deal_is_a_new_shuffle_and_deal_0_is_the_one_deal_game():
    """Deal 0 of a match is the one-deal game of the same seed; the later deals come from the
    same chance stream, shuffled afresh (the reference engine deals the same: the differential
    tests)."""
    _, starts, _ = deal_starts(3, 7, 2)
    single = KernelGame(SPEC, params_of(), 7, 2)
    hands = [ca_text.describe_state(s)["hands"] for s in starts]
    assert hands[0] == ca_text.describe_state(single.state)["hands"]
    assert hands[1] != hands[0] and hands[2] != hands[1]


def test_ca6_picada_never_reaches_into_the_previous_deal():
    """Seat 3 places the 5 of coins on the last turn of deal 0; deal 1 (seat 1 starts) happens to
    deal the 5 of coins to the table and a 5 to seat 1. Taking exactly it by rank on the deal's
    first turn is no Picada: the turn before was the previous deal's. (Within deal 1 a Picada
    counts again.)"""
    five_co = card(5, CO)
    for game in range(2000):
        state = build_state([[], [], [], [five_co]], [card(9, SW)], to_move=3, turn=47, last_capturer=0,
                            match_deals=2)
        chance = new_stream(0, game, 0)
        g = play(state, [mv(five_co)], game=game, chance=chance)
        hand1 = [int(c) for c in ca.private_view(state, 1)[1:1 + ca.private_view(state, 1)[0]]]
        fives = [c for c in hand1 if c >> 2 == 4]
        if state[ca.CARD_PUB + five_co] == ca.PUB_TABLE and fives:
            break
    else:
        raise AssertionError("no such deal found")
    assert state[ca.H_DEAL_NO] == 1 and ca.to_move(state) == 1 and state[ca.H_TURN] == 0
    assert state[ca.H_LAST_PLACED] == -1  # the previous turn placed the 5 of coins, in deal 0
    capture = mv(fives[0], five_co)
    assert "picada" not in ca_text.describe_move(state, capture)
    play(state, [capture], g=g, chance=chance)
    assert stats(state, 1)["picada"] == 0 and g.bonuses[1]["picada"] == 0
    # seat 2 places a card; seat 3 may take exactly it: within the deal that is a Picada again
    hands = [[int(c) for c in ca.private_view(state, p)[1:1 + ca.private_view(state, p)[0]]] for p in range(4)]
    for placed in hands[2]:
        takers = [c for c in hands[3] if c >> 2 == placed >> 2]
        if takers and all(t >> 2 != placed >> 2 for t in state[ca.TABLE:ca.TABLE + state[ca.H_TABLE_N]]):
            play(state, [mv(placed), mv(takers[0], placed)], g=g, chance=chance)
            assert stats(state, 1)["picada"] == 1 and g.bonuses[1]["picada"] == 1
            break
    else:
        raise AssertionError("no Picada to try in deal 1")


def test_ca6_deals_are_scored_alone_and_add_up():
    """The last play of deal 0 of a two-deal match: the deal is scored exactly as a one-deal
    game (the table to the last capturer, prizes, Napula), its total becomes the match score,
    and deal 1 starts with empty records; the match result is the sum of the two deals."""
    pile0 = [card(r, SW) for r in (1, 2, 3, 4)] + filler(4)
    pile1 = [c for c in range(52) if c not in pile0 and c != card(RE, CL)]
    one_deal = last_turn_state([card(RE, CL)], [], (pile0, pile1), 1)
    play(one_deal, [mv(card(RE, CL))])
    deal0 = result(one_deal)
    state = last_turn_state([card(RE, CL)], [], (pile0, pile1), 1, match_deals=2)
    before = state.copy()
    chance = new_stream(0, 0, 0)
    g = play(state, [mv(card(RE, CL))], chance=chance)
    assert state[ca.MATCH_SCORE:ca.MATCH_SCORE + 2].tolist() == deal0[0][:2]
    assert [state[ca.MATCH_STATS + t * ca.N_STATS:ca.MATCH_STATS + t * ca.N_STATS + ca.STAT_LEADER].tolist()
            for t in range(2)] == [deal0[2][t][:ca.STAT_LEADER] for t in range(2)]
    assert state[ca.TEAM_SCORE:ca.TEAM_SCORE + 2].tolist() == [0, 0] and ca.to_move(state) == 1
    end = ca_text.deal_end(before, mv(card(RE, CL)))
    assert end["points"] == deal0[0][:2] and end["match"] == deal0[0][:2] and end["next_starter"] == 1
    pick = PyStream(0, 0, 1000)
    while ca.to_move(state) >= 0:
        moves = legal(state)
        play(state, [moves[pick.below(len(moves))]], g=g, chance=chance)
    score, rank, extra = result(state)
    deal1 = state[ca.TEAM_SCORE:ca.TEAM_SCORE + 2].tolist()
    assert score[:2] == [deal0[0][t] + deal1[t] for t in range(2)]
    assert extra[0][STATS.index("napula")] == 4 + stats(state, 0)["napula"]
    assert (score, rank, extra) == tuple(g.result())


def test_ca6_leader_at_two_thirds_reads_the_match_score():
    """Two deals: the lead is taken after turn 64 of 96 (turn 16 of deal 1) on the match points:
    team 0 won deal 0 by 5-2, team 1 has 2 bonuses in deal 1, so team 0 leads by 1 (on this
    deal's bonuses alone team 1 would)."""
    for match, leader in (([5, 2], 0), ([2, 2], 1)):
        state = build_state([[card(9, CU)]], [card(RE, CO)], to_move=0, turn=15, deal_no=1, match_deals=2)
        state[ca.MATCH_SCORE:ca.MATCH_SCORE + 2] = match
        state[ca.MATCH_STATS + ca.STAT_NAPULA] = match[0]  # the columns behind the scores
        state[ca.MATCH_STATS + ca.N_STATS + ca.STAT_NAPULA] = match[1]
        state[ca.TEAM_STATS + ca.N_STATS + ca.STAT_SCUA] = 2
        assert state[ca.MATCH_STATS + ca.STAT_LEADER] == -1
        g = play(state, [mv(card(9, CU))])
        assert state[ca.MATCH_STATS + ca.STAT_LEADER] == state[ca.MATCH_STATS + ca.N_STATS + ca.STAT_LEADER] == leader
        assert g.leader == leader


def test_ca6_two_thirds_on_a_deal_end_counts_its_prizes():
    """Three deals: two thirds is turn 96 of 144, the end of deal 1, so the lead counts that
    deal's prizes: team 1 has the only bonus (a Scua) but team 0 takes every prize."""
    last = card(RE, CL)
    pile0 = [card(r, SW) for r in range(1, 14)] + [ca.TEN_OF_COINS, ca.FANTE_OF_CUPS] + filler(14)
    pile1 = [c for c in range(52) if c not in pile0 and c != last]
    state = build_state([[last], [], [], []], [], (pile0, pile1), to_move=0, turn=47, last_capturer=1,
                        deal_no=1, match_deals=3)
    state[ca.TEAM_STATS + ca.N_STATS + ca.STAT_SCUA] = 1
    g = play(state, [mv(last)])
    assert state[ca.H_DEAL_NO] == 2 and ca.to_move(state) == 2
    assert state[ca.MATCH_SCORE] > state[ca.MATCH_SCORE + 1] == 1
    assert state[ca.MATCH_STATS + ca.STAT_LEADER] == 0 and g.leader == 0


@pytest.mark.slow
def test_ca6_match_deals_option_and_decision_cap():
    """match_deals is 1..20; the kernel's decision cap grows with it (48 a deal)."""
    from tourney_sim.simulate.games.spec import RuleError
    from tourney_sim.simulate.matchup import make_matchup, play_block
    assert SPEC.resolve_options([])["match_deals"] == 1
    for bad in ("0", "21", "two"):
        with pytest.raises(RuleError):
            SPEC.resolve_options([f"match_deals={bad}"])
    assert SPEC.max_decisions == 48 * 20
    block = play_block(make_matchup("cardavia", 4, ["guard", "random"], rules=["match_deals=20"], seed=1), 0, 8)
    assert block.decisions.tolist() == [48 * 20] * 8
    assert (block.extra[:, 0, STATS.index("cards_taken")] + block.extra[:, 1, STATS.index("cards_taken")]
            <= 52 * 20).all()


def test_ca6_replay_shows_the_deal_boundaries(tmp_path):
    """tourney replay of a two-deal match: the last play of each deal tells the deal's end,
    the match score and who starts next; the trace's action carries the same; a one-deal game's
    text is as before."""
    import json
    from .support.cli import invoke
    out = tmp_path / "match"
    r = invoke("run", "cardavia", "--games", 4, "--seed", 3, "--strategy", "guard", "--strategy", "random",
               "--rule", "match_deals=2", "--out", out, "--workers", 1, "--quiet")
    assert r.exit_code == 0, r.output
    r = invoke("replay", out, "--game", 1)
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    ends = [line for line in lines if "| end of deal" in line]
    assert len(ends) == 2 and "end of deal 1 of 2" in ends[0] and "end of deal 2 of 2" in ends[1]
    assert "| deal 2 of 2: new shuffle, seat 0 deals, seat 1 starts" in ends[0]
    # history steps: 0 the first deal, 1-48 its plays, 49 the second deal, 50-97 its plays
    assert " 48  seat 3 " in ends[0] and " 97  seat 0 " in ends[1]
    assert [line.split(":")[0].strip() for line in lines if "chance: deal" in line] == ["0  chance", "49  chance"]
    assert "replayed result matches the dataset" in r.output
    trace = json.loads(invoke("replay", out, "--game", 1, "--format", "json").output)
    marks = [d["action"]["end_of_deal"] for d in trace["history"] if "seat" in d and "end_of_deal" in d["action"]]
    assert [m["deal"] for m in marks] == [0, 1] and marks[1]["next_starter"] is None
    assert marks[1]["match"] == [trace["result"][0]["score"], trace["result"][1]["score"]]
    assert trace["initial_state"]["options"]["match_deals"] == 2
    single = KernelGame(SPEC, params_of(), 3, 1)
    last = single.copy()
    while last.to_move() >= 0:
        move = last.legal_moves()[0]
        assert "|" not in ca_text.describe_move(last.state, move)
        assert "end_of_deal" not in ca_text.move_to_json(last.state, move)
        last.apply(move)


# ------------------------------------------------------------------ reference engine
@pytest.mark.slow
def test_kernel_matches_reference():
    """10,000 seeded games with the rulebook options: same legal moves at every step, same result."""
    assert harness.differential(SPEC, ref, params_of(), seed=11, games=10_000) == 10_000 * 48


@pytest.mark.parametrize("option", ["single_match_forced", "last_sweep_scores", "napula_beyond_10"])
def test_kernel_matches_reference_with_options(option):
    params = params_of(**{option: not DEFAULTS[option]})
    harness.differential(SPEC, ref, params, seed=12, games=1_000)


@pytest.mark.parametrize("deals,games", [(2, 600), (3, 400), (4, 300)])
def test_kernel_matches_reference_in_matches_ca6(deals, games):
    """CA-6: matches of 2, 3 (two thirds of the match falls on a deal's end) and 4 deals, every
    decision and the summed result checked against the reference engine."""
    params = params_of(match_deals=deals)
    assert harness.differential(SPEC, ref, params, seed=13, games=games) == games * 48 * deals


def test_kernel_matches_reference_in_matches_with_options_ca6():
    params = params_of(match_deals=2, single_match_forced=True, last_sweep_scores=False,
                       napula_beyond_10=True)
    harness.differential(SPEC, ref, params, seed=14, games=300)


# ------------------------------------------------------------------ invariants


@pytest.mark.slow  # a compile of its own
@pytest.mark.parametrize("deals,games", [(1, 2_000), (2, 1_000), (4, 500)])
def test_a_deal_is_48_decisions_and_a_match_of_k_deals_48_k(deals, games):
    """(The game's invariant over random games in every configuration is every game's contract:
    tests/contract/test_hidden.py.)"""
    lengths = np.zeros(games, np.int64)
    failure = harness.random_playthroughs(
        ca.init, ca.to_move, ca.legal_moves, ca.apply_move, invariant, ca.STATE_SIZE, ca.MAX_MOVES,
        ca.DECISIONS_PER_DEAL * deals, params_of(match_deals=deals), np.uint64(3), games, lengths)
    assert failure == (-1, 0, 0)
    assert lengths.min() == lengths.max() == 48 * deals


# ------------------------------------------------------------------ the move bound
@njit
def subset_sum_maxima():
    """best[k, v]: the most sets with value sum v (v <= 10) among k table numerals (at most four
    of a value), over all 5**10 count vectors; most[k]: the most sets with sum <= 10, the empty
    set included. Then made monotone in k (k is an upper bound on the table numerals)."""
    C = np.zeros((5, 5), np.int64)  # binomials
    for n in range(5):
        C[n, 0] = 1
        for m in range(1, n + 1):
            C[n, m] = C[n - 1, m - 1] + (C[n - 1, m] if m <= n - 1 else 0)
    best = np.zeros((41, 11), np.int64)
    most = np.zeros(41, np.int64)
    dp = np.zeros((11, 11), np.int64)  # dp[u, s]: sets with sum s using values 1..u
    dp[0, 0] = 1
    cnt = np.zeros(11, np.int64)  # how many of value u lie on the table (an odometer)
    level = 1
    cnt[1] = -1
    while level >= 1:
        cnt[level] += 1
        if cnt[level] > 4:
            level -= 1
            continue
        c = cnt[level]
        for s in range(11):
            dp[level, s] = 0
        for s in range(11):
            if dp[level - 1, s] != 0:
                for m in range(c + 1):
                    if s + m * level <= 10:
                        dp[level, s + m * level] += dp[level - 1, s] * C[c, m]
        if level < 10:
            level += 1
            cnt[level] = -1
            continue
        k = 0
        for u in range(1, 11):
            k += cnt[u]
        total = 0
        for s in range(11):
            total += dp[10, s]
            if s > 0 and dp[10, s] > best[k, s]:
                best[k, s] = dp[10, s]
        most[k] = max(most[k], total)
    for k in range(1, 41):
        for s in range(11):
            best[k, s] = max(best[k, s], best[k - 1, s])
        most[k] = max(most[k], most[k - 1])
    return best, most


def test_move_bound():
    """The bound proved in the module docstring: at most MOVES_BOUND legal moves, and at most
    LIST_BOUND - 12 numeral sets with sum <= 10 in legal_moves' buckets (BUCKET_CAP[s] of sum s)."""
    best, most = subset_sum_maxima()
    assert best[40].tolist() == [0, 4, 10, 24, 51, 100, 190, 344, 601, 1024, 1702]
    bound = 0
    for h in range(1, 13):
        k = min(55 - 4 * h, 40)
        per_card = sorted([int(best[k, v]) for v in range(1, 11)] * 4 + [3] * 12, reverse=True)
        bound = max(bound, h + sum(per_card[:h]))
    assert bound == ca.MOVES_BOUND
    assert int(most[40]) + 12 == ca.LIST_BOUND
    # legal_moves' buckets: the empty set, the most sets of each sum 1..10, four courts a rank
    assert list(ca.BUCKET_CAP) == [1] + best[40, 1:].tolist() + [4, 4, 4]
    assert sum(ca.BUCKET_CAP) == ca.LIST_BOUND and ca.BUCKETS >= ca.MOVES_BOUND + 3
    assert ca.MAX_MOVES == ca.BUCKETS + ca.LIST_BOUND + 3
    # a big position: 11 low numerals on the table and a hand of tens, nines and eights
    table = [card(r, s) for r in (1, 2, 3) for s in range(4) if (r, s) != (3, 3)]
    hand = [card(r, s) for r in (8, 9, 10) for s in range(4)]
    state = build_state([hand], table)
    moves = legal(state)
    assert len(moves) == len(set(moves)) == len(ref_from(state).legal_moves()) <= ca.MOVES_BOUND
    assert moves == sorted(moves)



# ------------------------------------------------------------------ strategies
def test_strategies_registered():
    names = set(available("cardavia"))
    assert {"random", "capture-max", "guard", "swords"} <= names


@pytest.mark.slow
@pytest.mark.parametrize("name", ["capture-max", "guard", "swords"])
def test_heuristic_beats_random(name):
    """4,000 games of [heuristic, random, heuristic, random] (the heuristic is team {0,2} or,
    rotated, {1,3}). Under "no better than random" both would win equally often. Measured on
    200,000 games: each heuristic wins 99.9% of its games (mean 18 points), random 0.1%
    (about 1 point); z of the difference is above 80, far past the 5-sigma bar."""
    from tourney_sim.simulate.matchup import make_matchup, play_block
    block = play_block(make_matchup("cardavia", 4, [name, "random"], seed=99), 0, 4_000)
    p1, p2, z = harness.win_rate_z(block)
    assert z > 5, (p1, p2, z)
    assert block.score[block.strategy == 0].mean() > block.score[block.strategy == 1].mean() + 10


@pytest.mark.slow
def test_guard_beats_capture_max():
    """Looking one player ahead pays: guard against capture-max over 4,000 games (measured on
    50,000: guard wins 81%, capture-max 22%)."""
    from tourney_sim.simulate.matchup import make_matchup, play_block
    block = play_block(make_matchup("cardavia", 4, ["guard", "capture-max"], seed=5), 0, 4_000)
    wins = block.rank == 1
    assert wins[block.strategy == 0].mean() > wins[block.strategy == 1].mean() + 0.4


def test_invariant_catches_broken_states():
    k = KernelGame(SPEC, params_of(), 4, 0)
    for _ in range(10):
        k.apply(k.legal_moves()[-1])
    assert invariant(k.state) == 0
    broken = k.state.copy()
    broken[ca.TABLE] = broken[ca.PRIVATE + 1]  # a hand card also on the table
    assert invariant(broken) != 0
    broken = k.state.copy()
    broken[ca.TEAM_STATS + ca.STAT_CARDS] += 1
    assert invariant(broken) != 0
    k = KernelGame(SPEC, params_of(match_deals=2), 4, 0)
    for _ in range(60):  # into the second deal, started by seat 1
        k.apply(k.legal_moves()[-1])
    assert invariant(k.state) == 0
    broken = k.state.copy()
    broken[ca.H_DEAL_STARTER] = 0
    assert invariant(broken) != 0
    broken = k.state.copy()
    broken[ca.MATCH_SCORE] += 1
    assert invariant(broken) != 0
