"""The payloads of the frames a room sends. Cards and salts come only from the engine's
``view`` and the fair deal's release policy, through ``TableHand``.

A snapshot and a room summary describe the whole table, so their port (``FramedTable``) is
the one wide reader among the parts: read-only, every member a property or a query. A
``hand`` frame needs only the hand, the deadline and the room's answer for a seat."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol, cast

from ahiko.fairness.release import DealState
from ahiko.poker.view import history_is_public_for, public_history, view, views
from ahiko.poker.view_types import HandView, ViewEvent
from ahiko.rooms.frame_types import (
    HandState,
    HandUpdate,
    HistoryEntry,
    Opening,
    ReservedSeat,
    RoomSummary,
    RoomSummaryParts,
    SeatEntry,
    Snapshot,
    TableView,
)
from ahiko.rooms.timers import TimerName
from ahiko.rooms.tournament import TournamentTable, results_of

if TYPE_CHECKING:
    from ahiko.rooms.chat import TableChat
    from ahiko.rooms.config import RoomConfig
    from ahiko.rooms.frame_parts import AutoAction, Deadline, HostDeskSummary
    from ahiko.rooms.table_hand import TableHand
    from ahiko.rooms.timebank import TimeBanks
    from ahiko.rooms.timers import Timers
    from ahiko.rooms.waitlist import WaitList


class ShownHands(Protocol):
    """The dealer's hands, as the frames read them."""

    @property
    def hand(self) -> TableHand | None: ...
    @property
    def last_hand(self) -> TableHand | None: ...
    @property
    def hands_dealt(self) -> int: ...


class TurnClock(Protocol):
    """The turns' clock and the room's answer for a seat, as a frame shows them."""

    @property
    def auto_action(self) -> AutoAction | None: ...
    def deadline(self) -> Deadline | None: ...


class DeskSummary(Protocol):
    def summary(self) -> HostDeskSummary: ...


class FramedTable(TournamentTable, Protocol):
    """The whole table as a snapshot or summary reads it (a tournament's results too)."""

    @property
    def room_id(self) -> str: ...
    @property
    def host_id(self) -> str | None: ...
    @property
    def config(self) -> RoomConfig: ...
    @property
    def running_seconds(self) -> float: ...
    @property
    def avg_pot(self) -> int | None: ...
    @property
    def dealer(self) -> ShownHands: ...
    @property
    def turns(self) -> TurnClock: ...
    @property
    def timers(self) -> Timers: ...
    @property
    def time_banks(self) -> TimeBanks: ...
    @property
    def chat(self) -> TableChat: ...
    @property
    def waitlist(self) -> WaitList: ...
    @property
    def host_desk(self) -> DeskSummary: ...


def seat_entries(room: FramedTable) -> list[SeatEntry]:
    entries: list[SeatEntry] = []
    for seat, occupant in room.seats.items():
        entries.append(
            {
                "seat": seat,
                "player_id": occupant.player_id,
                "name": occupant.name,
                "stack": occupant.stack,
                "is_bot": occupant.is_bot,
                "bot_level": occupant.bot_level,
                "connected": occupant.connected,
                "waiting": occupant.waiting,
                "leaving": occupant.leave_after_hand,
                "sitting_out": occupant.sitting_out,
                "awaits_big_blind": occupant.waits_for_big_blind,
                "time_bank": None
                if occupant.is_bot or not room.time_banks.policy.enabled
                else round(room.time_banks.left(occupant.player_id), 3),
            }
        )
    return entries


def room_summary(room: FramedTable, *, with_seats: bool = True) -> RoomSummary:
    config = room.config
    hands_dealt = room.dealer.hands_dealt
    stakes = config.schedule.stakes_for_next_hand(hands_dealt, room.running_seconds)
    hand = room.dealer.hand
    parts: RoomSummaryParts = {}
    part = room.hooks.tournament_part(room.view)
    if part is not None:  # only an event's table carries it: other rooms' frames are as before
        parts["tournament"] = part
    if with_seats:
        parts["seats"] = seat_entries(room)
        parts["reserved"] = [
            ReservedSeat(
                seat=room.seats.reservation_of(o.player_id),
                player_id=o.player_id,
                name=o.name,
            )
            for o in room.seats.people()
            if room.seats.reservation_of(o.player_id) is not None
        ]
    summary: RoomSummary = {
        "id": room.room_id,
        "name": config.name,
        "kind": config.kind.value,
        "variant": config.variant.value,
        "game": config.variant.game.to_json(),
        "tier": config.tier,
        "public": config.public,
        "status": room.status.value,
        "host_id": room.host_id,
        "blinds": stakes.as_dict(),
        "levels": config.schedule.progress(hands_dealt, room.running_seconds),
        "seats_total": config.seats,
        "seats_taken": room.seats.taken,
        "starting_chips": config.starting_chips,
        "action_deadline_s": config.action_deadline_s,
        "limit_hands": config.limit_hands,
        "limit_minutes": config.limit_minutes,
        "hands_dealt": hands_dealt,
        "hand_no": hand.hand_no if hand is not None else None,
        "avg_pot": room.avg_pot,
        "chat": room.chat.mode.value,
        "time_bank": room.time_banks.policy.as_dict(),
        "wait_list": room.waitlist.summary(),
        "countdowns": room.timers.countdowns(),
        **room.host_desk.summary(),  # a home game's host desk
        **parts,
    }
    return summary


