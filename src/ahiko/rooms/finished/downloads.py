"""The downloads of an archived hand, for one player: the hand history (PokerStars text or
PHH) and the pokerfair proof file.

Private cards reach a history only through ``VisibleCards.for_viewer`` (the engine's
``view``): the player's own cards, the board and hands shown. Openings reach a proof only
through ``release_openings`` with the hand's final deal state: own hole cards and own draw
replacements, the board, and shown hands. Folded and mucked hands stay private in both.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Literal

from ahiko.fairness.proof import dumps_proof
from ahiko.fairness.release import Viewer
from ahiko.history.hand_log import VisibleCards
from ahiko.history.phh import dumps
from ahiko.history.phh_draw import draw_to_phh
from ahiko.history.phh_holdem import holdem_to_phh
from ahiko.history.pokerstars import TableInfo, to_pokerstars
from ahiko.poker.draw import DrawHand
from ahiko.poker.events import event_from_dict
from ahiko.poker.hand import AnyHand
from ahiko.poker.hands import hand_class
from ahiko.poker.holdem import HoldemHand
from ahiko.poker.view import sees_shown_cards
from ahiko.rooms.finished.archive import ArchiveCorrupt, deal_from_record
from ahiko.rooms.finished.mixed_record import dealt_order
from ahiko.store.hand_archive import ArchivedHand
from ahiko.store.schema import HAND_SCHEMA_VERSION

HistoryFormat = Literal["pokerstars", "phh"]
HISTORY_FORMATS: tuple[HistoryFormat, ...] = ("pokerstars", "phh")
_UNSAFE_IN_FILENAME = re.compile(r"[^A-Za-z0-9_-]+")


@dataclass(frozen=True, slots=True)
class Download:
    filename: str
    media_type: str
    text: str


def rebuild_hand(archived: ArchivedHand) -> AnyHand:
    """The engine's hand, folded from the archived private log and deck."""
    require_known_format(archived)
    events = [event_from_dict(dict(e)) for e in archived.events]
    deck = dealt_order(archived.deal)
    return hand_class(archived.variant).from_events(events, deck=deck)


def require_known_format(archived: ArchivedHand) -> None:
    """A record in a format this server does not know is refused (``ArchiveCorrupt``),
    never misread."""
    if archived.schema_version != HAND_SCHEMA_VERSION:
        raise ArchiveCorrupt(
            f"the hand is stored in format version {archived.schema_version}; "
            f"this server reads version {HAND_SCHEMA_VERSION}"
        )


def base_filename(archived: ArchivedHand) -> str:
    room = _UNSAFE_IN_FILENAME.sub("_", archived.room_id) or "room"
    return f"ahiko-{room}-hand{archived.hand_no}"


def history_download(archived: ArchivedHand, seat: int, fmt: HistoryFormat) -> Download:
    """The hand as ``seat`` saw it, in ``fmt``."""
    if fmt not in HISTORY_FORMATS:
        raise ValueError(f"unknown history format {fmt!r}; use pokerstars or phh")
    hand = rebuild_hand(archived)
    return history_with(archived, hand, VisibleCards.for_viewer(hand, seat), fmt)


def history_with(
    archived: ArchivedHand,
    hand: AnyHand,
    cards: VisibleCards,
    fmt: HistoryFormat,
    stem: str | None = None,
) -> Download:
    """``hand`` (rebuilt from ``archived``) in ``fmt``, holding only the private cards
    ``cards`` allows; the file is named ``stem`` (default ``base_filename``)."""
    if fmt not in HISTORY_FORMATS:
        raise ValueError(f"unknown history format {fmt!r}; use pokerstars or phh")
    names = archived.names()
    stem = stem or base_filename(archived)
    if fmt == "pokerstars":
        table = TableInfo(
            hand_number=archived.id or archived.hand_no,
            table_name=archived.room_name.replace("'", "’"),
            max_seats=archived.max_seats,
            started_at=archived.started_at,
            time_zone="UTC",
            names=names,
        )
        return Download(f"{stem}.txt", "text/plain", to_pokerstars(hand, cards, table))
    players = [names.get(seat_no, f"Seat {seat_no + 1}") for seat_no in hand.dealt_seats]
    started = archived.started_at
    extra: dict[str, object] = {
        "table": archived.room_name,
        "hand": archived.hand_no,
        "year": started.year,
        "month": started.month,
        "day": started.day,
    }
    if isinstance(hand, DrawHand):
        document = draw_to_phh(hand, cards, players=players, extra_fields=extra)
    else:
        assert isinstance(hand, HoldemHand)
        document = holdem_to_phh(hand, cards, players=players, extra_fields=extra)
    return Download(f"{stem}.phh", "application/toml", dumps(document))


def proof_for(archived: ArchivedHand, seat: int) -> dict[str, Any]:
    """The pokerfair-proof/1 document with every opening ``seat`` may hold after the hand."""
    require_known_format(archived)
    deal = deal_from_record(archived.commitment, archived.deal)
    viewer = Viewer(seat, sees_shown_cards(rebuild_hand(archived), seat))  # R-DR-07 D
    return deal.proof(deal.release(viewer))


def proof_download(archived: ArchivedHand, seat: int) -> Download:
    return Download(
        f"{base_filename(archived)}-proof.json",
        "application/json",
        dumps_proof(proof_for(archived, seat)),
    )
