"""Ahiko rooms on a manual clock over a real ledger (SQLite): tiers, start rule, buy-ins,
reservations, reloads, leaving and the statement (R-RM-10..17)."""

from __future__ import annotations

from ahiko_helpers import Ahiko, act_passively, new_key, play_out, table, to_hand

from ahiko.poker.actions import Action
from ahiko.rooms import commands as c
from ahiko.rooms.house.tiers import TIERS
from ahiko.rooms.room import Room
from ahiko.wallet.policy import SIGNUP_GRANT
from ahiko.wallet.stays import stays_of


def shove_or_call(room: Room) -> c.Reply:
    """The person to act goes all-in (or calls an all-in)."""
    hand = room.dealer.hand
    assert hand is not None and hand.to_act is not None
    legal = hand.legal()
    action = Action(legal.bet_kind, legal.max_to) if legal.bet_kind else Action.call()
    return room.submit(c.Act(hand.players[hand.to_act], hand.hand_no, action))


def heads_up(ahiko: Ahiko, tier: str = "iniciante", amounts: tuple[int, int] = (100, 100)):
    room = ahiko.room(tier)
    ana, bia = ahiko.person("ana"), ahiko.person("bia")
    assert ahiko.sit(room, ana, 0, amounts[0]).ok
    assert ahiko.sit(room, bia, 4, amounts[1]).ok
    return room, ana, bia


def test_R_RM_10_tiers_blinds_buy_in_ranges_and_two_rooms_per_tier(ahiko: Ahiko) -> None:
    expected = {
        "iniciante": (1, 2, 100, 200),
        "classica": (5, 10, 500, 1000),
        "alta": (10, 20, 1000, 2000),
    }
    assert {
        t.key: (t.small_blind, t.big_blind, t.buy_in_min, t.buy_in_max) for t in TIERS
    } == expected
    for tier in TIERS:
        rooms = ahiko.rooms(tier)
        assert len(rooms) == 2
        for room in rooms:
            assert room.config.seats == 8 and room.config.action_deadline_s == 20.0
            stakes = room.config.schedule.stakes_for_next_hand(1000, 1e6)  # fixed blinds
            assert (stakes.small_blind, stakes.big_blind) == expected[tier.key][:2]
            assert room.host_id is None
    room = ahiko.room("classica")
    pid = ahiko.person("caio")
    for amount in (499, 1001):
        reply = ahiko.sit(room, pid, 0, amount)
        assert (
            not reply.ok and reply.code == "amount_out_of_range" and "500 to 1000" in reply.message
        )
    assert ahiko.wallet_of(pid) == SIGNUP_GRANT


def test_R_RM_10_a_full_tier_opens_a_room_and_surplus_empty_rooms_close(ahiko: Ahiko) -> None:
    first, second = ahiko.rooms(TIERS[0])
    people = [ahiko.person(f"p{i}") for i in range(16)]
    for i, pid in enumerate(people):
        room = first if i < 8 else second
        assert ahiko.sit(room, pid, i % 8, 100).ok
        if room.dealer.hand is not None:  # the first two started a hand: the rest reserved
            assert room.seats.get(i % 8).waiting  # type: ignore[union-attr]
    rooms = ahiko.rooms(TIERS[0])
    assert len(rooms) == 3 and rooms[2].seats.taken == 0
    # A free seat again in the first room: the empty third room is surplus and closes.
    leaver = people[3]
    assert first.submit(c.Leave(leaver)).ok
    for _ in range(3):
        if first.seats.seat_of(leaver) is None:
            break
        play_out(first)
    assert first.seats.seat_of(leaver) is None
    assert len(ahiko.rooms(TIERS[0])) == 2
    ahiko.check()


def test_R_RM_11_a_hand_starts_eight_seconds_after_readiness_and_after_each_result(
    ahiko: Ahiko,
) -> None:
    room, ana, _bia = heads_up(ahiko)
    assert room.dealer.hand is None
    ahiko.advance(7.9)
    assert room.dealer.hand is None
    ahiko.advance(0.1)
    assert room.dealer.hand is not None  # the commitment is out; cards two seconds later
    ahiko.advance(2)
    play_out(room)
    assert room.dealer.hand is None
    ahiko.advance(7.9)
    assert room.dealer.hand is None
    ahiko.advance(0.1)
    assert room.dealer.hand is not None
    assert not room.submit(c.Pause(ana)).ok  # no host, no pause
    assert not room.submit(c.Start(ana)).ok


