"""What a player may do, and the error for what they may not.

Amounts follow one convention everywhere: a bet or raise names the seat's *total* bet for the
current betting round after the action ("raise to 160"), as the table shows it ("Aumentar
para 160"). A call names nothing: the engine knows what it costs. All-in is not a kind of its
own: it is a call, bet or raise whose cost is the whole stack.

An action prints as the table's ``act`` frame reads (its ``action``, then the ``amount`` a bet
or raise goes to, or the ``cards`` a draw throws away):

>>> Action.raise_to(60)
<Action raise to 60>
>>> [Action.fold(), Action.check(), Action.call(), Action.bet(20)]
[<Action fold>, <Action check>, <Action call>, <Action bet to 20>]
>>> from ahiko.poker.cards import parse_card
>>> Action.discard((parse_card("Ah"), parse_card("7c"))), Action.discard()
(<Action discard Ah 7c>, <Action discard nothing>)
>>> Action("shove", 0), Action(ActionKind.RAISE, 40.5), Action(ActionKind.DISCARD, 0, (99,))
(<Action 'shove'>, <Action raise to 40.5>, <Action discard (99,)>)
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from .cards import Card, CardError, format_cards
from .fast_init import fast_constructor, fast_init


class ActionKind(StrEnum):
    FOLD = "fold"
    CHECK = "check"
    CALL = "call"
    BET = "bet"
    RAISE = "raise"
    DISCARD = "discard"  # five-card draw only: discard 0..3 cards ("stand pat" = no cards)


@fast_init
@dataclass(frozen=True, slots=True)
class Action:
    kind: ActionKind
    amount: int = 0  # BET/RAISE: the street total after the action; 0 otherwise
    cards: tuple[Card, ...] = ()  # DISCARD: the cards thrown away

    # The usual constructors build through ``fast_init``'s constructor (the same object as
    # ``cls(...)``, built for less: a player's loop builds one per bet or raise).

    # A fold, a check and a call carry nothing: being frozen, one object of each serves
    # every caller (``SHARED``), and the engine's door knows them well-typed by identity.

    @classmethod
    def fold(cls) -> Action:
        return _FOLD_ACTION if cls is Action else cls(ActionKind.FOLD)

    @classmethod
    def check(cls) -> Action:
        return _CHECK_ACTION if cls is Action else cls(ActionKind.CHECK)

    @classmethod
    def call(cls) -> Action:
        return _CALL_ACTION if cls is Action else cls(ActionKind.CALL)

    @classmethod
    def bet(cls, to: int) -> Action:
        return _new_action(BET, to) if cls is Action else cls(ActionKind.BET, to)

    @classmethod
    def raise_to(cls, to: int) -> Action:
        return _new_action(RAISE, to) if cls is Action else cls(ActionKind.RAISE, to)

    @classmethod
    def discard(cls, cards: tuple[Card, ...] = ()) -> Action:
        return cls(ActionKind.DISCARD, 0, tuple(cards))

    def __repr__(self) -> str:
        # Never raises: the engine's door names an ill-typed action (a plug-in bot's) in its
        # refusal, so a kind, amount or card of the wrong type prints as it was given.
        kind = self.kind
        if kind is BET or kind is RAISE:
            return f"<Action {kind.value} to {self.amount!r}>"
        if kind is ActionKind.DISCARD:
            try:
                cards = format_cards(self.cards, " ") or "nothing"
            except (CardError, TypeError):
                cards = repr(self.cards)
            return f"<Action discard {cards}>"
        return f"<Action {kind.value if isinstance(kind, ActionKind) else repr(kind)}>"


_new_action = fast_constructor(Action)
# The kinds as module constants: an enum member read through its class costs a metaclass
# lookup (``betting`` compares them on every action).
FOLD, CHECK, CALL, BET, RAISE = (
    ActionKind.FOLD,
    ActionKind.CHECK,
    ActionKind.CALL,
    ActionKind.BET,
    ActionKind.RAISE,
)
_FOLD_ACTION, _CHECK_ACTION, _CALL_ACTION = _new_action(FOLD), _new_action(CHECK), _new_action(CALL)
SHARED = (_FOLD_ACTION, _CHECK_ACTION, _CALL_ACTION)  # the actions that carry nothing


@fast_init
@dataclass(frozen=True, slots=True)
class LegalActions:
    """Everything the seat to act may do now, with exact bounds (R-HE-06, R-HE-07)."""

    seat: int
    can_fold: bool
    can_check: bool
    call_cost: int  # chips a call adds (may be less than the bet: an all-in call); 0 = no call
    bet_kind: ActionKind | None  # BET (no bet yet this round), RAISE, or None (cannot)
    min_to: int  # least legal street total for bet_kind (== max_to when only all-in is left)
    max_to: int  # most: the seat's street bet plus its stack (NL); the fixed level (limit)
    committed: int  # the seat's street bet so far
    stack: int  # chips behind
    max_discards: int = 0  # draw phase: how many cards may be discarded (0..3); else 0
    is_draw_phase: bool = False

    @property
    def can_call(self) -> bool:
        return self.call_cost > 0


class IllegalAction(ValueError):
    """An action the rules do not allow now. The hand is left exactly as it was.

    ``rule`` is the SPEC id that forbids it (e.g. "R-HE-07"), ``message`` says what was wrong
    and what is allowed ("min raise is to 160, max 1000").
    """

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(f"{rule}: {message}")
        self.rule = rule
        self.message = message


def check_chips(rule: str, what: str, value: object) -> None:
    """Chip amounts are whole numbers (an ``int``, not a bool, float or string), never
    negative: the engine's door refuses anything else, naming it."""
    if type(value) is not int:
        raise IllegalAction(
            rule, f"{what} must be a whole number of chips, got {type(value).__name__} {value!r}"
        )
    if value < 0:
        raise IllegalAction(rule, f"{what} cannot be negative, got {value}")


def check_action_types(action: object, actions_rule: str, size_rule: str) -> None:
    """Refuse, naming it, anything but an :class:`Action` of an :class:`ActionKind`, a whole
    number of chips and a tuple of cards (the engine's door; the rule ids are the game's)."""
    if type(action) is not Action:
        raise IllegalAction(
            actions_rule,
            f"an action must be an Action (Action.call(), Action.raise_to(160), ...), "
            f"got {type(action).__name__} {action!r}",
        )
    kind = action.kind
    if type(kind) is not ActionKind:
        raise IllegalAction(
            actions_rule,
            f"unknown action kind {kind!r}: one of {', '.join(k.value for k in ActionKind)}"
            " as an ActionKind",
        )
    amount = action.amount
    if type(amount) is not int or amount < 0:
        check_chips(size_rule, "the amount", amount)
    cards = action.cards
    # the usual action holds no cards: the empty tuple needs no per-card check
    if type(cards) is not tuple or (
        cards and not all(type(c) is int and 0 <= c < 52 for c in cards)
    ):
        raise IllegalAction(actions_rule, f"cards must be a tuple of cards (0..51), got {cards!r}")
