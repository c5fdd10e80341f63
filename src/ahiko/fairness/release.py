"""Who may receive which opening (FAIRNESS.md, "Who gets which opening"; R-FD-03).

- own hole cards and own draw replacements: only that seat, once dealt;
- board cards: everyone, once dealt;
- a seat's cards: everyone, only once shown (at showdown or voluntarily) — except a viewer
  who may not see shown cards (``Viewer.sees_shown`` False: in five-card draw a folded
  player or a spectator, R-DR-07 D, as ``ahiko.poker.view.sees_shown_cards`` decides);
- mucked or folded hands and undealt positions: nobody, ever.

The room keeps a :class:`DealState` (what has been dealt to whom, what has been shown) and
asks :func:`release_openings` what a given :class:`Viewer` may be sent."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from ahiko.fairness.deal import DealCommitter
from ahiko.fairness.opening import Opening
from ahiko.fairness.positions import (
    ROLE_BOARD,
    ROLE_BOARD2,
    ROLE_DRAW,
    ROLE_HOLE,
    ROLE_SHOWDOWN,
)


@dataclass(frozen=True)
class Viewer:
    """A connection's point of view: a seated player, or a spectator (``seat=None``)."""

    seat: int | None = None
    sees_shown: bool = True  # False: other seats' shown cards stay closed (R-DR-07 D)


@dataclass(frozen=True)
class CardSlot:
    """A dealt card: its position and how it was dealt (role hole, board or draw)."""

    position: int
    role: str
    seat: int | None
    k: int


@dataclass(frozen=True)
class DealState:
    """What has happened to the deck so far; immutable, updated by ``with_…`` copies."""

    dealt: tuple[CardSlot, ...] = ()
    shown: frozenset[int] = field(default_factory=frozenset)
    # ``dealt`` as a set: ``may_see`` asks about membership once per slot, per viewer, per frame
    dealt_set: frozenset[CardSlot] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "dealt_set", frozenset(self.dealt))

    def with_dealt(self, slots: Iterable[CardSlot]) -> DealState:
        new = tuple(slots)
        taken = {slot.position for slot in self.dealt}
        for slot in new:
            if slot.position in taken:
                raise ValueError(f"position {slot.position} was already dealt")
            taken.add(slot.position)
        return DealState(self.dealt + new, self.shown)

    def with_shown(self, positions: Iterable[int]) -> DealState:
        """Mark a seat's dealt cards as shown to everyone (showdown or voluntary show)."""
        owned = {slot.position for slot in self.dealt if slot.seat is not None}
        wanted = frozenset(positions)
        if not wanted <= owned:
            raise ValueError(f"positions {sorted(wanted - owned)} are not dealt seat cards")
        return DealState(self.dealt, self.shown | wanted)


def hole_slots(deal: DealCommitter, seat: int) -> tuple[CardSlot, ...]:
    return tuple(
        CardSlot(deal.position(ROLE_HOLE, seat, k), ROLE_HOLE, seat, k)
        for k in range(deal.hole_card_count)
    )


def board_slots(deal: DealCommitter, board_indices: Iterable[int]) -> tuple[CardSlot, ...]:
    return tuple(
        CardSlot(deal.position(ROLE_BOARD, None, b), ROLE_BOARD, None, b) for b in board_indices
    )


def second_board_slots(deal: DealCommitter, indices: Iterable[int]) -> tuple[CardSlot, ...]:
    """The second board's own cards (double board, second run-out): everyone's, once dealt."""
    return tuple(
        CardSlot(deal.position(ROLE_BOARD2, None, k), ROLE_BOARD2, None, k) for k in indices
    )


def draw_slots(deal: DealCommitter, seat: int) -> tuple[CardSlot, ...]:
    """The replacements of ``seat``, once its draw is recorded on ``deal``."""
    return tuple(
        CardSlot(deal.position(ROLE_DRAW, seat, k), ROLE_DRAW, seat, k)
        for k in range(deal.draw_count(seat))
    )


def may_see(viewer: Viewer, slot: CardSlot, state: DealState) -> bool:
    return slot in state.dealt_set and _visible_if_dealt(viewer, slot, state)


def _visible_if_dealt(viewer: Viewer, slot: CardSlot, state: DealState) -> bool:
    return (
        slot.seat is None
        or slot.seat == viewer.seat
        or (viewer.sees_shown and slot.position in state.shown)
    )


def released_role(viewer: Viewer, slot: CardSlot) -> str:
    """The role an opening carries for this viewer: someone else's shown hole card is a
    ``showdown`` opening; board and draw keep their role."""
    if slot.role == ROLE_HOLE and slot.seat != viewer.seat:
        return ROLE_SHOWDOWN
    return slot.role


def visible_slots(viewer: Viewer, state: DealState) -> tuple[CardSlot, ...]:
    return tuple(slot for slot in state.dealt if _visible_if_dealt(viewer, slot, state))


def changed_slots(before: DealState, state: DealState) -> tuple[CardSlot, ...]:
    """The slots of ``state`` that a viewer may see now and could not at ``before`` (an
    earlier state of the same deal), in deal order: the ones dealt since and the ones shown
    since; nothing else changes what anyone may see."""
    shown = state.shown - before.shown
    had = before.dealt_set
    return tuple(
        sorted(
            (slot for slot in state.dealt if slot not in had or slot.position in shown),
            key=lambda slot: slot.position,
        )
    )


def newly_visible(
    viewer: Viewer, before: DealState, state: DealState, changed: Iterable[CardSlot]
) -> list[CardSlot]:
    """The slots ``viewer`` may see at ``state`` and could not at ``before``, in deal order,
    ``changed`` being ``changed_slots(before, state)``: the same as the slots of
    ``visible_slots(viewer, state)`` whose position no slot of ``visible_slots(viewer,
    before)`` has, sorted by position."""
    return [
        slot
        for slot in changed
        if _visible_if_dealt(viewer, slot, state)
        and not (slot in before.dealt_set and _visible_if_dealt(viewer, slot, before))
    ]


def release_openings(deal: DealCommitter, viewer: Viewer, state: DealState) -> list[Opening]:
    """Every opening ``viewer`` may hold now, in deal order."""
    return [
        deal.opening(released_role(viewer, slot), slot.seat, slot.k)
        for slot in sorted(visible_slots(viewer, state), key=lambda s: s.position)
    ]
