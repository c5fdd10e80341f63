"""Issue 14: cross-node play over real sockets. Two nodes (uvicorn on loopback, each with its
own room registry) share one Redis and one database. Ana opens a room on node A and plays
there; Bia plays at the same table from node B, and a spectator watches from node B: B holds
no room, its gateway forwards their commands to A and relays A's numbered frames back. They
play hands to the end (the room's hand limit). Both nodes list the room in their lobby."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path

import httpx
import pytest
import websockets
from fastapi import FastAPI

from ahiko.server.cluster.node import ClusterNode
from ahiko.server.errors import install_error_handlers
from ahiko.server.gateway import WS_ROOM_MOVED
from ahiko.store.engine import make_engine
from live_server import serving

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "rooms"))
from rooms_live import Client, build_app

pytestmark = pytest.mark.cluster


def cluster_app(redis_url: str, database_url: str, node: str) -> FastAPI:
    engine = make_engine(database_url)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        cluster = ClusterNode(redis_url, node, engine, app.state.room_registry, ttl_ms=2000)
        await cluster.start()
        app.state.cluster = cluster
        app.state.loop = asyncio.get_running_loop()
        yield
        await cluster.stop()
        engine.dispose()

    app = build_app()  # rooms_live's: the rooms API and the gateway, players by header
    install_error_handlers(app)  # the site's error bodies (``no_room``)
    app.router.lifespan_context = lifespan
    return app


@contextmanager
def two_nodes(redis_url: str, database_url: str) -> Iterator[tuple[str, str, FastAPI, FastAPI]]:
    a, b = cluster_app(redis_url, database_url, "a"), cluster_app(redis_url, database_url, "b")
    with serving(a) as port_a, serving(b) as port_b:
        yield f"127.0.0.1:{port_a}", f"127.0.0.1:{port_b}", a, b


async def _seat(client: Client, seat: int) -> None:
    await client.open()
    assert (await client.recv())["t"] == "snapshot"
    sit = await client.send("sit", seat=seat)
    await client.until(lambda f: f.get("id") == sit and f["t"] == "ack")


def test_two_people_on_two_nodes_and_a_spectator_play_a_recreational_room_to_its_end(
    redis_url: str, sqlite_url: str
) -> None:
    with two_nodes(redis_url, sqlite_url) as (address_a, address_b, app_a, app_b):
        response = httpx.post(
            f"http://{address_a}/api/rooms",
            json={"name": "cluster", "limit_hands": 20},
            headers={"x-player": "ana"},
        )
        assert response.status_code == 201, response.text
        room_id = response.json()["id"]
        # the lobby is the cluster's: node B lists the room node A opened
        listed = httpx.get(f"http://{address_b}/api/rooms").json()
        assert [entry["id"] for entry in listed] == [room_id]
        assert httpx.get(f"http://{address_a}/api/rooms").json() == listed
        # and either node describes it (node B asks its owner)
        described = httpx.get(f"http://{address_b}/api/rooms/{room_id}")
        assert described.status_code == 200
        assert described.json() == httpx.get(f"http://{address_a}/api/rooms/{room_id}").json()
        assert described.json()["name"] == "cluster" and described.json()["seats"] == []
        nobody = httpx.get(f"http://{address_b}/api/rooms/r-nosuchroom")
        assert nobody.status_code == 404 and nobody.json()["error"] == "no_room"

        async def game() -> tuple[Client, Client, Client]:
            ana = Client(address_a, room_id, "ana", seed=1)
            bia = Client(address_b, room_id, "bia", seed=2)  # on the other node
            watcher = Client(address_b, room_id, None, seed=3)
            await _seat(ana, 0)
            await _seat(bia, 1)
            await watcher.open()
            started = await ana.send("start")
            await ana.until(lambda f: f.get("id") == started)
            await asyncio.gather(ana.play(), bia.play(), watcher.play())
            for client in (ana, bia, watcher):
                await client.close()
            return ana, bia, watcher

        ana, bia, watcher = asyncio.run(game())
        assert app_b.state.room_registry.get(room_id) is None  # B never held the room
        room = app_a.state.room_registry.get(room_id).room
        assert room.dealer.hands_dealt == 20
        for client in (ana, bia, watcher):
            closed = client.frames[-1]
            assert closed["t"] == "closed" and closed["reason"] == "limit"
            assert sum(closed["stacks"].values()) == room.chips_in - room.chips_out
        # the same numbered frames reached B's sockets as A's, in order, without a hole
        numbered = [f["seq"] for f in bia.frames if f["t"] not in ("ack", "error", "snapshot")]
        assert numbered == sorted(numbered) and len(set(numbered)) == len(numbered)
        spectator = [f for f in watcher.frames if f["t"] not in ("ack", "error", "snapshot")]
        mine = {f["seq"] for f in ana.frames if f["t"] not in ("ack", "error", "snapshot")}
        assert {f["seq"] for f in spectator} <= mine | {f["seq"] for f in bia.frames}


def test_when_the_owner_goes_silent_the_other_node_closes_its_sockets_to_reconnect(
    redis_url: str, sqlite_url: str
) -> None:
    """The owner stops renewing and answering (as a process killed with -9 does): once its
    lease expires, node B closes the sockets it relayed with 4409, a code the client
    reconnects after (not one of its final codes). How soon (the lease plus about a second)
    is the failover bench's figure; here the close must come while the client still waits."""
    with two_nodes(redis_url, sqlite_url) as (address_a, address_b, app_a, _app_b):
        response = httpx.post(
            f"http://{address_a}/api/rooms", json={"name": "x"}, headers={"x-player": "ana"}
        )
        room_id = response.json()["id"]

        async def scenario() -> tuple[int, float]:
            bia = Client(address_b, room_id, "bia", seed=2)
            await _seat(bia, 1)
            owner = app_a.state.cluster
            silenced = asyncio.run_coroutine_threadsafe(_silence(owner), app_a.state.loop)
            await asyncio.wrap_future(silenced)
            began = asyncio.get_running_loop().time()
            with pytest.raises(websockets.ConnectionClosed) as closed:
                while True:
                    await bia.recv(timeout=10)
            return closed.value.rcvd.code, asyncio.get_running_loop().time() - began

        code, seconds = asyncio.run(scenario())
        assert code == WS_ROOM_MOVED, (code, seconds)


