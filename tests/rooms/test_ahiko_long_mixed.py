"""A long mixed run: people and the Bot Ahiko at all three tiers, random sit / reserve / cancel
/ reload / leave / "Sair após esta mão" / disconnect / reconnect / retried requests, over at
least 500 hands; afterwards the ledger is sound and every wallet is its grants plus the net
results of its participations (R-RM-10..17, R-BA-01..03, R-TM-03, R-TM-07)."""

from __future__ import annotations

from random import Random

import pytest
from ahiko_helpers import Ahiko, new_key, random_action

from ahiko.rooms import commands as c
from ahiko.rooms.house.bot_ahiko import BOT_AHIKO_ID
from ahiko.rooms.house.tiers import TIERS, tier_of
from ahiko.rooms.room import Room
from ahiko.rooms.table_hand import Phase
from ahiko.store.engine import make_engine
from ahiko.wallet.policy import SIGNUP_GRANT
from ahiko.wallet.stays import bot_stays, stays_of

HANDS = 500


def _random_step(ahiko: Ahiko, room: Room, pid: str, rng: Random, grants: dict[str, int]) -> None:
    key = f"{room.room_id}:{pid}"
    seated = room.seats.seat_of(pid) is not None
    tier = tier_of(room.config.tier)
    roll = rng.random()
    reply: c.Reply | None = None
    if not seated:
        if key not in ahiko.conns and roll < 0.1:
            ahiko.connect(room, pid)
            return
        free = room.seats.free_seats()
        if not free:
            return
        amount = rng.randint(tier.buy_in_min, tier.buy_in_max)
        if ahiko.wallet_of(pid) < amount:
            top_up = 3 * tier.buy_in_max
            ahiko.wallet.grant(int(pid), top_up, "long test", new_key())
            grants[pid] += top_up
        request_key = new_key()
        seat = rng.choice(free)
        reply = ahiko.sit(room, pid, seat, amount, key=request_key)
        if reply.ok and rng.random() < 0.2:  # a retried request is applied once
            again = ahiko.sit(room, pid, seat, amount, key=request_key)
            assert again.ok and not again.data["applied"]
            other = ahiko.sit(room, pid, seat, amount + 1, key=request_key)
            assert not other.ok and other.code == "idempotency_conflict"  # issue 17
    elif roll < 0.3:
        occupant = room.seats.get(room.seats.seat_of(pid))  # type: ignore[arg-type]
        room_left = tier.buy_in_max - (occupant.stack if occupant else 0)
        reply = room.submit(c.Reload(pid, max(1, rng.randint(1, max(1, room_left))), new_key()))
    elif roll < 0.45:
        reply = room.submit(c.Leave(pid))  # cancels a reservation, or stands up
    elif roll < 0.6:
        reply = room.submit(c.LeaveAfterHand(pid, rng.random() < 0.8))
    elif roll < 0.8:
        if key in ahiko.conns:
            ahiko.disconnect(room, pid)
        else:
            ahiko.connect(room, pid)
        return
    if reply is not None and not reply.ok:
        assert reply.code and reply.message  # refused with a reason, nothing changed


def _people_act(room: Room, rng: Random) -> bool:
    hand = room.dealer.hand
    if hand is None or hand.phase is not Phase.DEALT or hand.to_act is None:
        return False
    seat = hand.to_act
    occupant = room.seats.get(seat)
    if occupant is None or occupant.is_bot or not occupant.connected or rng.random() < 0.05:
        return False  # bots answer by themselves; absent people wait for the deadline
    reply = room.submit(c.Act(hand.players[seat], hand.hand_no, random_action(rng, hand.legal())))
    assert reply.ok, reply
    return True


def run_mixed(ahiko: Ahiko, seed: int) -> None:
    rng = Random(seed)
    rooms = [ahiko.room(tier.key) for tier in TIERS]
    people = [ahiko.person(f"p{i}") for i in range(9)]
    grants = dict.fromkeys(people, SIGNUP_GRANT)
    bot_seen = set()
    for _step in range(200_000):
        # Looked at every step: the bot may sit and leave again between two samples.
        bot_seen |= {r.room_id for r in rooms if r.seats.seat_of(BOT_AHIKO_ID) is not None}
        if sum(r.dealer.hands_dealt for r in rooms) >= HANDS:
            break
        room = rng.choice(rooms)
        if _people_act(room, rng):
            continue
        if rng.random() < 0.15:
            _random_step(ahiko, room, rng.choice(people), rng, grants)
        else:
            ahiko.advance(rng.choice([0.5, 2.0, 8.0, 21.0]))
    assert sum(r.dealer.hands_dealt for r in rooms) >= HANDS
    # Everyone goes home: the last hands end by the deadlines; the bot follows.
    for room in rooms:
        for pid in people:
            if room.seats.seat_of(pid) is not None:
                assert room.submit(c.Leave(pid)).ok
    ahiko.advance(600)
    for room in rooms:
        assert room.seats.taken == 0 and room.is_open
    assert bot_seen, "the Bot Ahiko never sat"
    ahiko.check()
    for pid in people:
        stays = stays_of(ahiko.engine, int(pid))
        assert all(s.status == "closed" for s in stays)
        assert ahiko.wallet_of(pid) == grants[pid] + sum(s.net for s in stays)  # type: ignore[misc]
    bot_net = sum(s.net for s in bot_stays(ahiko.engine))  # type: ignore[misc]
    assert ahiko.wallet.reserve_balance() == ahiko.initial_reserve + bot_net


def test_R_RM_10_to_17_R_BA_R_TM_long_mixed_run_keeps_every_coin(ahiko: Ahiko) -> None:
    run_mixed(ahiko, seed=2026)


@pytest.mark.postgres
def test_R_RM_10_to_17_long_mixed_run_on_postgresql(postgres_url: str) -> None:
    engine = make_engine(postgres_url)
    try:
        run_mixed(Ahiko(engine), seed=7)
    finally:
        engine.dispose()
