"""What the routes share: settings, the database engine, accounts, the wallet, the clock."""

from __future__ import annotations

from dataclasses import dataclass

from fastapi import Request
from sqlalchemy import Engine

from ahiko.server.accounts import Accounts, User
from ahiko.server.errors import ApiError
from ahiko.server.settings import Settings
from ahiko.wallet.ledger import Clock
from ahiko.wallet.operations import Wallet

SESSION_COOKIE = "ahiko_session"
CSRF_HEADER = "X-Ahiko-CSRF"


@dataclass(frozen=True)
class Services:
    settings: Settings
    engine: Engine
    clock: Clock
    accounts: Accounts
    wallet: Wallet


def services(request: Request) -> Services:
    found: Services = request.app.state.services
    return found


def current_user(request: Request) -> User:
    """The signed-in user, or 401."""
    user = services(request).accounts.user_for_token(request.cookies.get(SESSION_COOKIE))
    if user is None:
        raise ApiError(401, "not_signed_in", "sign in first")
    return user