def hand_frame(
    hand: TableHand,
    seat: int | None,
    before: DealState,
    deadline: Deadline | None,
    auto_action: AutoAction | None,
) -> HandUpdate:
    """What one viewer learns from a batch of engine events: the new public history entries,
    the whole table as that seat sees it (its history is the snapshot's; here only the new
    entries travel, as ``events``), and the openings that just became theirs. Only the
    entries not yet broadcast are built: rebuilding the whole history per viewer per event
    was most of a room's time under load."""
    engine = hand.engine
    entries = [] if engine is None else public_history(engine, seat, hand.history_sent)
    return {
        "hand_no": hand.hand_no,
        "events": _history(entries),
        "view": {} if engine is None else _table_view(view(engine, seat, with_history=False)),
        "openings": hand.new_openings(seat, before),
        "deadline": deadline,
        "names": hand.names_json,
        "auto_action": auto_action,  # the room answered for a seat (R-TM-01), or None
    }


class HandFrames:
    """The ``hand`` frames of one broadcast, one payload per viewer seat equal to
    ``hand_frame(hand, seat, before, deadline, auto_action)``, with what does not depend on the seat
    built once per change: every seat's view in one pass (``views``), the new public events,
    the deadline and the names. A field added to ``hand_frame`` goes here too
    (``tests/rooms/test_rooms_fanout_encoding.py`` compares the two)."""

    def __init__(
        self,
        hand: TableHand,
        before: DealState,
        deadline: Deadline | None,
        auto_action: AutoAction | None,
    ) -> None:
        self.hand = hand
        self.before = before
        engine = hand.engine
        self.deadline = deadline
        self.auto_action = auto_action
        made = {} if engine is None else views(engine, [None, *engine.order])
        self.views = cast("dict[int | None, TableView]", made)
        shared = [] if engine is None else public_history(engine, None, hand.history_sent)
        self.events = _history(shared)
        # each opening's JSON, made once for every seat that gets it (a board card's: all)
        self.openings: dict[tuple[str, int | None, int], Opening] = {}

    def __call__(self, seat: int | None) -> HandUpdate:
        hand, engine = self.hand, self.hand.engine
        events = self.events
        if engine is not None and (
            engine.game.has_draw or not history_is_public_for(engine, seat)
        ):  # draw's history depends on the viewer (R-DR-07): built for each seat
            events = _history(public_history(engine, seat, hand.history_sent))
        seat_view: TableView = {}
        if engine is not None:
            seat_view = self.views.get(seat) or _table_view(view(engine, seat, with_history=False))
        return {
            "hand_no": hand.hand_no,
            "events": events,
            "view": seat_view,
            "openings": hand.new_openings(seat, self.before, self.openings),
            "deadline": self.deadline,
            "names": hand.names_json,
            "auto_action": self.auto_action,
        }


def hand_state(room: FramedTable, hand: TableHand, seat: int | None) -> HandState:
    seat_view = hand.view(seat)
    return {
        "hand_no": hand.hand_no,
        "phase": hand.phase.value,
        "commitment": hand.commitment(),
        "view": None if seat_view is None else _table_view(seat_view),
        "openings": hand.openings(seat) if hand.engine is not None else [],
        "deadline": room.turns.deadline() if hand is room.dealer.hand else None,
        "names": hand.names_json,
        # committed, not dealt yet: when the cards come (R-FD-02)
        "cards_in_s": room.timers.left(TimerName.DEAL) if hand is room.dealer.hand else None,
    }


def snapshot_frame(room: FramedTable, player_id: str | None) -> Snapshot:
    """The whole table as ``player_id`` (None: a spectator) sees it now."""
    seat = room.seats.seat_of(player_id) if player_id is not None else None
    current = room.dealer.hand
    last = room.dealer.last_hand
    frame: Snapshot = {
        "you": {
            "player_id": player_id,
            "seat": seat,
            "host": player_id is not None and player_id == room.host_id,
        },
        "room": room_summary(room),
        "hand": hand_state(room, current, current.viewer_seat(player_id)) if current else None,
        "last_hand": hand_state(room, last, last.viewer_seat(player_id)) if last else None,
        "chat": room.chat.snapshot(player_id),
    }
    if room.ranking is not None and room.ranking.finished:
        frame["results"] = results_of(room)
    return frame


# The engine makes these parts as plain dicts (its layer knows no frame): named here,
# unchanged, so the frame's type says what they hold.
def _table_view(made: HandView) -> TableView:
    return cast("TableView", made)


def _history(made: list[ViewEvent]) -> list[HistoryEntry]:
    return cast("list[HistoryEntry]", made)
