"""Shared hands and rabbit hunts: a finished hand as anyone may see it.

A **share link** carries a signed grant (``ShareGrant``: the hand, the sharer's seat, whether
the sharer shows their own cards, whether the rabbit is in it), so it needs no table: its
HMAC key is derived from the server's archive key, and a link cannot be forged or widened.

What a shared hand shows is the **spectator's** view of it (``ahiko.poker.view.view(hand,
None)``): the board, every action, the hands shown (R-HE-12) — in five-card draw no shown
card at all, only each hand's category (R-DR-07 D: spectators never see them) — plus, if the
sharer chose, the sharer's own hole cards (and own draw). Its proof opens exactly those
cards: the release policy for a spectator, the sharer's own slots, and the rabbit.

The **rabbit hunt** (hold'em only, a hand that ended before the river): the board cards that
would have come, opened from the commitment at their board positions (role ``board``), so
they verify like any board card. Only board positions are ever opened: never a hole card,
dealt or not.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from ahiko.fairness.mixed_deal import AnyOpening
from ahiko.fairness.positions import ROLE_BOARD
from ahiko.fairness.proof import dumps_proof
from ahiko.fairness.release import Viewer, draw_slots, hole_slots
from ahiko.history.hand_log import HandLog, VisibleCards
from ahiko.poker.cards import format_card
from ahiko.poker.events import Discarded, HoleDealt, event_to_dict
from ahiko.poker.games import game
from ahiko.poker.hand import AnyHand
from ahiko.poker.view import sees_shown_cards, view
from ahiko.rooms.finished.archive import ArchivedDeal, deal_from_record
from ahiko.rooms.finished.downloads import Download, base_filename, history_with, rebuild_hand
from ahiko.rooms.finished.replay import hand_header
from ahiko.store.hand_archive import ArchivedHand

TOKEN_VERSION = "s1"
_TOKEN = re.compile(r"^s1\.(\d{1,19})\.(\d)\.([01])([01])\.([A-Za-z0-9_-]{22})$")
SharedFormat = Literal["pokerstars", "phh", "proof"]


class NotShareable(ValueError):
    """The hand cannot be shared that way (e.g. a rabbit hunt of a hand that saw the river)."""


@dataclass(frozen=True, slots=True)
class ShareGrant:
    hand_id: int
    seat: int  # the sharer's seat
    show_own: bool  # the sharer's own cards are shown
    rabbit: bool  # the rabbit hunt's board cards are in the link


def share_key(archive_key: bytes) -> bytes:
    """The links' HMAC key: derived from the archive key, never the key itself."""
    return hashlib.sha256(b"ahiko-share-link/v1\x00" + archive_key).digest()


def _mac(key: bytes, body: str) -> str:
    digest = hmac.new(key, body.encode(), hashlib.sha256).digest()[:16]
    return base64.urlsafe_b64encode(digest).decode().rstrip("=")


def share_token(key: bytes, grant: ShareGrant) -> str:
    body = f"{TOKEN_VERSION}.{grant.hand_id}.{grant.seat}.{int(grant.show_own)}{int(grant.rabbit)}"
    return f"{body}.{_mac(key, body)}"


def read_token(key: bytes, token: str) -> ShareGrant | None:
    """The grant of a genuine link; None for anything else (malformed and forged alike)."""
    found = _TOKEN.match(token)
    if found is None:
        return None
    body = token.rsplit(".", 1)[0]
    if not hmac.compare_digest(_mac(key, body), found.group(5)):
        return None
    return ShareGrant(
        hand_id=int(found.group(1)),
        seat=int(found.group(2)),
        show_own=found.group(3) == "1",
        rabbit=found.group(4) == "1",
    )


# --- what a shared hand shows --------------------------------------------------------------
def _deal(archived: ArchivedHand) -> ArchivedDeal:
    return deal_from_record(archived.commitment, archived.deal)


def rabbit_openings(archived: ArchivedHand) -> list[AnyOpening]:
    """The board cards that would have come after a board game's hand (hold'em, Omaha)
    ended before the river, opened at their board positions; [] for draw or a hand with its
    whole board."""
    board_size = game(archived.variant).board_cards
    if not board_size:
        return []
    deal = _deal(archived)
    dealt_board = {slot.k for slot in deal.state.dealt if slot.role == ROLE_BOARD}
    return [deal.opening(ROLE_BOARD, None, b) for b in range(board_size) if b not in dealt_board]


