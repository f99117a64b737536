"""Cardavia in words and JSON: moves, positions and chance events, named as the rules file names them.

Pure Python over the state array laid out in ``rules.py``; nothing here is compiled. The same
spelling is written by the reference engine (``reference.py``: ``Game.action`` and its chance
events), so a trace's actions and chance events can be checked by either.

Cards, seats, teams
-------------------
A card is ``{"rank": RANK, "suit": SUIT}`` with RANK one of ``"Asso"``, ``"2"`` .. ``"10"``,
``"Fante"``, ``"Cavallo"``, ``"Re"`` and SUIT one of ``"swords"``, ``"cups"``, ``"coins"``,
``"clubs"`` (rule 2). Seats are 0..3 and play in that order (CA-1); a team is a number: team 0 is
seats {0, 2}, team 1 seats {1, 3} (a seat's team is ``seat % 2``). Lists of cards are written in
the kernel's card order: by rank (Asso first, Re last), then swords, cups, coins, clubs.

Moves (``move_to_json``; ``describe_move`` says the same in words)
------------------------------------------------------------------
- Place only (rule 3: the card joins the table)::

      {"action": "place", "card": {"rank": "7", "suit": "swords"}}

- A capture: the played card, the table cards it takes (ascending), and the capture bonuses it
  earns (rule 4, in this order, each at most once: ``"scua"``, ``"picada"``, ``"simili"``,
  ``"quadriglia"``; ``[]`` for none)::

      {"action": "capture", "card": {"rank": "7", "suit": "swords"},
       "captured": [{"rank": "3", "suit": "coins"}, {"rank": "4", "suit": "clubs"}],
       "bonuses": ["scua"]}

- The last play of a deal (its turn 47) also tells the deal's end (rule 5), under
  ``"end_of_deal"`` in a match of K > 1 deals (CA-6) and under ``"end_of_game"`` in a one-deal
  game (where that deal's end is the game's)::

      "end_of_deal": {"deal": 0, "table_to": 1,
                      "table_cards": [{"rank": "5", "suit": "cups"}, {"rank": "Re", "suit": "coins"}],
                      "columns": [{"cards_taken": 26, "swords": 7, "scua": 1, "picada": 0,
                                   "simili": 0, "quadriglia": 1, "most_cards": 0, "most_swords": 1,
                                   "mata": 1, "ten_of_coins": 0, "fante_of_cups": 1, "napula": 0},
                                  {...team 1...}],
                      "points": [5, 4], "match": [5, 4], "next_starter": 1}

  ``deal``: the deal that ends (0-based, CA-6's k); ``table_to``: the team the cards left on the
  table go to (the last capturer, no bonus), null when nobody captured in the deal (CA-3: they
  stay unclaimed) or none are left; ``table_cards``: those cards (``[]`` when ``table_to`` is
  null); ``columns``: the deal's result columns per team after it is scored (cards and swords in
  the pile, the deal's bonus counts, the prizes and Napula); ``points``: the deal's total per
  team (bonuses + prizes + Napula); ``match``: the match score per team after it (equal to
  ``points`` in a one-deal game); ``next_starter``: the seat that starts the next deal, null after
  the last (the next deal is a new shuffle: a ``deal`` chance event).

Nothing in Cardavia is a forced choice or hidden in a move: every turn is exactly one of these.

Positions (``describe_state``; ``load_state`` is its inverse)
------------------------------------------------------------
A complete position, JSON-serialisable; keys marked *derived* follow from the others and may be
left out of a position given to ``load_state`` (when given they must agree):

- ``players`` (derived): 4. ``teams`` (derived): ``[[0, 2], [1, 3]]``.
- ``options``: the rule options the state holds: ``single_match_forced``, ``last_sweep_scores``,
  ``napula_beyond_10`` (true/false, CA-5) and ``match_deals`` (K, 1..20, CA-6); and
  ``components``, only when the component table in force differs from the defaults: the
  entries that differ, keyed as in ``components.toml`` (e.g. ``{"prizes": {"most_cards": 3}}``).
- ``deal``: the deal of the match in play, 0..K-1. ``dealer`` (derived): its dealer, seat
  (3 + deal) mod 4; ``starter`` (derived): the seat that started it, deal mod 4.
- ``turn``: turns of this deal played, 0..47 while the game goes on; 48 in the final position
  (the end of the match's last deal).
- ``to_move`` (derived): the seat to play, (starter + turn) mod 4; -1 once the game is over.
- ``hands``: four lists of cards, seat 0..3 (each holds 12 less the turns it has had in the deal).
- ``table``: the cards face up on the table.
- ``piles``: the two teams' capture piles (team 0, team 1): every card the team has taken in
  this deal, the played cards included. Every one of the 52 cards is in exactly one hand, the
  table or one pile.
- ``last_placed``: the card placed on the previous turn of this deal (the one a Picada takes),
  null if that turn was a capture or no turn of the deal has been played.
- ``last_capturer``: the team that captured last in this deal (it takes the table at the end),
  null if nobody has.
- ``bonuses``: per team, this deal's capture bonuses so far: ``{"scua", "picada", "simili",
  "quadriglia"}`` counts (CA-4).
- ``prizes`` (derived): per team, the deal's prize points ``{"most_cards", "most_swords", "mata",
  "ten_of_coins", "fante_of_cups", "napula"}``: all 0 until the deal's end (rule 5), so non-zero
  only in the final position. ``deal_points`` (derived): per team, the deal's total (0 until its
  end).
- ``match_columns``: per team, the result columns summed over the match's finished deals
  (``cards_taken``, ``swords``, the four bonuses, the six prizes; at the end including the last
  deal). ``match_score`` (derived): per team, the points it started with (the seat compensation,
  components ``compensation.points``; 0 in the shipped game) plus the finished deals' totals (the
  sum of the bonus and prize columns).
- ``leader_at_two_thirds``: the team ahead on match points after two thirds of the match's turns
  (32 K of 48 K; the ``leader_at_two_thirds`` result column): null before that turn, then 0 or 1,
  or -1 if the teams were level.

An example (deal 1 of a two-deal match, seat 1 started it, 12 turns played; lists shortened)::

    {"players": 4, "teams": [[0, 2], [1, 3]],
     "options": {"single_match_forced": false, "last_sweep_scores": true,
                 "napula_beyond_10": false, "match_deals": 2},
     "deal": 1, "dealer": 0, "starter": 1, "turn": 12, "to_move": 1,
     "hands": [[9 cards], [9 cards], [9 cards], [9 cards]],
     "table": [{"rank": "3", "suit": "cups"}, ...], "piles": [[...], [...]],
     "last_placed": {"rank": "3", "suit": "cups"}, "last_capturer": 0,
     "bonuses": [{"scua": 0, "picada": 1, "simili": 0, "quadriglia": 0}, {...}],
     "prizes": [{"most_cards": 0, ...}, {...}], "deal_points": [0, 0],
     "match_score": [7, 4], "match_columns": [{"cards_taken": 30, ...}, {...}],
     "leader_at_two_thirds": null}

No shuffled deck waits in the state: each deal gives out all 52 cards, and the next deal of a
match is a new shuffle (a chance event). The state's scratch region (``SCRATCH_FIELDS``: the
kernel's work space for dealing and listing moves) is not part of the position; ``load_state``
leaves it zero and recomputes what the kernel derives (the table's bit masks and counts, each
card's public place, the piles' card and sword counts). It refuses a malformed or impossible
position with a one-line :class:`PositionError` saying what is wrong and what is allowed: a
missing or unknown key, a value of the wrong type, a card that is no card, a card twice or
nowhere, a hand of the wrong size for the turn, a seat, team, turn, deal or count out of range,
a pile without a capture, a ``last_placed`` card not on the table, a derived key that disagrees.

Chance events (the reference engine's ``chance.event`` calls)
-------------------------------------------------------------
- ``"deal"``: the deal of each deal of the match (rule 2, CA-6), at its start, before its first
  turn: the 4 cards face up on the table and the 12 cards of each seat's hand (seat 0..3). The
  shuffle from the chance stream writes each list in card order; any order is accepted, and
  together they are all 52 cards, each once::

      {"deal": {"table": [{"rank": "2", "suit": "cups"}, {"rank": "9", "suit": "clubs"},
                          {"rank": "Fante", "suit": "swords"}, {"rank": "Re", "suit": "coins"}],
                "hands": [[12 cards of seat 0], [... seat 1], [... seat 2], [... seat 3]]}}

  It is the only chance event: a match of K deals has K of them, one at the start of the game and
  one after the last play of each deal but the last.
"""
from __future__ import annotations

