"""Durable room state for ``ahiko.rooms``: rooms and their config, seats and stacks written at
every hand boundary, finished hands as event logs, and crash recovery.

Protocol for a room: ``save_room`` once; ``begin_hand`` when a hand starts (records the stacks
it starts with); at its end ``finish_hand(..., "finished")`` and ``write_seats`` with the new
stacks, on one transaction. After a crash, ``recover_interrupted_hands`` cancels every hand still in progress and
puts each seat back to the stack it had at that hand's start; the room reopens with the same
seats (``load_rooms``).

An Ahiko room must end a hand in ONE database transaction, or a crash between the steps
leaves seats and escrows disagreeing: pass the connection-level functions to the wallet,

    def end(conn, receipt):
        finish_hand(conn, room_id, hand_no, events, "finished")
        write_seats(conn, room_id, seats_after)
    wallet.settle_hand(room_id, deltas, f"{room_id}:hand:{hand_no}", also=end)

and likewise ``buy_in``/``cash_out``/``bot_fund``/``bot_return`` with ``also=`` writing the
seats (tests/store/crash_drill_worker.py does exactly this)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Connection, Engine, delete, func, insert, select, update

from ahiko.store.engine import reading
from ahiko.store.fences import check_fence
from ahiko.store.schema import (
    HAND_SCHEMA_VERSION,
    hands,
    ledger_accounts,
    participations,
    rooms,
    seats,
)

HAND_STATUSES = ("finished", "cancelled")
# Why a dealt hand was cancelled: only a crash of the node playing it (its cards were out,
# so under pokerfair/2 its reveals had closed); ``ahiko.store.fair_counts`` publishes them.
CRASH_CANCEL_REASON = "server restarted mid-hand"


def _now() -> datetime:
    return datetime.now(UTC)


@dataclass(frozen=True, slots=True)
class SeatRecord:
    seat: int
    occupant: str  # "person", "bot" or "bot_ahiko"
    name: str
    stack: int
    user_id: int | None = None
    participation_id: int | None = None
    extra: Mapping[str, Any] | None = None


@dataclass(frozen=True, slots=True)
class StoredRoom:
    id: str
    kind: str
    config: dict[str, Any]
    status: str
    seats: list[SeatRecord] = field(default_factory=list)
    last_hand_no: int = 0

    @property
    def is_open(self) -> bool:
        """Still open when its run stopped (a room row is ``open`` or ``closed``)."""
        return self.status == "open"


@dataclass(frozen=True, slots=True)
class InterruptedHand:
    room_id: str
    hand_no: int
    start_stacks: dict[int, int]


def save_room(
    engine: Engine, room_id: str, kind: str, config: Mapping[str, Any], status: str = "open"
) -> None:
    """Creates or updates a room (config must be JSON-serialisable)."""
    now = _now()
    with engine.begin() as conn:
        check_fence(conn, room_id)
        exists = conn.execute(select(rooms.c.id).where(rooms.c.id == room_id)).first()
        if exists:
            conn.execute(
                update(rooms)
                .where(rooms.c.id == room_id)
                .values(kind=kind, config=dict(config), status=status, updated_at=now)
            )
        else:
            conn.execute(
                insert(rooms).values(
                    id=room_id,
                    kind=kind,
                    config=dict(config),
                    status=status,
                    created_at=now,
                    updated_at=now,
                )
            )


def write_seats(conn: Connection, room_id: str, seated: Sequence[SeatRecord]) -> None:
    """Replaces the room's seats with ``seated`` (at hand boundaries), on the caller's
    transaction."""
    numbers = [record.seat for record in seated]
    if len(set(numbers)) != len(numbers):
        raise ValueError(f"room {room_id}: a seat appears twice in {numbers}")
    check_fence(conn, room_id)
    now = _now()
    conn.execute(delete(seats).where(seats.c.room_id == room_id))
    if seated:
        conn.execute(
            insert(seats),
            [
                {
                    "room_id": room_id,
                    "seat": record.seat,
                    "occupant": record.occupant,
                    "user_id": record.user_id,
                    "participation_id": record.participation_id,
                    "name": record.name,
                    "stack": record.stack,
                    "extra": None if record.extra is None else dict(record.extra),
                    "updated_at": now,
                }
                for record in seated
            ],
        )


def begin_hand(engine: Engine, room_id: str, hand_no: int, start_stacks: Mapping[int, int]) -> None:
    """Records that hand ``hand_no`` started with these stacks ({seat: chips})."""
    with engine.begin() as conn:
        start_hand(conn, room_id, hand_no, start_stacks)


def start_hand(
    conn: Connection, room_id: str, hand_no: int, start_stacks: Mapping[int, int]
) -> None:
    """``begin_hand`` on the caller's transaction."""
    check_fence(conn, room_id)
    conn.execute(
        insert(hands).values(
            room_id=room_id,
            hand_no=hand_no,
            status="in_progress",
            start_stacks={str(seat): chips for seat, chips in start_stacks.items()},
            started_at=_now(),
        )
    )


