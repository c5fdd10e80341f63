"""What the sit & go and MTT routes share: who asks (a signed-in player, or a guest), the body of a
registration (the client's idempotency key), and the services' refusals as API errors.

A tournament's refusal (``TournamentRefused``) answers 404 for what does not exist, 403 for
what only a host may do, 422 for a bad request and 409 otherwise; a failed write 503 (the
house rooms' ``storage_busy``/``storage_error``); a short wallet the wallet's own status.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Annotated, Any, TypeVar

from pydantic import BaseModel, ConfigDict, Field

from ahiko.competition.lifecycle import TournamentRefused
from ahiko.competition.tournament_pools import TournamentStorage
from ahiko.server.errors import ApiError
from ahiko.server.services import Player
from ahiko.wallet.errors import WalletError

STATUS_OF = {
    "no_queue": 404,
    "no_sitgo": 404,
    "no_mtt": 404,
    "not_host": 403,
    "bad_request": 422,
}

S = TypeVar("S")


class RegisterBody(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    key: Annotated[str, Field(min_length=1, max_length=64, pattern=r"^[\x21-\x7e]+$")]


def open_service(app: Any, attribute: str, kind: type[S], closed: str) -> S:
    """The service ``create_app``'s lifespan opened as ``app.state.<attribute>``; 503
    ``unavailable`` (``closed`` says what) before it is open or on a node that forwards."""
    found = getattr(app.state, attribute, None)
    if not isinstance(found, kind):
        raise ApiError(503, "unavailable", closed)
    return found


def maybe_user(player: Player | None) -> int | None:
    """The requester's user id; None for a guest (a listing shows them no registration)."""
    return int(player.player_id) if player is not None and player.player_id.isdigit() else None


def signed_in_user(player: Player | None) -> int:
    if player is None or not player.player_id.isdigit():
        raise ApiError(401, "not_signed_in", "sign in first")
    return int(player.player_id)


def refused(exc: TournamentRefused | WalletError | TournamentStorage) -> ApiError:
    if isinstance(exc, TournamentStorage):
        return ApiError(503, exc.code, exc.message)
    if isinstance(exc, TournamentRefused):
        return ApiError(STATUS_OF.get(exc.code, 409), exc.code, str(exc))
    return ApiError(exc.http_status, exc.code, exc.message)


@contextmanager
def answering_refusals() -> Iterator[None]:
    """The services' refusals (a tournament's, the wallet's, a failed write) as API errors."""
    try:
        yield
    except (TournamentRefused, WalletError, TournamentStorage) as exc:
        raise refused(exc) from None