def test_R_RM_11_no_hand_without_a_connected_person(ahiko: Ahiko) -> None:
    room, ana, _bia = heads_up(ahiko)
    ahiko.disconnect(room, ana)
    ahiko.advance(30)
    assert room.dealer.hand is None  # only one connected person, and nobody else with chips dealt
    ahiko.connect(room, ana)
    ahiko.advance(8)
    assert room.dealer.hand is not None


def test_R_RM_12_buy_in_takes_the_confirmed_amount_in_one_ledger_transaction(
    ahiko: Ahiko,
) -> None:
    room = ahiko.room("iniciante")
    ana = ahiko.person("ana")
    key = new_key()
    reply = ahiko.sit(room, ana, 2, 150, key=key)
    assert reply.ok and reply.data["applied"] and not reply.data["reserved"]
    assert ahiko.wallet_of(ana) == SIGNUP_GRANT - 150
    assert room.seats.get(2).stack == 150  # type: ignore[union-attr]
    again = ahiko.sit(room, ana, 2, 150, key=key)  # a retry: the same answer, applied once
    assert again.ok and not again.data["applied"]
    assert ahiko.wallet_of(ana) == SIGNUP_GRANT - 150
    assert not room.submit(c.Sit(ana, "Ana", 3)).ok  # no seat without a confirmed amount
    ahiko.check()


def test_R_RM_12_a_reservation_holds_the_chips_and_cancelling_returns_all(ahiko: Ahiko) -> None:
    room, _ana, _bia = heads_up(ahiko)
    to_hand(ahiko, room)
    caio, duda = ahiko.person("caio"), ahiko.person("duda")
    reply = ahiko.sit(room, caio, 6, 200)
    assert reply.ok and reply.data["reserved"]
    assert ahiko.wallet_of(caio) == SIGNUP_GRANT - 200
    assert ahiko.sit(room, duda, 7, 120).data["reserved"]
    assert room.submit(c.Leave(duda)).ok  # cancel: everything back
    assert ahiko.wallet_of(duda) == SIGNUP_GRANT
    play_out(room)
    ahiko.advance(10)
    assert room.dealer.hand is not None and caio in room.dealer.hand.players.values()
    assert room.dealer.hand.start_stacks[6] == 200
    ahiko.check()


def test_R_RM_13_reload_between_hands_up_to_the_ceiling_counting_the_stack(
    ahiko: Ahiko,
) -> None:
    room, ana, bia = heads_up(ahiko, amounts=(120, 100))
    refused = room.submit(c.Reload(ana, 81, new_key()))
    assert not refused.ok and refused.rule == "R-RM-13" and "at most 200" in refused.message
    reply = room.submit(c.Reload(ana, 80, new_key()))
    assert reply.ok and reply.data["stack"] == 200
    assert ahiko.wallet_of(ana) == SIGNUP_GRANT - 200
    to_hand(ahiko, room)
    during = room.submit(c.Reload(bia, 50, new_key()))
    assert not during.ok and during.code == "in_hand" and during.rule == "R-RM-13"
    assert "between hands" in during.message and ahiko.wallet_of(bia) == SIGNUP_GRANT - 100
    ahiko.check()


def test_R_RM_13_winnings_may_exceed_the_ceiling(ahiko: Ahiko) -> None:
    room, _ana, _bia = heads_up(ahiko, amounts=(200, 200))
    for _ in range(60):
        to_hand(ahiko, room)
        while room.dealer.hand is not None and room.dealer.hand.to_act is not None:
            shove_or_call(room)
        stacks = {o.player_id: o.stack for _, o in room.seats.items()}
        if max(stacks.values()) > 200:
            break
    winner = max(stacks, key=lambda pid: stacks[pid])
    assert stacks[winner] > 200  # kept whole, above the tier's ceiling
    refused = room.submit(c.Reload(winner, 1, new_key()))
    assert not refused.ok and "at most 200" in refused.message
    ahiko.check()


