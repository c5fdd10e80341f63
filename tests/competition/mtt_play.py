"""Playing a live multi-table tournament on a manual clock (imported as ``mtt_play``): every
player follows every table (a connection per table, tables opened later included), or with
``everywhere=False`` only the tables it is seated at or sent to (a large field), and answers
its turns through the actors; time passes only when nobody had a turn."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from random import Random

import pytest
from competition_players import Scripted
from sqlalchemy import Engine

from ahiko.bots.protocol import Bot
from ahiko.competition.lifecycle import TournamentRefused
from ahiko.competition.live_mtt import MttRooms
from ahiko.competition.live_mtt_lobby import MttService
from ahiko.competition.mtt_lobby import MttSpec
from ahiko.rooms import commands as c
from ahiko.rooms.clock import ManualClock
from ahiko.rooms.registry import RoomRegistry
from ahiko.store.writer import StoreWriter


def mtt_service(
    engine: Engine,
    clock: ManualClock,
    buy_in: int,
    *,
    seed: int,
    run_id: str,
    writer: StoreWriter | None = None,
) -> MttService:
    """The live MTTs of one spec (``mtt-<buy_in>``) every ten minutes, five-minute levels, on a
    registry of ``clock``'s (``service.registry``)."""
    return MttService(
        RoomRegistry(clock=clock),
        engine,
        every_minutes=10,
        specs=(MttSpec(f"mtt-{buy_in}", f"Torneio {buy_in}", buy_in),),
        level_minutes=5,
        rng=Random(seed),
        run_id=run_id,
        writer=writer,
    )


async def play(
    registry: RoomRegistry,
    clock: ManualClock,
    mtt: MttRooms,
    every_second: Callable[[], None] = lambda: None,
    steps: int = 60_000,
    *,
    everywhere: bool = True,
    cautious: Callable[[int], bool] = lambda n: n % 4 != 0,  # by the player's sorted index
    brain: Callable[[str], Bot | None] = lambda _player: None,  # a site's bot plays for them
) -> dict[tuple[str, int], Scripted]:
    """Plays ``mtt`` to its end; returns the players, by (player, table)."""
    players: dict[tuple[str, int], Scripted] = {}
    for _ in range(steps):
        if mtt.finished:
            break
        index = {pid: n for n, pid in enumerate(sorted(mtt.names))}
        for number, room_id in mtt.room_ids().items():
            actor = registry.get(room_id)
            if actor is None:
                continue
            if everywhere:
                there = list(index)
            else:  # seated there, or sent there and waiting for the seat
                held = [cmd.player_id for (n, _seat), cmd in mtt.held.items() if n == number]
                there = [*mtt.seated.get(number, {}).values(), *held]
            for pid in there:
                if (pid, number) not in players:
                    player = Scripted(
                        pid,
                        cautious=cautious(index[pid]),
                        table=str(number),
                        brain=brain(pid),
                        rng=Random(index[pid]),
                    )
                    players[(pid, number)] = player
                    await player.join(actor)
        acted = False
        for (pid, number), player in players.items():
            actor = registry.get(mtt.room_ids()[number])
            turn = None if actor is None else player.decision()
            if turn is not None and actor is not None:
                reply = await actor.ask(c.Act(pid, turn[0], turn[1]))
                assert reply.ok, reply
                acted = True
        if acted:
            continue
        await asyncio.sleep(0)  # the tables' actors take their inboxes before time moves on
        clock.advance(1.0)
        every_second()
    assert mtt.finished
    return players


async def refused(code: str, work: Awaitable[object]) -> None:
    """``work`` (a call of the MTT service) is refused with ``code``."""
    with pytest.raises(TournamentRefused) as caught:
        await work
    assert caught.value.code == code
