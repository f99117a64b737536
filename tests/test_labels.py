"""Long strategy labels on plots (issue 30.4): wrapped and elided, so a 130-character setting
neither widens the figure nor runs off it."""
import io

from PIL import Image

from tourney_sim.reports import plots
from tourney_sim.reports.labels import PLOT_LINES, PLOT_WIDTH, fit

LONG = ("guard:card_worth=0.03105,prize_worth=1.488,place_penalty=0.4321,sword_weight=0.2468,"
        "low_sword_bonus=0.1357,threat_weight=1.2345,exposure=0.3333")


def test_fit_keeps_short_labels_and_wraps_then_elides_long_ones():
    assert fit("guard@best") == "guard@best" and fit(3) == "3"
    lines = fit(LONG).split("\n")
    assert len(lines) == PLOT_LINES and all(len(line) <= PLOT_WIDTH for line in lines)
    assert lines[0].startswith("guard:card_worth=0.03105,") and lines[-1].endswith("…")


def test_a_long_label_does_not_widen_the_plot():
    def width(label):
        png = plots.intervals([label, "capture-max"], [0.6, 0.4], [0.55, 0.35], [0.65, 0.45], "t", "win rate")
        return Image.open(io.BytesIO(png)).size[0]

    assert width(LONG) <= width("x" * PLOT_WIDTH) + 10
