"""What a bot reads from its seat's view (R-AI-01), parsed once into plain fields.

The view is the dict of ``ahiko.poker.view.view`` for the bot's own seat: its cards, the
public cards, every seat's stack, bet and status, the public history and the legal actions.
Nothing here can see another seat's hidden cards: they are simply not in the view.
Also here: turning an intention ("bet about 60") into an action that is always legal.
"""

from __future__ import annotations

from dataclasses import dataclass

from ahiko.poker.actions import Action, ActionKind, LegalActions
from ahiko.poker.cards import Card
from ahiko.poker.games import BettingStructure, game
from ahiko.poker.view_types import HandView, LegalView, ViewEvent

from .cards7 import parse_view_cards

AGGRESSIVE = ("bet", "raise")


def legal_from_view(legal: LegalView) -> LegalActions:
    kind = legal.get("bet_kind")
    return LegalActions(
        seat=int(legal["seat"]),
        can_fold=bool(legal["can_fold"]),
        can_check=bool(legal["can_check"]),
        call_cost=int(legal["call_cost"]),
        bet_kind=ActionKind(kind) if kind else None,
        min_to=int(legal["min_to"]),
        max_to=int(legal["max_to"]),
        committed=int(legal["committed"]),
        stack=int(legal["stack"]),
        max_discards=int(legal.get("max_discards", 0)),
        is_draw_phase=bool(legal.get("is_draw_phase", False)),
    )


@dataclass(frozen=True, slots=True)
class PublicAction:
    """One betting action of the public history."""

    street: str
    seat: int
    kind: str  # fold/check/call/bet/raise
    amount: int  # street total after a bet/raise
    all_in: bool


@dataclass(slots=True)
class Situation:
    variant: str
    me: int
    hole: tuple[Card, ...]
    board: tuple[Card, ...]
    street: str
    button: int
    dealt_seats: list[int]
    legal: LegalActions
    stacks: dict[int, int]  # chips behind now
    bets: dict[int, int]  # street bets
    total_bets: dict[int, int]  # this hand
    status: dict[int, str]
    discards: dict[int, int | None]  # draw: cards each seat drew (None before the draw)
    actions: list[PublicAction]
    big_blind: int  # hold'em big blind; draw: the big bet
    small_bet: int  # draw: small bet; hold'em: the big blind

    @property
    def pot(self) -> int:
        """Every chip put in this hand, the current round included."""
        return sum(self.total_bets.values())

    @property
    def to_call(self) -> int:
        return self.legal.call_cost

    @property
    def opponents(self) -> list[int]:
        """Seats still contesting the pot besides mine (active or all-in), in deal order."""
        return [s for s in self.dealt_seats if s != self.me and self.status.get(s) != "folded"]

    @property
    def live_opponents(self) -> list[int]:
        """Opponents who can still bet."""
        return [s for s in self.opponents if self.status.get(s) == "active"]

    @property
    def in_hand(self) -> list[int]:
        return [s for s in self.dealt_seats if self.status.get(s) != "folded"]

    @property
    def is_last_to_act_postflop(self) -> bool:
        """In position: last of the remaining players in post-flop order (button last)."""
        remaining = self.in_hand
        return bool(remaining) and remaining[-1] == self.me

    @property
    def effective_stack(self) -> int:
        """Chips at risk against the deepest opponent, counting this round's bets."""
        mine = self.stacks[self.me] + self.bets[self.me]
        theirs = max((self.stacks[s] + self.bets[s] for s in self.opponents), default=0)
        return min(mine, theirs)

    def street_actions(self, street: str | None = None) -> list[PublicAction]:
        st = self.street if street is None else street
        return [a for a in self.actions if a.street == st]

    def raises_on(self, street: str | None = None) -> int:
        return sum(1 for a in self.street_actions(street) if a.kind in AGGRESSIVE)

    def last_aggressor(self, street: str) -> int | None:
        agg = [a.seat for a in self.street_actions(street) if a.kind in AGGRESSIVE]
        return agg[-1] if agg else None

    def players_behind_preflop(self) -> int:
        """Players who act after me in the first round and have not acted yet."""
        order = preflop_order(self.dealt_seats)
        acted = {a.seat for a in self.street_actions()}
        i = order.index(self.me)
        return sum(1 for s in order[i + 1 :] if s not in acted and self.status.get(s) != "folded")


def preflop_order(dealt_seats: list[int]) -> list[int]:
    """First-round action order: after the big blind; heads-up the button (SB) first."""
    if len(dealt_seats) == 2:
        return [dealt_seats[1], dealt_seats[0]]
    return dealt_seats[2:] + dealt_seats[:2]


