"""The table's countdowns come from the server (docs/protocol.md ``countdown``): what is left
of the Bot Ahiko's wait (R-BA-01), of the between-hands pause (R-RM-11) and of the
commitment's display (R-FD-02); and a hand frame says when the room answered for a seat whose
clock ran out (R-TM-01), so the client holds none of these durations."""

from __future__ import annotations

from ahiko_helpers import Ahiko, act_passively, to_hand

from ahiko.rooms import commands as c
from ahiko.rooms.timebank import TIME_BANK_S


def _last_countdowns(rec) -> dict[str, float]:  # type: ignore[no-untyped-def]
    return rec.of("countdown")[-1]["countdowns"]


def test_R_BA_01_a_lone_person_is_sent_the_bot_ahikos_countdown(ahiko: Ahiko) -> None:
    room = ahiko.room("iniciante")
    ana = ahiko.person("ana")
    rec = ahiko.connect(room, ana)
    assert ahiko.sit(room, ana, 0, 100).ok
    assert _last_countdowns(rec) == {"bot_ahiko": 20.0}
    ahiko.advance(5)
    assert room.submit(c.SnapshotRequest(rec.connection_id)).ok
    assert rec.frames[-1]["room"]["countdowns"] == {"bot_ahiko": 15.0}  # a reload: what is left
    ahiko.advance(15)  # the Bot Ahiko sits: the next hand's pause starts
    assert _last_countdowns(rec) == {"next_hand": 8.0}
    assert "bot_ahiko" not in rec.of("room")[-1]["room"]["countdowns"]


def test_R_RM_11_the_next_hands_countdown_after_each_result(ahiko: Ahiko) -> None:
    room = ahiko.room("iniciante")
    ana, bia = ahiko.person("ana"), ahiko.person("bia")
    rec = ahiko.connect(room, ana)
    assert ahiko.sit(room, ana, 0, 100).ok and ahiko.sit(room, bia, 4, 100).ok
    assert _last_countdowns(rec) == {"next_hand": 8.0}
    ahiko.advance(8)
    assert rec.of("commitment")[-1]["cards_in_s"] == 2.0
    assert room.submit(c.SnapshotRequest(rec.connection_id)).ok
    assert rec.frames[-1]["hand"]["cards_in_s"] == 2.0  # a reload during the display
    ahiko.advance(2)
    hand = room.dealer.hand
    assert hand is not None
    while room.dealer.hand is hand:
        assert act_passively(room).ok
    assert _last_countdowns(rec) == {"next_hand": 8.0}
    ahiko.advance(3)
    assert room.submit(c.SnapshotRequest(rec.connection_id)).ok
    assert rec.frames[-1]["room"]["countdowns"] == {"next_hand": 5.0}


def test_R_TM_01_the_hand_frame_says_the_clock_ran_out(ahiko: Ahiko) -> None:
    room = ahiko.room("iniciante")
    ana, bia = ahiko.person("ana"), ahiko.person("bia")
    rec = ahiko.connect(room, ana)
    assert ahiko.sit(room, ana, 0, 100).ok and ahiko.sit(room, bia, 4, 100).ok
    to_hand(ahiko, room)
    hand = room.dealer.hand
    assert hand is not None and hand.to_act is not None
    seat = hand.to_act
    assert rec.of("hand")[-1]["auto_action"] is None
    ahiko.advance(room.config.action_deadline_s or 0)  # the time bank starts (issue 19) ...
    assert rec.of("hand")[-1]["auto_action"] is None
    ahiko.advance(TIME_BANK_S)  # ... and runs out too
    frame = rec.of("hand")[-1]
    assert frame["auto_action"] == {"seat": seat, "action": "fold", "reason": "timeout"}
