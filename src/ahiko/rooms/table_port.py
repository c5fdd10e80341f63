"""The dispatch's port: the table as ``handlers`` reaches it (why it is wide: see there)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from ahiko.rooms.leaving import LeavingTable, LedgerDesk
from ahiko.rooms.pausing import PausingTable

if TYPE_CHECKING:
    from ahiko.rooms import commands as c
    from ahiko.rooms.broadcast import Broadcast
    from ahiko.rooms.chat import TableChat
    from ahiko.rooms.commands import Reply
    from ahiko.rooms.config import RoomConfig
    from ahiko.rooms.dealing import Dealer
    from ahiko.rooms.hooks import RoomHooks
    from ahiko.rooms.presence import Presence
    from ahiko.rooms.room_view import RoomView
    from ahiko.rooms.run_question import RunQuestion
    from ahiko.rooms.seat_secrets import SeatSecrets
    from ahiko.rooms.seats import Occupant
    from ahiko.rooms.sitting_out import SittingOut
    from ahiko.rooms.straddle_offer import StraddleOffer
    from ahiko.rooms.table_bots import TableBots
    from ahiko.rooms.turns import Turns
    from ahiko.rooms.waitlist import WaitList


class SitDesk(LedgerDesk, Protocol):
    """The host's desk, as a sit asks it ("approve players": the host decides)."""

    def ask_to_sit(self, cmd: c.Sit) -> Reply | None: ...


class Table(LeavingTable, PausingTable, Protocol):
    """The table as the dispatch reaches it: every part, and the room's own verbs."""

    closed_stacks: dict[str, int]

    @property
    def config(self) -> RoomConfig: ...
    @property
    def host_id(self) -> str | None: ...
    @property
    def dealer(self) -> Dealer: ...
    @property
    def turns(self) -> Turns: ...
    @property
    def broadcast(self) -> Broadcast: ...
    @property
    def presence(self) -> Presence: ...
    @property
    def host_desk(self) -> SitDesk: ...
    @property
    def waitlist(self) -> WaitList: ...
    @property
    def chat(self) -> TableChat: ...
    @property
    def bots(self) -> TableBots: ...
    @property
    def seat_secrets(self) -> SeatSecrets: ...
    @property
    def sitting_out(self) -> SittingOut: ...
    @property
    def run_question(self) -> RunQuestion: ...
    @property
    def straddle_offer(self) -> StraddleOffer: ...
    @property
    def hooks(self) -> RoomHooks: ...
    @property
    def view(self) -> RoomView: ...
    def start_running(self) -> None: ...
    def close(self, reason: str) -> None: ...
    def seat_occupant(self, seat: int, occupant: Occupant) -> bool: ...
