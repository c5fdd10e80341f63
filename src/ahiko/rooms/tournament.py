"""Tournament rules at hand boundaries (R-TN-01..05): eliminations, leavers, the winner."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Protocol

from ahiko.rooms.frame_types import ResultRow
from ahiko.rooms.seats import Occupant, Seats
from ahiko.rooms.status import RoomStatus, has_started, may_finish

if TYPE_CHECKING:
    from ahiko.rooms.hooks import RoomHooks
    from ahiko.rooms.ports import CurrentHand, Outgoing
    from ahiko.rooms.ranking import TournamentRanking
    from ahiko.rooms.room_view import RoomView
    from ahiko.rooms.table_hand import TableHand


class TournamentTable(Protocol):
    """What the tournament rules read and do at a table (the room satisfies it)."""

    @property
    def ranking(self) -> TournamentRanking | None: ...
    @property
    def seats(self) -> Seats: ...
    @property
    def status(self) -> RoomStatus: ...
    @property
    def dealer(self) -> CurrentHand: ...
    @property
    def departed_names(self) -> Mapping[str, str]: ...
    @property
    def hooks(self) -> RoomHooks: ...
    @property
    def view(self) -> RoomView: ...
    @property
    def broadcast(self) -> Outgoing: ...
    def finish(self) -> None: ...


def eliminate_busted(room: TournamentTable, hand: TableHand) -> None:
    """R-TN-04: everyone who ends the hand with no chips is out, ranked among themselves by
    their chips when the hand began, then by lot."""
    ranking = room.ranking
    assert ranking is not None
    out: dict[str, int] = {}
    for seat, player_id in hand.players.items():
        occupant = room.seats.get(seat)
        if occupant is None or occupant.player_id != player_id:
            continue
        if occupant.stack == 0 and player_id not in ranking.eliminated:
            out[player_id] = hand.start_stacks[seat]
            occupant.leave_after_hand = True
    ranking.eliminate_in_hand(hand.hand_no, out)


def eliminate_leaver(room: TournamentTable, occupant: Occupant, in_hand: bool) -> None:
    """R-TN-05: leaving is elimination at once, in the position of that moment. Chips the
    leaver still holds leave the game with them (the room's ``chips_out``)."""
    ranking = room.ranking
    assert ranking is not None
    if not has_started(room.status):
        ranking.entrants -= 1  # not started: simply no longer an entrant
        return
    hand_no = room.dealer.hand.hand_no if (room.dealer.hand is not None and in_hand) else None
    ranking.eliminate_leaver(occupant.player_id, hand_no, occupant.stack)


def finish_if_won(room: TournamentTable) -> bool:
    """R-TN-05: the game ends when one player has chips. Publishes the results."""
    ranking = room.ranking
    if ranking is None or not may_finish(room.status):
        return False
    if room.dealer.hand is not None:
        return False
    alive = [
        o for _, o in room.seats.items() if o.stack > 0 and o.player_id not in ranking.eliminated
    ]
    if len(alive) > 1:
        return False
    if alive:
        ranking.declare_winner(alive[0].player_id)
    room.finish()
    results = results_of(room)
    prizes = room.hooks.on_tournament_over(room.view, results)  # a sit & go pays and stores
    for row in results:
        if prizes.get(row["player_id"]):
            row["prize"] = prizes[row["player_id"]]
    room.broadcast.emit("tournament_over", lambda _seat: {"results": results}, public=True)
    return True


def results_of(room: TournamentTable) -> list[ResultRow]:
    assert room.ranking is not None
    names = {o.player_id: o.name for _, o in room.seats.items()}
    names.update(room.departed_names)
    return [
        {
            "place": p.place,
            "player_id": p.player,
            "name": names.get(p.player, p.player),
            "eliminated_in_hand": p.eliminated_in_hand,
            "chips_at_hand_start": p.chips_at_hand_start,
            "by_lot": p.by_lot,
        }
        for p in room.ranking.placements()
    ]
