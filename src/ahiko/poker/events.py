"""The hand's event log. A hand *is* its events: state is a fold over them.

Every event is a frozen dataclass with a ``kind`` class attribute; ``event_to_dict`` and
``event_from_dict`` round-trip them through JSON (tuples become lists, int-keyed dicts get
string keys). Seats are table seat numbers, cards are ints (``cards.py``), amounts are chips.

Kinds, in the order a hand emits them:

- ``hand_started``: variant ("holdem"/"draw"), config (the stakes as a dict), seats and
  stacks (as given to ``start``), button, dealt_seats (deal order, first seat after the
  button first), layout (FAIRNESS.md deal layout name).
- ``ante_posted`` (seat, amount, all_in) and ``blind_posted`` (seat, amount, blind "sb"/"bb",
  all_in): forced bets; a short stack posts what it has and is all-in.
- ``hole_dealt`` (seat, cards, positions): **private** — cards are only for that seat.
- ``action`` (seat, action = fold/check/call/bet/raise, amount = the seat's street total after
  a call/bet/raise (0 for fold/check), added = chips put in by this action, all_in).
- ``street`` (name = flop/turn/river for hold'em, draw/postdraw for draw; cards and
  positions of the community cards dealt, empty for draw).
- ``discarded`` (seat, count, cards, new_cards, positions): the draw; count and positions are
  public, the thrown and the new cards are **private** to the seat.
- ``bet_returned`` (seat, amount): an uncalled bet goes back (R-PT-03).
- ``cards_shown`` (seat, cards, reason "showdown"/"allin"/"voluntary") and ``mucked`` (seat):
  the showdown (R-HE-12); mucked cards stay private.
- ``pot_awarded`` (index 0 = main pot, amount, eligible, winners, shares {seat: chips},
  hands {seat: {"category", "ranks"}} for the hands shown: the value, never words).
- ``betting_stopped`` (reason): the room expired mid-hand (R-TM-06 D): no more betting;
  what follows is the uncalled bet returned, the rest of the board, the showdown.
- ``hand_ended`` (stacks {seat: chips}); a voluntary ``cards_shown`` may still follow it.

The house options (``HoldemConfig``) add, only in hands that use them:

- ``runout_offered`` (seats): everyone still in is all-in before the river and the table
  runs it twice if all agree; ``runout_chosen`` (seat, runs 1 or 2): one answer (the hand
  waits for every seat's; twice only if all chose 2).
- ``second_board`` (name = flop/turn/river, cards, positions): cards of the second board of
  a double-board hand, or of the second run-out, dealt after the first board's.
- ``pot_split`` (index, board 0/1, amount, winners, shares, hands): a pot's half won on one
  board; the ``pot_awarded`` that follows sums both halves.
- ``bounty_paid`` (seat, amount, payers {seat: chips}): seven-deuce, after ``hand_ended``.

``public_event_dict`` is the form anyone may see: private cards removed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields
from typing import Any, ClassVar

from .cards import Card
from .fast_init import fast_init


@fast_init
@dataclass(frozen=True, slots=True)
class HandStarted:
    kind: ClassVar[str] = "hand_started"
    variant: str
    config: dict[str, int]
    seats: tuple[int, ...]
    stacks: tuple[int, ...]
    button: int
    dealt_seats: tuple[int, ...]
    layout: str


@fast_init
@dataclass(frozen=True, slots=True)
class AntePosted:
    kind: ClassVar[str] = "ante_posted"
    seat: int
    amount: int
    all_in: bool


@fast_init
@dataclass(frozen=True, slots=True)
class BlindPosted:
    kind: ClassVar[str] = "blind_posted"
    seat: int
    amount: int
    blind: str
    all_in: bool


@fast_init
@dataclass(frozen=True, slots=True)
class HoleDealt:
    kind: ClassVar[str] = "hole_dealt"
    seat: int
    cards: tuple[Card, ...]
    positions: tuple[int, ...]


@fast_init
@dataclass(frozen=True, slots=True)
class ActionTaken:
    kind: ClassVar[str] = "action"
    seat: int
    action: str
    amount: int
    added: int
    all_in: bool


@fast_init
@dataclass(frozen=True, slots=True)
class StreetDealt:
    kind: ClassVar[str] = "street"
    name: str
    cards: tuple[Card, ...]
    positions: tuple[int, ...]


@fast_init
@dataclass(frozen=True, slots=True)
class Discarded:
    kind: ClassVar[str] = "discarded"
    seat: int
    count: int
    cards: tuple[Card, ...]
    new_cards: tuple[Card, ...]
    positions: tuple[int, ...]


@fast_init
@dataclass(frozen=True, slots=True)
class BetReturned:
    kind: ClassVar[str] = "bet_returned"
    seat: int
    amount: int


@fast_init
@dataclass(frozen=True, slots=True)
class CardsShown:
    kind: ClassVar[str] = "cards_shown"
    seat: int
    cards: tuple[Card, ...]
    reason: str


@fast_init
@dataclass(frozen=True, slots=True)
class Mucked:
    kind: ClassVar[str] = "mucked"
    seat: int


@fast_init
@dataclass(frozen=True, slots=True)
class PotAwarded:
    kind: ClassVar[str] = "pot_awarded"
    index: int
    amount: int
    eligible: tuple[int, ...]
    winners: tuple[int, ...]
    shares: dict[int, int]
    hands: dict[int, dict[str, Any]]  # seat -> {"category": 0..8, "ranks": [deciding ranks]}


@fast_init
@dataclass(frozen=True, slots=True)
class HandEnded:
    kind: ClassVar[str] = "hand_ended"
    stacks: dict[int, int]


@fast_init
@dataclass(frozen=True, slots=True)
class BettingStopped:
    """R-TM-06 D: the room expired during the hand: the betting round stops where it
    stands, unmatched bets go back, the remaining cards are dealt and the pots resolved."""

    kind: ClassVar[str] = "betting_stopped"
    reason: str


@fast_init
@dataclass(frozen=True, slots=True)
class RunoutOffered:
    kind: ClassVar[str] = "runout_offered"
    seats: tuple[int, ...]


@fast_init
@dataclass(frozen=True, slots=True)
class RunoutChosen:
    kind: ClassVar[str] = "runout_chosen"
    seat: int
    runs: int


@fast_init
@dataclass(frozen=True, slots=True)
class SecondBoardDealt:
    kind: ClassVar[str] = "second_board"
    name: str
    cards: tuple[Card, ...]
    positions: tuple[int, ...]


@fast_init
@dataclass(frozen=True, slots=True)
class PotSplit:
    kind: ClassVar[str] = "pot_split"
    index: int
    board: int
    amount: int
    winners: tuple[int, ...]
    shares: dict[int, int]
    hands: dict[int, dict[str, Any]]


@fast_init
@dataclass(frozen=True, slots=True)
class BountyPaid:
    kind: ClassVar[str] = "bounty_paid"
    seat: int
    amount: int
    payers: dict[int, int]


Event = (
    HandStarted
    | AntePosted
    | BlindPosted
    | HoleDealt
    | ActionTaken
    | StreetDealt
    | Discarded
    | BetReturned
    | CardsShown
    | Mucked
    | PotAwarded
    | HandEnded
    | BettingStopped
    | RunoutOffered
    | RunoutChosen
    | SecondBoardDealt
    | PotSplit
    | BountyPaid
)

EVENT_TYPES: dict[str, type[Any]] = {
    cls.kind: cls
    for cls in (
        HandStarted,
        AntePosted,
        BlindPosted,
        HoleDealt,
        ActionTaken,
        StreetDealt,
        Discarded,
        BetReturned,
        CardsShown,
        Mucked,
        PotAwarded,
        HandEnded,
        BettingStopped,
        RunoutOffered,
        RunoutChosen,
        SecondBoardDealt,
        PotSplit,
        BountyPaid,
    )
}
_INT_KEYED = frozenset({"shares", "hands", "stacks", "payers"})
_PRIVATE_FIELDS: dict[str, tuple[str, ...]] = {
    "hole_dealt": ("cards",),
    "discarded": ("cards", "new_cards"),
}


_CONTAINERS = (tuple, list, dict)


def _to_json(value: Any) -> Any:
    if isinstance(value, tuple | list):
        return [_to_json(v) if isinstance(v, _CONTAINERS) else v for v in value]
    if isinstance(value, dict):
        return {str(k): _to_json(v) if isinstance(v, _CONTAINERS) else v for k, v in value.items()}
    return value


#: Each event class's field names, in order (``dataclasses.fields`` builds its tuple anew on
#: every call: it was a quarter of ``event_to_dict``, which runs for every event of every
#: hand several times: the broadcast, the hand log, the archive).
_FIELD_NAMES: dict[type, tuple[str, ...]] = {}


def event_to_dict(event: Event) -> dict[str, Any]:
    """JSON-able dict with a "kind" key; the exact inverse of ``event_from_dict``."""
    names = _FIELD_NAMES.get(type(event))
    if names is None:
        names = _FIELD_NAMES[type(event)] = tuple(f.name for f in fields(event))
    out: dict[str, Any] = {"kind": event.kind}
    for name in names:
        value = getattr(event, name)
        out[name] = _to_json(value) if isinstance(value, _CONTAINERS) else value
    return out


def public_event_dict(event: Event) -> dict[str, Any]:
    """``event_to_dict`` without the private cards (hole cards, discards, draws)."""
    out = event_to_dict(event)
    for name in _PRIVATE_FIELDS.get(event.kind, ()):
        del out[name]
    return out


def event_from_dict(data: dict[str, Any]) -> Event:
    """Rebuild an event from ``event_to_dict``'s output."""
    kind = data.get("kind")
    cls = EVENT_TYPES.get(str(kind))
    if cls is None:
        raise ValueError(f"unknown event kind {kind!r}")
    if kind == "pot_awarded" and "hands" not in data and "hand_names" in data:
        data = {**data, "hands": {}}  # stored before hands travelled as values: no words kept
    kwargs: dict[str, Any] = {}
    for f in fields(cls):
        if f.name not in data:
            raise ValueError(f"event {kind!r} lacks field {f.name!r}")
        value = data[f.name]
        if isinstance(value, list):
            value = tuple(value)
        elif isinstance(value, dict) and f.name in _INT_KEYED:
            value = {int(k): v for k, v in value.items()}
        kwargs[f.name] = value
    event: Event = cls(**kwargs)
    return event


def deck_from_events(events: Sequence[Event]) -> tuple[Card, ...]:
    """A deck consistent with every card the log dealt; unseen positions get unused cards."""
    placed: dict[int, Card] = {}
    for e in events:
        if isinstance(e, HoleDealt | StreetDealt | SecondBoardDealt):
            placed.update(zip(e.positions, e.cards, strict=True))
        elif isinstance(e, Discarded):
            placed.update(zip(e.positions, e.new_cards, strict=True))
    spare = iter(sorted(set(range(52)) - set(placed.values())))
    return tuple(placed[p] if p in placed else next(spare) for p in range(52))
