"""Routes: sign-up, log in, log out, who am I."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request, Response
from pydantic import BaseModel
from starlette.concurrency import run_in_threadpool

from ahiko.server.accounts import SESSION_LIFETIME, User, token_hash
from ahiko.server.errors import error_responses
from ahiko.server.limits import site_limits
from ahiko.server.services import SESSION_COOKIE, current_user, services

router = APIRouter(prefix="/api")


class Credentials(BaseModel):
    username: str
    password: str


def _client_ip(request: Request) -> str:
    return request.client.host if request.client else "unknown"


def _set_session_cookie(request: Request, response: Response, token: str) -> None:
    secure = services(request).settings.secure_cookies or request.url.scheme == "https"
    response.set_cookie(
        SESSION_COOKIE,
        token,
        max_age=int(SESSION_LIFETIME.total_seconds()),
        httponly=True,
        samesite="lax",
        secure=secure,
        path="/",
    )


def _user_json(request: Request, user: User) -> dict[str, Any]:
    holdings = services(request).wallet.holdings(user.id)
    return {"id": user.id, "username": user.username, "wallet": holdings.wallet}


@router.post(
    "/accounts",
    status_code=201,
    responses=error_responses(
        409,
        422,
        notes={
            409: "The username is taken (`username_taken`).",
            422: (
                "Invalid request: a malformed body (`invalid_request`), a username that is not "
                "3–20 letters (accents welcome), digits or underscores (`invalid_username`), or a password that "
                "is not 8–256 characters (`invalid_password`)."
            ),
        },
    ),
)
def sign_up(body: Credentials, request: Request, response: Response) -> dict[str, Any]:
    """Creates the account with its 5,000-coin wallet and signs in."""
    accounts = services(request).accounts
    user = accounts.sign_up(body.username, body.password)
    token = accounts.open_session(user)
    _set_session_cookie(request, response, token)
    return _user_json(request, user)


@router.post(
    "/session",
    responses=error_responses(
        401, notes={401: "Wrong username or password (`invalid_credentials`)."}
    ),
)
async def log_in(body: Credentials, request: Request, response: Response) -> dict[str, Any]:
    user, token = await services(request).accounts.log_in_async(
        body.username, body.password, _client_ip(request)
    )
    _set_session_cookie(request, response, token)
    return await run_in_threadpool(_user_json, request, user)


@router.delete("/session", status_code=204)
def log_out(request: Request, response: Response) -> Response:
    token = request.cookies.get(SESSION_COOKIE)
    if token:
        services(request).accounts.log_out(token)
        site_limits(request.app).session_ended(token_hash(token))  # its sockets close too
    response = Response(status_code=204)
    response.delete_cookie(SESSION_COOKIE, path="/", httponly=True, samesite="lax")
    return response


@router.get("/me", responses=error_responses(401))
def me(request: Request, user: Annotated[User, Depends(current_user)]) -> dict[str, Any]:
    return _user_json(request, user)
