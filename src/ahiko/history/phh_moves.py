"""Feeding PHH player moves to a hand of our engine, shared by hold'em and five-card draw."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Protocol

from ahiko.poker.actions import Action, ActionKind, IllegalAction, LegalActions
from ahiko.poker.cards import Card, format_card
from ahiko.poker.events import Event
from ahiko.poker.holdem import HoldemHand

from .phh import PhhError, PlayerMove, player_label

_FOLD, _CHECK, _CALL = Action.fold(), Action.check(), Action.call()

# R-TM-04: a withdrawn absentee's fold, where a check was possible or out of turn, is written
# ``pN f # forfeit``: PHH has no verb for it, and a comment is what other readers skip.
FORFEIT_NOTE = "# forfeit"
# R-TM-06 D: a betting round stopped where it stood (a room that expired) is our own field
# (PHH's user-defined fields start with an underscore): its value is the reason.
BETTING_STOPPED_FIELD = "_betting_stopped"


def is_forfeit(line: str) -> bool:
    return line.endswith(FORFEIT_NOTE)


def forfeit_line(label: str) -> str:
    return f"{label} f {FORFEIT_NOTE}"


def betting_line(label: str, kind: str, amount: int) -> str:
    """A logged betting action as PHH writes it: ``f``, ``cc`` or ``cbr TO``."""
    if kind == ActionKind.FOLD:
        return f"{label} f"
    if kind in (ActionKind.CHECK, ActionKind.CALL):
        return f"{label} cc"
    return f"{label} cbr {amount}"


class StoppableHand(Protocol):
    @property
    def is_over(self) -> bool: ...
    def stop_betting(self, reason: str = ...) -> list[Event]: ...


def stop_if_stopped(hand: StoppableHand, fields: dict[str, object]) -> None:
    """After the moves: a hand whose betting was stopped (R-TM-06 D) runs out to its pots."""
    reason = fields.get(BETTING_STOPPED_FIELD)
    if reason is not None and not hand.is_over:
        hand.stop_betting(str(reason))


class PlayableHand(Protocol):
    @property
    def to_act(self) -> int | None: ...
    @property
    def is_over(self) -> bool: ...
    @property
    def events(self) -> tuple[Event, ...]: ...
    def legal_actions(self) -> LegalActions: ...
    def act(self, seat: int, action: Action) -> list[Event]: ...
    def forfeit(self, seat: int) -> list[Event]: ...
    def show(self, seat: int) -> list[Event]: ...
    def has_shown(self, seat: int) -> bool: ...


def apply_move(
    hand: PlayableHand,
    move: PlayerMove,
    seats: Sequence[int],
    line: str,
    discard: tuple[Card, ...] = (),
) -> None:
    """Apply a f / cc / cbr / sd move of position ``move.player`` (seat ``seats[j]``) to a
    hand that may be in its draw. ``discard`` holds the real cards of an ``sd`` move
    (unknown ones already resolved)."""
    if move.verb == "f" and is_forfeit(line):
        _forfeit(hand, seats[move.player], line)
        return
    seat = _seat_to_act(hand, move, seats, line)
    legal = hand.legal_actions()
    action: Action
    if move.verb == "sd":
        if not legal.is_draw_phase:
            raise PhhError(f"{line!r}: this is not the draw")
        action = Action.discard(discard)
    elif legal.is_draw_phase:
        raise PhhError(f"{line!r}: {player_label(move.player)} must draw ('sd') now")
    else:
        action = _betting_action(move, legal.call_cost > 0, legal.bet_kind is ActionKind.BET)
    _act(hand, seat, action, line)


def apply_holdem_moves(
    hand: HoldemHand, moves: Iterable[tuple[PlayerMove, str]], seats: Sequence[int]
) -> None:
    """Apply f / cc / cbr moves (each with its line) to a hold'em hand, in order. The engine
    tells check from call and bet from raise, and validates each action (turn included) as
    for any player; the first illegal one raises PhhError naming its line."""
    play = hand.play
    for move, line in moves:
        seat = seats[move.player]
        verb = move.verb
        try:
            if verb == "f" and line.endswith(FORFEIT_NOTE):  # is_forfeit, inlined
                _forfeit(hand, seat, line)
            else:
                play(seat, verb, move.amount)
        except IllegalAction as exc:
            to_act = hand.to_act
            if to_act != seat:  # out of turn: say so in positions, as for any other move
                raise _turn_error(to_act, move, seats, line) from None
            raise PhhError(f"{line!r} is illegal here: {exc}") from exc


def _forfeit(hand: PlayableHand, seat: int, line: str) -> None:
    try:
        hand.forfeit(seat)
    except IllegalAction as exc:
        raise PhhError(f"{line!r} is illegal here: {exc}") from exc


def _seat_to_act(hand: PlayableHand, move: PlayerMove, seats: Sequence[int], line: str) -> int:
    """The move's seat, once it is that seat's turn."""
    seat = seats[move.player]
    to_act = hand.to_act
    if to_act != seat:
        raise _turn_error(to_act, move, seats, line)
    return seat


def _turn_error(to_act: int | None, move: PlayerMove, seats: Sequence[int], line: str) -> PhhError:
    if to_act is None:
        return PhhError(f"{line!r}: no player may act now (the hand is over or running out)")
    expected = player_label(list(seats).index(to_act))
    return PhhError(f"{line!r}: it is {expected}'s turn, not {player_label(move.player)}'s")


def _betting_action(move: PlayerMove, facing_bet: bool, no_bet_yet: bool) -> Action:
    verb = move.verb
    if verb == "f":
        return _FOLD
    if verb == "cc":
        return _CALL if facing_bet else _CHECK
    assert verb == "cbr" and move.amount is not None
    return Action(ActionKind.BET if no_bet_yet else ActionKind.RAISE, move.amount)


def _act(hand: PlayableHand, seat: int, action: Action, line: str) -> None:
    try:
        hand.act(seat, action)
    except IllegalAction as exc:
        raise PhhError(f"{line!r} is illegal here: {exc}") from exc


def apply_voluntary_shows(
    hand: PlayableHand, shows: Sequence[PlayerMove], seats: Sequence[int]
) -> None:
    """A PHH ``sm CARDS`` for a seat our showdown left unshown is a voluntary show
    (R-HE-12); our engine decides the showdown order and mucks itself."""
    for move in shows:
        seat = seats[move.player]
        if move.cards and not hand.has_shown(seat):
            try:
                hand.show(seat)
            except IllegalAction:
                continue


def per_player(value: object, n: int, name: str) -> list[int]:
    """A PHH per-player field (a number for everyone, or an array padded with zeros)."""
    if type(value) is list and len(value) == n:  # the usual: one entry per player
        return chip_counts(list(value), name)  # a copy: the document's own list stays its own
    if isinstance(value, int | float) and not isinstance(value, bool):
        return [whole_chips(value, name)] * n
    if not isinstance(value, list):
        raise PhhError(f"field {name!r} must be a number or an array")
    if len(value) > n:
        raise PhhError(f"field {name!r} has {len(value)} entries for {n} players")
    return chip_counts(value + [0] * (n - len(value)), name)


_ONLY_INT = {int}


def chip_counts(values: list[object], name: str) -> list[int]:
    """``values`` as whole chip counts; the first one that is not is named in the error."""
    if set(map(type, values)) == _ONLY_INT:
        counts: list[int] = values  # type: ignore[assignment]  # ints, checked (``cast``: a call)
        if min(counts) >= 0:
            return counts
    return [whole_chips(v, name) for v in values]


def whole_chips(value: object, name: str) -> int:
    if type(value) is int and value >= 0:  # the usual case; bool is not int here
        return value
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise PhhError(f"field {name!r} must hold numbers, got {value!r}")
    if value != int(value) or value < 0:
        raise PhhError(f"field {name!r}: {value!r} is not a whole number of chips")
    return int(value)


def describe_cards(cards: Sequence[Card]) -> str:
    return " ".join(format_card(c) for c in cards)


def table_seats(fields: dict[str, object], n: int) -> tuple[tuple[int, ...], int]:
    """Seats in position order (p1..pn) and the button seat. PHH's optional ``seats`` field
    (1-based table seats, which our export writes) is honoured; without it pj sits at seat
    j-1. Position order must be clockwise from the first seat after the button (pn)."""
    raw = fields.get("seats")
    if raw is None:
        return tuple(range(n)), n - 1
    if not isinstance(raw, list) or len(raw) != n:
        raise PhhError(f"field 'seats' must list one seat per player ({n})")
    seats = tuple(whole_chips(s, "seats") - 1 for s in raw)
    button = seats[-1]
    clockwise = sorted(seats, key=lambda s: (s <= button, s))
    if len(set(seats)) != n or min(seats) < 0 or list(seats) != clockwise:
        raise PhhError(f"field 'seats' {raw} is not in clockwise order ending with the button")
    return seats, button


def seats_in_table_order(
    seats: Sequence[int], stacks: Sequence[int]
) -> tuple[list[int], list[int]]:
    """Seats ascending with their stacks, as a table hands them to ``start``."""
    pairs = sorted(zip(seats, stacks, strict=True))
    return [s for s, _ in pairs], [c for _, c in pairs]
