"""What the hand takes in each of its phases: the room's second table, beside the status's
(``ahiko.rooms.status``). A command the room's status takes may still wait for a hand in the
right phase: a bet for the dealt cards, a straddle's answer for the commitment before them.

The phases are the hand's own (``ahiko.rooms.table_hand.Phase``), and ``BETWEEN_HANDS`` when
the room has no hand. Only the commands a phase decides are here; the rest of a refusal (not
your seat, not your turn, nobody asked you) stays with the part that answers the command.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Final, Literal

from ahiko.rooms import commands as c
from ahiko.rooms.commands import Refused
from ahiko.rooms.table_hand import Phase

if TYPE_CHECKING:
    from ahiko.rooms.table_hand import TableHand

BETWEEN_HANDS: Final = None  # the room has no hand: before the first, or between two
TAKEN: Final = "taken"

HandPhase = Phase | None
Decision = Literal["taken"] | Refused

#: every phase a command can meet, in the order a hand goes through them
PHASES: tuple[HandPhase, ...] = (BETWEEN_HANDS, Phase.COMMITTED, Phase.DEALT, Phase.CANCELLED)

NO_HAND = Refused("no_hand", "no hand is being played now", "R-HE-06")
NOT_IN_A_HAND = Refused("no_hand", "you are not in a hand being played now", "R-HE-06")
# R-HE-02: the blinds, and the straddle a home game adds to them
NO_STRADDLE = Refused("straddle_not_offered", "no straddle is offered to you now", "R-HE-02")
REVEALS_CLOSED = Refused("fair_closed", "the reveals of hand {hand_no} are closed", "R-FD-02")


def _only_in(phase: Phase, otherwise: Refused) -> dict[HandPhase, Decision]:
    return {p: TAKEN if p is phase else otherwise for p in PHASES}


#: command -> phase -> taken, or the refusal players see.
TABLE: Mapping[type, Mapping[HandPhase, Decision]] = {
    c.Act: _only_in(Phase.DEALT, NO_HAND),  # R-HE-06: bets are made on dealt cards
    c.UseTimeBank: _only_in(Phase.DEALT, NOT_IN_A_HAND),  # a turn's clock
    c.ChooseRuns: _only_in(Phase.DEALT, NOT_IN_A_HAND),  # asked when all-in before the river
    # Asked once the deck is committed, answered before the cards (they wait for it)
    c.TakeStraddle: _only_in(Phase.COMMITTED, NO_STRADDLE),
    # pokerfair/2: a secret is revealed while the commitment is shown, before the cards
    c.FairReveal: _only_in(Phase.COMMITTED, REVEALS_CLOSED),
}


def require_phase(hand: TableHand | None, command: type, **facts: object) -> TableHand:
    """``hand`` when its phase takes ``command``, else the table's refusal (``facts`` fill in
    its message)."""
    decision = TABLE[command][None if hand is None else hand.phase]
    if isinstance(decision, Refused):
        raise decision.refusal(**facts)
    assert hand is not None  # between hands no command is taken
    return hand
