"""Partners, the slow and readable way: a reference for the compiled kernel.

Written from ``shared/rules/partners.md`` (PA-1..PA-12) with named places and pieces that walk
one step at a time over absolute spaces. It shares with the kernel only what a replay must
share: the params layout, card numbering, move codes, the shuffle and the seeding. The 7 is
enumerated by brute force: every sequence of sub-moves is played out on a copy of the board and
sequences are grouped by the board they leave (PA-11).

Places: ``OUT``; ``START``; ``("ring", space)`` with space 0..55 the absolute numbered spaces
(colour c's section is spaces 14c..14c+13, its start space lies just before space 14c);
``("house", h)`` with h = 1..4.

Chance: the only random thing is the deal. Every deal is one chance event ``"deal"``, whose
outcome names the cards each seat is dealt (``{"hands": [[card, ...] x 4]}``, cards spelled as
``notation.py`` spells them: ``"Ace#2"``). The engine knows which cards are in the pile, not their
order: that is the chance stream's, kept by the sampler (``_stacked``) between the deals of one
dealer. Moves are spelled (:meth:`Game.action`) in ``notation.py``'s words, from this engine's own
board.
"""
from __future__ import annotations

import math
from typing import NamedTuple

from tourney_sim.simulate.games.chance import as_chance, Chance
from tourney_sim.simulate.games.spec import team_of
from tourney_sim.simulate.seeding import PyStream

from .notation import card_ids, card_names, COLOUR_NAMES, KIND_NAMES, split_parts
from .rules import (  # the params' offsets, as the rules declare them (rules.PARAMS)
    P_CARD_KIND, P_DEALS_PER_DEALER, P_HOUSE, P_KIND_TABLE, P_MAX_DEALS, P_N_CARDS, P_OVERSHOOT, P_SECTION,
)

OUT = ("out",)
START = ("start",)
HAND = 4
N_KINDS, N_EFFECTS = 14, 6
FWD, FWD2, STARTS, BACK, SPLIT, SWAP = range(6)
GIVE = 14 << 58
DISCARD = 15 << 58
OUTSIDE_CODE = 127