def record_unplayed_hands(
    conn: Connection, room_id: str, hand_nos: Sequence[int], reason: str
) -> None:
    """Numbers that were committed to but never dealt (R-FD-06): recorded as cancelled, so
    that no later run of the room gives one of them to another hand."""
    for hand_no in hand_nos:
        finish_hand(conn, room_id, hand_no, None, "cancelled", reason)


def finish_hand(
    conn: Connection,
    room_id: str,
    hand_no: int,
    events: Sequence[Mapping[str, Any]] | None,
    status: str,
    cancel_reason: str | None = None,
) -> None:
    """Ends a hand: ``finished`` with its event log, or ``cancelled`` (R-FD-06, recovery), on
    the caller's transaction. A hand never begun is inserted whole
    (start stacks taken from its ``hand_started`` event if there is one)."""
    if status not in HAND_STATUSES:
        raise ValueError(f"a hand ends finished or cancelled, not {status!r}")
    check_fence(conn, room_id)
    log = None if events is None else [dict(event) for event in events]
    now = _now()
    changed = conn.execute(
        update(hands)
        .where(hands.c.room_id == room_id, hands.c.hand_no == hand_no)
        .values(
            status=status,
            events=log,
            schema_version=HAND_SCHEMA_VERSION,
            cancel_reason=cancel_reason,
            ended_at=now,
        )
    ).rowcount
    if changed == 0:
        conn.execute(
            insert(hands).values(
                room_id=room_id,
                hand_no=hand_no,
                status=status,
                start_stacks=_start_stacks_from(log or []),
                events=log,
                schema_version=HAND_SCHEMA_VERSION,
                cancel_reason=cancel_reason,
                started_at=now,
                ended_at=now,
            )
        )


def _start_stacks_from(events: list[dict[str, Any]]) -> dict[str, int]:
    for event in events:
        if event.get("kind") == "hand_started":
            return {
                str(seat): int(chips)
                for seat, chips in zip(
                    event.get("seats", []), event.get("stacks", []), strict=False
                )
            }
    return {}


def load_rooms(engine: Engine, include_closed: bool = False) -> list[StoredRoom]:
    """Every (open) room with its seats, for a restart."""
    with reading(engine) as conn:
        query = select(rooms).order_by(rooms.c.id)
        if not include_closed:
            query = query.where(rooms.c.status == "open")
        room_rows = conn.execute(query).all()
        seat_rows = conn.execute(select(seats).order_by(seats.c.room_id, seats.c.seat)).all()
        hand_rows = conn.execute(
            select(hands.c.room_id, func.max(hands.c.hand_no)).group_by(hands.c.room_id)
        ).all()
    by_room: dict[str, list[SeatRecord]] = {}
    for row in seat_rows:
        by_room.setdefault(row.room_id, []).append(
            SeatRecord(
                seat=row.seat,
                occupant=row.occupant,
                name=row.name,
                stack=int(row.stack),
                user_id=row.user_id,
                participation_id=row.participation_id,
                extra=row.extra,
            )
        )
    last_hand: dict[str, int] = {}
    for room_id, hand_no in hand_rows:
        last_hand[room_id] = max(last_hand.get(room_id, 0), hand_no)
    return [
        StoredRoom(
            id=row.id,
            kind=row.kind,
            config=dict(row.config),
            status=row.status,
            seats=by_room.get(row.id, []),
            last_hand_no=last_hand.get(row.id, 0),
        )
        for row in room_rows
    ]


