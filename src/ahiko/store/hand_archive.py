"""The hand archive on disk: finished hands of every room kind and who played them.

A hand is written once when it ends (``insert_archived_hand``) and may change once more, when
a player who won without showdown shows (``record_show``). Reads serve "my hands": a user's
page of hands (``hands_of_user``) and one hand, only for a user who played it
(``archived_hand_for``). ``deal`` carries server-side secrets (deck order and salts); this
module stores it and never interprets it.

At rest ``deal`` and ``events`` (the private log, every dealt card in it) are
sealed with AES-256-GCM under the archive key kept beside the signing key
(``install_sealer``; ``ahiko.fairness.keys.load_or_create_archive_key``), bound to their hand
and column: a copy of the database alone opens no mucked or undealt card. Reads open them
again, so players' downloads and ``ahiko verify`` work as before; rows written before the
key existed are read as they are and sealed by ``seal_existing`` at start-up.
"""

from __future__ import annotations

import json
import os
import weakref
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from sqlalchemy import Connection, Engine, func, insert, select, update

from ahiko.store.engine import reading
from ahiko.store.fences import check_fence
from ahiko.store.hand_glance import glance
from ahiko.store.paging import Page
from ahiko.store.schema import HAND_SCHEMA_VERSION, archived_hand_players, archived_hands

MAX_PER_PAGE = 100
OCCUPANT_KINDS = ("person", "bot", "bot_ahiko")
SEALED = "aes256gcm/v1"


class ArchiveSealer:
    """Seals a JSON value as ``{"sealed": SEALED, "nonce": hex, "data": hex}``."""

    def __init__(self, key: bytes) -> None:
        if len(key) != 32:
            raise ValueError("the archive key is 32 bytes")
        self._aead = AESGCM(key)

    def seal(self, value: Any, context: str) -> dict[str, str]:
        nonce = os.urandom(12)
        plain = json.dumps(value, separators=(",", ":")).encode()
        data = self._aead.encrypt(nonce, plain, context.encode())
        return {"sealed": SEALED, "nonce": nonce.hex(), "data": data.hex()}

    def open(self, stored: Any, context: str) -> Any:
        if not is_sealed(stored):
            return stored  # written before the archive was sealed
        plain = self._aead.decrypt(
            bytes.fromhex(stored["nonce"]), bytes.fromhex(stored["data"]), context.encode()
        )
        return json.loads(plain)


_sealers: weakref.WeakKeyDictionary[Engine, ArchiveSealer] = weakref.WeakKeyDictionary()


def install_sealer(engine: Engine, key: bytes) -> None:
    """From now on the archive on ``engine`` is sealed with ``key`` (``create_app`` does it)."""
    _sealers[engine] = ArchiveSealer(key)


ArchiveHook = Callable[[Connection, "ArchivedHand"], None]
_hooks: weakref.WeakKeyDictionary[Engine, list[ArchiveHook]] = weakref.WeakKeyDictionary()


def install_archive_hook(engine: Engine, hook: ArchiveHook) -> None:
    """From now on ``hook`` runs inside the transaction that archives each hand on ``engine``
    (the players' stored figures, ``ahiko.competition.player_figures``): the hand and what it
    adds are written together or not at all. Installing the same hook again changes nothing."""
    hooks = _hooks.setdefault(engine, [])
    if hook not in hooks:
        hooks.append(hook)


def is_sealed(stored: Any) -> bool:
    return isinstance(stored, dict) and stored.get("sealed") == SEALED


def _context(room_id: str, hand_no: int, column: str) -> str:
    return f"ahiko-archive/{column}/{room_id}#{hand_no}"


def _seal(engine: Engine, value: Any, room_id: str, hand_no: int, column: str) -> Any:
    sealer = _sealers.get(engine)
    return value if sealer is None else sealer.seal(value, _context(room_id, hand_no, column))


def _open(engine: Engine, stored: Any, room_id: str, hand_no: int, column: str) -> Any:
    if not is_sealed(stored):
        return stored
    sealer = _sealers.get(engine)
    if sealer is None:
        raise RuntimeError("the hand archive is sealed and this server has no archive key")
    return sealer.open(stored, _context(room_id, hand_no, column))


def opened_events(engine: Engine, stored: Any, room_id: str, hand_no: int) -> Any:
    """An archived hand's event log as stored, unsealed (a reader over many hands that
    selects the column itself: the abuse signals)."""
    return _open(engine, stored, room_id, hand_no, "events")


