"""``ahiko hh export``: replay a PHH file through our engine and write it out again."""

from __future__ import annotations

from ahiko.poker.games import BY_PHH_CODE
from ahiko.poker.hand import AnyHand

from .hand_log import VisibleCards
from .phh import dumps, loads
from .phh_draw import draw_from_phh, draw_to_phh
from .phh_holdem import holdem_from_phh, holdem_to_phh
from .pokerstars import TableInfo, to_pokerstars


def export_text(phh_text: str, fmt: str, viewer: int | None = None) -> str:
    """``fmt`` is "pokerstars" or "phh"; ``viewer`` (a table seat, 0-based: pj sits at the
    j-th entry of the file's ``seats``, or at seat j-1 without it) limits the private cards
    to what that seat may see; None writes every known card."""
    if fmt not in ("pokerstars", "phh"):
        raise ValueError(f"unknown format {fmt!r}; use pokerstars or phh")
    doc = loads(phh_text)
    players = doc.players
    hand: AnyHand
    played = BY_PHH_CODE.get(doc.variant)
    if played is not None and played.has_draw:
        draw = draw_from_phh(doc)
        if fmt == "phh":
            return dumps(draw_to_phh(draw, _visible(draw, viewer), players=players))
        hand = draw
    else:
        holdem = holdem_from_phh(doc)
        if fmt == "phh":
            return dumps(holdem_to_phh(holdem, _visible(holdem, viewer), players=players))
        hand = holdem
    names = dict(zip(hand.dealt_seats, players, strict=True)) if players else {}
    return to_pokerstars(hand, _visible(hand, viewer), TableInfo(names=names))


def _visible(hand: AnyHand, viewer: int | None) -> VisibleCards:
    return VisibleCards.all_cards(hand) if viewer is None else VisibleCards.for_viewer(hand, viewer)
