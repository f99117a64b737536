"""The report's figures: matplotlib (Agg, no display), returned as PNG bytes for embedding."""
from __future__ import annotations

import io

import numpy as np

from .labels import fit

_COLORS = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f"]


def _plt():
    import matplotlib

    matplotlib.use("Agg", force=True)
    import matplotlib.pyplot as plt

    return plt


def _png(fig) -> bytes:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=90, bbox_inches="tight", metadata={"Software": None})
    _plt().close(fig)
    return buf.getvalue()


def _xerr(values, lows, highs) -> np.ndarray:
    """The error bars of intervals around values (0 where an end is unknown)."""
    v = np.asarray(values, float)
    err = np.vstack([v - np.asarray(lows, float), np.asarray(highs, float) - v])
    return np.where(np.isfinite(err), np.maximum(err, 0), 0)


def _finish(ax, y, labels, title: str, xlabel: str) -> None:
    ax.set_yticks(y)
    ax.set_yticklabels(labels)
    ax.set_xlabel(xlabel)
    ax.set_title(title, fontsize=10)
    ax.grid(axis="x", alpha=0.3)


def intervals(labels, values, lows, highs, title: str, xlabel: str, reference: float | None = None) -> bytes:
    """Horizontal point-and-interval chart (win rates, balance figures)."""
    plt = _plt()
    n = len(labels)
    fig, ax = plt.subplots(figsize=(6.4, 0.45 * n + 1.1))
    y = np.arange(n)[::-1]
    v = np.asarray(values, float)
    ax.errorbar(v, y, xerr=_xerr(v, lows, highs), fmt="o", color=_COLORS[0], ecolor="#555", capsize=4)
    if reference is not None:
        ax.axvline(reference, color="#999", linestyle="--", linewidth=1)
    ax.set_yticks(y)
    ax.set_yticklabels([fit(x) for x in labels])
    ax.set_xlabel(xlabel)
    ax.set_title(title, fontsize=10)
    ax.grid(axis="x", alpha=0.3)
    return _png(fig)


def distributions(series: dict[str, np.ndarray], title: str, xlabel: str, integer: bool = True) -> bytes:
    """Overlaid step histograms (share of games), one per named series."""
    plt = _plt()
    fig, ax = plt.subplots(figsize=(6.4, 3.0))
    lo = min(float(np.min(x)) for x in series.values() if len(x))
    hi = max(float(np.max(x)) for x in series.values() if len(x))
    if integer and hi - lo <= 120:
        bins = np.arange(lo - 0.5, hi + 1.5, 1.0)
    else:
        bins = np.linspace(lo, hi if hi > lo else lo + 1, 60)
    for i, (name, x) in enumerate(series.items()):
        if len(x) == 0:
            continue
        counts, edges = np.histogram(x, bins=bins)
        ax.stairs(counts / len(x), edges, label=fit(name), color=_COLORS[i % len(_COLORS)], linewidth=1.4)
    ax.set_xlabel(xlabel)
    ax.set_ylabel("share")
    ax.set_title(title, fontsize=10)
    if len(series) > 1:
        ax.legend(fontsize=8)
    ax.grid(alpha=0.3)
    return _png(fig)


def history(values: list[float], start: float, title: str, ylabel: str) -> bytes:
    """A tuning run's trials in order (points) and the best value so far (a step line)."""
    plt = _plt()
    fig, ax = plt.subplots(figsize=(6.4, 3.0))
    v = np.asarray(values, float)
    x = np.arange(len(v))
    ax.plot(x, v, "o", color=_COLORS[0], markersize=3.5, alpha=0.6, label="trial")
    ax.step(x, np.maximum.accumulate(v), where="post", color=_COLORS[1], linewidth=1.6, label="best so far")
    ax.axhline(start, color="#999", linestyle="--", linewidth=1, label="starting setting")
    ax.set_xlabel("trial")
    ax.set_ylabel(ylabel)
    ax.set_title(title, fontsize=10)
    ax.legend(fontsize=8)
    ax.grid(alpha=0.3)
    return _png(fig)


def scatter(x: list[float], y: list[float], best: float, title: str, xlabel: str, ylabel: str) -> bytes:
    """Trial value against one parameter's value, the best setting marked."""
    plt = _plt()
    fig, ax = plt.subplots(figsize=(3.2, 2.6))
    ax.plot(x, y, "o", color=_COLORS[0], markersize=3, alpha=0.6)
    ax.axvline(best, color=_COLORS[1], linewidth=1.2)
    ax.set_xlabel(xlabel, fontsize=8)
    ax.set_ylabel(ylabel, fontsize=8)
    ax.set_title(title, fontsize=9)
    ax.tick_params(labelsize=7)
    ax.grid(alpha=0.3)
    return _png(fig)