def test_R_RM_14_leave_after_this_hand_keeps_decisions_and_pays_before_the_next(
    ahiko: Ahiko,
) -> None:
    room, _ana, bia = heads_up(ahiko)
    caio = ahiko.person("caio")
    assert ahiko.sit(room, caio, 2, 100).ok
    to_hand(ahiko, room)
    reply = room.submit(c.LeaveAfterHand(caio))
    assert reply.ok and reply.data["after_hand"]
    assert caio in room.dealer.hand.players.values()  # type: ignore[union-attr]
    acted_by_caio = False
    while room.dealer.hand is not None and room.dealer.hand.to_act is not None:
        hand = room.dealer.hand
        if hand.players[hand.to_act] == caio:
            acted_by_caio = True  # the decision is still the player's own
        assert act_passively(room).ok
    assert acted_by_caio
    assert room.seats.seat_of(caio) is None
    stay = stays_of(ahiko.engine, int(caio))[0]
    assert stay.status == "closed" and ahiko.wallet_of(caio) == SIGNUP_GRANT + stay.net  # type: ignore[operator]
    # Outside a hand the exit is immediate.
    assert room.submit(c.LeaveAfterHand(bia)).data["after_hand"] is False
    assert room.seats.seat_of(bia) is None and stays_of(ahiko.engine, int(bia))[0].exit is not None
    ahiko.check()


def test_R_RM_15_every_participation_shows_entry_reloads_exit_and_net_zero_exits_included(
    ahiko: Ahiko,
) -> None:
    room, ana, bia = heads_up(ahiko, amounts=(100, 100))
    assert room.submit(c.Reload(ana, 50, new_key())).ok
    assert room.submit(c.Reload(ana, 50, new_key())).ok
    busted = None
    for _ in range(60):
        to_hand(ahiko, room)
        while room.dealer.hand is not None and room.dealer.hand.to_act is not None:
            shove_or_call(room)
        busted = next((o.player_id for _, o in room.seats.items() if o.stack == 0), None)
        if busted:
            break
    assert busted is not None
    for pid in (ana, bia):
        assert room.submit(c.Leave(pid)).ok
    stays = {pid: stays_of(ahiko.engine, int(pid))[0] for pid in (ana, bia)}
    assert (stays[ana].entry, stays[ana].reloads, stays[ana].reload_count) == (100, 100, 2)
    assert stays[busted].exit == 0
    assert stays[busted].net == -(stays[busted].entry + stays[busted].reloads)
    assert sum(s.net for s in stays.values()) == 0  # type: ignore[misc]
    for pid, stay in stays.items():
        assert ahiko.wallet_of(pid) == SIGNUP_GRANT + stay.net  # type: ignore[operator]
    ahiko.check()


def test_R_RM_16_joining_during_a_hand_reserves_a_free_seat_and_watches(ahiko: Ahiko) -> None:
    room, _ana, _bia = heads_up(ahiko)
    to_hand(ahiko, room)
    caio = ahiko.person("caio")
    rec = ahiko.connect(room, caio)
    assert ahiko.sit(room, caio, 5, 100).data["reserved"]
    assert caio not in room.dealer.hand.players.values()  # type: ignore[union-attr]
    assert rec.of("room")[-1]["room"]["seats"][-1]["waiting"] is True
    play_out(room)
    ahiko.advance(10)
    assert caio in room.dealer.hand.players.values()  # type: ignore[union-attr]


def test_R_RM_17_leaving_pays_out_and_the_room_stays_open(ahiko: Ahiko) -> None:
    room, ana, _bia = heads_up(ahiko)
    caio = ahiko.person("caio")
    assert ahiko.sit(room, caio, 2, 100).ok
    to_hand(ahiko, room)
    reply = room.submit(c.Leave(caio))
    assert reply.ok and reply.data["after_hand"]  # in a hand: the exit waits for the result
    assert stays_of(ahiko.engine, int(caio))[0].status == "open"
    play_out(room)
    assert room.seats.seat_of(caio) is None and room.is_open
    stay = stays_of(ahiko.engine, int(caio))[0]
    assert stay.status == "closed" and ahiko.wallet_of(caio) == SIGNUP_GRANT + stay.net  # type: ignore[operator]
    assert room.submit(c.Leave(ana)).ok  # between hands: at once
    assert ahiko.wallet_of(ana) == SIGNUP_GRANT + stays_of(ahiko.engine, int(ana))[0].net  # type: ignore[operator]
    assert room.is_open and room in ahiko.rooms()
    assert not table(room).participations.get(ana)
    ahiko.check()
