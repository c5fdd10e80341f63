"""``ahiko fairness demo``: one complete random hand, every hand shown, and the proof file
each seat and a spectator could download afterwards. It deals by the layouts directly (no
betting is needed to show the scheme working end to end)."""

from __future__ import annotations

import secrets
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from ahiko.fairness.deal import DealCommitter
from ahiko.fairness.proof import ClientObservation, proof_document, write_proof
from ahiko.fairness.release import (
    DealState,
    Viewer,
    board_slots,
    draw_slots,
    hole_slots,
    release_openings,
)
from ahiko.fairness.shuffle import RandBelow, shuffled_deck
from ahiko.poker.games import GAMES, game

TABLE_SEATS = 8
MAX_DRAW_DISCARDS = 3
COMMITMENT_LEAD_MS = 2000  # R-FD-02: cards no earlier than 2 s after the commitment
# at most the table's seats; draw 6: 6 x (5 + 3) = 48 cards fit in one deck
MAX_PLAYERS = {name: min(TABLE_SEATS, g.max_players) for name, g in GAMES.items()}


@dataclass(frozen=True)
class DemoHand:
    deal: DealCommitter
    state: DealState
    documents: dict[str, dict[str, Any]]  # file stem ("seat-3", "spectator") -> proof


def deal_demo_hand(
    variant: str,
    players: int,
    signing_key: Ed25519PrivateKey,
    *,
    table_id: str = "demo",
    hand_no: int = 1,
    randbelow: RandBelow = secrets.randbelow,
    now_ms: int | None = None,
) -> DemoHand:
    button, dealt_seats = demo_seats(variant, players, randbelow)
    committed_at = now_ms if now_ms is not None else int(time.time() * 1000)
    deal = demo_deal(
        table_id, hand_no, variant, button, dealt_seats, committed_at, signing_key, randbelow
    )
    state = play_to_showdown(deal, variant, randbelow)
    documents = {
        stem: proof_document(
            deal.commitment,
            release_openings(deal, viewer, state),
            observation=demo_observation(committed_at),
            draws=deal.draws,
        )
        for stem, viewer in demo_viewers(dealt_seats).items()
    }
    return DemoHand(deal, state, documents)


def demo_deal(
    table_id: str,
    hand_no: int,
    variant: str,
    button: int,
    dealt_seats: list[int],
    committed_at: int,
    signing_key: Ed25519PrivateKey,
    randbelow: RandBelow,
) -> DealCommitter:
    """A freshly shuffled, salted and signed deal of the demo table."""
    return DealCommitter(
        table_id=table_id,
        hand_no=hand_no,
        layout=game(variant).layout,
        button_seat=button,
        dealt_seats=dealt_seats,
        deck=shuffled_deck(randbelow),
        committed_at_ms=committed_at,
        signing_key=signing_key,
    )


def demo_seats(variant: str, players: int, randbelow: RandBelow) -> tuple[int, list[int]]:
    """A random button and the dealt seats in deal order, for ``players`` at one table."""
    if variant not in MAX_PLAYERS:
        raise ValueError(f"variant must be one of {', '.join(MAX_PLAYERS)}, not {variant!r}")
    if not 2 <= players <= MAX_PLAYERS[variant]:
        raise ValueError(f"{variant} demo takes 2 to {MAX_PLAYERS[variant]} players, not {players}")
    seats = sorted(_pick(list(range(TABLE_SEATS)), players, randbelow))
    button = seats[randbelow(players)]
    after_button = seats.index(button) + 1
    return button, seats[after_button:] + seats[:after_button]


def play_to_showdown(deal: DealCommitter, variant: str, randbelow: RandBelow) -> DealState:
    """Every seat dealt, a random draw in five-card draw, every hand shown."""
    played = game(variant)
    state = DealState()
    for seat in deal.dealt_seats:
        state = state.with_dealt(hole_slots(deal, seat))
    if played.has_board:
        state = state.with_dealt(board_slots(deal, range(played.board_cards)))
    shown: list[int] = []
    for seat in deal.dealt_seats:
        kept = [slot.position for slot in hole_slots(deal, seat)]
        if played.has_draw:
            discarded = _pick(kept, randbelow(MAX_DRAW_DISCARDS + 1), randbelow)
            kept = [p for p in kept if p not in discarded]
            deal.record_draw(seat, len(discarded))
            replacements = draw_slots(deal, seat)
            state = state.with_dealt(replacements)
            kept += [slot.position for slot in replacements]
        shown += kept
    return state.with_shown(shown)


def demo_observation(committed_at: int) -> ClientObservation:
    return ClientObservation(True, committed_at + 100, committed_at + COMMITMENT_LEAD_MS + 100)


def demo_viewers(dealt_seats: list[int]) -> dict[str, Viewer]:
    """File stem -> viewer: each seat and a spectator."""
    return {f"seat-{seat}": Viewer(seat) for seat in dealt_seats} | {"spectator": Viewer()}


def write_demo(hand: DemoHand, out_dir: Path) -> list[Path]:
    out_dir.mkdir(parents=True, exist_ok=True)
    return [write_proof(out_dir / f"{stem}.json", doc) for stem, doc in hand.documents.items()]


def _pick(items: list[int], count: int, randbelow: RandBelow) -> list[int]:
    pool = list(items)
    return [pool.pop(randbelow(len(pool))) for _ in range(count)]
