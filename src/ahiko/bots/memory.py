"""Memory of the public record: what a bot learns about each opponent over a session.

A bot that keeps a ``TableMemory`` hands it the seat's view at the end of every hand
(``observe``, the optional half of the bot protocol). Only what that view shows is read: the
public history (every action, its size, all-ins) and the cards shown at showdown, which the
view carries only when the table saw them. Nothing hidden can get in: a view has no hidden
cards to give (R-AI-01), and the twin-world test checks that two worlds with the same public
record leave the same memory.

Per opponent (by seat, and by the player's public name when the view carries ``players``):
hands dealt, VPIP, PFR, open-raises and open all-ins per chance, re-raises per chance, folds
to a raise before the flop (or the draw), bets per chance and folds, calls and raises facing a
bet after it, folds to a continuation bet (the last aggressor's first bet on the flop, and
again on the turn; in draw, after the draw), check-raises per chance, how big their bets are
against the pot, and the cards they showed: how strong those were, and how many of the bets
they made on the last betting round and showed were bluffs.

Frequencies are estimates with a prior: ``rate(count, chances, prior)`` starts at the prior
and moves to the observed frequency as chances accumulate (``PRIOR_WEIGHT`` chances' worth of
prior), so a few hands change little and a few hundred decide.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ahiko.poker.cards import Card
from ahiko.poker.games import Evaluator, game
from ahiko.poker.view_types import HandView, ViewEvent

from .cards7 import PAIR, TWO_PAIR, category, hand_value, parse_view_cards, shown_value

PRIOR_WEIGHT = 6.0
AGGRESSIVE = ("bet", "raise")


def rate(count: float, chances: float, prior: float, weight: float = PRIOR_WEIGHT) -> float:
    """Observed frequency shrunk towards ``prior`` (``weight`` chances' worth of it)."""
    return (count + prior * weight) / (chances + weight)


@dataclass(slots=True)
class OpponentStats:
    hands: int = 0
    vpip: int = 0  # put chips in voluntarily before the flop (the draw)
    pfr: int = 0  # raised (bet) before the flop (the draw)
    open_chances: int = 0  # first in: nobody had raised yet
    opens: int = 0
    open_jams: int = 0  # first in with an all-in raise
    reraise_chances: int = 0  # facing one raise before the flop
    reraises: int = 0
    reraise_jams: int = 0
    fold_to_raise_chances: int = 0  # facing a raise before the flop
    folds_to_raise: int = 0
    calls_of_allin: int = 0  # called (or re-jammed) an all-in before the flop
    faced_allin: int = 0
    bet_chances: int = 0  # after the flop (draw), nobody had bet on the street
    bets: int = 0
    late_bet_chances: int = 0  # ... on the turn and the river only (hold'em)
    late_bets: int = 0
    faced_bets: int = 0  # after the flop (draw), facing a bet or raise
    folds_to_bet: int = 0
    calls_of_bet: int = 0
    raises_of_bet: int = 0
    faced_barrels: int = 0  # hold'em: facing a bet on the turn or river after calling one
    folds_to_barrel: int = 0
    faced_raise_after_bet: int = 0  # after the flop (draw): their bet was raised
    folds_to_raise_after_bet: int = 0
    faced_reraise: int = 0  # after the flop (draw): their raise was re-raised
    folds_to_reraise: int = 0
    faced_first_bets: int = 0  # after the flop (draw): the street's first bet, by anyone
    folds_to_first_bet: int = 0
    faced_cbets: int = 0  # the last aggressor's first bet of the flop (draw: after it)
    folds_to_cbet: int = 0
    faced_turn_cbets: int = 0  # ... and of the turn, by the same bettor (hold'em)
    folds_to_turn_cbet: int = 0
    check_raise_chances: int = 0  # after the flop (draw): checked, then faced a bet
    check_raises: int = 0
    bet_size_sum: float = 0.0  # bets and raises after the flop, as a share of the pot
    bet_size_n: int = 0
    all_ins: int = 0
    showdowns: int = 0
    shown_river_bets: int = 0  # showed down after betting or raising the last round
    shown_river_bluffs: int = 0  # ... with a weak hand
    shown_preflop_pct: list[float] = field(default_factory=list)  # hold'em: shown hands
    shown_jam_pct: list[float] = field(default_factory=list)  # ... after jamming pre-flop
    draws: list[int] = field(default_factory=list)  # draw: cards drawn per hand seen

    # --- estimates: each shrunk towards the prior the caller gives ------------------------
    def open_share(self, prior: float, weight: float = PRIOR_WEIGHT) -> float:
        return rate(self.opens, self.open_chances, prior, weight)

    def open_jam_share(self, prior: float, weight: float = PRIOR_WEIGHT) -> float:
        return rate(self.open_jams, self.open_chances, prior, weight)

    def reraise_share(self, prior: float, weight: float = PRIOR_WEIGHT) -> float:
        return rate(self.reraises, self.reraise_chances, prior, weight)

    def reraise_jam_share(self, prior: float, weight: float = PRIOR_WEIGHT) -> float:
        return rate(self.reraise_jams, self.reraise_chances, prior, weight)

    def fold_to_raise(self, prior: float, weight: float = PRIOR_WEIGHT) -> float:
        """Folds facing a raise before the flop (the draw)."""
        return rate(self.folds_to_raise, self.fold_to_raise_chances, prior, weight)

    def vpip_share(self, prior: float, weight: float = PRIOR_WEIGHT) -> float:
        return rate(self.vpip, self.hands, prior, weight)

    def pfr_share(self, prior: float, weight: float = PRIOR_WEIGHT) -> float:
        return rate(self.pfr, self.hands, prior, weight)

    def bet_share(self, prior: float, weight: float = PRIOR_WEIGHT) -> float:
        """Bets after the flop (the draw) when nobody has bet on the street."""
        return rate(self.bets, self.bet_chances, prior, weight)

    def late_bet_share(self, prior: float, weight: float = PRIOR_WEIGHT) -> float:
        return rate(self.late_bets, self.late_bet_chances, prior, weight)

    def fold_to_bet(self, prior: float, weight: float = PRIOR_WEIGHT) -> float:
        return rate(self.folds_to_bet, self.faced_bets, prior, weight)

    def raise_share(self, prior: float, weight: float = PRIOR_WEIGHT) -> float:
        """Raises facing a bet after the flop (the draw)."""
        return rate(self.raises_of_bet, self.faced_bets, prior, weight)

    def fold_to_barrel(self, prior: float, weight: float = PRIOR_WEIGHT) -> float:
        return rate(self.folds_to_barrel, self.faced_barrels, prior, weight)

    def fold_to_raise_after_bet(self, prior: float, weight: float = PRIOR_WEIGHT) -> float:
        return rate(self.folds_to_raise_after_bet, self.faced_raise_after_bet, prior, weight)

    def fold_to_reraise(self, prior: float, weight: float = PRIOR_WEIGHT) -> float:
        return rate(self.folds_to_reraise, self.faced_reraise, prior, weight)

    def fold_to_first_bet(self, prior: float, weight: float = PRIOR_WEIGHT) -> float:
        """Folds to the first bet of a street after the flop (the draw): a player may give
        those up and call the rest."""
        return rate(self.folds_to_first_bet, self.faced_first_bets, prior, weight)

    def fold_to_cbet(self, prior: float, weight: float = PRIOR_WEIGHT) -> float:
        return rate(self.folds_to_cbet, self.faced_cbets, prior, weight)

    def fold_to_turn_cbet(self, prior: float, weight: float = PRIOR_WEIGHT) -> float:
        return rate(self.folds_to_turn_cbet, self.faced_turn_cbets, prior, weight)

    def check_raise_share(self, prior: float, weight: float = PRIOR_WEIGHT) -> float:
        return rate(self.check_raises, self.check_raise_chances, prior, weight)

    def river_bluff_share(self, prior: float, weight: float = 4.0) -> float:
        """Share of their bets on the last round shown down that were weak hands."""
        return rate(self.shown_river_bluffs, self.shown_river_bets, prior, weight)

    def bet_size(self, prior: float, weight: float = PRIOR_WEIGHT) -> float:
        """Their usual bet or raise after the flop, as a share of the pot before it."""
        return rate(self.bet_size_sum, self.bet_size_n, prior, weight)

    def aggression(self, prior: float = 0.3) -> float:
        """Bets and raises per chance to make one, every street together."""
        count = self.opens + self.reraises + self.bets + self.raises_of_bet
        chances = self.open_chances + self.reraise_chances + self.bet_chances + self.faced_bets
        return rate(count, chances, prior, 10.0)

    def looseness(self) -> float:
        """0 for a player who bets and raises like most, up to 1 for one who always does."""
        return max(0.0, min(1.0, (self.aggression() - 0.4) / 0.4))


class TableMemory:
    """Statistics per opponent, built from the final views of the hands a bot played."""

    def __init__(self) -> None:
        self.stats: dict[tuple[int, str], OpponentStats] = {}
        self.hands_seen = 0

    def key(self, view: Mapping[str, Any], seat: int) -> tuple[int, str]:
        players = view.get("players") or {}
        return (seat, str(players.get(str(seat), players.get(seat, ""))))

    def of(self, view: HandView, seat: int) -> OpponentStats:
        """The record of the player at ``seat`` (empty if they are new)."""
        return self.stats.get(self.key(view, seat)) or OpponentStats()

    def observe(self, view: HandView) -> None:
        """Learn from one hand's public record: ``view`` is the bot's own final view."""
        me = view.get("viewer")
        variant = str(view.get("variant", "holdem"))
        first = game(variant).streets[0].name
        history = list(view.get("history") or [])
        seats = [int(s) for s in view.get("dealt_seats") or []]
        self.hands_seen += 1
        records = {s: self._record(view, s) for s in seats if s != me}
        for rec in records.values():
            rec.hands += 1
        jammers = _read_actions(history, first, records, variant)
        shown = _shown_cards(history)
        board = [
            parse_view_cards([c])[0] if isinstance(c, str) else int(c)  # text on the wire
            for e in history
            if e.get("kind") == "street"
            for c in e.get("cards") or ()
        ]
        last_aggr = _last_aggressor_by_street(history, first)
        # the index of the last betting round (a draw is not one): the river, or after the draw
        last_round = sum(1 for street in game(variant).streets if not street.max_discards) - 1
        for seat, cards in shown.items():
            if seat not in records:
                continue
            rec = records[seat]
            rec.showdowns += 1
            aggressor = last_aggr.get(last_round) == seat
            if game(variant).evaluator is Evaluator.BEST_FIVE_OF_SEVEN:
                from .preflop import hand_percentile

                pct = hand_percentile(cards[0], cards[1])
                rec.shown_preflop_pct.append(pct)
                if seat in jammers:
                    rec.shown_jam_pct.append(pct)
                weak = _weak_holdem(cards, board)
            else:
                weak = category(shown_value(variant, cards, board)) < PAIR
            if aggressor:
                rec.shown_river_bets += 1
                rec.shown_river_bluffs += int(weak)
        if game(variant).has_draw:
            for s in view.get("seats") or []:
                seat, drew = int(s["seat"]), s.get("discards")
                if seat in records and isinstance(drew, int):
                    records[seat].draws.append(drew)

    def _record(self, view: HandView, seat: int) -> OpponentStats:
        k = self.key(view, seat)
        rec = self.stats.get(k)
        if rec is None:
            rec = self.stats[k] = OpponentStats()
        return rec


def _weak_holdem(cards: tuple[Card, ...], board: list[Card]) -> bool:
    """A shown hand below one pair, or a pair that uses none of its own cards' ranks."""
    if len(board) < 3:
        return False
    value = hand_value([*cards, *board])
    cat = category(value)
    if cat >= TWO_PAIR:
        return False
    board_ranks = {c >> 2 for c in board}
    hole_ranks = [c >> 2 for c in cards]
    pair_with_board = any(r in board_ranks for r in hole_ranks) or hole_ranks[0] == hole_ranks[1]
    return cat < PAIR or not pair_with_board


def _shown_cards(history: Iterable[Mapping[str, Any]]) -> dict[int, tuple[Card, ...]]:
    out: dict[int, tuple[Card, ...]] = {}
    for e in history:
        if e.get("kind") == "cards_shown" and e.get("cards"):
            cards = e["cards"]
            parsed = (
                parse_view_cards(cards)
                if isinstance(cards[0], str)
                else tuple(int(c) for c in cards)
            )
            out[int(e["seat"])] = parsed
    return out


STREET_ORDER = {"preflop": 0, "flop": 1, "turn": 2, "river": 3, "predraw": 0, "postdraw": 1}


def _last_aggressor_by_street(history: list[ViewEvent], first: str) -> dict[int, int]:
    street = first
    out: dict[int, int] = {}
    for e in history:
        if e.get("kind") == "street":
            street = str(e.get("name", street))
        elif e.get("kind") == "action" and e.get("action") in AGGRESSIVE:
            out[STREET_ORDER.get(street, 0)] = int(e["seat"])
    return out


def _read_actions(
    history: list[ViewEvent], first: str, records: dict[int, OpponentStats], variant: str
) -> set[int]:
    """Count every chance and choice of the hand; the seats that raised all in first."""
    street = first
    raises = 0
    allin_pending = False
    pot = 0
    street_bet = 0
    voluntary: set[int] = set()
    raised: set[int] = set()
    jammers: set[int] = set()
    called_post: set[int] = set()  # called a bet after the flop on an earlier street
    called_now: set[int] = set()
    aggression_now: dict[int, int] = {}  # seat -> the raise count their last bet/raise made
    checked_now: set[int] = set()
    last_aggressor: int | None = None  # of the street before this one
    aggressor_now: int | None = None
    cbet_by: int | None = None  # this street's first bet, if the last aggressor made it
    flop_cbettor: int | None = None
    for e in history:
        kind = e.get("kind")
        if kind in ("blind_posted", "ante_posted"):
            pot += int(e.get("amount", 0) or 0)
            if kind == "blind_posted":
                street_bet = max(street_bet, int(e.get("amount", 0) or 0))
            continue
        if kind == "street":
            street = str(e.get("name", street))
            if street == "draw":  # the discards: no betting, the betting rounds go on after
                continue
            raises, street_bet, allin_pending = 0, 0, False
            called_post |= called_now
            called_now, aggression_now, checked_now = set(), {}, set()
            if street == "turn":
                flop_cbettor = cbet_by
            last_aggressor = aggressor_now
            aggressor_now = cbet_by = None
            continue
        if kind != "action":
            continue
        seat, act = int(e["seat"]), str(e.get("action"))
        all_in = bool(e.get("all_in"))
        added = int(e.get("added", 0) or 0)
        rec = records.get(seat)
        if act == "discard":
            continue
        if rec is not None:
            if all_in:
                rec.all_ins += 1
            if street == first:
                if act in ("call", *AGGRESSIVE):
                    voluntary.add(seat)
                if act in AGGRESSIVE:
                    raised.add(seat)
                    if all_in:
                        jammers.add(seat)
                if raises == 0 and act != "check":
                    rec.open_chances += 1
                    if act in AGGRESSIVE:
                        rec.opens += 1
                        rec.open_jams += int(all_in)
                if raises == 1:
                    rec.reraise_chances += 1
                    if act in AGGRESSIVE:
                        rec.reraises += 1
                        rec.reraise_jams += int(all_in)
                if raises >= 1:
                    rec.fold_to_raise_chances += 1
                    rec.folds_to_raise += int(act == "fold")
                if allin_pending:
                    rec.faced_allin += 1
                    rec.calls_of_allin += int(act in ("call", *AGGRESSIVE))
            else:
                if street_bet == 0:
                    rec.bet_chances += 1
                    rec.bets += int(act in AGGRESSIVE)
                    if street in ("turn", "river"):
                        rec.late_bet_chances += 1
                        rec.late_bets += int(act in AGGRESSIVE)
                else:
                    rec.faced_bets += 1
                    folded = int(act == "fold")
                    rec.folds_to_bet += folded
                    rec.calls_of_bet += int(act == "call")
                    rec.raises_of_bet += int(act in AGGRESSIVE)
                    own = aggression_now.get(seat)
                    if own == 1:
                        rec.faced_raise_after_bet += 1
                        rec.folds_to_raise_after_bet += folded
                    elif own is not None:
                        rec.faced_reraise += 1
                        rec.folds_to_reraise += folded
                    elif seat in called_post and street in ("turn", "river"):
                        rec.faced_barrels += 1
                        rec.folds_to_barrel += folded
                    if raises == 1 and own is None:
                        rec.faced_first_bets += 1
                        rec.folds_to_first_bet += folded
                    if raises == 1 and cbet_by is not None and cbet_by != seat:
                        if street == "turn" and cbet_by == flop_cbettor:
                            rec.faced_turn_cbets += 1
                            rec.folds_to_turn_cbet += folded
                        elif street in ("flop", "postdraw"):
                            rec.faced_cbets += 1
                            rec.folds_to_cbet += folded
                    if seat in checked_now:
                        rec.check_raise_chances += 1
                        rec.check_raises += int(act in AGGRESSIVE)
                if act in AGGRESSIVE and pot > 0:
                    rec.bet_size_sum += added / pot
                    rec.bet_size_n += 1
        if street != first and act == "call":
            called_now.add(seat)
        if street != first and act == "check":
            checked_now.add(seat)
        if act in AGGRESSIVE:
            if street != first and raises == 0 and seat == last_aggressor:
                cbet_by = seat
            aggressor_now = seat
            raises += 1
            if street != first:
                aggression_now[seat] = raises
            street_bet = max(street_bet, int(e.get("amount", 0) or 0))
            allin_pending = all_in or allin_pending
        pot += added
    for seat in voluntary:
        if seat in records:
            records[seat].vpip += 1
    for seat in raised:
        if seat in records:
            records[seat].pfr += 1
    return jammers
