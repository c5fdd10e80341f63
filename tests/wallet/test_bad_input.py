"""Bad input: each refused with a clear error naming the problem, and no ledger change."""

from __future__ import annotations

import pytest

from ahiko.wallet.errors import (
    AmountOutOfRange,
    InsufficientFunds,
    InvalidAmount,
    InvalidRequest,
    NotYourParticipation,
    ParticipationClosed,
    UnknownParticipation,
    UnknownRoom,
    UnknownUser,
    WalletError,
)
from ahiko.wallet.operations import AmountRange

BAD_AMOUNTS = [-1, 0, 1.5, 100.0, "100", True, None]


@pytest.mark.parametrize("amount", BAD_AMOUNTS, ids=repr)
def test_buy_in_refuses_non_positive_or_non_integer_amounts(
    amount, wallet, make_user, room, snapshot
):
    ana = make_user("ana")
    before = snapshot()
    with pytest.raises(InvalidAmount, match="buy-in must be"):
        wallet.buy_in(ana, room, 0, amount, "k")
    assert snapshot() == before


@pytest.mark.parametrize("amount", BAD_AMOUNTS, ids=repr)
def test_reload_and_grant_refuse_bad_amounts(amount, wallet, make_user, room, snapshot):
    ana = make_user("ana")
    pid = wallet.buy_in(ana, room, 0, 100, "buy").participation_id
    before = snapshot()
    with pytest.raises(InvalidAmount, match="reload must be"):
        wallet.reload(ana, pid, amount, "k")
    with pytest.raises(InvalidAmount, match="grant amount must be"):
        wallet.grant(ana, amount, "why", "k2")
    with pytest.raises(InvalidAmount):
        wallet.reserve_add(amount, "why", "k3")
    assert snapshot() == before


def test_R_RM_10_buy_in_outside_the_tier_range(wallet, make_user, room, snapshot):
    ana = make_user("ana")
    before = snapshot()
    for amount in (99, 201):
        with pytest.raises(AmountOutOfRange, match="between 100 and 200"):
            wallet.buy_in(ana, room, 0, amount, f"k{amount}", AmountRange(100, 200))
    assert snapshot() == before


def test_buy_in_beyond_the_wallet(wallet, make_user, room, snapshot):
    ana = make_user("ana")
    before = snapshot()
    with pytest.raises(InsufficientFunds, match="holds 5000 coins; the buy-in needs 5001"):
        wallet.buy_in(ana, room, 0, 5_001, "k")
    assert snapshot() == before


def test_reload_beyond_the_wallet(wallet, make_user, room, snapshot):
    ana = make_user("ana")
    pid = wallet.buy_in(ana, room, 0, 4_000, "buy").participation_id
    before = snapshot()
    with pytest.raises(InsufficientFunds, match="holds 1000 coins"):
        wallet.reload(ana, pid, 1_001, "k")
    assert snapshot() == before


def test_unknown_room(wallet, make_user, room, snapshot):
    ana = make_user("ana")
    before = snapshot()
    with pytest.raises(UnknownRoom, match="no such room") as refused:
        wallet.buy_in(ana, "nowhere", 0, 100, "k")
    assert "nowhere" not in refused.value.message  # people read it: no room ids
    with pytest.raises(UnknownRoom):
        wallet.bot_fund("nowhere", 0, 100, "k2")
    assert snapshot() == before


@pytest.mark.parametrize("seat", [-1, 9, "3", None])
def test_bad_seat(seat, wallet, make_user, room, snapshot):
    ana = make_user("ana")
    before = snapshot()
    with pytest.raises(InvalidRequest, match="seat must be"):
        wallet.buy_in(ana, room, seat, 100, "k")
    assert snapshot() == before


def test_another_users_participation(wallet, make_user, room, snapshot):
    ana, bia = make_user("ana"), make_user("bia")
    pid = wallet.buy_in(ana, room, 0, 100, "buy").participation_id
    before = snapshot()
    with pytest.raises(NotYourParticipation, match="not yours"):
        wallet.reload(bia, pid, 50, "k")
    with pytest.raises(NotYourParticipation):
        wallet.cash_out(pid, "k2", user_id=bia)
    assert snapshot() == before


def test_unknown_and_closed_participations(wallet, make_user, room, snapshot):
    ana = make_user("ana")
    pid = wallet.buy_in(ana, room, 0, 100, "buy").participation_id
    seated = wallet.buy_in(ana, "iniciante-2", 0, 100, "buy2").participation_id
    wallet.cash_out(pid, "out")
    before = snapshot()
    with pytest.raises(UnknownParticipation, match="no such stay") as unknown:
        wallet.reload(ana, 999, 50, "k")
    assert "999" not in unknown.value.message
    with pytest.raises(UnknownParticipation):
        wallet.cash_out(999, "k2")
    with pytest.raises(ParticipationClosed, match="already closed"):
        wallet.reload(ana, pid, 50, "k3")
    with pytest.raises(ParticipationClosed):
        wallet.cash_out(pid, "k4")
    with pytest.raises(InvalidRequest, match="not the Bot Ahiko"):
        wallet.bot_return(seated, "k5")
    assert snapshot() == before


def test_unknown_user(wallet, snapshot):
    before = snapshot()
    with pytest.raises(UnknownUser, match="no wallet") as unknown:
        wallet.claim(404, "k")
    assert "404" not in unknown.value.message
    assert snapshot() == before


@pytest.mark.parametrize("key", ["", "x" * 129, None, "nul\x00key", "line\nbreak"])
def test_bad_idempotency_key(key, wallet, make_user, room, snapshot):
    ana = make_user("ana")
    before = snapshot()
    with pytest.raises(InvalidRequest, match="idempotency key"):
        wallet.buy_in(ana, room, 0, 100, key)
    assert snapshot() == before


def test_every_error_has_a_code_and_a_4xx_status():
    for error in WalletError.__subclasses__():
        if error.__name__ == "LedgerInvariantBroken":
            continue
        assert error.code != WalletError.code
        assert 400 <= error.http_status < 500, error
