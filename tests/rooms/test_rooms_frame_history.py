"""``hand`` frames carry only the history entries not yet broadcast (issue 9: rebuilding the
whole history per viewer per event was most of a room's time). What a connection pieces
together from them must be the engine's public history as that viewer sees it."""

from __future__ import annotations

from random import Random

from rooms_helpers import Recorder, Table, draw_config, holdem_config, random_action

from ahiko.poker.view import public_history, view
from ahiko.rooms import commands as c
from ahiko.rooms.config import RoomConfig
from ahiko.rooms.table_hand import TableHand


def _play(config: RoomConfig, hands: int, seed: int) -> tuple[list[TableHand], dict[str, Recorder]]:
    t = Table(config, seed=seed)
    rng = Random(seed)
    watchers = {"host": t.join("host", 0), "bia": t.join("bia", 1), "cai": t.join("cai", 2)}
    watchers["spectator"] = t.connect(None)
    t.ok(c.Start("host"))
    finished: list[TableHand] = []
    for _ in range(hands):
        t.to_deal()
        for _ in range(200):
            hand = t.room.dealer.hand
            if hand is None or hand.is_over or hand.to_act is None:
                break
            hole = hand.hand.holes[hand.hand.index[hand.to_act]]
            t.act(random_action(rng, hand.legal(), hole))
        if t.room.dealer.last_hand is not None and t.room.dealer.last_hand not in finished:
            finished.append(t.room.dealer.last_hand)
        t.advance(8)
    assert finished
    return finished, watchers


def _history_sent(recorder: Recorder, hand_no: int) -> list[dict[str, object]]:
    return [e for f in recorder.of("hand") if f["hand_no"] == hand_no for e in f["events"]]


def test_R_HE_01_hand_frames_piece_together_the_public_history_for_every_viewer() -> None:
    finished, watchers = _play(holdem_config(), hands=6, seed=3)
    for hand in finished:
        assert hand.engine is not None
        for pid, recorder in watchers.items():
            seat = hand.viewer_seat(None if pid == "spectator" else pid)
            expected = view(hand.engine, seat)["history"]
            assert _history_sent(recorder, hand.hand_no) == expected
            assert len(expected) == len(hand.engine.log) > 0


def test_R_DR_07_spectator_history_in_draw_matches_the_view_and_hides_no_more() -> None:
    finished, watchers = _play(draw_config(), hands=6, seed=5)
    for hand in finished:
        assert hand.engine is not None
        expected = view(hand.engine, None)["history"]
        assert _history_sent(watchers["spectator"], hand.hand_no) == expected


def test_R_DR_07_public_history_from_an_offset_is_the_tail_of_the_full_history() -> None:
    finished, _ = _play(draw_config(), hands=3, seed=11)
    for hand in finished:
        assert hand.engine is not None
        for seat in [None, *hand.dealt_seats]:
            full = view(hand.engine, seat)["history"]
            for start in (0, 1, len(full) // 2, len(full)):
                assert public_history(hand.engine, seat, start) == full[start:]
            assert "history" not in view(hand.engine, seat, with_history=False)
