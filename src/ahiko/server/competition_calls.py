"""The sit & go and MTT routes as named operations.

Each route of ``api_sitgo`` and ``api_mtt`` is one operation ``(app, player, **args) -> body``
registered here by name (``operation``); it refuses with ``ApiError``. ``answer`` runs it in
this process on one server. On a node of a cluster it goes to ``app.state.competition``
(``ahiko.server.cluster.competition``): run here when this node leads, else forwarded to the
leader, which runs the same operation (``run``) for the identity the asking node read from
the session, and whose body or refusal the asking node answers unchanged.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import Request

from ahiko.server.services import Player

Operation = Callable[..., Awaitable[dict[str, Any]]]
OPERATIONS: dict[str, Operation] = {}


def operation(name: str) -> Callable[[Operation], Operation]:
    def register(found: Operation) -> Operation:
        OPERATIONS[name] = found
        return found

    return register


async def run(app: Any, name: str, player: Player | None, args: dict[str, Any]) -> dict[str, Any]:
    """The operation ``name`` in this process."""
    return await OPERATIONS[name](app, player, **args)


async def answer(
    request: Request, name: str, player: Player | None, /, **args: Any
) -> dict[str, Any]:
    """The route's answer: here, or the cluster leader's."""
    return await answer_for(request.app, name, player, **args)


async def answer_for(app: Any, name: str, player: Player | None, /, **args: Any) -> dict[str, Any]:
    """``answer`` outside a route (the table socket's gateway asks too)."""
    forwarder = getattr(app.state, "competition", None)
    if forwarder is None:
        return await run(app, name, player, args)
    body: dict[str, Any] = await forwarder.call(name, player, args)
    return body
