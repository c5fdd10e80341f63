"""The layouts a game commits to now come from its definition (``poker/games.py``), and
Pot-Limit Omaha adds ``omaha4-noburn-v1``. Proofs archived before that change still verify,
their cards at the very positions they were dealt from, and archived hands of both variants
still replay to the same log."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fair_helpers import TEST_PUBLIC_KEY

from ahiko.fairness.positions import LayoutError, expected_position
from ahiko.fairness.verify import verify_text
from ahiko.poker.actions import Action
from ahiko.poker.config import DrawConfig, HoldemConfig
from ahiko.poker.draw import DrawHand
from ahiko.poker.events import event_from_dict, event_to_dict
from ahiko.poker.games import BY_LAYOUT
from ahiko.poker.hand import AnyHand
from ahiko.poker.holdem import HoldemHand, OmahaHand
from ahiko.poker.layout import board_game_positions

VECTORS = Path(__file__).parent / "vectors"
ARCHIVED = ["holdem7-seat-4.json", "holdem7-spectator.json", "holdem8-seat-6.json",
            "draw9-seat-1.json", "draw9-spectator.json"]  # fmt: skip


def position_before_omaha(layout: str, n: int, role: str, j: int, k: int) -> int:
    """The layouts as FAIRNESS.md wrote them before Omaha: hold'em hole k*n + j, board
    2n + k; draw hand k*n + j."""
    if role == "board":
        assert layout == "holdem-noburn-v1"
        return 2 * n + k
    return k * n + j


@pytest.mark.parametrize("name", ARCHIVED)
def test_R_FD_03_an_archived_proof_still_verifies_at_its_old_positions(name: str) -> None:
    text = (VECTORS / name).read_text()
    result = verify_text(text, public_key=TEST_PUBLIC_KEY)
    assert result.ok, [c for c in result.checks if c.status != "pass"]
    proof = json.loads(text)
    seats = proof["commitment"]["dealt_seats"]
    layout = proof["commitment"]["layout"]
    assert layout in BY_LAYOUT
    opened = [c for c in proof["cards"] if c["role"] in ("hole", "board", "showdown")]
    assert opened
    for card in opened:
        seat = card.get("seat")  # a board card names no seat
        j = seats.index(seat) if seat is not None else -1
        old = position_before_omaha(layout, len(seats), card["role"], j, card["k"])
        assert card["position"] == old
        assert expected_position(layout, seats, card["role"], seat, card["k"]) == old


def test_R_FD_03_omaha_deals_four_hole_cards_round_the_table_then_the_board() -> None:
    seats = [3, 5, 1]
    assert [expected_position("omaha4-noburn-v1", seats, "hole", 5, k) for k in range(4)] == [
        1, 4, 7, 10
    ]  # fmt: skip
    assert [expected_position("omaha4-noburn-v1", seats, "board", None, b) for b in range(5)] == [
        12, 13, 14, 15, 16
    ]  # fmt: skip
    with pytest.raises(LayoutError, match="hole card 4 is outside the layout"):
        expected_position("omaha4-noburn-v1", seats, "hole", 5, 4)
    with pytest.raises(LayoutError, match="has no draw"):
        expected_position("omaha4-noburn-v1", seats, "draw", 5, 0)
    for n in range(2, 10):
        hole, board = board_game_positions(n, 2)
        assert hole == tuple(tuple(k * n + j for k in range(2)) for j in range(n))
        assert board == tuple(2 * n + b for b in range(5))


@pytest.mark.parametrize(
    ("plays", "config"),
    [(HoldemHand, HoldemConfig(5, 10, 1)), (DrawHand, DrawConfig(1, 2)), (OmahaHand, None)],
    ids=["holdem", "draw", "plo"],
)
def test_R_FD_03_an_archived_hand_replays_to_the_same_log(
    plays: type[AnyHand], config: object
) -> None:
    """A hand's log as the archive keeps it (JSON dicts) replays to the same events; an
    old hold'em log's stakes (no straddle key) read as they always did."""
    config = config or HoldemConfig(5, 10)
    hand, _ = plays.start(config, [1, 4, 6], [200, 300, 400], 6, list(range(52)))
    while not hand.is_over:
        legal = hand.legal_actions()
        if legal.is_draw_phase:
            action = Action.discard(())
        else:
            action = Action.call() if legal.call_cost else Action.check()
        hand.act(legal.seat, action)
    archived = json.loads(json.dumps([event_to_dict(e) for e in hand.events]))
    assert archived[0]["layout"] == plays.game.layout
    if plays is not DrawHand:
        assert "straddle" not in archived[0]["config"]
    replayed = plays.from_events([event_from_dict(d) for d in archived])
    assert replayed.events == hand.events