def seal_existing(engine: Engine, batch: int = 200) -> int:
    """Seals the archived hands stored before the archive key existed; returns how many."""
    if engine not in _sealers:
        return 0
    sealed = 0
    last_id = 0
    while True:
        with engine.begin() as conn:
            rows = conn.execute(
                select(
                    archived_hands.c.id,
                    archived_hands.c.room_id,
                    archived_hands.c.hand_no,
                    archived_hands.c.events,
                    archived_hands.c.deal,
                )
                .where(archived_hands.c.id > last_id)
                .order_by(archived_hands.c.id)
                .limit(batch)
            ).all()
            if not rows:
                return sealed
            for row in rows:
                last_id = int(row.id)
                if is_sealed(row.deal) and is_sealed(row.events):
                    continue
                room_id, hand_no = row.room_id, int(row.hand_no)
                values = {}
                if not is_sealed(row.deal):
                    values["deal"] = _seal(engine, row.deal, room_id, hand_no, "deal")
                if not is_sealed(row.events):
                    values["events"] = _seal(engine, row.events, room_id, hand_no, "events")
                conn.execute(
                    update(archived_hands).where(archived_hands.c.id == row.id).values(**values)
                )
                sealed += 1


@dataclass(frozen=True, slots=True)
class ArchivedPlayer:
    seat: int
    player_id: str
    user_id: int | None  # people only
    name: str
    occupant: str  # "person", "bot" or "bot_ahiko"
    start_stack: int
    net: int
    showed: bool = False


@dataclass(frozen=True, slots=True)
class ArchivedHand:
    room_id: str
    room_kind: str
    room_name: str
    variant: str
    max_seats: int
    hand_no: int
    commitment: Mapping[str, Any]
    events: Sequence[Mapping[str, Any]]
    deal: Mapping[str, Any]
    players: tuple[ArchivedPlayer, ...]
    started_at: datetime
    ended_at: datetime
    id: int | None = None  # set once stored
    schema_version: int = HAND_SCHEMA_VERSION  # the format of ``events`` and ``deal``

    def seat_of_user(self, user_id: int) -> int | None:
        return next((p.seat for p in self.players if p.user_id == user_id), None)

    def names(self) -> dict[int, str]:
        return {p.seat: p.name for p in self.players}


@dataclass(frozen=True, slots=True)
class HandSummary:
    """One line of a user's hand list."""

    id: int
    room_id: str
    room_kind: str
    room_name: str
    variant: str
    hand_no: int
    seat: int
    net: int
    started_at: datetime
    ended_at: datetime
    cards: tuple[int, ...] = ()  # the player's own, as they ended the hand
    board: tuple[int, ...] = ()


HandPage = Page[HandSummary]


def insert_archived_hand(engine: Engine, hand: ArchivedHand) -> int:
    """Stores ``hand`` and its players in one transaction; returns the new hand id."""
    for player in hand.players:
        if player.occupant not in OCCUPANT_KINDS:
            raise ValueError(f"seat {player.seat}: unknown occupant kind {player.occupant!r}")
    with engine.begin() as conn:
        check_fence(conn, hand.room_id)
        hand_id = conn.execute(
            insert(archived_hands)
            .values(
                room_id=hand.room_id,
                room_kind=hand.room_kind,
                room_name=hand.room_name,
                variant=hand.variant,
                max_seats=hand.max_seats,
                hand_no=hand.hand_no,
                commitment=dict(hand.commitment),
                events=_seal(
                    engine, [dict(e) for e in hand.events], hand.room_id, hand.hand_no, "events"
                ),
                deal=_seal(engine, dict(hand.deal), hand.room_id, hand.hand_no, "deal"),
                schema_version=hand.schema_version,
                started_at=hand.started_at,
                ended_at=hand.ended_at,
            )
            .returning(archived_hands.c.id)
        ).scalar_one()
        conn.execute(
            insert(archived_hand_players),
            [
                {
                    "hand_id": hand_id,
                    "seat": p.seat,
                    "player_id": p.player_id,
                    "user_id": p.user_id,
                    "name": p.name,
                    "occupant": p.occupant,
                    "start_stack": p.start_stack,
                    "net": p.net,
                    "showed": p.showed,
                }
                for p in hand.players
            ],
        )
        for hook in _hooks.get(engine, ()):
            hook(conn, hand)
    return int(hand_id)


def record_show(
    engine: Engine,
    room_id: str,
    hand_no: int,
    events: Sequence[Mapping[str, Any]],
    deal: Mapping[str, Any],
    shown_seats: Sequence[int],
) -> bool:
    """A voluntary show after the hand (R-HE-12): the new log, deal state and shown seats.
    Returns False when the hand is not in the archive (nothing changes then)."""
    with engine.begin() as conn:
        check_fence(conn, room_id)
        hand_id = conn.execute(
            select(archived_hands.c.id).where(
                archived_hands.c.room_id == room_id, archived_hands.c.hand_no == hand_no
            )
        ).scalar_one_or_none()
        if hand_id is None:
            return False
        conn.execute(
            update(archived_hands)
            .where(archived_hands.c.id == hand_id)
            .values(
                events=_seal(engine, [dict(e) for e in events], room_id, hand_no, "events"),
                deal=_seal(engine, dict(deal), room_id, hand_no, "deal"),
                schema_version=HAND_SCHEMA_VERSION,
            )
        )
        conn.execute(
            update(archived_hand_players)
            .where(
                archived_hand_players.c.hand_id == hand_id,
                archived_hand_players.c.seat.in_(list(shown_seats)),
            )
            .values(showed=True)
        )
    return True


