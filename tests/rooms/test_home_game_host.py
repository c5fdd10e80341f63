"""The host of a home game runs the table (issue 43), on a manual clock: changes for the next
hand (R-RM-04), chips for a stack, seat approvals, removing a player, handing the host role
on; every action told to the table and counted in the room's ledger."""

from __future__ import annotations

from rooms_helpers import Table, holdem_config

from ahiko.rooms import commands as c
from ahiko.rooms.config import RoomKind
from ahiko.rooms.house import host_orders as h
from ahiko.rooms.status import RoomStatus
from ahiko.server.api_rooms import CreateRoom


def started() -> Table:
    t = Table(holdem_config())
    t.join("host", 0)
    t.join("bia", 3)
    t.ok(c.Start("host"))
    return t


def nets(t: Table) -> dict[str, int]:
    return {row["player_id"]: row["net"] for row in t.room.host_desk.report()["players"]}


def host_actions(t: Table) -> list[str]:
    return [f["action"] for f in t.conns["host"].of("host")]


def test_R_RM_04_blinds_ante_and_clock_set_during_a_hand_apply_to_the_next_one() -> None:
    t = started()
    assert t.room.dealer.hand is not None and t.room.dealer.hand.hand_no == 1
    reply = t.ok(h.ChangeTable("host", small_blind=10, big_blind=20, ante=2, action_deadline_s=30))
    assert reply.data == {"applied": False}
    assert t.room.dealer.hand.stakes.big_blind == 10  # the hand in play keeps its stakes
    assert t.room.summary()["pending_change"] == {
        "action_deadline_s": 30,
        "ante": 2,
        "big_blind": 20,
        "small_blind": 10,
    }
    t.to_deal()
    t.play_hand_passively()
    t.advance(t.room.config.timing.next_hand_delay_s)
    hand = t.room.dealer.hand
    assert hand is not None and hand.hand_no == 2
    assert (hand.stakes.small_blind, hand.stakes.big_blind, hand.stakes.ante) == (10, 20, 2)
    assert t.room.config.action_deadline_s == 30
    assert t.room.summary()["pending_change"] is None
    told = t.conns["bia"].of("host")
    assert [f["action"] for f in told] == ["change_set", "change_applied"]
    assert told[0]["hand_no"] == 2 and told[0]["by"] == "Host"
    assert told[1]["change"]["big_blind"] == 20 and told[1]["hand_no"] == 2
    kinds = [(f["t"], f.get("action", f.get("hand_no"))) for f in t.conns["bia"].frames]
    # told once hand 2's commitment is out: the first line of that hand's log
    assert kinds.index(("host", "change_applied")) > kinds.index(("commitment", 2))


def test_R_RM_04_a_change_between_hands_is_the_next_hands_at_once() -> None:
    t = Table(holdem_config())
    t.join("host", 0)
    t.ok(h.ChangeTable("host", starting_chips=500, no_deadline=True, max_rebuys=2))
    assert t.room.config.starting_chips == 500 and t.room.config.max_rebuys == 2
    t.join("bia", 1)
    assert t.room.seats.get(1).stack == 500  # type: ignore[union-attr]
    assert host_actions(t) == ["change_applied"]


def test_R_RM_04_bad_changes_are_refused_by_name_and_change_nothing() -> None:
    t = started()
    before = t.room.config
    cases = [
        (h.ChangeTable("host", small_blind=30, big_blind=20), "change_blinds"),
        (h.ChangeTable("host", small_blind=0), "change_blinds"),
        (h.ChangeTable("host", ante=11), "change_ante"),
        (h.ChangeTable("host", action_deadline_s=2), "change_clock"),
        (h.ChangeTable("host", starting_chips=0), "change_buy_in"),
        (h.ChangeTable("host", max_rebuys=5000), "change_rebuys"),
        (h.ChangeTable("host"), "change_empty"),
        (h.ChangeTable("bia", big_blind=40), "not_host"),
    ]
    for command, code in cases:
        reply = t.submit(command)
        assert not reply.ok and reply.code == code, (command, reply)
        assert reply.message
    assert t.room.config is before
    assert t.room.summary()["pending_change"] is None
    assert not t.conns["bia"].of("host")