def require_rabbit(archived: ArchivedHand) -> list[AnyOpening]:
    played = game(archived.variant)
    if not played.has_board:
        raise NotShareable(f"{played.title_en} has no board: there is no rabbit to hunt")
    found = rabbit_openings(archived)
    if not found:
        raise NotShareable("this hand saw the river: there is no rabbit to hunt")
    return found


def shared_openings(archived: ArchivedHand, grant: ShareGrant) -> list[AnyOpening]:
    """The openings a shared link releases, in position order."""
    deal = _deal(archived)
    hand = rebuild_hand(archived)
    spectator = Viewer(None, sees_shown_cards(hand, None))
    openings = {o.position: o for o in deal.release(spectator)}
    if grant.show_own:
        own = set(hole_slots(deal.committer, grant.seat)) | set(
            draw_slots(deal.committer, grant.seat)
        )
        mine = Viewer(grant.seat, sees_shown=False)
        for opening in deal.release(mine):
            if any(slot.position == opening.position for slot in own):
                openings.setdefault(opening.position, opening)
    if grant.rabbit:
        for opening in require_rabbit(archived):
            openings.setdefault(opening.position, opening)
    return [openings[p] for p in sorted(openings)]


def shared_proof(archived: ArchivedHand, grant: ShareGrant) -> dict[str, Any]:
    return _deal(archived).proof(shared_openings(archived, grant))


def _visible(hand: AnyHand, grant: ShareGrant) -> VisibleCards:
    spectator = VisibleCards.for_viewer(hand, None)
    if not grant.show_own:
        return spectator
    return VisibleCards(HandLog(hand.events), grant.seat, spectator.visible_seats | {grant.seat})


def _card_text(event: Mapping[str, Any]) -> dict[str, Any]:
    out = dict(event)
    for name in ("cards", "new_cards"):
        cards = out.get(name)
        if isinstance(cards, list):
            out[name] = [c if isinstance(c, str) else format_card(int(c)) for c in cards]
    return out


def shared_document(archived: ArchivedHand, grant: ShareGrant) -> dict[str, Any]:
    """The public replayer's document: ``{id, hand_no, room_name, room_kind, variant,
    seat_count, viewer, sharer, show_own, players, events, rabbit, proof, started_at,
    ended_at}``. ``viewer`` is the sharer's seat when they show their cards, else null."""
    hand = rebuild_hand(archived)
    public = view(hand, None)["history"]
    events = []
    for event, seen in zip(hand.events, public, strict=True):
        mine = isinstance(event, HoleDealt | Discarded) and event.seat == grant.seat
        events.append(_card_text(event_to_dict(event) if grant.show_own and mine else seen))
    rabbit = [format_card(o.card) for o in require_rabbit(archived)] if grant.rabbit else []
    sharer = next((p.name for p in archived.players if p.seat == grant.seat), "")
    return {
        **hand_header(archived, viewer=grant.seat if grant.show_own else None),
        "sharer": {"seat": grant.seat, "name": sharer},
        "show_own": grant.show_own,
        "events": events,
        "rabbit": rabbit,
        "proof": shared_proof(archived, grant),
    }


def shared_download(archived: ArchivedHand, grant: ShareGrant, fmt: SharedFormat) -> Download:
    """The shared hand's PokerStars text, PHH or proof file: only what the link shows."""
    stem = base_filename(archived) + "-shared"
    if fmt == "proof":
        return Download(
            f"{stem}-proof.json", "application/json", dumps_proof(shared_proof(archived, grant))
        )
    if fmt not in ("pokerstars", "phh"):
        raise ValueError(f"unknown format {fmt!r}; use pokerstars, phh or proof")
    hand = rebuild_hand(archived)
    return history_with(archived, hand, _visible(hand, grant), fmt, stem)


def rabbit_document(archived: ArchivedHand) -> dict[str, Any]:
    """A player's rabbit hunt: ``{board, rabbit, proof}``; the proof opens the rabbit's cards
    and the board that was dealt (raises ``NotShareable`` when there is nothing to hunt)."""
    found = require_rabbit(archived)
    deal = _deal(archived)
    board = [
        deal.opening(ROLE_BOARD, None, slot.k)
        for slot in sorted(deal.state.dealt, key=lambda s: s.position)
        if slot.role == ROLE_BOARD
    ]
    return {
        "board": [format_card(o.card) for o in board],
        "rabbit": [format_card(o.card) for o in found],
        "proof": deal.proof([*board, *found]),
    }
