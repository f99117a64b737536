"""Each component's effect on winning (simulate/stats/components.py), on synthetic datasets whose truth
is known (tests/support/synthetic.py: a deck dealt out whole, a win chance linear in what a unit holds):
a planted effect is found, exactly that kind, with the right sign and an interval covering the
truth; a null finds nothing beyond the family's error rate; the intervals cover at 95%; kinds
that cannot be estimated are said so; the reports show a "Components" section only for datasets
that record what was dealt."""
import json

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from tourney_sim.cli import app
from tourney_sim.reports import render
from tourney_sim.simulate.stats import components
from tourney_sim.simulate.stats.load import load
from tourney_sim.simulate.results import DatasetError

from .support import synthetic as sy

SEATS4 = sy.Game(players=4)
TEAMS = sy.Game(players=4, team_game=True)
# 40 distinct cards and one Swap card: holding it is worth +6 pp (its truth: 6 pp less its share
# of the average card's, 6/41 pp; every other card's truth is -6/41 pp, negligible)
PLANTED = sy.Deck([f"card {i}" for i in range(39)] + ["Swap"], [1] * 40, {"Swap": 0.06})
NULL = sy.Deck([f"card {i}" for i in range(12)], [2] * 12)


def effects_of(game, deck, games, seed, method="auto"):
    r = sy.play_dealt(game, deck, games, seed=seed)
    members = sy.unit_members(game)
    x = np.stack([r["dealt"][:, m, :].sum(axis=1) for m in members], axis=1)
    w = r["win"][:, [m[0] for m in members]]
    return components.estimate(components.arrays_blocks(x, w, block_games=777), deck.kinds, len(members),
                               "team" if game.team_game else "seat", method=method)


@pytest.mark.parametrize("game", [SEATS4, TEAMS], ids=["seats", "teams"])
def test_a_planted_effect_is_found_exactly_that_kind(game):
    e = effects_of(game, PLANTED, 5000, seed=3)
    truth = sy.dealt_truth(game, PLANTED)["Swap"]
    assert [k.kind for k in e.found()] == ["Swap"]
    swap = e.found()[0]
    assert swap.effect > 0 and swap.low <= truth <= swap.high
    assert e.ranked()[0] is swap and e.family_size == 40
    text = e.sentence(swap)
    unit = "team" if game.team_game else "seat"
    assert text.startswith(f"Holding one more Swap (in place of an average card) raises a {unit}'s win rate by")
    assert f"{100 * swap.effect:.1f} pp, 95% [{100 * swap.low:.1f}, {100 * swap.high:.1f}]" in text


def test_a_negative_effect_is_said_as_lowering():
    deck = sy.Deck(PLANTED.kinds, PLANTED.counts, {"Swap": -0.06})
    e = effects_of(SEATS4, deck, 5000, seed=4)
    assert [k.kind for k in e.found()] == ["Swap"]
    swap = e.found()[0]
    assert swap.effect < 0 and swap.low <= sy.dealt_truth(SEATS4, deck)["Swap"] <= swap.high
    assert "lowers a seat's win rate by" in e.sentence(swap)


def test_a_null_finds_nothing_beyond_the_error_rate():
    """Over 200 null datasets the family's false findings stay within 5% plus noise (a binomial
    at 5% exceeds 18 of 200 with chance 0.8%)."""
    false = sum(bool(effects_of(SEATS4, NULL, 1000, seed=1000 + r).found()) for r in range(200))
    assert false <= 18


FORTY = sy.Deck([f"card {i}" for i in range(40)], [1] * 40)


@pytest.mark.parametrize("game,deals,reps,most", [(SEATS4, 40, 150, 14), (TEAMS, 40, 150, 14), (SEATS4, 100, 100, 10)],
                         ids=["seats-40", "teams-40", "seats-100"])
def test_a_null_at_the_deals_quick_studies_use_finds_nothing_beyond_the_error_rate(game, deals, reps, most):
    """Issue 39: with 40 kinds and nothing planted, the normal approximation with Holm made a false
    finding in 20% of datasets at 40 deals (99.6% with two teams) and 9.8% at 100; the
    permutation test keeps it within 5% plus noise (a binomial at 5% exceeds 14 of 150 with
    chance 1.2%, 10 of 100 with chance 1.1%). scripts/bench_components.py measures 40, 100 and
    300 deals over 1,000 datasets each."""
    false = 0
    for r in range(reps):
        e = effects_of(game, FORTY, deals, seed=90_000 + deals + r)
        assert e.method in (components.PERMUTATION, components.TOO_FEW)  # too few: no kind told apart
        assert e.family_size == 40 or e.method == components.TOO_FEW
        false += bool(e.found())
    assert false <= most
    # the former test on the same data is far off (two teams at 40 deals: nearly every dataset)
    if game is TEAMS:
        normal = sum(bool(effects_of(game, FORTY, deals, seed=90_000 + deals + r, method=components.NORMAL).found())
                     for r in range(20))
        assert normal >= 10


