"""A full recreational room's waiting list (issue 19) on the manual clock: the next free
seat is offered to the first in line for a short time, held for them, and passes on when
the offer runs out."""

from __future__ import annotations

from rooms_helpers import Table, holdem_config

from ahiko.rooms import commands as c
from ahiko.rooms.waitlist import WAIT_OFFER_S


def full_room() -> Table:
    t = Table(holdem_config(seats=2), host="ana")
    t.join("ana", 0)
    t.join("bia", 1)
    return t


def offers(t: Table, pid: str) -> list[dict[str, object]]:
    return [f for f in t.conns[pid].of("notice") if f["code"] == "seat_offer"]


def test_wait_list_offers_the_next_free_seat_to_the_first_in_line() -> None:
    t = full_room()
    t.connect("caio")
    t.connect("duda")
    assert t.ok(c.WaitList("caio")).data == {"position": 1}
    assert t.ok(c.WaitList("duda")).data == {"position": 2}
    assert t.ok(c.WaitList("caio")).data == {"position": 1}  # once only
    assert t.room.summary()["wait_list"] == {"waiting": ["caio", "duda"], "offers": []}
    t.ok(c.Leave("bia"))
    (offer,) = offers(t, "caio")
    assert offer["seat"] == 1 and offer["seconds"] == WAIT_OFFER_S
    assert offers(t, "duda") == []
    refused = t.submit(c.Sit("duda", "Duda", 1))
    assert refused.code == "seat_offered"  # held for caio
    assert t.submit(c.AddBot("ana", "easy")).code == "full"  # no bot takes it either
    t.advance(WAIT_OFFER_S - 1)
    assert t.ok(c.Sit("caio", "Caio", 1)).data["seat"] == 1
    assert t.room.summary()["wait_list"] == {"waiting": ["duda"], "offers": []}


def test_wait_list_offer_expires_and_passes_to_the_next_in_line() -> None:
    t = full_room()
    t.connect("caio")
    t.connect("duda")
    t.ok(c.WaitList("caio"))
    t.ok(c.WaitList("duda"))
    t.ok(c.Leave("bia"))
    t.advance(WAIT_OFFER_S)
    assert [f["code"] for f in t.conns["caio"].of("notice")] == ["seat_offer", "seat_offer_expired"]
    (offer,) = offers(t, "duda")
    assert offer["seat"] == 1
    assert t.submit(c.Sit("caio", "Caio", 1)).code == "seat_offered"  # caio's time is up
    assert t.ok(c.Sit("duda", "Duda", 1)).ok
    t.advance(WAIT_OFFER_S)
    assert t.room.summary()["wait_list"] == {"waiting": [], "offers": []}


def test_wait_list_only_for_a_full_recreational_room() -> None:
    t = Table(holdem_config(seats=3), host="ana")
    t.join("ana", 0)
    t.connect("caio")
    assert t.submit(c.WaitList("caio")).code == "seat_free"
    assert t.submit(c.WaitList("ana")).code == "seat"
    assert t.submit(c.WaitList("caio", on=False)).code == "not_waiting"
    t.join("bia", 1)
    t.join("duda", 2)
    t.ok(c.WaitList("caio"))
    t.ok(c.WaitList("caio", on=False))
    t.ok(c.Leave("bia"))
    assert offers(t, "caio") == []  # left the list: no offer
    assert t.room.summary()["wait_list"]["waiting"] == []