def hands_of_user(engine: Engine, user_id: int, page: int = 1, per_page: int = 20) -> HandPage:
    """The hands ``user_id`` was dealt into, newest first."""
    if page < 1 or not 1 <= per_page <= MAX_PER_PAGE:
        raise ValueError(f"page must be >= 1 and per_page 1..{MAX_PER_PAGE}")
    mine = archived_hand_players.c.user_id == user_id
    query = (
        select(
            archived_hands.c.id,
            archived_hands.c.room_id,
            archived_hands.c.room_kind,
            archived_hands.c.room_name,
            archived_hands.c.variant,
            archived_hands.c.hand_no,
            archived_hand_players.c.seat,
            archived_hand_players.c.net,
            archived_hands.c.started_at,
            archived_hands.c.ended_at,
            archived_hands.c.events,
        )
        .join(archived_hand_players, archived_hand_players.c.hand_id == archived_hands.c.id)
        .where(mine)
        .order_by(archived_hands.c.id.desc())
        .limit(per_page)
        .offset((page - 1) * per_page)
    )
    with reading(engine) as conn:
        total = conn.execute(
            select(func.count()).select_from(archived_hand_players).where(mine)
        ).scalar_one()
        rows = conn.execute(query).all()
    glances = [
        glance(_open(engine, row.events, row.room_id, int(row.hand_no), "events"), int(row.seat))
        for row in rows
    ]
    return Page(
        [
            HandSummary(
                id=int(row.id),
                room_id=row.room_id,
                room_kind=row.room_kind,
                room_name=row.room_name,
                variant=row.variant,
                hand_no=int(row.hand_no),
                seat=int(row.seat),
                net=int(row.net),
                started_at=as_utc(row.started_at),
                ended_at=as_utc(row.ended_at),
                cards=seen.cards,
                board=seen.board,
            )
            for row, seen in zip(rows, glances, strict=True)
        ],
        page,
        per_page,
        int(total),
    )


def archived_hand_for(engine: Engine, hand_id: int, user_id: int) -> ArchivedHand | None:
    """Hand ``hand_id`` if ``user_id`` was dealt into it; None otherwise (unknown or not
    theirs look the same)."""
    with reading(engine) as conn:
        played = conn.execute(
            select(archived_hand_players.c.seat).where(
                archived_hand_players.c.hand_id == hand_id,
                archived_hand_players.c.user_id == user_id,
            )
        ).first()
        if played is None:
            return None
        row = conn.execute(select(archived_hands).where(archived_hands.c.id == hand_id)).one()
        players = conn.execute(
            select(archived_hand_players)
            .where(archived_hand_players.c.hand_id == hand_id)
            .order_by(archived_hand_players.c.seat)
        ).all()
    return archived_hand_from(engine, row, players, with_deal=True)


def archived_hand_from(
    engine: Engine, row: Any, players: Iterable[Any], *, with_deal: bool
) -> ArchivedHand:
    """An ``archived_hands`` row and its ``archived_hand_players`` rows as an ArchivedHand;
    without ``with_deal`` the deal's secrets stay sealed (figures never need them)."""
    hand_no = int(row.hand_no)
    return ArchivedHand(
        id=int(row.id),
        room_id=row.room_id,
        room_kind=row.room_kind,
        room_name=row.room_name,
        variant=row.variant,
        max_seats=int(row.max_seats),
        hand_no=hand_no,
        commitment=dict(row.commitment),
        events=list(_open(engine, row.events, row.room_id, hand_no, "events")),
        deal=dict(_open(engine, row.deal, row.room_id, hand_no, "deal")) if with_deal else {},
        schema_version=int(row.schema_version),
        players=tuple(
            ArchivedPlayer(
                seat=int(p.seat),
                player_id=p.player_id,
                user_id=None if p.user_id is None else int(p.user_id),
                name=p.name,
                occupant=p.occupant,
                start_stack=int(p.start_stack),
                net=int(p.net),
                showed=bool(p.showed),
            )
            for p in players
        ),
        started_at=as_utc(row.started_at),
        ended_at=as_utc(row.ended_at),
    )


def as_utc(moment: datetime) -> datetime:
    """SQLite hands back naive datetimes; every moment stored here is UTC."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)
