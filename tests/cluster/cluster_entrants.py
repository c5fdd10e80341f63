"""Signed-in entrants of a cluster's sit & go's and MTTs (issue 20 on the nodes of issue 14):
the routes on a chosen node (``/api/sitgo``, ``/api/mtt``), and the tournament room's socket
on a chosen node, playing all-in at every turn (a heads-up sit & go ends in a hand or two)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence
from typing import Any

import httpx
from house_players import Frame, HousePlayer


class CompetitionPlayer(HousePlayer):
    def __init__(self, address: str) -> None:
        super().__init__(address, room_id="")

    async def sitgo(self, path: str = "", body: dict[str, Any] | None = None) -> httpx.Response:
        """``GET /api/sitgo`` (no body) or ``POST /api/sitgo/PATH`` on this player's node."""
        if body is None:
            return await self.http.get(self.url(f"/api/sitgo{path}"))
        return await self.http.post(self.url(f"/api/sitgo{path}"), json=body)

    async def mtt(self, path: str = "", body: dict[str, Any] | None = None) -> httpx.Response:
        if body is None:
            return await self.http.get(self.url(f"/api/mtt{path}"))
        return await self.http.post(self.url(f"/api/mtt{path}"), json=body)

    async def play_turn(self, frame: Frame) -> None:
        if frame["t"] != "hand":
            return
        view = frame["view"]
        legal = view.get("legal")
        if legal is None or view["to_act"] != view["viewer"] or view.get("result") is not None:
            return
        if legal.get("bet_kind"):  # all in
            await self.send(
                "act", hand_no=frame["hand_no"], action=legal["bet_kind"], amount=legal["max_to"]
            )
        elif legal.get("call_cost"):
            await self.send("act", hand_no=frame["hand_no"], action="call")
        else:
            await self.send("act", hand_no=frame["hand_no"], action="check")


async def until_wallets_agree(
    players: Sequence[HousePlayer], addresses: Sequence[str], expected: dict[str, int]
) -> None:
    """A payout lands off the loop: wait until every node at ``addresses`` shows each
    player's wallet as ``expected`` (by name), the same on all of them."""
    deadline = time.monotonic() + 30
    while True:
        seen = {p.name: [await p.wallet_on(address) for address in addresses] for p in players}
        if all(views == [expected[name]] * len(addresses) for name, views in seen.items()):
            return
        assert time.monotonic() < deadline, (seen, expected)
        await asyncio.sleep(0.2)