class Board:
    """The 16 pieces: ``places[colour]`` is a list of 4 places."""

    def __init__(self, section: int, house: int, bounce: bool):
        self.section = section
        self.house = house
        self.ring = 4 * section
        self.bounce = bounce
        self.places = [[OUT] * 4 for _ in range(4)]
        self._spaces = None  # space -> [(colour, index)], rebuilt after a change

    def copy(self) -> "Board":
        other = object.__new__(Board)
        other.__dict__.update(self.__dict__)
        other.places = [list(p) for p in self.places]
        return other

    def put(self, colour: int, index: int, place) -> None:
        self.places[colour][index] = place
        self._spaces = None

    # -- looking
    def entrance(self, colour: int) -> int:
        """The numbered space just before the colour's start space."""
        return (colour * self.section - 1) % self.ring

    def on_space(self, space: int) -> list[tuple[int, int]]:
        if self._spaces is None:
            self._spaces = {}
            for c in range(4):
                for i, p in enumerate(self.places[c]):
                    if p[0] == "ring":
                        self._spaces.setdefault(p[1], []).append((c, i))
        return self._spaces.get(space, [])

    def start_held(self, colour: int) -> bool:
        return START in self.places[colour]

    def house_taken(self, colour: int, h: int) -> bool:
        return ("house", h) in self.places[colour]

    def all_home(self, colour: int) -> bool:
        return all(p[0] == "house" for p in self.places[colour])

    def track(self, colour: int, place) -> int:
        """The kernel's track code of a place, for move codes."""
        if place == OUT:
            return OUTSIDE_CODE
        if place == START:
            return 0
        if place[0] == "ring":
            return (place[1] - colour * self.section) % self.ring + 1
        return self.ring + place[1]

    def outcome(self):
        """The board as a value: where the pieces of each colour stand (PA-11)."""
        return tuple(tuple(sorted(places)) for places in self.places)

    # -- walking
    def _blocks(self, mover: int, start_colour: int) -> bool:
        """A start space holding a piece blocks every other colour, partner included."""
        return start_colour != mover and self.start_held(start_colour)

    BLOCKED, NO_ROOM = "blocked", "no room"

    def step_forward(self, colour: int, place):
        """One step forward: the new place, BLOCKED (an occupied start space of another colour
        lies in the way) or NO_ROOM (the next house space is taken or does not exist)."""
        if place == START:
            return ("ring", colour * self.section)
        if place[0] == "ring" and place[1] != self.entrance(colour):
            nxt = (place[1] + 1) % self.ring
            if nxt % self.section == 0 and self._blocks(colour, nxt // self.section):
                return self.BLOCKED
            return ("ring", nxt)
        h = 1 if place[0] == "ring" else place[1] + 1  # from the entrance into the house
        if h <= self.house and not self.house_taken(colour, h):
            return ("house", h)
        return self.NO_ROOM

    def step_back(self, colour: int, place):
        """One step backwards (out of the house when bouncing), or None if blocked."""
        if place[0] == "house":
            return ("house", place[1] - 1) if place[1] > 1 else ("ring", self.entrance(colour))
        if place == START:
            return ("ring", self.entrance(colour))  # the start space does not count
        space = place[1]
        if space % self.section == 0 and self._blocks(colour, space // self.section):
            return None
        return ("ring", (space - 1) % self.ring)

    def path_forward(self, colour: int, place, steps: int) -> list:
        """The places reached after 1, 2, ..., ``steps`` steps forward (one walk); it stops early
        at the first step that is not allowed (no longer move of the piece is then either)."""
        path = []
        from_house = place[0] == "house"
        backwards = False
        for _ in range(steps):
            if not backwards:
                nxt = self.step_forward(colour, place)
                if nxt == self.BLOCKED:
                    return path
                if nxt != self.NO_ROOM:
                    place = nxt
                    path.append(place)
                    continue
                if from_house or not self.bounce:
                    return path  # exact entry, no passing in the house (PA-3)
                backwards = True  # PA-3 option: walk the extra steps back
            place = self.step_back(colour, place)
            if place is None:
                return path
            path.append(place)
        return path

    def walk_forward(self, colour: int, place, steps: int):
        """The place reached moving ``steps`` forward, or None if the move is not allowed."""
        path = self.path_forward(colour, place, steps)
        return path[-1] if len(path) == steps else None

    def walk_back(self, colour: int, place, steps: int):
        if place == OUT or place[0] == "house":
            return None
        for _ in range(steps):
            place = self.step_back(colour, place)
            if place is None:
                return None
        return place

    # -- changing
    def land(self, colour: int, index: int, place):
        """Move a piece to ``place`` with the landing rule; returns (victim colour or None,
        mover knocked out)."""
        self.put(colour, index, OUT)  # lifted
        if place[0] == "ring":
            others = [(c, i) for c in range(4) if c != colour
                      for i, p in enumerate(self.places[c]) if p == place]
            if len(others) == 1:
                c, i = others[0]
                self.put(c, i, OUT)
                self.put(colour, index, place)
                return c, False
            if len(others) >= 2:
                return None, True
        self.put(colour, index, place)
        return None, False


class Movement(NamedTuple):
    """One piece moved by a play: the place it left, the steps (negative back, None for a start),
    where it ends, and the pieces its landing sent outside as (colour, place), the mover itself
    when it landed on a protected pair."""
    colour: int
    origin: tuple
    steps: "int | None"
    final: tuple
    knocked: tuple


def place_json(place) -> dict:
    """A place as notation.py spells it."""
    if place == OUT:
        return {"where": "outside"}
    if place == START:
        return {"where": "start"}
    return {"where": place[0], "space": place[1]}


class Game:
    def __init__(self, params, chance: "Chance | PyStream"):
        self.chance = as_chance(chance)
        self.bounce = int(params[P_OVERSHOOT]) == 1
        self.max_deals = int(params[P_MAX_DEALS])
        self.deals_per_dealer = int(params[P_DEALS_PER_DEALER])
        self.n_cards = int(params[P_N_CARDS])
        self.effects = [[int(params[P_KIND_TABLE + k * N_EFFECTS + e]) for e in range(N_EFFECTS)]
                        for k in range(N_KINDS)]
        self.card_kind = [int(params[P_CARD_KIND + c]) for c in range(self.n_cards)]
        self.card_name = card_names(tuple(self.card_kind))  # card id -> "Ace#2"
        self.card_id = card_ids(tuple(self.card_kind))
        self.board = Board(int(params[P_SECTION]), int(params[P_HOUSE]), self.bounce)
        self.hands = [[] for _ in range(4)]
        self.given = [None] * 4
        self.deals = 0
        self.ko_given = [0] * 4
        self.ko_suffered = [0] * 4
        self.swaps = [0] * 4
        self.winner = None
        self.truncated = False
        self.over = False
        self.leads = []  # the leading team (0, 1, or -1 if level) at the end of each deal
        self._legal = None  # legal moves of the current position, once computed
        self._stacked = []  # drawing from the stream: the shuffled pile's order, top first
        self.dealer = 3  # PA-10
        self._reshuffle()
        self._deal()

    # -- dealing
    def _reshuffle(self):
        """A new dealer takes up the whole deck (PA-12); the shuffle is the next deal's chance."""
        self.pile = list(range(self.n_cards))  # the cards in the pile (their order is chance's)
        self.dealer_deals = 0

    def _deal(self):
        if self.dealer_deals == self.deals_per_dealer:
            self.dealer = (self.dealer + 1) % 4
            self._reshuffle()
        hands = self._deal_cards(self.chance.event("deal", self._sample_deal, self._check_deal))
        dealt = {c for hand in hands for c in hand}
        self.pile = [c for c in self.pile if c not in dealt]
        self.hands = [sorted(hand) for hand in hands]
        self.dealer_deals += 1
        self.deals += 1
        self.given = [None] * 4
        self.exchanging = [(self.dealer + 1 + j) % 4 for j in range(4)]
        self.turn = (self.dealer + 1) % 4

    def _sample_deal(self, stream: PyStream) -> dict:
        """The deal drawn from the stream: the first deal of a dealer shuffles the whole deck;
        the seat after the dealer gets the first 4 cards, the next seat the next 4, ..."""
        if self.dealer_deals == 0:
            self._stacked = list(range(self.n_cards))
            stream.shuffle(self._stacked)
        hands = [[] for _ in range(4)]
        for j in range(4):
            hands[(self.dealer + 1 + j) % 4] = sorted(self._stacked[HAND * j:HAND * (j + 1)])
        self._stacked = self._stacked[4 * HAND:]
        return {"hands": [[self.card_name[c] for c in hand] for hand in hands]}

    def _check_deal(self, outcome) -> "str | None":
        """Why ``outcome`` cannot be this deal (see ``_sample_deal``), or None."""
        if not isinstance(outcome, dict) or set(outcome) != {"hands"}:
            return f'a deal is {{"hands": [4 lists of {HAND} cards, by seat]}}, got {outcome!r:.60}'
        hands = outcome["hands"]
        if not isinstance(hands, list) or len(hands) != 4:
            return f"hands must be a list of 4 hands, by seat, got {hands!r:.60}"
        seen = set()
        for seat, hand in enumerate(hands):
            if not isinstance(hand, list) or len(hand) != HAND:
                return f"seat {seat} must be dealt a list of {HAND} cards, got {hand!r:.60}"
            for card in hand:
                if not isinstance(card, str) or card not in self.card_id:
                    return (f"seat {seat} is dealt an unknown card {card!r:.30} (a card is a kind and "
                            f"its copy, {self.card_name[0]} .. {self.card_name[-1]})")
                if card in seen:
                    return f"card {card} is dealt twice"
                seen.add(card)
                if self.card_id[card] not in self.pile:
                    return f"card {card} (to seat {seat}) is not in the pile"
        return None

    def _deal_cards(self, outcome: dict) -> list[list[int]]:
        """The card ids each seat is dealt, from a (possible) deal outcome."""
        return [[self.card_id[card] for card in hand] for hand in outcome["hands"]]

    # -- whose turn
    def to_move(self) -> int:
        if self.over:
            return -1
        if self.exchanging:
            return self.exchanging[0]
        return self.turn

    def kinds_in_hand(self, seat):
        return sorted({self.card_kind[c] for c in self.hands[seat]})

    def mover(self, seat: int) -> int:
        """Once a player's 4 pieces are home, the cards move the partner's pieces."""
        return seat ^ 2 if self.board.all_home(seat) else seat

    def legal_moves(self) -> list[int]:
        if self._legal is None:
            self._legal = self._legal_moves()
        return list(self._legal)

    def _legal_moves(self) -> list[int]:
        if self.over:
            return []
        seat = self.to_move()
        if self.exchanging:
            return [GIVE + k for k in self.kinds_in_hand(seat)]
        moves = []
        for kind in self.kinds_in_hand(seat):
            moves += self.card_moves(seat, kind)
        return sorted(set(moves)) or [DISCARD]

    def card_moves(self, seat: int, kind: int) -> list[int]:
        eff = self.effects[kind]
        b = self.board
        m = self.mover(seat)
        base = kind << 58
        moves = []
        if eff[SWAP]:
            alone = []
            for space in range(b.ring):
                here = b.on_space(space)
                if len(here) == 1:
                    alone.append((space, here[0][0]))
            for x in range(len(alone)):
                for y in range(x + 1, len(alone)):
                    (sa, ca), (sb, cb) = alone[x], alone[y]
                    moves.append(base if ca == cb else base | sa << 7 | sb)
            return moves
        if eff[SPLIT]:
            return self.split_moves(seat, kind, eff[SPLIT])
        places = sorted(set(b.places[m]), key=lambda p: b.track(m, p))
        if eff[STARTS] and OUT in places:
            moves.append(base | OUTSIDE_CODE)
        for steps in (eff[FWD], eff[FWD2]):
            if steps:
                for p in places:
                    if p != OUT and b.walk_forward(m, p, steps) is not None:
                        moves.append(base | steps << 7 | b.track(m, p))
        if eff[BACK]:
            for p in places:
                if b.walk_back(m, p, eff[BACK]) is not None:
                    moves.append(base | eff[BACK] << 7 | b.track(m, p))
        return self._one_per_board(seat, kind, moves)

    def _one_per_board(self, seat: int, kind: int, moves: list[int]) -> list[int]:
        """PA-11: the moves of one card that leave the same board are one move, the smallest
        code (the Ace's 1 and 14 both onto a protected pair; two step counts bouncing to one
        space; pieces bouncing back to where they stood)."""
        best = {}
        for code in sorted(moves):
            after = self.board.copy()
            self._move_pieces(after, seat, kind, code)
            best.setdefault(after.outcome(), code)
        return sorted(best.values())

    # -- the 7 (PA-5)
    def _sequences(self, board, colour, budget, prefix, out):
        """Every sequence of sub-moves of ``colour``'s pieces (each at most once, at least one
        step each, at most ``budget`` steps) after ``prefix``: appends (sequence, board)."""
        moved = {i for (c, i, _, _) in prefix if c == colour}
        seen_origin = set()
        for i, place in enumerate(board.places[colour]):
            if i in moved or place == OUT:
                continue
            if place in seen_origin:
                continue  # two pieces on one space: the same moves (PA-11)
            seen_origin.add(place)
            for steps, target in enumerate(board.path_forward(colour, place, budget), start=1):
                after = board.copy()
                after.land(colour, i, target)
                seq = prefix + [(colour, i, board.track(colour, place), steps)]
                out.append((seq, after))
                self._sequences(after, colour, budget - steps, seq, out)
        return out

    def split_moves(self, seat: int, kind: int, total: int) -> list[int]:
        b = self.board
        own, partner = seat, seat ^ 2
        full = []  # (sequence, board after)
        if b.all_home(own):
            full = [(s, a) for s, a in self._sequences(b, partner, total, [], [])
                    if sum(x[3] for x in s) == total]
        else:
            own_seqs = self._sequences(b, own, total, [], [])
            full = [(s, a) for s, a in own_seqs if sum(x[3] for x in s) == total]
            if not full and own_seqs:
                most = max(sum(x[3] for x in s) for s, _ in own_seqs)
                for s, a in own_seqs:
                    if sum(x[3] for x in s) == most and a.all_home(own):
                        for s2, a2 in self._sequences(a, partner, total - most, s, []):
                            if sum(x[3] for x in s2) == total:
                                full.append((s2, a2))
        best = {}
        for seq, after in full:
            code = self.split_code(kind, seat, seq, total)
            key = after.outcome()
            if key not in best or code < best[key]:
                best[key] = code
        return list(best.values())

    @staticmethod
    def split_code(kind, seat, seq, total) -> int:
        n_own = sum(1 for (c, _, _, _) in seq if c == seat)
        cuts, cum = set(), 0
        for (_, _, _, steps) in seq[:-1]:
            cum += steps
            cuts.add(cum)
        comp = sum(1 << (6 - c) for c in range(1, total) if c not in cuts)
        code = kind << 58 | n_own << 55 | comp << 49
        for j, (_, _, track, _) in enumerate(seq):
            code |= track << (42 - 7 * j)
        return code

    # -- playing
    def apply(self, move: int) -> None:
        assert move in self.legal_moves(), (move, self.legal_moves())
        self._legal = None  # the position changes
        seat = self.to_move()
        if self.exchanging:
            kind = move - GIVE
            card = min(c for c in self.hands[seat] if self.card_kind[c] == kind)
            self.hands[seat].remove(card)
            self.given[seat] = card
            self.exchanging.pop(0)
            if not self.exchanging:  # both pairs at once (PA-8)
                for p in range(4):
                    self.hands[p] = sorted(self.hands[p] + [self.given[p ^ 2]])
            return
        if move == DISCARD:
            self.hands[seat] = []
        else:
            kind = move >> 58
            card = min(c for c in self.hands[seat] if self.card_kind[c] == kind)
            self.hands[seat].remove(card)
            self.play(seat, kind, move)
            if self.over:
                self.leads.append(self.leader())  # won in the middle of the deal
                return
        for i in range(1, 5):
            if self.hands[(seat + i) % 4]:
                self.turn = (seat + i) % 4
                return
        self.leads.append(self.leader())  # the deal is over
        if self.deals >= self.max_deals:  # PA-7
            self.over = True
            self.truncated = True
            return
        self._deal()

    @staticmethod
    def _piece_at(board, colour, track, exclude=()):
        for i, p in enumerate(board.places[colour]):
            if i not in exclude and board.track(colour, p) == track:
                return i
        raise AssertionError((colour, track))

    def _split_plan(self, board, seat, kind, move) -> list[tuple[int, int, int]]:
        """The sub-moves of a 7 code in order: (colour, piece index, steps)."""
        chosen = {seat: [], seat ^ 2: []}
        plan = []
        for side, track, s in split_parts(move, self.effects[kind][SPLIT]):  # the code's layout
            colour = seat if side == 0 else seat ^ 2
            i = self._piece_at(board, colour, track, chosen[colour])
            chosen[colour].append(i)
            plan.append((colour, i, s))
        return plan

    def _move_pieces(self, board, seat, kind, move) -> list[Movement]:
        """Make a play that moves pieces (not a Swap) on ``board``; returns its movements."""
        eff = self.effects[kind]
        if eff[SPLIT]:
            plan = [(c, i, s, board.walk_forward) for c, i, s in self._split_plan(board, seat, kind, move)]
        else:
            m = self.mover(seat)
            steps, track = (move >> 7) & 63, move & 127
            walk = board.walk_back if eff[BACK] else board.walk_forward
            plan = [(m, self._piece_at(board, m, track), None if track == OUTSIDE_CODE else steps, walk)]
        movements = []
        for colour, i, steps, walk in plan:
            origin = board.places[colour][i]
            target = START if steps is None else walk(colour, origin, steps)
            victim, mover_out = board.land(colour, i, target)
            knocked = ()
            if victim is not None:
                knocked = ((victim, target),)
            elif mover_out:
                knocked = ((colour, target),)
            signed = None if steps is None else -steps if eff[BACK] else steps
            movements.append(Movement(colour, origin, signed, board.places[colour][i], knocked))
        return movements

    def play(self, seat: int, kind: int, move: int) -> None:
        b = self.board
        eff = self.effects[kind]
        m = self.mover(seat)
        if eff[SWAP]:
            self.swaps[seat] += 1
            if move & 0x3FFF:
                sa, sb = (move >> 7) & 127, move & 127
                (ca, ia), = b.on_space(sa)
                (cb, ib), = b.on_space(sb)
                b.put(ca, ia, ("ring", sb))
                b.put(cb, ib, ("ring", sa))
        else:
            for movement in self._move_pieces(b, seat, kind, move):
                for colour, _ in movement.knocked:
                    self.ko_suffered[colour] += 1
                    if colour != movement.colour:  # a mover knocked out by a pair: given by nobody
                        self.ko_given[seat] += 1
        if b.all_home(m) and b.all_home(m ^ 2):
            self.winner = team_of(m, True)
            self.over = True

    def action(self, move: int) -> dict:
        """The move spelled out completely in this position, as ``notation.move_to_json`` spells
        it (worked out on a copy of this engine's board)."""
        seat = self.to_move()
        if move == DISCARD:
            return {"action": "discard", "cards": [KIND_NAMES[self.card_kind[c]] for c in self.hands[seat]]}
        if move >= GIVE:
            return {"action": "give", "card": KIND_NAMES[move - GIVE], "partner": seat ^ 2}
        kind = move >> 58
        out = {"action": "play", "card": KIND_NAMES[kind]}
        if self.effects[kind][SWAP]:
            if move & 0x3FFF == 0:
                out["swap"] = "same colour"
            else:
                out["swap"] = [{"colour": COLOUR_NAMES[self.board.on_space(space)[0][0]],
                                "from": place_json(("ring", space))}
                               for space in ((move >> 7) & 127, move & 127)]
            return out
        spelled = []
        for mv in self._move_pieces(self.board.copy(), seat, kind, move):
            entry = {"colour": COLOUR_NAMES[mv.colour], "from": place_json(mv.origin)}
            if mv.steps is not None:
                entry["steps"] = mv.steps
            entry["to"] = place_json(mv.final)
            if mv.knocked:
                entry["knocked_out"] = [{"colour": COLOUR_NAMES[c], "from": place_json(p)} for c, p in mv.knocked]
            spelled.append(entry)
        if self.effects[kind][SPLIT]:
            out["split"] = spelled
        else:
            out.update(spelled[0])
        return out

    # -- the lead (leader_at_two_thirds)
    def progress(self, team: int):
        """(pieces in the houses, total distance) of the team's two colours: a piece outside or
        on its start counts 0, on the ring the steps from its start, in house space h ring + h."""
        b = self.board
        home = dist = 0
        for c in (team, team + 2):
            for p in b.places[c]:
                if p[0] == "house":
                    home += 1
                    dist += b.ring + p[1]
                elif p[0] == "ring":
                    dist += (p[1] - c * b.section) % b.ring + 1
        return home, dist

    def leader(self) -> int:
        a, b = self.progress(0), self.progress(1)
        return 0 if a > b else 1 if b > a else -1

    # -- the end
    def result(self):
        scores = [1 if self.winner is not None and team_of(p, True) == self.winner else 0 for p in range(4)]
        team = [scores[0], scores[1]]  # teams {0, 2} and {1, 3}
        ranks = [1 + sum(1 for t in team if t > team[team_of(p, True)]) for p in range(4)]
        home = [sum(1 for p in self.board.places[c] if p[0] == "house") for c in range(4)]
        # the lead after deal ceil(2/3 of the deals); -1 if that deal is not over (as the kernel)
        k = math.ceil(2 * self.deals / 3)
        lead = self.leads[k - 1] if k <= len(self.leads) else -1
        extras = [[self.deals, home[p], self.ko_given[p], self.ko_suffered[p], self.swaps[p],
                   int(self.truncated), lead] for p in range(4)]
        return scores, ranks, extras

    def describe(self, move: int) -> str:
        if move == DISCARD:
            return "discards the hand"
        if move >= GIVE:
            return f"gives kind {move - GIVE}"
        return f"plays kind {move >> 58} (code {move:#x})"
