"""A hand printed as a line a person reads, as python-chess prints a board's position and
pokerkit its state: the class and the game, the street, the board, each seat in button order
with the chips it has behind (and whether it folded), and whose turn it is (nobody's once the
hand is over).

>>> from ahiko.poker import Action, HoldemConfig, HoldemHand
>>> hand, _ = HoldemHand.start(HoldemConfig(10, 20), seats=[1, 2, 3],
...                            stacks=[1000, 1000, 1000], button=3, deck=list(range(52)))
>>> hand
<HoldemHand holdem preflop, seats 1:990 2:980 3:1000, to act 3>
>>> for seat, action in ((3, Action.raise_to(60)), (1, Action.fold()), (2, Action.call())):
...     _ = hand.act(seat, action)
>>> hand
<HoldemHand holdem flop 3h3s4c, seats 1:990 folded 2:940 3:940, to act 2>
>>> _ = hand.act(2, Action.bet(940)); _ = hand.act(3, Action.fold())
>>> hand
<HoldemHand holdem over 3h3s4c, seats 1:990 folded 2:1070 3:940 folded>
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from .cards import format_cards

if TYPE_CHECKING:
    from .hand import AnyHand


class HandText:
    """What ``BaseHand`` prints as (``repr``): read only, outside the engine's hot paths."""

    def __repr__(self) -> str:
        hand = cast("AnyHand", self)  # mixed into BaseHand only
        street = hand.street or "not dealt"
        board = f" {format_cards(hand.community)}" if hand.community else ""
        seats = " ".join(
            f"{seat}:{hand.chips[i]}{' folded' if hand.folded[i] else ''}"
            for i, seat in enumerate(hand.order)
        )
        to_act = hand.to_act
        turn = "" if to_act is None else f", to act {to_act}"
        return f"<{type(hand).__name__} {hand.variant} {street}{board}, seats {seats}{turn}>"