def test_a_planted_effect_is_still_found_at_small_samples():
    """A Swap card worth +15 pp among 40 kinds at 300 deals: found, with the right sign, as often
    as the normal approximation found it (73% and 78% of datasets in scripts/bench_components.py);
    here a dataset where both find it, and one at 5,000 deals (+6 pp) tested as before."""
    deck = sy.Deck(PLANTED.kinds, PLANTED.counts, {"Swap": 0.15})
    e = effects_of(SEATS4, deck, 300, seed=1)
    assert e.method == components.PERMUTATION
    assert [k.kind for k in e.found()] == ["Swap"] and e.found()[0].effect > 0
    before = effects_of(SEATS4, deck, 300, seed=1, method=components.NORMAL)
    assert [k.kind for k in before.found()] == ["Swap"]
    swap = e.found()[0]
    # the permutation's family-level interval is wider than the normal's (heavier tails at 300 deals)
    assert swap.adj_high - swap.adj_low > before.found()[0].adj_high - before.found()[0].adj_low
    assert swap.p_holm <= 0.05 and swap.p_value <= swap.p_holm
    assert effects_of(SEATS4, PLANTED, 5000, seed=3).method == components.NORMAL


def test_the_permutation_test_is_exact_and_reproducible():
    """The p-values are Monte Carlo permutation p-values ((1 + count) / 1,000: never 0), the same
    for the same data, and the adjusted ones never below the raw ones; blocks change nothing."""
    r = sy.play_dealt(SEATS4, FORTY, 120, seed=5)
    a = components.estimate(components.arrays_blocks(r["dealt"], r["win"]), FORTY.kinds, 4, "seat")
    b = components.estimate(components.arrays_blocks(r["dealt"], r["win"], block_games=7), FORTY.kinds, 4, "seat")
    for x, y in zip(a.kinds, b.kinds):
        assert (x.p_value, x.p_holm, x.low, x.adj_high) == pytest.approx((y.p_value, y.p_holm, y.low, y.adj_high))
        assert 1 / 1000 <= x.p_value <= x.p_holm <= 1
        assert round(x.p_value * 1000) == pytest.approx(x.p_value * 1000)


def test_too_few_deals_are_not_tested(tmp_path):
    """Below 20 deals the kinds are estimated, not tested: "too few deals", no interval, and the
    report says so instead of naming findings."""
    r = sy.play_dealt(SEATS4, NULL, 15, seed=2)
    e = components.estimate(components.arrays_blocks(r["dealt"], r["win"]), NULL.kinds, 4, "seat")
    assert e.method == components.TOO_FEW and e.family_size == 0 and not e.found()
    assert {k.outcome for k in e.estimated()} == {components.TOO_FEW}
    assert all(np.isnan(k.p_holm) and np.isnan(k.low) and np.isfinite(k.effect) for k in e.estimated())
    report = render.Report("synthetic", "components", [], [], [], [], [])
    render.layout_components(report, e, 2)
    md = render.to_markdown(report)
    assert "Too few deals to test any kind: 15 deals (at least 20, and more than the kinds, are needed)" in md
    assert "| too few deals |" in md


@pytest.mark.parametrize("game", [SEATS4, TEAMS], ids=["seats", "teams"])
def test_intervals_cover_at_95(game):
    """Every kind's interval against its truth over 150 datasets (1,800 intervals: binomial noise
    about 0.5 points)."""
    deck = sy.Deck(NULL.kinds, NULL.counts, {"card 0": 0.04, "card 5": -0.03})
    cov = sy.dealt_effects_coverage(game, deck, 1500, 150, seed=11)
    assert cov.covered >= 0.935


def test_the_estimand_is_the_swap_for_an_average_card():
    """The effects of the kinds, weighted by how often each is held, add up to 0; the truth too."""
    deck = sy.Deck(["a", "b", "c"], [2, 4, 6], {"a": 0.05, "c": -0.02})
    truth = sy.dealt_truth(SEATS4, deck)
    assert abs(2 * truth["a"] + 4 * truth["b"] + 6 * truth["c"]) < 1e-12
    e = effects_of(SEATS4, deck, 4000, seed=5)
    assert abs(sum(k.held * k.effect for k in e.kinds)) < 1e-9