import numpy as np

from ...seeding import new_stream
from ..spec import PositionError, RuleError, team_of

from .rules import (
    apply_move, card_of, CARD_PUB, COMPENSATION, COMPONENTS, FANTE_OF_CUPS, H_DEAL_NO, H_DEAL_STARTER, H_LAST_CAPTURER,
    H_LAST_PLACED, H_LAST_SWEEP, H_MATCH_DEALS, H_NAPULA10, H_PLAYERS, H_SINGLE_FORCED, H_TABLE_HI,
    H_TABLE_LO, H_TABLE_N, H_TABLE_NUMERALS, H_TO_MOVE, H_TURN, HAND_SIZE, LEADER_TURN, MASK52,
    MATA, MATCH_SCORE, MATCH_STATS, MAX_MATCH_DEALS, MOVE_SHIFT, N_CARDS, N_NUMERALS, N_STATS,
    N_POINTS, PLAYERS, point_values, POINT_KEYS, POINTS, PRIVATE, PRIVATE_SIZE, PUB_TABLE, PUB_TAKEN, rank_of, RE, SCRATCH, SPLIT, STAT_CARDS,
    STAT_LEADER, STAT_MOST_CARDS, STAT_NAPULA, STAT_SCUA, STATE_SIZE, suit_of, SWORDS, TABLE,
    TEAM_SCORE, TEAM_STATS, TEN_OF_COINS, TURNS,
)


