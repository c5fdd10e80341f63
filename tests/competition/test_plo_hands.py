"""Pot-Limit Omaha hands after the table (issue 42): a shared hand and its rabbit hunt open
the board from Omaha's layout (after four hole cards a seat), the replay and shared
documents carry the game, its proof verifies, the downloads export it (PHH ``PO``,
PokerStars "Omaha Pot Limit"), and the profile counts its stakes apart from hold'em's."""

from __future__ import annotations

import json
import random

from sqlalchemy import Engine

from ahiko.competition.sharing import (
    ShareGrant,
    rabbit_document,
    require_rabbit,
    shared_document,
)
from ahiko.competition.stats import tier_label
from ahiko.fairness.verify import verify_text
from ahiko.poker.actions import Action, ActionKind
from ahiko.poker.games import POT_LIMIT_OMAHA
from ahiko.rooms.blinds import Stakes
from ahiko.rooms.finished.downloads import history_download
from ahiko.rooms.finished.replay import replay_document
from ahiko.rooms.table_hand import TableHand
from ahiko.store.hand_archive import ArchivedHand
from archive_factory import START, Sitter, play_hand

SITTERS = {0: Sitter("Ana"), 2: Sitter("Bia"), 4: Sitter("Caio")}


def folded_before_the_flop(engine: Engine) -> ArchivedHand:
    """A three-handed Omaha hand everyone but the big blind folds."""

    def fold(table: TableHand, seat: int) -> Action | None:
        return Action(ActionKind.FOLD) if table.legal().can_fold else None

    return play_hand(
        engine, random.Random(7), room_id="omaha", room_kind="recreational",
        variant=POT_LIMIT_OMAHA.name, hand_no=1, sitters=SITTERS,
        stacks=dict.fromkeys(SITTERS, 1000), stakes=Stakes(small_blind=5, big_blind=10),
        button=0, ended_at=START, show_rate=0.0, decide=fold,
    )  # fmt: skip


def test_R_FD_03_an_omaha_rabbit_hunt_opens_the_board_after_four_cards_a_seat(
    engine: Engine,
) -> None:
    hand = folded_before_the_flop(engine)
    rabbit = require_rabbit(hand)
    n = len(SITTERS)
    assert [o.position for o in rabbit] == [POT_LIMIT_OMAHA.hole_cards * n + b for b in range(5)]
    document = rabbit_document(hand)
    assert len(document["rabbit"]) == 5
    assert verify_text(json.dumps(document["proof"])).ok


def test_R_FD_03_a_shared_omaha_hand_carries_its_game_and_verifies(engine: Engine) -> None:
    hand = folded_before_the_flop(engine)
    grant = ShareGrant(hand_id=hand.id or 0, seat=0, show_own=True, rabbit=True)
    shared = shared_document(hand, grant)
    assert shared["game"]["hole_cards"] == 4 and shared["game"]["evaluator"] == "omaha"
    own = next(e for e in shared["events"] if e["kind"] == "hole_dealt" and e["seat"] == 0)
    assert len(own["cards"]) == 4
    assert len(shared["rabbit"]) == 5
    assert verify_text(json.dumps(shared["proof"])).ok
    replay = replay_document(hand, 2)
    assert replay["game"] == POT_LIMIT_OMAHA.to_json()


def test_an_omaha_hand_downloads_as_phh_po_and_pokerstars_omaha_pot_limit(
    engine: Engine,
) -> None:
    hand = folded_before_the_flop(engine)
    assert 'variant = "PO"' in history_download(hand, 0, "phh").text
    assert "Omaha Pot Limit" in history_download(hand, 0, "pokerstars").text


def test_a_profile_counts_omaha_stakes_apart_from_holdem() -> None:
    config = {"small_blind": 5, "big_blind": 10, "ante": 0}
    assert tier_label("recreational", "plo", config) == "PLO 5/10"
    assert tier_label("recreational", "holdem", config) == "hold'em 5/10"
    assert tier_label("recreational", "draw", {"ante": 1, "small_bet": 5}) == "draw 5/10"