def test_R_RM_06_the_rebuy_limit_counts_new_entries_in_the_ledger() -> None:
    t = Table(holdem_config(max_rebuys=1))
    t.join("host", 0)
    t.join("bia", 1)
    t.ok(h.AdjustStack("host", 1, -1000))  # between hands: at once
    t.ok(c.NewEntry("bia"))
    t.ok(h.AdjustStack("host", 1, -1000))
    refused = t.submit(c.NewEntry("bia"))
    assert not refused.ok and refused.code == "rebuys_used"
    assert t.room.seats.get(1).stack == 0  # type: ignore[union-attr]
    line = next(r for r in t.room.host_desk.report()["players"] if r["player_id"] == "bia")
    assert (line["buy_ins"], line["rebuys"], line["removed"], line["net"]) == (1000, 1000, 2000, 0)


def test_host_chips_for_a_stack_wait_for_the_hand_and_keep_the_chips_counted() -> None:
    t = started()
    t.ok(h.AdjustStack("host", 3, 250))  # bia is in hand 1
    assert t.room.seats.get(3).stack == 1000  # type: ignore[union-attr]
    refused = t.submit(h.AdjustStack("host", 3, -5000))
    assert not refused.ok and refused.code == "chips_more_than_stack"
    for bad in (0, 20_000_000):
        assert t.submit(h.AdjustStack("host", 3, bad)).code == "chips_amount"
    assert t.submit(h.AdjustStack("host", 5, 10)).code == "empty_seat"
    t.to_deal()
    t.play_hand_passively()
    stack_after_hand = t.room.seats.get(3).stack  # type: ignore[union-attr]
    t.advance(t.room.config.timing.next_hand_delay_s)
    assert (
        t.room.dealer.hand is not None
        and t.room.dealer.hand.start_stacks[3] == stack_after_hand + 250
    )
    assert host_actions(t) == ["chips_set", "chips_applied"]
    t.assert_chips_conserved()
    assert sum(nets(t).values()) == 0
    assert nets(t)["bia"] == t.room.seats.get(3).stack - 1250  # type: ignore[union-attr]


def test_approve_players_holds_seat_requests_for_the_host() -> None:
    t = Table(holdem_config())
    t.join("host", 0)
    t.ok(h.ApprovePlayers("host", True))
    cai = t.connect("cai")
    asked = t.ok(c.Sit("cai", "Cai", 4))
    assert asked.data == {"seat": 4, "awaiting_approval": True}
    assert t.room.seats.seat_of("cai") is None
    assert t.room.summary()["seat_requests"] == [{"player_id": "cai", "name": "Cai", "seat": 4}]
    assert t.submit(c.Sit("cai", "Cai", 4)).code == "seat_request_waiting"
    assert t.submit(h.AnswerSeatRequest("cai", "cai", True)).code == "not_host"
    t.ok(h.AnswerSeatRequest("host", "cai", True))
    assert t.room.seats.seat_of("cai") == 4
    dan = t.connect("dan")
    t.ok(c.Sit("dan", "Dan", 5))
    t.ok(h.AnswerSeatRequest("host", "dan", False))
    assert t.room.seats.seat_of("dan") is None
    assert dan.of("notice")[-1]["code"] == "seat_refused"
    assert t.submit(h.AnswerSeatRequest("host", "dan", True)).code == "no_seat_request"
    assert host_actions(t) == [
        "approve_players",
        "seat_request",
        "seat_approved",
        "seat_request",
        "seat_refused",
    ]
    assert any(f["room"]["seat_requests"] == [] for f in cai.of("room"))