def test_kinds_that_cannot_be_estimated_are_reported_as_such():
    g, units = 3000, 4
    rng = np.random.default_rng(0)
    x = np.zeros((g, units, 5), np.uint16)
    x[..., 0] = rng.integers(0, 3, (g, units))  # varies
    x[..., 1] = 0  # never dealt
    x[..., 2] = 1  # one to every seat, always
    x[..., 3] = rng.integers(0, 2, (g, units))
    x[..., 4] = x[..., 3]  # always together with kind 3
    win = np.zeros((g, units), bool)
    win[np.arange(g), rng.integers(0, units, g)] = True
    e = components.estimate(components.arrays_blocks(x, win), list("abcde"), units, "seat")
    status = {k.kind: k.status for k in e.kinds}
    assert status == {"a": "estimated", "b": components.NEVER_DEALT, "c": components.NO_VARIATION,
                      "d": components.NOT_SEPARABLE, "e": components.NOT_SEPARABLE}
    assert e.family_size == 1 and [k.kind for k in e.ranked()] == ["a"]
    assert all(np.isnan(k.effect) for k in e.not_estimated())


def test_a_hand_of_fixed_size_beside_varying_draws_is_measured_within_its_group():
    """Colleagues' shape: every seat holds exactly 3 cards of the "Card" kinds (a fixed hand)
    beside a varying number of "token" draws. Only differences inside the hand are estimable, so
    each card is measured against the average card of the hand, a token against the average
    token; a planted card worth +10 pp over the others is found, the others pay for it (each in
    place of an average card that includes it), the tokens are nothing."""
    g, units, cards = 20000, 4, 6
    rng = np.random.default_rng(3)
    x = np.zeros((g, units, cards + 2), np.uint16)
    deck = np.tile(np.arange(cards), (g, 1)).repeat(2, axis=1)  # 12 cards: 3 to each of 4 seats
    hands = rng.permuted(deck, axis=1).reshape(g, units, 3)
    for k in range(cards):
        x[..., k] = (hands == k).sum(axis=2)
    x[..., cards] = rng.integers(0, 3, (g, units))
    x[..., cards + 1] = rng.integers(0, 3, (g, units))
    p = 0.25 + 0.10 * (x[..., 0] - x[..., 0].mean(axis=1, keepdims=True))
    win = np.zeros((g, units), bool)
    win[np.arange(g), (rng.random(g)[:, None] > np.cumsum(p, axis=1)).sum(axis=1).clip(0, units - 1)] = True
    names = [f"Card {k}" for k in range(cards)] + ["token red", "token blue"]
    e = components.estimate(components.arrays_blocks(x, win), names, units, "seat")
    assert len(e.estimated()) == cards + 2
    assert {k.versus for k in e.kinds} == {"an average Card", "an average token"}
    assert e.ranked()[0].kind == "Card 0" and e.kinds[0].outcome == "finding"
    truth = 0.10 * (1 - 1 / cards)  # one more card 0 in place of the average card of the hand
    assert e.kinds[0].adj_low <= truth <= e.kinds[0].adj_high
    for k in e.kinds[1:cards]:  # in place of an average card (card 0 among them): -0.10 / cards
        assert k.effect < 0 and k.adj_low <= -0.10 / cards <= k.adj_high
    assert not any(k.outcome == "finding" for k in e.kinds[cards:])


def test_seat_fixed_effects_absorb_a_seat_advantage():
    """Seat 0 always holds more of kind a and wins more for its seat alone: no effect of a."""
    g = 6000
    rng = np.random.default_rng(1)
    x = np.zeros((g, 4, 2), np.uint16)
    x[:, 0, 0] = 2 + rng.integers(0, 2, g)
    x[:, 1:, 0] = rng.integers(0, 2, (g, 3))
    x[..., 1] = 4 - x[..., 0]
    p = np.array([0.4, 0.2, 0.2, 0.2])
    win = np.zeros((g, 4), bool)
    win[np.arange(g), rng.choice(4, g, p=p)] = True
    e = components.estimate(components.arrays_blocks(x, win), ["a", "b"], 4, "seat")
    a = e.kinds[0]
    assert a.low <= 0 <= a.high and not e.found()
    assert a.iwd > 0.05  # 17lands' unadjusted comparison mistakes the seat for the card


