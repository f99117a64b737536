"""What the report knows about particular games beyond their manifests (presentation only).

The report is generic: a game's own columns come from the manifest (``columns``) and are
summarised by what the data show (0/1 flags as rates, per-game values as distributions, counts
as means by seat and strategy). A game listed here may add:

- ``points``: columns that are points of the score (the report shows each as a share of all
  points and says whether together they make up the whole score);
- ``points_title``: the heading of that table;
- ``study``: what ``tourney study`` needs to know: ``values`` (the values a study tries for a
  number option: a match's length is not a yes/no), ``players`` (player counts at which an
  option matters at all), ``search_scale`` (the share of a budget's search deals the game plays:
  its search player is slower, and standard must fit in 30 minutes).

A game may also write a column ``leader_at_two_thirds`` (the seat leading when two thirds of the
game's decisions are made; -1 when nobody leads): the report then shows how often that leader
wins (decisiveness). Without it the report says "not recorded for this game".
"""
from __future__ import annotations

HINTS: dict[str, dict] = {
    "cardavia": {
        "points": ("scua", "picada", "simili", "quadriglia", "most_cards", "most_swords", "mata",
                   "ten_of_coins", "fante_of_cups", "napula"),
        "points_title": "bonuses and prizes as a share of points",
        "study": {"values": {"match_deals": (4,)}},  # CA-6: a match of four deals, each seat dealing once
    },
    "colleagues": {
        "study": {"players": {"grey_dismissal": (2,)},  # CL-11: the Grey Entity sits only at 2 players
                  "search_scale": 0.4},
    },
    "companeros": {
        "study": {"values": {"match_games": (2,)}},  # CO-5: a match of two, the leader starting the second
    },
    "partners": {
        "study": {"search_scale": 0.5},
    },
}


def hints_for(game: str) -> dict:
    return HINTS.get(game, {})
