"""Sit & go's and multi-table tournaments on a cluster.

- **On the leader only.** ``SitGoRooms`` and ``MttService`` run on the node that holds the
  leader lease, the one the Ahiko lobby rule runs on (the house's ``Leadership``): one node at
  a time. Losing the lease closes them at once (``leading_changed(False)``): no registration
  is taken, no MTT start timer fires, the tournament rooms are closed and their leases given
  back.
- **Fenced money.** Before it opens them the leader records its leader-lease token as the
  newest of ``LEADER_FENCE`` in the database (``claim_fence``) and holds it in its
  ``FenceBook``; every pool posting (``SitGoBank``: buy-ins, refunds, payouts) checks that
  fence in its own transaction. A leader paused past its lease and resumed has its pool
  writes refused by the database once a newer leader claimed the fence.
- **Recovery, exactly once.** The new leader's start (``SitGoRooms.start``) then refunds every
  pool still holding coins: the sit & go's and MTTs the old leader registered or was playing
  (their rooms died with it). It reads the pools only after its fence claim, which waits for
  any pool write of the old leader still in flight; each refund has its idempotency key, so a
  leader that dies mid-way leaves the rest to the next one and nobody is refunded twice.
- **Tables owned like any room.** Each tournament room (a sit & go's, each MTT table) is
  claimed by the leader (a lease and a fence token, ``ClusterNode.claim``) before it exists,
  so players connected to any node sit and play through the relay (``RelayEdge``).
- **The routes on every node** (``ahiko.server.competition_calls``): a node that does not
  lead sends the route's operation to the leader as a ``call`` over the relay's Redis
  channels (``ahiko:node:LEADER``, answered on ``ahiko:reply:NODE``), with the identity the
  node read from the session, and answers the leader's body or refusal unchanged. The relay,
  not the leader's HTTP address, because every node already has it: no address to publish or
  configure (a node behind a load balancer need not be reachable by the others over HTTP),
  the same timeouts and channels as a room's commands, and Redis already tells who leads.
  When no node leads, or the leader does not answer, the answer is a 503 naming why.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from fastapi.encoders import jsonable_encoder

from ahiko.competition.live_mtt_lobby import MttService
from ahiko.competition.live_sitgo import SitGoRooms
from ahiko.server.cluster.background import Stepping
from ahiko.server.cluster.leader import LEADER, Leadership
from ahiko.server.cluster.lease import Held
from ahiko.server.competition_calls import run
from ahiko.server.errors import ApiError
from ahiko.server.services import Player
from ahiko.store.fences import LEADER_FENCE, FencedOut, claim_fence

if TYPE_CHECKING:
    from ahiko.server.cluster.node import ClusterNode

log = logging.getLogger(__name__)

CALL_TIMEOUT_S = 10.0  # a forwarded route waits this long for the leader's answer
ClaimRoom = Callable[[str], Any]  # async: own a room before it exists
Build = Callable[[ClaimRoom], tuple[SitGoRooms, MttService]]


class NotLeading(RuntimeError):
    """A tournament room was to open on a node that no longer leads."""


class ClusterCompetition(Stepping):
    """Every third of a lease (and at once when the lead changes): open the competitions when
    this node leads, close them when it does not (``step``)."""

    name = "competitions"

    def __init__(self, app: Any, node: ClusterNode, leadership: Leadership, build: Build) -> None:
        super().__init__(node.leases.ttl_ms / 3000)
        self.app = app
        self.node = node
        self.leadership = leadership
        self.build = build  # the two services, as one server builds them
        self.sitgo: SitGoRooms | None = None
        self.mtt: MttService | None = None
        self._fenced: int | None = None  # the leader token recorded in LEADER_FENCE
        self.opened = 0  # how often this node opened the competitions (monitoring, tests)
        self.refunded: list[dict[str, dict[int, int]]] = []  # each opening's recovery
        leadership.on_change = self.leading_changed
        node.host.on_call = self.serve_call
        node.on_leader_fenced = lambda: self.close("its pool write was refused by the fence")
        app.state.competition = self

    @property
    def open(self) -> bool:
        return self.sitgo is not None

    # --- leading ------------------------------------------------------------------------------
    def leading_changed(self, leading: bool) -> None:
        if not leading:
            self.close("the leader lease is lost")
        self.poke()

    async def step(self) -> None:
        held = self.leadership.held
        if held is None:
            self.close("not the leader")
        elif not self.open:
            await self._open(held)

    async def _open(self, held: Held) -> None:
        if self._fenced != held.token:
            try:
                await asyncio.to_thread(
                    claim_fence, self.node.engine, LEADER_FENCE, held.token, self.node.node
                )
            except FencedOut as behind:  # Redis's counter is behind the database: move past
                await self.node.leases.raise_floor(LEADER, behind.newest or 0)
                await self.leadership.resign()
                return
            self._fenced = held.token
            self.node.book.hold(LEADER_FENCE, held.token)
        sitgo, mtt = self.build(self.claim_room)
        # A previous leader's unfinished sit & go's and MTTs: every buy-in back, once.
        refunded = await asyncio.to_thread(sitgo.start)
        if self.leadership.held is not held:  # lost meanwhile: ``close`` already ran
            return
        mtt.start()
        self.sitgo, self.mtt = sitgo, mtt
        self.app.state.sitgo, self.app.state.mtt = sitgo, mtt
        self.opened += 1
        self.refunded.append(refunded)
        log.warning(
            "node %s opened the sit & go's and MTTs (leader token %d), refunded %d pool(s)",
            self.node.node,
            held.token,
            len(refunded),
        )

    def close(self, why: str) -> None:
        """Stop at once (on the loop, without waiting): another node may lead already."""
        if self._fenced is not None:
            self.node.book.drop(LEADER_FENCE)  # from now on a pool write of ours is refused
            self._fenced = None
        sitgo, mtt = self.sitgo, self.mtt
        if sitgo is None or mtt is None:
            return
        self.sitgo = self.mtt = None
        self.app.state.sitgo = self.app.state.mtt = None
        mtt.stop()
        registry = self.node.registry
        rooms = sitgo.room_ids() + mtt.room_ids()
        for room_id in rooms:
            registry.retire(room_id, "leader_changed")  # their leases go back (the house)
        log.warning(
            "node %s closed the sit & go's and MTTs (%s): %d room(s) closed; the next leader "
            "refunds their buy-ins",
            self.node.node,
            why,
            len(rooms),
        )

    async def claim_room(self, room_id: str) -> None:
        """Own a tournament room before it exists (its lease and fence token)."""
        if not self.open:
            raise NotLeading(f"room {room_id}: this node no longer leads the cluster")
        if await self.node.claim(room_id) is None:
            raise NotLeading(f"room {room_id} is held by another node")

    async def stop(self) -> None:
        await self.stop_loop()
        self.close("the node stops")

    # --- the routes ---------------------------------------------------------------------------
    async def call(self, name: str, player: Player | None, args: dict[str, Any]) -> Any:
        """A sit & go or MTT route's operation: here when this node leads, else the leader's
        answer (``ApiError`` with the leader's refusal, or 503 naming why there is none)."""
        if self.open:
            return await self._run(name, player, args)
        holder = await self.node.leases.holder(LEADER)
        if holder is None:
            raise ApiError(
                503,
                "no_leader",
                "no server leads the cluster right now (tournaments run on the leader); "
                "try again in a few seconds",
            )
        leader = holder[0]
        if leader == self.node.node:
            raise ApiError(
                503, "leader_starting", "the tournaments are opening on this server; try again"
            )
        request = {
            "op": "call",
            "call": name,
            "player": None if player is None else [player.player_id, player.name],
            "args": args,
        }
        answer = await self.node.edge.request(leader, request, timeout=CALL_TIMEOUT_S)
        if answer is None:
            raise ApiError(
                503,
                "leader_unreachable",
                f"the leading server ({leader}) did not answer in time; send the same request "
                "again (its key makes it count once)",
            )
        if answer.get("gone"):
            raise _leader_changed()
        if "error" in answer:
            raise ApiError.from_json(answer["error"])
        return answer["body"]

    async def _run(self, name: str, player: Player | None, args: dict[str, Any]) -> Any:
        try:
            return await run(self.app, name, player, args)
        except NotLeading:  # the lease was lost while the call ran
            raise _leader_changed() from None

    async def serve_call(self, request: dict[str, Any]) -> dict[str, Any]:
        """The leader's side of a forwarded route (``RelayHost.on_call``): the body, or the
        refusal, as this node's own route would answer it."""
        if not self.open:
            return {"gone": True}
        who = request.get("player")
        player = None if who is None else Player(str(who[0]), str(who[1]))
        try:
            body = await self._run(str(request["call"]), player, dict(request["args"]))
        except ApiError as refused:
            return {"error": refused.to_json()}
        except Exception:  # as ``AnswerBugsInJson``: the details to the log only
            log.exception("forwarded call %s failed", request.get("call"))
            failed = ApiError(500, "internal", "the server failed; the error is logged")
            return {"error": failed.to_json()}
        return {"body": jsonable_encoder(body)}


def _leader_changed() -> ApiError:
    return ApiError(503, "leader_changed", "the cluster's leader is changing; try again")