def test_datasets_read_in_blocks_give_the_same_numbers(tmp_path):
    sy.write_dealt_dataset(tmp_path / "a", SEATS4, PLANTED, 3000, parts=4)
    cfg = load([tmp_path / "a"])[0]
    whole = components.component_effects(cfg)
    small = components.component_effects(cfg, rows_per_block=500)
    parts = [sy.play_dealt(SEATS4, PLANTED, 750, seed=0, first_game=a) for a in range(0, 3000, 750)]
    r = {k: np.concatenate([p[k] for p in parts]) for k in ("dealt", "win")}
    assert whole.deals == 3000 and whole.rows == 12000
    for a, b in zip(whole.kinds, small.kinds):
        assert a.effect == pytest.approx(b.effect, abs=1e-12) and a.se == pytest.approx(b.se, rel=1e-9)
    swap = whole.kinds[-1]
    held = r["dealt"][..., -1]
    assert swap.dealt_share == pytest.approx((held > 0).mean())
    assert swap.win_dealt == pytest.approx(r["win"][held > 0].mean())
    assert swap.iwd == pytest.approx(r["win"][held > 0].mean() - r["win"][held == 0].mean())


def test_every_seating_of_a_deal_is_one_cluster(tmp_path):
    """Two datasets of the same seed play the same deals: clustered by deal, not by game."""
    for d in ("a", "b"):
        sy.write_dealt_dataset(tmp_path / d, SEATS4, NULL, 1000, parts=3)
    cfg = load([tmp_path / "a", tmp_path / "b"])[0]
    both = components.component_effects(cfg, rows_per_block=300)
    one = components.component_effects(load([tmp_path / "a"])[0])
    assert both.deals == 1000 and both.rows == 8000
    k = both.estimated()[0]
    j = one.estimated()[0]
    assert k.effect == pytest.approx(j.effect)
    assert k.se == pytest.approx(j.se, rel=0.01)  # the copy adds no information


def test_a_dataset_without_the_column_has_no_components(tmp_path):
    sy.write_dataset(tmp_path / "plain", SEATS4, ["x"] * 4, {"x": 0.0}, 200)
    cfg = load([tmp_path / "plain"])[0]
    assert components.dealt_kinds(cfg) is None and components.component_effects(cfg) is None
    md = render.to_markdown(render.build([tmp_path / "plain"]))
    assert "Components" not in md


def test_a_wrong_list_length_is_one_line(tmp_path):
    d = sy.write_dealt_dataset(tmp_path / "a", SEATS4, NULL, 100)
    m = json.loads((d / "_manifest.json").read_text())
    m["dealt_kinds"] = m["dealt_kinds"][:-1]
    (d / "_manifest.json").write_text(json.dumps(m))
    with pytest.raises(DatasetError, match=r"holds lists of 12 to 12 counts, but its manifest names 11"):
        components.component_effects(load([d])[0])


def test_tourney_report_shows_components_in_html_and_markdown(tmp_path):
    sy.write_dealt_dataset(tmp_path / "a", SEATS4, PLANTED, 3000, parts=2)
    res = CliRunner().invoke(app, ["report", str(tmp_path / "a"), "--out", str(tmp_path / "r.html")])
    assert res.exit_code == 0, res.output
    page = (tmp_path / "r.html").read_text()
    assert "Components: what being dealt each kind is worth" in page
    assert "Holding one more Swap (in place of an average card) raises a seat&#x27;s win rate by" in page
    assert 'alt="component effects forest plot"' in page
    md = render.to_markdown(render.build([tmp_path / "a"]))
    section = md[md.index("### Components"):].split("\n#")[0]
    rows = [line for line in section.splitlines() if line.startswith("| ")][1:]
    assert rows[0].startswith("| **Swap** |") and len(rows) == 40  # ranked, largest first



def test_the_estimates_and_clustered_errors_are_statsmodels():
    """The same contrasts and CR1 cluster-robust errors as statsmodels' OLS (a full-rank
    parametrisation: the last kind is the reference, which leaves every contrast unchanged)."""
    import statsmodels.api as sm  # a test dependency (pyproject's "test" extra)

    deck = sy.Deck(["a", "b", "c", "d"], [2, 3, 4, 3], {"a": 0.05})
    r = sy.play_dealt(SEATS4, deck, 800, seed=3)
    e = components.estimate(components.arrays_blocks(r["dealt"], r["win"], block_games=100), deck.kinds, 4, "seat")
    x = r["dealt"].reshape(-1, 4).astype(float)
    design = np.hstack([x[:, :3], np.eye(4)[np.tile(np.arange(4), 800)]])
    fit = sm.OLS(r["win"].reshape(-1).astype(float), design).fit(
        cov_type="cluster", cov_kwds={"groups": np.repeat(np.arange(800), 4)})
    share = x.sum(axis=0) / x.sum()
    for j, k in enumerate(e.kinds):
        c = np.zeros(7)
        c[:3] = -share[:3]
        if j < 3:
            c[j] += 1
        t = fit.t_test(c)
        assert k.effect == pytest.approx(float(np.squeeze(t.effect)), abs=1e-12)
        assert k.se == pytest.approx(float(np.squeeze(t.sd)), rel=1e-9)