def open_room_ids(engine: Engine, kind: str) -> list[str]:
    """The ids of the open rooms of ``kind`` (one query, nothing else loaded: each node of
    a cluster asks it every third of a lease)."""
    with reading(engine) as conn:
        query = select(rooms.c.id).where(rooms.c.status == "open", rooms.c.kind == kind)
        return list(conn.execute(query.order_by(rooms.c.id)).scalars())


def recover_interrupted_hands(engine: Engine, room_id: str | None = None) -> list[InterruptedHand]:
    """Cancels every hand left in progress by a crash and puts each of its seats back to the
    stack it had at the hand's start. Returns what was cancelled (the rooms announce it).
    Safe to call on every start: a second call finds nothing. ``room_id``: that room's only
    (a node of a cluster taking over a room whose owner died)."""
    recovered = []
    query = (
        select(hands.c.room_id, hands.c.hand_no, hands.c.start_stacks)
        .where(hands.c.status == "in_progress")
        .order_by(hands.c.id)
    )
    if room_id is not None:
        query = query.where(hands.c.room_id == room_id)
    with engine.begin() as conn:
        rows = conn.execute(query).all()
        for room, hand_no, start in rows:
            stacks = {int(seat): int(chips) for seat, chips in start.items()}
            for seat, chips in stacks.items():
                conn.execute(
                    update(seats)
                    .where(seats.c.room_id == room, seats.c.seat == seat)
                    .values(stack=chips, updated_at=_now())
                )
            finish_hand(conn, room, hand_no, None, "cancelled", CRASH_CANCEL_REASON)
            recovered.append(InterruptedHand(room, hand_no, stacks))
    return recovered


# --- reopening a room after a restart ------------------------------------------------------


@dataclass(frozen=True, slots=True)
class OpenStay:
    """An open participation of a room and what its escrow holds."""

    participation_id: int
    player: str  # "person" or "bot_ahiko"
    user_id: int | None
    seat: int
    escrow: int


def open_stays(engine: Engine, room_id: str) -> list[OpenStay]:
    query = (
        select(
            participations.c.id,
            participations.c.player,
            participations.c.user_id,
            participations.c.seat,
            ledger_accounts.c.balance,
        )
        .join(ledger_accounts, ledger_accounts.c.id == participations.c.escrow_account_id)
        .where(participations.c.room_id == room_id, participations.c.status == "open")
        .order_by(participations.c.id)
    )
    with reading(engine) as conn:
        rows = conn.execute(query).all()
    return [
        OpenStay(int(pid), str(player), user_id, int(seat), int(balance))
        for pid, player, user_id, seat, balance in rows
    ]


def bot_stay_count(engine: Engine, room_id: str) -> int:
    """How many times the Bot Ahiko was funded at this room, over every run."""
    query = select(func.count()).where(
        participations.c.room_id == room_id, participations.c.player == "bot_ahiko"
    )
    with reading(engine) as conn:
        return int(conn.execute(query).scalar_one())


def last_button(engine: Engine, room_id: str) -> int | None:
    """The button of the room's last finished hand (from its ``hand_started`` event)."""
    query = (
        select(hands.c.events)
        .where(hands.c.room_id == room_id, hands.c.status == "finished")
        .order_by(hands.c.hand_no.desc())
        .limit(1)
    )
    with reading(engine) as conn:
        events = conn.execute(query).scalar_one_or_none()
    for event in events or []:
        if event.get("kind") == "hand_started":
            return int(event["button"])
    return None


def recent_pot_totals(engine: Engine, room_id: str, limit: int) -> list[int]:
    """The total pot (every ``pot_awarded`` amount) of the room's last ``limit`` finished
    hands, oldest first: the lobby's average pot survives a restart."""
    query = (
        select(hands.c.events)
        .where(hands.c.room_id == room_id, hands.c.status == "finished")
        .order_by(hands.c.hand_no.desc())
        .limit(limit)
    )
    with reading(engine) as conn:
        logs = conn.execute(query).scalars().all()
    return [
        sum(int(e.get("amount", 0)) for e in log or [] if e.get("kind") == "pot_awarded")
        for log in reversed(logs)
    ]