def test_a_removed_player_leaves_with_their_chips_and_needs_approval_to_sit_again() -> None:
    t = started()
    assert t.submit(h.RemovePlayer("host", 0)).code == "remove_host"
    removed = t.ok(h.RemovePlayer("host", 3))  # before the cards: the hand is cancelled
    assert removed.data == {"seat": 3, "after_hand": False}
    assert t.room.seats.seat_of("bia") is None
    line = next(r for r in t.room.host_desk.report()["players"] if r["player_id"] == "bia")
    assert (line["cashed_out"], line["stack"], line["seated"]) == (1000, 0, False)
    again = t.ok(c.Sit("bia", "Bia", 3))
    assert again.data["awaiting_approval"] is True
    t.ok(h.AnswerSeatRequest("host", "bia", True))
    assert t.room.seats.seat_of("bia") == 3
    assert sum(nets(t).values()) == 0


def test_the_host_role_goes_to_another_seated_person() -> None:
    t = started()
    assert t.submit(h.HandOverHost("host", 0)).code == "new_host"
    t.ok(h.HandOverHost("host", 3))
    assert t.room.host_id == "bia" and t.room.summary()["host_id"] == "bia"
    told = t.conns["bia"].of("host")[-1]
    assert (told["action"], told["by"], told["name"]) == ("host_handed", "Host", "Bia")
    assert t.submit(h.ChangeTable("host", big_blind=20)).code == "not_host"
    t.ok(h.ChangeTable("bia", big_blind=20))


def test_end_of_the_game_keeps_the_final_ledger() -> None:
    t = started()
    t.ok(c.Close("host", "ended"))
    assert t.room.status is RoomStatus.CLOSED
    report = t.room.host_desk.report()
    assert report["final"] is True
    assert {r["player_id"]: r["stack"] for r in report["players"]} == {"host": 1000, "bia": 1000}
    assert report["settle_up"] == []


def test_only_a_recreational_rooms_host_runs_the_table() -> None:
    t = Table(holdem_config(kind=RoomKind.TOURNAMENT))
    t.join("host", 0)
    refused = t.submit(h.ChangeTable("host", big_blind=20))
    assert not refused.ok and refused.code == "home_game_only"


def test_a_home_game_is_created_with_approvals_and_a_rebuy_limit() -> None:
    config = CreateRoom(name="Casa", approve_players=True, max_rebuys=3).to_config()
    t = Table(config)
    t.join("host", 0)
    assert t.room.summary()["approve_players"] is True
    assert t.room.summary()["max_rebuys"] == 3
    t.connect("bia")
    assert t.ok(c.Sit("bia", "Bia", 1)).data["awaiting_approval"] is True


def test_a_player_removed_during_a_hand_leaves_at_its_end_with_their_chips() -> None:
    t = started()
    t.join("cai", 5)
    t.to_deal()
    hand = t.room.dealer.hand
    assert hand is not None and 3 in hand.players
    removed = t.ok(h.RemovePlayer("host", 3))
    assert removed.data == {"seat": 3, "after_hand": True}
    assert t.room.seats.seat_of("bia") == 3  # plays out the hand: folded at its turns
    t.play_hand_passively()
    assert t.room.seats.seat_of("bia") is None
    line = next(r for r in t.room.host_desk.report()["players"] if r["player_id"] == "bia")
    assert line["cashed_out"] == 1000 + line["net"] and line["stack"] == 0
    t.assert_chips_conserved()
    assert sum(nets(t).values()) == 0
    assert t.submit(c.Sit("bia", "Bia", 3)).data["awaiting_approval"] is True


def test_only_a_home_game_holds_seat_requests() -> None:
    t = Table(holdem_config(kind=RoomKind.TOURNAMENT, approve_players=True))
    t.join("host", 0)
    t.connect("bia")
    assert t.ok(c.Sit("bia", "Bia", 1)).data == {"seat": 1, "reserved": False}
    assert "seat_requests" not in t.room.summary()
