"""Keeping every finished hand for its players' downloads ("my hands").

``HandArchive`` is the room's ``HandArchiver``: when a hand ends (and again if a winner shows
afterwards, R-HE-12) it captures, from the room's ``TableHand``, the full private event log,
the public commitment, the deal's secrets (deck order, salts, the draw order, which positions
were dealt and which shown) and who sat where, and writes it through
``ahiko.store.hand_archive``. The same captured deal rebuilds the fair deal's openings later
(``deal_from_record``), so a download releases exactly what the release policy allows.

The secrets are written to the database only; they leave the server through
``ahiko.fairness.release.release_openings`` and nothing else.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import Engine

from ahiko.fairness.commitment import Commitment
from ahiko.fairness.deal import DealCommitter
from ahiko.fairness.mixed_deal import AnyOpening, MixedDeal, MixedOpening
from ahiko.fairness.opening import Opening
from ahiko.fairness.proof import proof_document
from ahiko.fairness.proof_v2 import proof_document_v2, release_mixed_openings
from ahiko.fairness.release import CardSlot, DealState, Viewer, release_openings
from ahiko.poker.events import event_to_dict
from ahiko.rooms.finished.mixed_record import MIXED_KEY, mixed_from_record, mixed_record
from ahiko.rooms.house.bot_ahiko import BOT_AHIKO_ID
from ahiko.store.hand_archive import ArchivedHand, ArchivedPlayer, insert_archived_hand, record_show
from ahiko.store.writer import InlineWriter, StoreWriter

if TYPE_CHECKING:
    from ahiko.rooms.room_view import RoomView
    from ahiko.rooms.table_hand import TableHand

log = logging.getLogger(__name__)


class ArchiveCorrupt(ValueError):
    """An archived deal does not rebuild the commitment it was stored with."""


# --- the deal's secrets as JSON --------------------------------------------------------------
def deal_record(hand: TableHand) -> dict[str, Any]:
    """``{deck, salts, draws, dealt, shown}``: everything needed to open any dealt card later."""
    committer = hand.committer
    state = hand.deal_state
    record: dict[str, Any] = {
        "deck": list(committer.deck),  # in committed (leaf) order
        "salts": [salt.hex() for salt in committer.salts],
        "draws": [[seat, count] for seat, count in committer.draws],
        "dealt": [[s.position, s.role, s.seat, s.k] for s in state.dealt],
        "shown": sorted(state.shown),
    }
    mixed = mixed_record(hand)
    if mixed is not None:
        record[MIXED_KEY] = mixed
    return record


@dataclass(frozen=True)
class ArchivedDeal:
    """A finished hand's deal, rebuilt: the committer (with the draw order replayed), the
    commitment exactly as it was broadcast, and what was dealt and shown."""

    committer: DealCommitter
    commitment: Commitment
    state: DealState
    mixed: MixedDeal | None = None  # pokerfair/2: the players' secrets chose the leaves

    def opening(self, role: str, seat: int | None, k: int) -> AnyOpening:
        return (self.mixed or self.committer).opening(role, seat, k)

    def release(self, viewer: Viewer) -> list[AnyOpening]:
        """Every opening ``viewer`` may hold after the hand (the release policy)."""
        if self.mixed is not None:
            return list(release_mixed_openings(self.mixed, viewer, self.state))
        return list(release_openings(self.committer, viewer, self.state))

    def proof(self, openings: list[AnyOpening]) -> dict[str, Any]:
        """The proof file of these openings, in the version the hand was dealt with."""
        if self.mixed is not None:
            mixed = [o for o in openings if isinstance(o, MixedOpening)]
            return proof_document_v2(self.mixed, mixed)
        plain = [o for o in openings if isinstance(o, Opening)]
        return proof_document(self.commitment, plain, draws=self.committer.draws)


def deal_from_record(commitment: Mapping[str, Any], record: Mapping[str, Any]) -> ArchivedDeal:
    """Rebuild the deal; raises ``ArchiveCorrupt`` unless it reproduces the stored digest."""
    try:
        committer = DealCommitter(
            table_id=str(commitment["table_id"]),
            hand_no=int(commitment["hand_no"]),
            layout=str(commitment["layout"]),
            button_seat=int(commitment["button_seat"]),
            dealt_seats=[int(s) for s in commitment["dealt_seats"]],
            deck=[int(c) for c in record["deck"]],
            committed_at_ms=int(commitment["committed_at_ms"]),
            prev=bytes.fromhex(str(commitment["prev"])),
            salts=[bytes.fromhex(str(s)) for s in record["salts"]],
        )
        for seat, count in record["draws"]:
            committer.record_draw(int(seat), int(count))
        state = DealState(
            dealt=tuple(
                CardSlot(int(p), str(role), None if seat is None else int(seat), int(k))
                for p, role, seat, k in record["dealt"]
            ),
            shown=frozenset(int(p) for p in record["shown"]),
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise ArchiveCorrupt(f"archived deal cannot be rebuilt: {exc}") from None
    rebuilt = committer.commitment
    mixed = None
    if record.get(MIXED_KEY) is not None:
        try:
            mixed = mixed_from_record(committer, record[MIXED_KEY])
        except (KeyError, TypeError, ValueError) as exc:
            raise ArchiveCorrupt(f"archived pokerfair/2 deal cannot be rebuilt: {exc}") from None
    if rebuilt.digest.hex() != commitment.get("digest"):
        raise ArchiveCorrupt(
            f"hand {rebuilt.table_id}#{rebuilt.hand_no}: the archived deck and salts do not "
            "reproduce the commitment's digest"
        )
    sig = commitment.get("sig")
    broadcast = replace(rebuilt, sig=None if sig is None else bytes.fromhex(str(sig)))
    if mixed is not None:
        mixed.deal.commitment = broadcast  # the signed commitment, as the table saw it
    return ArchivedDeal(committer, broadcast, state, mixed)


# --- capturing a finished hand ---------------------------------------------------------------
def shown_seats(events: list[dict[str, Any]]) -> list[int]:
    return sorted({int(e["seat"]) for e in events if e.get("kind") == "cards_shown"})


def _player(room: RoomView, hand: TableHand, seat: int, final: Mapping[int, int]) -> ArchivedPlayer:
    player_id = hand.players[seat]
    occupant = room.seats.get(seat)
    seated = occupant if occupant is not None and occupant.player_id == player_id else None
    if player_id == BOT_AHIKO_ID:
        kind = "bot_ahiko"
    elif (seated is not None and seated.is_bot) or room.is_bot(player_id):
        kind = "bot"
    else:
        kind = "person"
    departed = room.departed_name(player_id)
    name = hand.names.get(seat) or (
        seated.name if seated is not None else player_id if departed is None else departed
    )
    start = hand.start_stacks[seat]
    return ArchivedPlayer(
        seat=seat,
        player_id=player_id,
        user_id=int(player_id) if kind == "person" and player_id.isdigit() else None,
        name=name,
        occupant=kind,
        start_stack=start,
        net=final.get(seat, start) - start,
    )


def capture(room: RoomView, hand: TableHand, ended_at: datetime) -> ArchivedHand:
    """The archive record of ``hand``, which has just ended at ``room``."""
    events = [event_to_dict(e) for e in hand.hand.events]
    final = hand.final_stacks()
    showed = set(shown_seats(events))
    commitment = hand.commitment()
    players = tuple(
        replace(_player(room, hand, seat, final), showed=seat in showed)
        for seat in sorted(hand.players)
    )
    return ArchivedHand(
        room_id=room.room_id,
        room_kind=room.config.kind.value,
        room_name=room.config.name,
        variant=room.config.variant.value,
        max_seats=room.config.seats,
        hand_no=hand.hand_no,
        commitment=commitment,
        events=events,
        deal=deal_record(hand),
        players=players,
        started_at=datetime.fromtimestamp(int(commitment["committed_at_ms"]) / 1000, UTC),
        ended_at=ended_at,
    )


def _utc_now() -> datetime:
    return datetime.now(UTC)


class HandArchive:
    """The rooms' ``HandArchiver`` over a database. A failure to archive is logged and never
    stops the room: the table keeps playing.

    The record is captured on the room's thread (it reads the room); the write goes to
    ``writer``: one lane for every room, in order (a show after a hand lands after that
    hand), on a worker thread on the real clock, inline by default."""

    LANE = "archive"

    def __init__(
        self,
        engine: Engine,
        now: Callable[[], datetime] = _utc_now,
        writer: StoreWriter | None = None,
    ) -> None:
        self.engine = engine
        self._now = now
        self.writer: StoreWriter = writer or InlineWriter()

    def hand_finished(self, room: RoomView, hand: TableHand) -> None:
        where = f"hand {hand.hand_no} of room {room.room_id}"
        try:
            record = capture(room, hand, self._now())
        except Exception:
            log.exception("could not archive %s", where)
            return
        self.writer.submit(
            self.LANE, _logged(where, lambda: insert_archived_hand(self.engine, record))
        )

    def hand_shown(self, room: RoomView, hand: TableHand) -> None:
        where = f"the show of hand {hand.hand_no} of room {room.room_id}"
        try:
            events = [event_to_dict(e) for e in hand.hand.events]
            deal = deal_record(hand)
        except Exception:
            log.exception("could not archive %s", where)
            return
        room_id, hand_no, shown = room.room_id, hand.hand_no, shown_seats(events)
        job = _logged(
            where, lambda: record_show(self.engine, room_id, hand_no, events, deal, shown)
        )
        self.writer.submit(self.LANE, job)


def _logged(where: str, write: Callable[[], object]) -> Callable[[], None]:
    def job() -> None:
        try:
            write()
        except Exception:
            log.exception("could not archive %s", where)

    return job
