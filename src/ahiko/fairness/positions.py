"""Which deal position an opening must have, by layout, role, seat and k (FAIRNESS.md).

The position formulas themselves live in ``ahiko.poker.layout``, shared with the engine;
this module adds the roles of an opening and the checks a verifier needs."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ahiko.poker import layout as lay
from ahiko.poker.cards import DECK_SIZE
from ahiko.poker.games import BY_LAYOUT, Game

ROLE_HOLE = "hole"
ROLE_BOARD = "board"
ROLE_SHOWDOWN = "showdown"
ROLE_DRAW = "draw"
ROLE_BOARD2 = "board2"  # the second board's own card k (double board, second run-out)
ROLES = (ROLE_HOLE, ROLE_BOARD, ROLE_SHOWDOWN, ROLE_DRAW, ROLE_BOARD2)
_BASE_OF_SECOND_BOARD = {second: base for base, second in lay.SECOND_BOARD_LAYOUTS.items()}

Draws = Sequence[tuple[int, int]]
"""The public order of the draw: ``(seat, replacement count)`` pairs."""


class LayoutError(ValueError):
    """A layout, a seat list, a draw order or an opening's role/seat/k does not fit."""


def layout_game(layout: str) -> tuple[Game, bool]:
    """The game a layout deals, and whether it has a second board (``*-2board-v1``: the
    second board's own cards from ``hole_cards * n + 5`` on)."""
    played = BY_LAYOUT.get(layout)
    if played is not None:
        return played, False
    base = _BASE_OF_SECOND_BOARD.get(layout)
    if base is None:
        raise LayoutError(f"unknown layout {layout!r}")
    return BY_LAYOUT[base], True


def check_deal_shape(layout: str, dealt_seats: Sequence[int], draws: Draws = ()) -> None:
    """Check 1 of FAIRNESS.md for the deal itself: known layout, 2 <= n, distinct seats, and
    every card the layout can use fits in the deck."""
    played, second = layout_game(layout)
    n = len(dealt_seats)
    if n < 2:
        raise LayoutError(f"a deal needs at least 2 seats, got {n}")
    if len(set(dealt_seats)) != n:
        raise LayoutError(f"dealt seats repeat: {list(dealt_seats)}")
    if played.has_board:
        if draws:
            raise LayoutError(f"a {layout} deal has no draw")
        if played.hole_cards * n + played.board_cards * (1 + second) > DECK_SIZE:
            raise LayoutError(f"{n} seats do not fit in the deck")
        return
    _check_draw_order(dealt_seats, draws)


def _check_draw_order(dealt_seats: Sequence[int], draws: Draws) -> None:
    n = len(dealt_seats)
    order = [seat for seat, _ in draws]
    if len(set(order)) != len(order):
        raise LayoutError(f"a seat draws twice: {order}")
    if any(seat not in dealt_seats for seat in order):
        raise LayoutError(f"a drawing seat was not dealt in: {order}")
    if [s for s in dealt_seats if s in order] != order:
        raise LayoutError(f"the draw order {order} is not the deal order {list(dealt_seats)}")
    if any(count < 0 for _, count in draws):
        raise LayoutError("a replacement count is negative")
    total = sum(count for _, count in draws)
    if lay.DRAW_HAND_CARDS * n + total > DECK_SIZE:
        raise LayoutError(f"{n} hands and {total} replacements do not fit in the deck")


def expected_position(
    layout: str, dealt_seats: Sequence[int], role: str, seat: int | None, k: int, draws: Draws = ()
) -> int:
    """The deal position the layout assigns to card ``k`` of ``role`` (and ``seat``)."""
    n = len(dealt_seats)
    played, second = layout_game(layout)
    holes = played.hole_cards
    if role == ROLE_BOARD2:
        if not second:
            raise LayoutError(f"layout {layout} has no second board")
        if seat is not None:
            raise LayoutError("a board card belongs to no seat")
        return _in_layout(lambda: lay.second_board_position(holes * n, k), f"second board card {k}")
    if role == ROLE_BOARD:
        if not played.has_board:
            raise LayoutError(f"layout {layout} has no board")
        if seat is not None:
            raise LayoutError("a board card belongs to no seat")
        return _in_layout(lambda: lay.holdem_board_position(n, k, holes), f"board card {k}")
    if seat is None or seat not in dealt_seats:
        raise LayoutError(f"seat {seat} was not dealt in")
    j = list(dealt_seats).index(seat)
    if role in (ROLE_HOLE, ROLE_SHOWDOWN):
        if played.has_board:
            return _in_layout(lambda: lay.holdem_hole_position(n, j, k, holes), f"hole card {k}")
        return _in_layout(lambda: lay.draw_hole_position(n, j, k), f"hole card {k}")
    if role == ROLE_DRAW:
        if not played.has_draw:
            raise LayoutError(f"layout {layout} has no draw")
        before = 0
        for drawing_seat, count in draws:
            if drawing_seat == seat:
                if not 0 <= k < count:
                    raise LayoutError(f"seat {seat} drew {count} cards, not a card {k}")
                return lay.draw_replacement_position(n, before + k)
            before += count
        raise LayoutError(f"seat {seat} is not in the public draw order")
    raise LayoutError(f"unknown role {role!r}")


def _in_layout(position: Callable[[], int], what: str) -> int:
    try:
        return position()
    except ValueError:
        raise LayoutError(f"{what} is outside the layout") from None