def grouped_intervals(labels, groups: dict, title: str, xlabel: str, reference: float | None = None) -> bytes:
    """Several point-and-interval series over the same labels (seat win rates at each level of
    play): ``groups`` maps a series name to ``(values, lows, highs)``."""
    plt = _plt()
    n, k = len(labels), max(1, len(groups))
    fig, ax = plt.subplots(figsize=(6.4, 0.35 * n * k + 1.3))
    y = np.arange(n)[::-1].astype(float)
    step = 0.7 / k
    for i, (name, (values, lows, highs)) in enumerate(groups.items()):
        color = _COLORS[i % len(_COLORS)]
        ax.errorbar(np.asarray(values, float), y + 0.35 - step * (i + 0.5), xerr=_xerr(values, lows, highs),
                    fmt="o", color=color, ecolor=color, capsize=3, label=str(name))
    if reference is not None:
        ax.axvline(reference, color="#999", linestyle="--", linewidth=1, label="even share")
    _finish(ax, y, labels, title, xlabel)
    ax.legend(fontsize=8, loc="best")
    return _png(fig)


def before_after(labels, before, after, title: str, xlabel: str, lows=None, highs=None,
                 names=("default rules", "with the option")) -> bytes:
    """One arrow per row from its value before (grey) to its value after (coloured), with the
    after value's interval: the balance figure under the default rules and under each option
    (``names``: the legend's words for before and after)."""
    plt = _plt()
    n = len(labels)
    fig, ax = plt.subplots(figsize=(6.4, 0.45 * n + 1.2))
    y = np.arange(n)[::-1]
    b, a = np.asarray(before, float), np.asarray(after, float)
    for yi, bi, ai in zip(y, b, a):
        color = _COLORS[2] if ai > bi else _COLORS[1]
        ax.annotate("", xy=(ai, yi), xytext=(bi, yi), arrowprops=dict(arrowstyle="->", color=color, lw=1.6))
    ax.plot(b, y, "o", color="#999", label=names[0])
    if lows is not None and highs is not None:
        ax.errorbar(a, y, xerr=_xerr(a, lows, highs), fmt="none", ecolor="#555", capsize=3)
    ax.plot(a, y, "o", color=_COLORS[0], label=names[1])
    _finish(ax, y, labels, title, xlabel)
    ax.legend(fontsize=8, loc="best")
    return _png(fig)


def forest(labels, values, lows, highs, outcomes, title: str, xlabel: str) -> bytes:
    """A forest plot: one row per estimate with its interval, coloured by its outcome (a finding
    red or green by its sign, everything else grey), a line at 0. Values in pp."""
    plt = _plt()
    n = len(labels)
    fig, ax = plt.subplots(figsize=(6.4, 0.32 * n + 1.2))
    y = np.arange(n)[::-1]
    v = np.asarray(values, float)
    colors = [(_COLORS[2] if x > 0 else _COLORS[1]) if o == "finding" else "#888" for x, o in zip(v, outcomes)]
    err = _xerr(v, lows, highs)
    for i in range(n):
        ax.errorbar(v[i], y[i], xerr=err[:, i:i + 1], fmt="o", color=colors[i], ecolor=colors[i], capsize=3)
    ax.axvline(0, color="#999", linestyle="--", linewidth=1)
    _finish(ax, y, [fit(x) for x in labels], title, xlabel)
    return _png(fig)


def pareto(x, y, colour, front, labels: dict, marked: int | None, title: str, xlabel: str, ylabel: str,
           colour_label: str, marked_label: str = "start", unknown_label: str | None = None) -> bytes:
    """Points at (``x``, ``y``) coloured by a third value ``colour`` (grey where it is unknown,
    None or nan: ``unknown_label`` in the legend), the points of ``front`` (indices) ringed, the
    point ``marked`` drawn as a star (the starting point), and the points of ``labels`` ({index:
    text}) labelled: a Pareto front with a third value shown."""
    plt = _plt()
    fig, ax = plt.subplots(figsize=(6.4, 4.2))
    x, y = np.asarray(x, float), np.asarray(y, float)
    c = np.array([np.nan if v is None else v for v in colour], float)
    known = np.isfinite(c)
    if (~known).any():
        ax.plot(x[~known], y[~known], "o", color="#bbb", markersize=5, label=unknown_label or f"{colour_label} unknown")
    if known.any():
        dots = ax.scatter(x[known], y[known], c=c[known], cmap="viridis", s=30, zorder=3)
        fig.colorbar(dots, ax=ax).set_label(colour_label)
    if len(front):  # ringed, not joined: a front of more than these two objectives is no curve here
        ax.plot(x[front], y[front], "o", color=_COLORS[1], markerfacecolor="none", markersize=11,
                markeredgewidth=1.4, label="Pareto front", zorder=4)
    if marked is not None:
        ax.plot([x[marked]], [y[marked]], "*", color="#000", markersize=14, label=marked_label, zorder=5)
    ax.margins(x=0.2, y=0.1)  # room for the labels
    middle = (x.min() + x.max()) / 2 if len(x) else 0.0
    for i, text in labels.items():  # each label towards the middle: never under the colour bar
        left = x[i] > middle
        ax.annotate(fit(text), (x[i], y[i]), textcoords="offset points", xytext=(-6 if left else 6, 6),
                    ha="right" if left else "left", fontsize=8, fontweight="bold", zorder=6)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title, fontsize=10)
    ax.legend(fontsize=8, loc="best")
    ax.grid(alpha=0.3)
    return _png(fig)