async def _silence(node: ClusterNode) -> None:
    await node.ownership.stop()  # no more renewals: the lease runs out
    await node.host.stop()  # and no more answers


def test_when_the_owner_loses_a_room_its_own_sockets_are_closed_to_reconnect_too(
    redis_url: str, sqlite_url: str
) -> None:
    """The owner's lease or fence is lost (a pause past the lease, a refused write): it drops
    the room and closes the room's sockets on itself with 4409 as well, so those clients
    reconnect (and reach the room's new owner) instead of waiting on a room nobody serves."""
    with two_nodes(redis_url, sqlite_url) as (address_a, _address_b, app_a, _app_b):
        response = httpx.post(
            f"http://{address_a}/api/rooms", json={"name": "x"}, headers={"x-player": "ana"}
        )
        room_id = response.json()["id"]

        async def scenario() -> int:
            ana = Client(address_a, room_id, "ana", seed=1)
            await _seat(ana, 0)
            owner = app_a.state.cluster
            app_a.state.loop.call_soon_threadsafe(owner.ownership.lose, room_id, "test")
            with pytest.raises(websockets.ConnectionClosed) as closed:
                while True:
                    await ana.recv(timeout=10)
            return closed.value.rcvd.code

        assert asyncio.run(scenario()) == WS_ROOM_MOVED
        assert app_a.state.room_registry.get(room_id) is None  # dropped, never served again