def _event_kind(ev: ViewEvent) -> str:
    return str(ev.get("kind", ev.get("type", "")))


def parse_history(history: list[ViewEvent], first_street: str) -> list[PublicAction]:
    street = first_street
    out: list[PublicAction] = []
    for ev in history:
        k = _event_kind(ev)
        if k == "street":
            street = str(ev.get("name", street))
        elif k == "action":
            act = ev.get("action", ev.get("action_kind", ev.get("act")))
            if isinstance(act, dict):
                act = act.get("kind")
            out.append(
                PublicAction(
                    street=street,
                    seat=int(ev["seat"]),
                    kind=str(act),
                    amount=int(ev.get("amount", 0) or 0),
                    all_in=bool(ev.get("all_in", False)),
                )
            )
    return out


def situation_from_view(view: HandView) -> Situation:
    variant = str(view["variant"])
    me = view["viewer"]
    if me is None:
        raise ValueError("a spectator's view: a bot decides on its own seat's (R-AI-01)")
    seats = {int(s["seat"]): s for s in view["seats"]}
    stakes = view.get("stakes", {})
    played = game(variant)
    first = played.streets[0].name
    if played.betting is BettingStructure.FIXED_LIMIT:
        small_bet = int(stakes.get("small_bet", 2))
        big = int(stakes.get("big_bet", 2 * small_bet))
    else:
        big = int(stakes.get("big_blind", 2))
        small_bet = big
    dealt = [int(s) for s in view.get("dealt_seats") or sorted(seats)]
    legal_raw = view.get("legal")
    if legal_raw is None:
        raise ValueError(f"seat {me} is not to act in this view (legal is None)")
    return Situation(
        variant=variant,
        me=me,
        hole=parse_view_cards(seats[me].get("cards")),
        board=parse_view_cards(view.get("board")),
        street=str(view.get("street", first)),
        button=int(view.get("button", dealt[-1])),
        dealt_seats=dealt,
        legal=legal_from_view(legal_raw),
        stacks={s: int(d["stack"]) for s, d in seats.items()},
        bets={s: int(d.get("bet", 0)) for s, d in seats.items()},
        total_bets={s: int(d.get("total_bet", 0)) for s, d in seats.items()},
        status={s: str(d.get("status", "active")) for s, d in seats.items()},
        discards={s: d.get("discards") for s, d in seats.items()},
        actions=parse_history(list(view.get("history") or []), first),
        big_blind=big,
        small_bet=small_bet,
    )


# --- always-legal actions -------------------------------------------------------------


def passive(legal: LegalActions) -> Action:
    """Check if free, else call."""
    if legal.can_check:
        return Action.check()
    if legal.can_call:
        return Action.call()
    return Action.fold()


def check_or_fold(legal: LegalActions) -> Action:
    if legal.can_check:
        return Action.check()
    if legal.can_fold:
        return Action.fold()
    return passive(legal)


def aggressive(legal: LegalActions, to: float) -> Action:
    """Bet or raise to ``to`` clamped into the legal bounds; call/check when no raise is left."""
    if legal.bet_kind is None:
        return passive(legal)
    amount = max(legal.min_to, min(legal.max_to, round(to)))
    if legal.bet_kind == ActionKind.BET:
        return Action.bet(amount)
    return Action.raise_to(amount)


def pot_sized_to(sit: Situation, fraction: float) -> int:
    """Street total for a bet/raise of ``fraction`` of the pot after calling (pot-limit style)."""
    pot_after_call = sit.pot + sit.to_call
    return sit.legal.committed + sit.to_call + round(fraction * pot_after_call)


def price(sit: Situation) -> float:
    """Pot odds: the share of the final pot a call would be."""
    call = sit.legal.call_cost
    return call / (sit.pot + call) if call else 0.0


def is_legal(action: Action, legal: LegalActions, hole: tuple[Card, ...] = ()) -> bool:
    """The bounds check the engine does, for tests and the arena's sanity checks."""
    k = action.kind
    if legal.is_draw_phase:
        return (
            k == ActionKind.DISCARD
            and len(action.cards) <= legal.max_discards
            and len(set(action.cards)) == len(action.cards)
            and all(c in hole for c in action.cards)
        )
    if k == ActionKind.FOLD:
        return legal.can_fold
    if k == ActionKind.CHECK:
        return legal.can_check
    if k == ActionKind.CALL:
        return legal.can_call
    if k in (ActionKind.BET, ActionKind.RAISE):
        return legal.bet_kind == k and legal.min_to <= action.amount <= legal.max_to
    return False
