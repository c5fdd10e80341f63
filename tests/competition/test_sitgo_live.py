"""Sit & go's in live rooms, on a manual clock (issue 20): registration through the service
(buy-in into the pool, an idempotent key, unregister refunds, double registration and short
wallets refused), the tournament room starts itself when full (R-TN-02 same stack, R-TN-03
blinds rising), scripted players play it through the room actor to the end, and the pool is
paid by place (R-TN-04) in the ledger with the places stored by the room's hook. The ledger
is checked at every step."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from typing import Any

import pytest
from competition_players import Scripted
from sqlalchemy import Engine
from sqlalchemy.exc import OperationalError

from ahiko.competition.leaderboard import leaderboard
from ahiko.competition.lifecycle import TournamentRefused, TournamentStatus
from ahiko.competition.live_sitgo import FINISHED_KEPT_S, SitGoRooms
from ahiko.competition.profiles import profile
from ahiko.competition.sitgo import SitGoSpec
from ahiko.rooms import commands as c
from ahiko.rooms.actor import RoomActor
from ahiko.rooms.clock import ManualClock
from ahiko.rooms.registry import RoomRegistry
from ahiko.store.tournament_places import places_of
from ahiko.store.writer import InlineWriter, Outcome
from ahiko.wallet.check import check_ledger
from ahiko.wallet.errors import InsufficientFunds
from ahiko.wallet.operations import Wallet
from ahiko.wallet.policy import SIGNUP_GRANT
from archive_factory import add_person


def coins(engine: Engine, user_id: int) -> int:
    return Wallet(engine).holdings(user_id).wallet


def ledger_clean(engine: Engine) -> None:
    assert check_ledger(engine) == []


async def play_to_the_end(
    service: SitGoRooms, clock: ManualClock, actor: RoomActor, players: list[Scripted]
) -> int:
    """Every scripted player answers its turns through the actor; time passes otherwise.
    Returns the number of hands dealt."""
    for _ in range(20_000):
        if actor.summary()["status"] == "finished":
            break
        acted = False
        for player in players:
            turn = player.decision()
            if turn is not None:
                reply = await actor.ask(c.Act(player.player_id, turn[0], turn[1]))
                assert reply.ok, reply
                acted = True
        if not acted:
            clock.advance(1.0)
    assert actor.summary()["status"] == "finished"
    return max(f["hand_no"] for p in players for f in p.of("hand"))


def assert_blinds_by_level(players: list[Scripted]) -> dict[int, int]:
    """R-TN-03: hand n is played at 25/50 doubled (n - 1) // 10 times (no hand cancelled)."""
    big_blinds = {
        f["hand_no"]: f["view"]["stakes"]["big_blind"]
        for p in players
        for f in p.of("hand")
        if f["view"]
    }
    for hand_no, big_blind in big_blinds.items():
        assert big_blind == 50 * 2 ** ((hand_no - 1) // 10), (hand_no, big_blind)
    return big_blinds


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
def service(engine: Engine, clock: ManualClock) -> SitGoRooms:
    return SitGoRooms(RoomRegistry(clock=clock), engine, run_id="t")


def test_R_TN_01_R_TN_04_a_paid_six_max_sit_and_go_plays_to_the_payout(
    engine: Engine, clock: ManualClock, service: SitGoRooms
) -> None:
    people = [add_person(engine, f"p{n}") for n in range(6)]

    async def scenario() -> None:
        queue = "6max-100"
        for n, user in enumerate(people[:5]):
            found = await service.register(queue, user, f"p{n}", f"k{n}")
            assert found.applied and found.sitgo.status is TournamentStatus.REGISTERING
            ledger_clean(engine)
        sng = service.lobby.open[queue]
        assert service.bank.pool_balance(sng.id) == 500
        last = await service.register(queue, people[5], "p5", "k5")
        assert last.sitgo is sng and sng.status is TournamentStatus.RUNNING
        assert service.lobby.open[queue] is not sng  # the next one opened as this one filled
        room_id = service.room_of[sng.id]
        actor = service.registry.get(room_id)
        assert actor is not None
        summary = actor.summary()
        assert summary["kind"] == "tournament" and summary["status"] == "running"
        # R-TN-02: everyone seated with the same stack
        assert sorted(s["stack"] for s in summary["seats"] if s) == [1000] * 6
        players = [Scripted(str(user)) for user in people]
        for player in players:
            await player.join(actor)
        hands = await play_to_the_end(service, clock, actor, players)
        over = players[0].of("tournament_over")[-1]["results"]
        assert [r["place"] for r in over] == [1, 2, 3, 4, 5, 6]
        winner, second = int(over[0]["player_id"]), int(over[1]["player_id"])
        assert over[0]["prize"] == 390 and over[1]["prize"] == 210  # 65/35 of 600, no fee
        assert all("prize" not in r for r in over[2:])
        assert sng.status is TournamentStatus.FINISHED and sng.paid == {winner: 390, second: 210}
        assert service.bank.pool_balance(sng.id) == 0
        for user in people:
            expected = SIGNUP_GRANT - 100 + sng.paid.get(user, 0)
            assert coins(engine, user) == expected
        # the places as the hook stored them, not derived again from the archive
        stored = places_of(engine, room_id)
        assert [(p.place, p.user_id, p.prize) for p in stored] == [
            (r["place"], int(r["player_id"]), r.get("prize", 0)) for r in over
        ]
        assert {p.sitgo for p in stored} == {sng.id}
        # profiles and the tournament leaderboard read those stored places (no archive here)
        mine = profile(engine, winner, "w")["tournaments"]
        assert mine["finished"] == 1 and mine["wins"] == 1 and mine["played"] == 1
        assert mine["best"][0]["place"] == 1 and mine["best"][0]["entrants"] == 6
        board = leaderboard(engine, "tournament", "week", datetime.now(UTC))
        points = {row["user_id"]: row["score"] for row in board["rows"]}  # type: ignore[attr-defined]
        assert points == {int(r["player_id"]): 7 - r["place"] for r in over}
        ledger_clean(engine)
        assert hands >= 1
        assert_blinds_by_level(players)
        # busted players are free again: one registers in the next queue at once
        assert service.lobby.playing(second) is None
        again = await service.register(queue, second, "p", "k-again")
        assert again.applied and again.sitgo is service.lobby.open[queue]

    asyncio.run(asyncio.wait_for(scenario(), 120))


def test_R_TN_03_R_TN_04_a_heads_up_sit_and_go_raises_the_blinds_and_pays_the_winner(
    engine: Engine, clock: ManualClock, service: SitGoRooms
) -> None:
    ana, bia = add_person(engine, "ana"), add_person(engine, "bia")

    async def scenario() -> None:
        await service.register("hu-100", ana, "ana", "a")
        await service.register("hu-100", bia, "bia", "b")
        (sng,) = service.lobby.running()
        actor = service.registry.get(service.room_of[sng.id])
        assert actor is not None
        players = [Scripted(str(ana), passive=True), Scripted(str(bia), passive=True)]
        for player in players:
            await player.join(actor)
        hands = await play_to_the_end(service, clock, actor, players)
        big_blinds = assert_blinds_by_level(players)
        assert hands > 10 and max(big_blinds.values()) >= 100  # R-TN-03: they rose
        winner = sng.places[0]
        assert sng.paid == {winner: 200}
        assert coins(engine, winner) == SIGNUP_GRANT + 100
        assert coins(engine, ana) + coins(engine, bia) == 2 * SIGNUP_GRANT
        ledger_clean(engine)
        room_id = service.room_of[sng.id]
        clock.advance(FINISHED_KEPT_S - 1)
        assert service.registry.get(room_id) is not None  # the results stay on show
        clock.advance(1)
        assert service.registry.get(room_id) is None  # then the finished room is dropped

    asyncio.run(asyncio.wait_for(scenario(), 60))


def test_R_TN_07_D_an_entrant_who_never_comes_is_blinded_off_and_ranked_last(
    engine: Engine, clock: ManualClock, service: SitGoRooms
) -> None:
    """An entrant who never opens the table is absent from the start: R-TN-07 D keeps them
    in the field past the absence deadline (no withdrawal, so no R-TN-05 elimination with
    chips); they are dealt in, pay their blinds and their hand is folded until their chips
    run out (R-TN-04), and the sit & go still ends with one winner."""
    people = [add_person(engine, f"q{n}") for n in range(2)]

    async def scenario() -> None:
        for n, user in enumerate(people):
            await service.register("hu-free", user, f"q{n}", f"k{n}")
        (sng,) = service.lobby.running()
        actor = service.registry.get(service.room_of[sng.id])
        assert actor is not None
        here = Scripted(str(people[0]), passive=True)
        await here.join(actor)  # people[1] never opens the table
        clock.advance(121)  # past R-TM-03's two minutes: still in the field
        await asyncio.sleep(0)
        assert actor.summary()["status"] == "running"
        hands = await play_to_the_end(service, clock, actor, [here])
        assert hands > 1  # blinded off over several hands, not withdrawn
        assert sng.places == [people[0], people[1]] and sng.paid == {}
        placed = places_of(engine, actor.room_id)
        assert [p.user_id for p in placed] == sng.places

    asyncio.run(asyncio.wait_for(scenario(), 60))


def test_register_unregister_and_double_registration_errors(
    engine: Engine, service: SitGoRooms
) -> None:
    ana, bia, cai = (add_person(engine, n) for n in ("ana", "bia", "cai"))

    async def scenario() -> None:
        first = await service.register("6max-100", ana, "ana", "key-1")
        assert first.applied and coins(engine, ana) == SIGNUP_GRANT - 100
        # the same key again: the same registration, no coin moved twice
        retry = await service.register("6max-100", ana, "ana", "key-1")
        assert not retry.applied and retry.sitgo is first.sitgo
        assert coins(engine, ana) == SIGNUP_GRANT - 100 and first.sitgo.entrants == [ana]
        # another key: one sit & go at a time
        with pytest.raises(TournamentRefused) as twice:
            await service.register("hu-100", ana, "ana", "key-2")
        assert twice.value.code == "already_registered"
        with pytest.raises(TournamentRefused) as unknown:
            await service.register("nope", bia, "bia", "k")
        assert unknown.value.code == "no_queue"
        ledger_clean(engine)
        # unregister refunds before the start
        await service.withdraw(first.sitgo.id, ana)
        assert coins(engine, ana) == SIGNUP_GRANT and first.sitgo.entrants == []
        assert service.bank.pool_balance(first.sitgo.id) == 0
        with pytest.raises(TournamentRefused) as not_in:
            await service.withdraw(first.sitgo.id, ana)
        assert not_in.value.code == "not_registered"
        # after unregistering, the same key registers again (a new registration)
        again = await service.register("6max-100", ana, "ana", "key-1")
        assert again.applied and coins(engine, ana) == SIGNUP_GRANT - 100
        # once started, leaving is not a withdrawal
        await service.register("hu-100", bia, "bia", "b1")
        await service.register("hu-100", cai, "cai", "c1")
        (running,) = service.lobby.running()
        with pytest.raises(TournamentRefused) as started:
            await service.withdraw(running.id, bia)
        assert started.value.code == "already_started"
        ledger_clean(engine)

    asyncio.run(asyncio.wait_for(scenario(), 60))


def test_a_wallet_short_of_the_buy_in_is_refused_with_nothing_changed(
    engine: Engine, clock: ManualClock
) -> None:
    poor = add_person(engine, "poor")
    spec = SitGoSpec("big", "Big", "holdem", 2, SIGNUP_GRANT + 1)
    service = SitGoRooms(RoomRegistry(clock=clock), engine, specs=(spec,), run_id="s")

    async def scenario() -> None:
        with pytest.raises(InsufficientFunds):
            await service.register("big", poor, "poor", "k")
        assert service.lobby.open["big"].entrants == [] and service.lobby.playing(poor) is None
        assert coins(engine, poor) == SIGNUP_GRANT
        assert service.bank.pool_balance(service.lobby.open["big"].id) == 0
        ledger_clean(engine)

    asyncio.run(scenario())


def test_a_restart_refunds_the_sit_and_goes_a_previous_run_left_unfinished(
    engine: Engine, clock: ManualClock, service: SitGoRooms
) -> None:
    ana, bia, cai = (add_person(engine, n) for n in ("ana", "bia", "cai"))

    async def scenario() -> None:
        await service.register("6max-100", ana, "ana", "a")  # registering
        await service.register("hu-100", bia, "bia", "b")
        await service.register("hu-100", cai, "cai", "c")  # running: the process stops
        assert coins(engine, bia) == SIGNUP_GRANT - 100

    asyncio.run(scenario())
    waiting = service.lobby.playing(ana)
    assert waiting is not None
    after = SitGoRooms(RoomRegistry(clock=clock), engine, run_id="u")
    refunded = after.start()
    assert sorted(refunded) == sorted([waiting.id, service.lobby.running()[0].id])
    for user in (ana, bia, cai):
        assert coins(engine, user) == SIGNUP_GRANT
    assert after.bank.held_pools() == {} and after.start() == {}  # nothing twice
    ledger_clean(engine)


class PayoutNeverLands(InlineWriter):
    """Every write at once, except those retried while the database is busy (the payout):
    they come back failed, as after ``RETRY_FOR_S`` of a locked database."""

    def submit(self, lane: str, job: Any, done: Any = None, *, retry: bool = False) -> None:
        if retry and done is not None:
            done(Outcome(error=OperationalError("INSERT", {}, Exception("database is locked"))))
            return
        super().submit(lane, job, done, retry=retry)


def test_a_payout_that_never_lands_leaves_the_pool_whole_for_the_restart_refund(
    engine: Engine, clock: ManualClock
) -> None:
    service = SitGoRooms(RoomRegistry(clock=clock), engine, run_id="p", writer=PayoutNeverLands())
    ana, bia = add_person(engine, "ana"), add_person(engine, "bia")

    async def scenario() -> None:
        await service.register("hu-100", ana, "ana", "a")
        await service.register("hu-100", bia, "bia", "b")

    asyncio.run(scenario())
    sng = service.lobby.running()[0]
    results = [
        {"place": 1, "player_id": str(ana), "name": "ana"},
        {"place": 2, "player_id": str(bia), "name": "bia"},
    ]
    service.tournament_over(service.room_of[sng.id], sng, results)
    # the sit & go is over (both free to register again), the pool kept the coins
    assert sng.status is TournamentStatus.FINISHED and sng.paid == {}
    assert service.lobby.playing(ana) is None
    assert service.bank.pool_balance(sng.id) == 200
    assert coins(engine, ana) == SIGNUP_GRANT - 100
    ledger_clean(engine)
    after = SitGoRooms(RoomRegistry(clock=clock), engine, run_id="q")
    assert after.start() == {sng.id: {ana: 100, bia: 100}}  # the restart refunds them
    assert coins(engine, ana) == coins(engine, bia) == SIGNUP_GRANT
    ledger_clean(engine)