TEAM_NAMES = ("{0,2}", "{1,3}")


from .rules import RANK_NAMES, SUIT_NAMES  # noqa: E402  (declared with the rules' DEALT_KINDS)

#: the capture bonuses (rule 4) in the order the state counts them (STAT_SCUA onwards)
BONUS_NAMES = ("scua", "picada", "simili", "quadriglia")
#: the deal's prizes and Napula (rule 5) in the state's order (after the bonuses)
PRIZE_NAMES = ("most_cards", "most_swords", "mata", "ten_of_coins", "fante_of_cups", "napula")
#: a team's result columns of one deal, in the state's order (TEAM_STATS / MATCH_STATS from 0;
#: the leader slot, STAT_LEADER, follows them)
COLUMN_NAMES = ("cards_taken", "swords") + BONUS_NAMES + PRIZE_NAMES
assert ([COLUMN_NAMES.index(name) for name in ("cards_taken", "scua", "most_cards", "napula")]
        == [STAT_CARDS, STAT_SCUA, STAT_MOST_CARDS, STAT_NAPULA] and len(COLUMN_NAMES) == STAT_LEADER), \
    "COLUMN_NAMES must follow the state's STAT_* order"
#: the most a team can have of each column in one deal, and the most both teams together can:
#: 24 turns a team, one bonus of a kind a turn; each prize goes to one team at most
#: (prize columns: times the prize's points, the Napula's per card; the component table)
COLUMN_LIMITS = {"cards_taken": (N_CARDS, N_CARDS), "swords": (13, 13),
                 **{name: (TURNS // 2, TURNS) for name in BONUS_NAMES},
                 "most_cards": (1, 1), "most_swords": (1, 1), "mata": (1, 1), "ten_of_coins": (1, 1),
                 "fante_of_cups": (1, 1), "napula": (RE, RE)}

#: regions of the state that are the kernel's work space, not part of the position (name,
#: start, stop): ``load_state`` leaves them zero, and a round trip may differ only there
SCRATCH_FIELDS = (("scratch", SCRATCH, STATE_SIZE),)

#: position keys load_state needs, and the derived ones it checks when given
POSITION_KEYS = ("options", "deal", "turn", "hands", "table", "piles", "last_placed", "last_capturer",
                 "bonuses", "match_columns", "leader_at_two_thirds")
DERIVED_KEYS = ("players", "teams", "dealer", "starter", "to_move", "prizes", "deal_points",
                "match_score")
_KNOWN_KEYS = frozenset(POSITION_KEYS + DERIVED_KEYS)
OPTION_NAMES = ("single_match_forced", "last_sweep_scores", "napula_beyond_10", "match_deals")


#: each card's (rank name, suit name), by card id
_CARD_NAMES = [(RANK_NAMES[rank_of(c)], SUIT_NAMES[suit_of(c)]) for c in range(N_CARDS)]
_CARD_IDS = {names: c for c, names in enumerate(_CARD_NAMES)}


def card_name(card: int) -> str:
    return "{} of {}".format(*_CARD_NAMES[card])


def card_json(card: int) -> dict:
    """A card as the JSON of moves, positions and chance events spells it."""
    rank, suit = _CARD_NAMES[card]
    return {"rank": rank, "suit": suit}


def cards_json(cards) -> list[dict]:
    """A list of cards (ids) as JSON."""
    names = _CARD_NAMES
    return [{"rank": names[c][0], "suit": names[c][1]} for c in cards]


def card_from_json(value) -> int | None:
    """The card id of a card spelled as :func:`card_json` spells it; None if ``value`` is none."""
    try:
        if len(value) == 2:
            return _CARD_IDS.get((value["rank"], value["suit"]))
    except (TypeError, KeyError, IndexError):  # no dict, or one without those keys
        pass
    return None


def decode_move(move: int) -> tuple[int, list[int]]:
    """(played card, captured card ids ascending) of a move code."""
    move = int(move)
    mask = move & MASK52
    taken = []
    while mask:
        low = mask & -mask  # the lowest captured card's bit
        taken.append(low.bit_length() - 1)
        mask ^= low
    return move >> MOVE_SHIFT, taken


def move_bonuses(state: np.ndarray, move: int) -> list[str]:
    """The capture bonuses ``move`` earns when played in ``state``."""
    card, taken = decode_move(move)
    if not taken:
        return []
    bonuses = []
    if len(taken) == int(state[H_TABLE_N]) and (state[H_LAST_SWEEP] or state[H_TURN] != TURNS - 1):
        bonuses.append("scua")
    if taken == [int(state[H_LAST_PLACED])]:
        bonuses.append("picada")
    if all(suit_of(c) == suit_of(card) for c in taken):
        bonuses.append("simili")
    if len(taken) >= 3:
        bonuses.append("quadriglia")
    return bonuses


def _team_columns(state: list, region: int, team: int) -> dict:
    """A team's result columns (COLUMN_NAMES) as the state (``tolist()``) holds them in ``region``
    (TEAM_STATS or MATCH_STATS)."""
    base = region + team * N_STATS
    return dict(zip(COLUMN_NAMES, state[base:base + len(COLUMN_NAMES)]))


def deal_end(state: np.ndarray, move: int) -> dict | None:
    """What the end of the deal brings when ``move`` is its last play, else None: ``deal``
    (0-based, CA-6's k), ``table_to`` (the team the cards left on the table go to, None if nobody
    captured in the deal or none are left) and ``table_cards`` (those cards), the deal's result
    ``columns`` and ``points`` per team, the ``match`` score after it per team, and
    ``next_starter`` (None after the last deal). The scoring is the kernel's: the move is played
    on a copy of the state and the deal read from what it adds to the match (``MATCH_STATS``)."""
    if int(state[H_TO_MOVE]) < 0 or int(state[H_TURN]) != TURNS - 1:
        return None
    card, taken = decode_move(move)
    table = [int(c) for c in state[TABLE:TABLE + state[H_TABLE_N]]]
    if taken:
        capturer = team_of(int(state[H_TO_MOVE]), True)
        left = [c for c in table if c not in taken]
    else:
        capturer = int(state[H_LAST_CAPTURER])
        left = sorted(table + [card])
    claimed = capturer >= 0 and bool(left)
    after = state.copy()
    # a throwaway stream for the copy's next deal: only what the deal added to the match is read
    apply_move(after, np.int64(move), new_stream(0, 0, 0))
    before, after = state.tolist(), after.tolist()
    deal, k = before[H_DEAL_NO], before[H_MATCH_DEALS]
    columns = []
    for team in range(2):
        was, now = _team_columns(before, MATCH_STATS, team), _team_columns(after, MATCH_STATS, team)
        columns.append({name: now[name] - was[name] for name in COLUMN_NAMES})
    return {"deal": deal, "table_to": capturer if claimed else None,
            "table_cards": cards_json(left) if claimed else [],
            "columns": columns,
            "points": [after[MATCH_SCORE + t] - before[MATCH_SCORE + t] for t in range(2)],
            "match": after[MATCH_SCORE:MATCH_SCORE + 2],
            "next_starter": (deal + 1) % PLAYERS if deal + 1 < k else None}


def describe_move(state: np.ndarray, move: int) -> str:
    card, taken = decode_move(move)
    if not taken:
        text = f"places {card_name(card)}"
    else:
        text = f"plays {card_name(card)}, takes {' + '.join(card_name(c) for c in taken)}"
        bonuses = move_bonuses(state, move)
        if bonuses:
            text += " (" + ", ".join(bonuses) + ")"
    k = int(state[H_MATCH_DEALS])
    end = deal_end(state, move) if k > 1 else None
    if end is not None:  # CA-6: the deal boundary of a match
        text += f" | end of deal {end['deal'] + 1} of {k}: "
        if end["table_to"] is not None:
            text += f"the table's {len(end['table_cards'])} cards to team {TEAM_NAMES[end['table_to']]}, "
        (a, b), (ma, mb) = end["points"], end["match"]
        text += f"deal {a}-{b}, match {ma}-{mb} (team {{0,2}}-{{1,3}})"
        if end["next_starter"] is not None:
            s = end["next_starter"]
            text += (f" | deal {end['deal'] + 2} of {k}: new shuffle, seat {(s + PLAYERS - 1) % PLAYERS} "
                     f"deals, seat {s} starts")
    return text


def end_key(match_deals: int) -> str:
    """The key under which the last play of a deal tells the deal's end (module docstring)."""
    return "end_of_deal" if match_deals > 1 else "end_of_game"


def move_to_json(state: np.ndarray, move: int) -> dict:
    """The move spelled out completely (see "Moves" in the module docstring)."""
    card, taken = decode_move(move)
    if not taken:
        out = {"action": "place", "card": card_json(card)}
    else:
        out = {"action": "capture", "card": card_json(card), "captured": cards_json(taken),
               "bonuses": move_bonuses(state, move)}
    end = deal_end(state, move)
    if end is not None:
        out[end_key(int(state[H_MATCH_DEALS]))] = end
    return out


# ----------------------------------------------------------------------------- positions
def _hand(state: list, seat: int) -> list[int]:
    base = PRIVATE + seat * PRIVATE_SIZE
    return state[base + 1:base + 1 + state[base]]


def _piles(state: list) -> list[list[int]]:
    """The card ids in each team's capture pile, ascending."""
    piles = [[], []]
    for card, where in enumerate(state[CARD_PUB:CARD_PUB + N_CARDS]):
        if where >= PUB_TAKEN:
            piles[where - PUB_TAKEN].append(card)
    return piles


def _turns_played(seat: int, starter: int, turn: int) -> int:
    """Turns ``seat`` has had after ``turn`` turns of a deal started by ``starter`` (CA-1)."""
    return (turn - (seat - starter) % PLAYERS + PLAYERS - 1) // PLAYERS


def _reaches_two_thirds(deal: int, turn: int, match_deals: int) -> bool:
    """Whether the two-thirds turn of the match (LEADER_TURN * K) has been played."""
    return deal * TURNS + turn >= LEADER_TURN * match_deals


def describe_state(state: np.ndarray) -> dict:
    """The complete position, named as the rules file names things (module docstring)."""
    state = state.tolist()  # plain ints, read quickly
    deal, turn, k = state[H_DEAL_NO], state[H_TURN], state[H_MATCH_DEALS]
    last_placed, last_capturer = state[H_LAST_PLACED], state[H_LAST_CAPTURER]
    deal_columns = [_team_columns(state, TEAM_STATS, t) for t in range(2)]
    leader = state[MATCH_STATS + STAT_LEADER]
    return {
        "players": PLAYERS, "teams": [[0, 2], [1, 3]],
        "options": {"single_match_forced": bool(state[H_SINGLE_FORCED]),
                    "last_sweep_scores": bool(state[H_LAST_SWEEP]),
                    "napula_beyond_10": bool(state[H_NAPULA10]),
                    "match_deals": k, **_changed_components(state)},
        "deal": deal, "dealer": (deal + PLAYERS - 1) % PLAYERS, "starter": state[H_DEAL_STARTER],
        "turn": turn, "to_move": state[H_TO_MOVE],
        "hands": [cards_json(_hand(state, p)) for p in range(PLAYERS)],
        "table": cards_json(state[TABLE:TABLE + state[H_TABLE_N]]),
        "piles": [cards_json(pile) for pile in _piles(state)],
        "last_placed": card_json(last_placed) if last_placed >= 0 else None,
        "last_capturer": last_capturer if last_capturer >= 0 else None,
        "bonuses": [{name: columns[name] for name in BONUS_NAMES} for columns in deal_columns],
        "prizes": [{name: columns[name] for name in PRIZE_NAMES} for columns in deal_columns],
        "deal_points": state[TEAM_SCORE:TEAM_SCORE + 2],
        "match_score": state[MATCH_SCORE:MATCH_SCORE + 2],
        "match_columns": [_team_columns(state, MATCH_STATS, t) for t in range(2)],
        "leader_at_two_thirds": leader if _reaches_two_thirds(deal, turn, k) else None,
    }


def _show(value) -> str:
    """A short one-line rendering of a JSON value for a message."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _integer(value, where: str, low: int, high: int, why: str = "") -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise PositionError(f"{where} must be an integer from {low} to {high}, not {_show(value)}")
    if not low <= value <= high:
        raise PositionError(f"{where} is {value}; allowed: {low} to {high}{why}")
    return value


def _list(value, where: str, length: int | None = None, what: str = "") -> list:
    if not isinstance(value, list):
        raise PositionError(f"{where} must be a list{what}, not {_show(value)}")
    if length is not None and len(value) != length:
        raise PositionError(f"{where} must be a list of {length}{what}, not of {len(value)}")
    return value


def _counts(value, where: str, limits: list[dict]) -> list[dict]:
    """Two teams' counts ``[{name: int, ...}, {...}]`` with exactly the names of ``limits[team]``,
    each from 0 to its limit."""
    teams = _list(value, where, 2, " (team 0, team 1)")
    for team, counts in enumerate(teams):
        if not isinstance(counts, dict) or counts.keys() != limits[team].keys():
            raise PositionError(f"{where}[{team}] must be an object with exactly the keys "
                                f"{', '.join(limits[team])}, not {_show(counts)}")
        for name, count in counts.items():
            if type(count) is not int or not 0 <= count <= limits[team][name]:  # bool is no count
                _integer(count, f"{where}[{team}][{name!r}]", 0, limits[team][name])
    return teams


def _card_ids(value, where: str) -> list[int]:
    """The card ids (ascending) of a list of cards (``where`` names it in a message)."""
    spelled = _list(value, where, what=" of cards")
    try:  # the quick way for well-formed cards; any surprise: card by card below
        if sum(map(len, spelled)) == 2 * len(spelled):  # two keys each
            return sorted([_CARD_IDS[card["rank"], card["suit"]] for card in spelled])
    except (TypeError, KeyError, IndexError):
        pass
    for i, card in enumerate(spelled):
        if card_from_json(card) is None:
            raise PositionError(f"{where}[{i}] is not a card: {_show(card)}; a card is "
                                f"{{\"rank\": Asso, 2..10, Fante, Cavallo or Re, \"suit\": swords, "
                                f"cups, coins or clubs}}")
    raise AssertionError("unreachable: every card read")


def _check_every_card_once(hands: list[list[int]], table: list[int], piles: list[list[int]]) -> None:
    """Each of the 52 cards in exactly one hand, on the table or in one pile (lists of card ids)."""
    places = hands + [table] + piles
    if sum(map(len, places)) == N_CARDS and len(set().union(*places)) == N_CARDS:
        return
    names = [f"hands[{p}]" for p in range(PLAYERS)] + ["table"] + [f"piles[{t}]" for t in range(2)]
    seen: dict[int, str] = {}
    for where, cards in zip(names, places):
        for card in cards:
            if card in seen:
                raise PositionError(f"the {card_name(card)} is listed twice ({seen[card]} and {where}); "
                                    f"each card lies in exactly one place")
            seen[card] = where
    missing = min(set(range(N_CARDS)) - seen.keys())
    raise PositionError(f"the {card_name(missing)} is nowhere; each of the 52 cards lies in a hand, "
                        f"on the table or in a pile")


def _deal_prizes(piles: list[list[int]], napula_beyond_10: bool, table: dict) -> list[dict]:
    """Rule 5's prizes and Napula per team for a deal that ends with these capture piles, worth
    the points of the component ``table``."""
    cards = [len(p) for p in piles]
    swords = [sum(1 for c in p if suit_of(c) == SWORDS) for p in piles]
    points, napula = table["prizes"], table["napula"]
    prizes = []
    for team in range(2):
        mine, other = set(piles[team]), 1 - team
        run = 0
        while run < (RE if napula_beyond_10 else 10) and card_of(run + 1, SWORDS) in mine:
            run += 1
        prizes.append({"most_cards": points["most_cards"] * (cards[team] > cards[other]),
                       "most_swords": points["most_swords"] * (swords[team] > swords[other]),
                       "mata": points["mata"] * (MATA in mine),
                       "ten_of_coins": points["ten_of_coins"] * (TEN_OF_COINS in mine),
                       "fante_of_cups": points["fante_of_cups"] * (FANTE_OF_CUPS in mine),
                       "napula": run * napula["per_card"] if run >= napula["run"] else 0})
    return prizes


def _points(columns: dict, table: dict) -> int:
    """A team's points from its result columns: the bonuses times their points, the prizes."""
    return (sum(columns[name] * table["bonuses"][name] for name in BONUS_NAMES)
            + sum(columns[name] for name in PRIZE_NAMES))


def _changed_components(state: list) -> dict:
    """``{"components": the entries that differ from the defaults}``, or {} with the defaults
    (so a default game's positions read as they always have)."""
    changed = COMPONENTS.differing(components_of(state))
    return {"components": changed} if changed else {}


def components_of(state: list) -> dict:
    """The whole component table a state (``tolist()``) holds in its POINTS block."""
    table: dict = {}
    for key, value in zip(POINT_KEYS, state[POINTS:POINTS + N_POINTS]):
        group, name = key.split(".")
        table.setdefault(group, {})[name] = value
    table["compensation"] = {"points": list(state[COMPENSATION:COMPENSATION + 2])}
    return table


def _check_derived(position: dict, key: str, expected, why: str) -> None:
    if key in position and position[key] != expected:
        raise PositionError(f"{key} is {_show(position[key])}, but the position gives {_show(expected)} "
                            f"({why})")


def _options(value) -> dict:
    if not isinstance(value, dict) or set(value) - {"components"} != set(OPTION_NAMES):
        raise PositionError(f"options must be an object with exactly the keys {', '.join(OPTION_NAMES)} "
                            f"(and components, the entries that differ from the defaults), not {_show(value)}")
    for name in OPTION_NAMES[:3]:
        if not isinstance(value[name], bool):
            raise PositionError(f"options[{name!r}] must be true or false, not {_show(value[name])}")
    _integer(value["match_deals"], "options['match_deals']", 1, MAX_MATCH_DEALS)
    try:
        table = COMPONENTS.check(value.get("components", {}), "options.components")
    except RuleError as exc:
        raise PositionError(str(exc)) from None
    return dict(value, components=table)


def load_state(position: dict) -> np.ndarray:
    """The kernel state (int32, ``STATE_SIZE``) of a position written as :func:`describe_state`
    writes it; the derived keys may be left out. A malformed or impossible position raises
    :class:`PositionError` with a one-line message. The scratch region is left zero."""
    if not isinstance(position, dict):
        raise PositionError(f"a position is a JSON object with describe_state's keys, not {_show(position)}")
    unknown = position.keys() - _KNOWN_KEYS
    if unknown:
        raise PositionError(f"unknown key {_show(min(unknown, key=str))} in the position; its keys are "
                            f"{', '.join(POSITION_KEYS + DERIVED_KEYS)}")
    for key in POSITION_KEYS:
        if key not in position:
            raise PositionError(f"the position has no {key!r}; it needs {', '.join(POSITION_KEYS)}")
    options = _options(position["options"])
    k = options["match_deals"]
    deal = _integer(position["deal"], "deal", 0, k - 1, f" (deals of a match of match_deals={k}, from 0)")
    turn = _integer(position["turn"], "turn", 0, TURNS)
    over = turn == TURNS
    if over and deal != k - 1:
        raise PositionError(f"turn {TURNS} ends deal {deal}, which is not the match's last (deal {k - 1}): "
                            f"the next deal would have begun at turn 0")
    starter = deal % PLAYERS
    to_move = -1 if over else (starter + turn) % PLAYERS
    _check_derived(position, "players", PLAYERS, "Cardavia is played by 4")
    _check_derived(position, "teams", [[0, 2], [1, 3]], "partners sit opposite")
    _check_derived(position, "dealer", (deal + PLAYERS - 1) % PLAYERS,
                   "CA-6: deal k is dealt by seat (3 + k) mod 4")
    _check_derived(position, "starter", starter, "CA-6: deal k is started by seat k mod 4")
    _check_derived(position, "to_move", to_move,
                   f"turn {turn} of a deal started by seat {starter}; -1 only once the game is over")
    played = [_turns_played(p, starter, turn) for p in range(PLAYERS)]
    team_turns = [played[t] + played[t + 2] for t in range(2)]
    hands, table, piles = _read_cards(position, played, turn, starter)
    last_capturer, last_placed = _read_last_turns(position, table, piles, team_turns, over)
    components = options["components"]
    deal_columns, deal_points = _read_deal_scores(position, piles, team_turns, over,
                                                  options["napula_beyond_10"], components)
    match_columns, match_score = _read_match_scores(position, deal_columns, deal + over, over, k == 1,
                                                    components)
    leader = position["leader_at_two_thirds"]
    if _reaches_two_thirds(deal, turn, k):
        _integer(leader, "leader_at_two_thirds", -1, 1, " (the team ahead, -1 if level)")
    elif leader is not None:
        raise PositionError(f"leader_at_two_thirds must be null before turn {LEADER_TURN * k} of the match "
                            f"(two thirds), not {_show(leader)}")
    return _state_of(options, deal, turn, to_move, hands, table, piles, last_placed, last_capturer,
                     deal_columns, deal_points, match_columns, match_score, -1 if leader is None else leader)


def _read_cards(position: dict, played: list[int], turn: int, starter: int):
    """The hands, table and piles (card ids ascending): all 52 cards, each once, and each hand
    12 less its seat's turns (``played``)."""
    hands = [_card_ids(hand, f"hands[{p}]")
             for p, hand in enumerate(_list(position["hands"], "hands", PLAYERS, " (seat 0..3)"))]
    table = _card_ids(position["table"], "table")
    piles = [_card_ids(pile, f"piles[{t}]")
             for t, pile in enumerate(_list(position["piles"], "piles", 2, " (team 0, team 1)"))]
    _check_every_card_once(hands, table, piles)
    for p, hand in enumerate(hands):
        if len(hand) != HAND_SIZE - played[p]:
            raise PositionError(f"hands[{p}] holds {len(hand)} cards; after turn {turn} of a deal started "
                                f"by seat {starter} seat {p} holds {HAND_SIZE - played[p]} (12 less its turns)")
    return hands, table, piles


def _read_last_turns(position: dict, table: list[int], piles: list[list[int]], team_turns: list[int],
                     over: bool) -> tuple[int | None, int | None]:
    """``last_capturer`` (a team that has captured, as its pile shows; None: nobody has, and
    both piles are empty) and ``last_placed`` (a card id on the table, or at the end claimed by
    the last capturer; None)."""
    last_capturer = position["last_capturer"]
    if last_capturer is not None:
        _integer(last_capturer, "last_capturer", 0, 1, " (a team), or null if nobody has captured")
    for t in range(2):
        if piles[t] and (last_capturer is None or team_turns[t] == 0):
            raise PositionError(f"piles[{t}] holds {len(piles[t])} cards, but team {t} cannot have "
                                f"captured: " + ("nobody has (last_capturer is null)" if last_capturer is None
                                                 else "it has not played a turn in this deal"))
    if last_capturer is not None and not piles[last_capturer]:
        raise PositionError(f"last_capturer is team {last_capturer}, but piles[{last_capturer}] is empty")
    last_placed = position["last_placed"]
    if last_placed is None:
        return last_capturer, None
    card = card_from_json(last_placed)
    if card is None:
        raise PositionError(f"last_placed must be a card or null, not {_show(last_placed)}")
    claimed = over and last_capturer is not None and card in piles[last_capturer]
    if sum(team_turns) == 0 or not (card in table or claimed):
        raise PositionError(f"last_placed is the {card_name(card)}, which is not on the table; the "
                            f"card placed on the previous turn lies there (null: none was)")
    return last_capturer, card


def _read_deal_scores(position: dict, piles: list[list[int]], team_turns: list[int], over: bool,
                      napula_beyond_10: bool, table: dict) -> tuple[list[dict], list[int]]:
    """This deal's result columns per team (cards and swords from the piles, the bonuses as
    given, the prizes: 0 until the end) and its points per team (0 until the end)."""
    bonuses = _counts(position["bonuses"], "bonuses", [dict.fromkeys(BONUS_NAMES, n) for n in team_turns])
    if over:
        prizes = _deal_prizes(piles, napula_beyond_10, table)
    else:
        prizes = [dict.fromkeys(PRIZE_NAMES, 0) for _ in range(2)]
    _check_derived(position, "prizes", prizes, "rule 5's, at the deal's end; 0 before")
    columns = [{"cards_taken": len(pile), "swords": len([c for c in pile if c % 4 == SWORDS]),
                **bonus, **prize} for pile, bonus, prize in zip(piles, bonuses, prizes)]
    points = [_points(team, table) if over else 0 for team in columns]
    _check_derived(position, "deal_points", points, "bonuses + prizes at the deal's end; 0 before")
    return columns, points


def _read_match_scores(position: dict, deal_columns: list[dict], finished: int, over: bool,
                       one_deal: bool, table: dict) -> tuple[list[dict], list[int]]:
    """The match's result columns per team, within what ``finished`` deals can give (at the end
    including the last deal's ``deal_columns``: equal to them in a one-deal game), and the match
    score they make (the component ``table``'s points)."""
    worth = {name: table["prizes"].get(name, 1) for name in COLUMN_LIMITS}  # a prize column's unit
    worth["napula"] = table["napula"]["per_card"]
    limits = {name: team_max * worth[name] * finished for name, (team_max, _) in COLUMN_LIMITS.items()}
    columns = _counts(position["match_columns"], "match_columns", [limits, limits])
    for t in range(2):
        gives = table["prizes"]["most_cards"]
        if gives and columns[t]["most_cards"] % gives:
            raise PositionError(f"match_columns[{t}]['most_cards'] is not a multiple of {gives}; each deal "
                                f"gives {gives} or 0")
    for name, (_, both_max) in COLUMN_LIMITS.items():
        total = columns[0][name] + columns[1][name]
        if total > both_max * worth[name] * finished:
            raise PositionError(f"match_columns give the teams {total} {name} together; {finished} finished "
                                f"deals give at most {both_max * worth[name] * finished}")
    for t in range(2):
        if over and any(columns[t][name] < deal_columns[t][name] or
                        (one_deal and columns[t][name] != deal_columns[t][name]) for name in COLUMN_NAMES):
            raise PositionError(f"match_columns[{t}] leave out the last deal's columns {deal_columns[t]}; at "
                                f"the end of the game the match columns include it")
    start = table["compensation"]["points"]  # the points each team started with (seat compensation)
    score = [start[t] + _points(team, table) for t, team in enumerate(columns)]
    _check_derived(position, "match_score", score, "the points each team started with (compensation) plus the "
                                                   "sums of the bonus and prize columns")
    return columns, score


def _state_of(options, deal, turn, to_move, hands, table, piles, last_placed, last_capturer,
              deal_columns, deal_points, match_columns, match_score, leader) -> np.ndarray:
    """The kernel state of a checked position (card lists ascending), its derived fields (the
    table's mask and counts, each card's public place) recomputed."""
    state = [0] * SCRATCH  # the position's part of the state, written as a list, converted once
    state[H_PLAYERS] = PLAYERS
    state[H_TO_MOVE] = to_move
    state[H_TURN] = turn
    state[H_SINGLE_FORCED] = int(options["single_match_forced"])
    state[H_LAST_SWEEP] = int(options["last_sweep_scores"])
    state[H_NAPULA10] = int(options["napula_beyond_10"])
    state[H_LAST_PLACED] = -1 if last_placed is None else last_placed
    state[H_LAST_CAPTURER] = -1 if last_capturer is None else last_capturer
    state[H_TABLE_N] = len(table)
    state[H_TABLE_NUMERALS] = len([c for c in table if c < N_NUMERALS])
    mask = sum(1 << c for c in table)
    state[H_TABLE_LO] = mask & ((1 << SPLIT) - 1)
    state[H_TABLE_HI] = mask >> SPLIT
    state[TABLE:TABLE + N_CARDS] = table + [-1] * (N_CARDS - len(table))
    for c in table:  # the public place of each card; those in a hand keep PUB_HAND (0)
        state[CARD_PUB + c] = PUB_TABLE
    for team, pile in enumerate(piles):
        for c in pile:
            state[CARD_PUB + c] = PUB_TAKEN + team
    for team in range(2):
        for region, columns in ((TEAM_STATS, deal_columns[team]), (MATCH_STATS, match_columns[team])):
            base = region + team * N_STATS
            state[base:base + STAT_LEADER] = [columns[name] for name in COLUMN_NAMES]
            state[base + STAT_LEADER] = leader
        state[TEAM_SCORE + team] = deal_points[team]
        state[MATCH_SCORE + team] = match_score[team]
    state[H_MATCH_DEALS] = options["match_deals"]
    state[H_DEAL_NO] = deal
    state[H_DEAL_STARTER] = deal % PLAYERS
    state[POINTS:POINTS + N_POINTS] = point_values(options["components"])
    state[COMPENSATION:COMPENSATION + 2] = options["components"]["compensation"]["points"]
    for seat, hand in enumerate(hands):
        base = PRIVATE + seat * PRIVATE_SIZE
        state[base:base + PRIVATE_SIZE] = [len(hand)] + hand + [-1] * (HAND_SIZE - len(hand))
    whole = np.zeros(STATE_SIZE, np.int32)  # the scratch region (the kernel's work space) left zero
    whole[:SCRATCH] = state
    return whole
