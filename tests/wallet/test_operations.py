"""Wallet operations on SQLite and PostgreSQL: sign-up grant, claim, buy-in, reload,
cash-out, the Bot Ahiko's reserve, hand settlement, idempotency."""

from __future__ import annotations

from datetime import timedelta

import pytest

from ahiko.wallet.check import check_ledger
from ahiko.wallet.errors import (
    AlreadySeated,
    ClaimNotAvailable,
    IdempotencyConflict,
    InsufficientFunds,
    InvalidRequest,
    ReserveUnavailable,
)
from ahiko.wallet.operations import AmountRange
from ahiko.wallet.policy import CLAIM_AMOUNT, SIGNUP_GRANT

INICIANTE = AmountRange(100, 200)  # R-RM-10


def test_signup_grants_5000_coins(wallet, make_user, engine):
    ana = make_user("ana")
    assert wallet.holdings(ana).wallet == SIGNUP_GRANT == 5_000
    assert check_ledger(engine) == []


def test_R_RM_12_buy_in_moves_coins_from_wallet_to_seat(wallet, make_user, room, engine):
    ana = make_user("ana")
    receipt = wallet.buy_in(ana, room, 3, 150, "k1", INICIANTE)
    assert receipt.applied and receipt.participation_id is not None
    holdings = wallet.holdings(ana)
    assert (holdings.wallet, holdings.in_seats) == (4_850, 150)
    assert wallet.participation_balance(receipt.participation_id) == 150
    assert check_ledger(engine) == []


def test_R_RM_13_reload_respects_the_tier_ceiling(wallet, make_user, room):
    ana = make_user("ana")
    pid = wallet.buy_in(ana, room, 0, 120, "buy", INICIANTE).participation_id
    wallet.reload(ana, pid, 80, "r1", max_stack=INICIANTE.maximum)
    assert wallet.participation_balance(pid) == 200
    with pytest.raises(Exception, match="at most 200"):
        wallet.reload(ana, pid, 1, "r2", max_stack=INICIANTE.maximum)


def test_R_RM_13_winnings_may_exceed_the_ceiling(wallet, make_user, room):
    ana, bia = make_user("ana"), make_user("bia")
    pa = wallet.buy_in(ana, room, 0, 200, "a", INICIANTE).participation_id
    pb = wallet.buy_in(bia, room, 1, 200, "b", INICIANTE).participation_id
    wallet.settle_hand(room, [(pa, 150), (pb, -150)], "hand-1")
    assert wallet.participation_balance(pa) == 350
    with pytest.raises(Exception, match="at most 0 more"):
        wallet.reload(ana, pa, 10, "r", max_stack=INICIANTE.maximum)


def test_R_RM_17_cash_out_pays_the_whole_seat_and_closes(wallet, make_user, room, engine):
    ana, bia = make_user("ana"), make_user("bia")
    pa = wallet.buy_in(ana, room, 0, 200, "a").participation_id
    pb = wallet.buy_in(bia, room, 1, 200, "b").participation_id
    wallet.settle_hand(room, [(pa, 60), (pb, -60)], "hand-1")
    receipt = wallet.cash_out(pa, "out-a", user_id=ana)
    assert receipt.amount == 260
    assert wallet.holdings(ana).wallet == SIGNUP_GRANT + 60
    assert wallet.holdings(ana).in_seats == 0
    assert check_ledger(engine) == []


def test_R_RM_15_zero_exit_is_recorded(wallet, make_user, room, engine):
    ana, bia = make_user("ana"), make_user("bia")
    pa = wallet.buy_in(ana, room, 0, 100, "a").participation_id
    pb = wallet.buy_in(bia, room, 1, 100, "b").participation_id
    wallet.settle_hand(room, [(pa, -100), (pb, 100)], "hand-1")
    receipt = wallet.cash_out(pa, "out-a")
    assert receipt.amount == 0 and receipt.applied
    assert check_ledger(engine) == []


def test_idempotent_retry_is_applied_once(wallet, make_user, room, snapshot):
    ana = make_user("ana")
    first = wallet.buy_in(ana, room, 0, 150, "same-key")
    before = snapshot()
    again = wallet.buy_in(ana, room, 0, 150, "same-key")
    assert not again.applied
    assert again.transaction_id == first.transaction_id
    assert again.participation_id == first.participation_id
    assert snapshot() == before


def test_same_key_with_other_content_is_refused(wallet, make_user, room, snapshot):
    ana = make_user("ana")
    wallet.buy_in(ana, room, 0, 150, "same-key")
    before = snapshot()
    with pytest.raises(IdempotencyConflict, match="already used") as conflict:
        wallet.buy_in(ana, room, 0, 160, "same-key")
    assert room not in conflict.value.message and "same-key" not in conflict.value.message
    with pytest.raises(IdempotencyConflict):
        wallet.claim(ana, "same-key")
    assert snapshot() == before


def test_claim_needs_fewer_than_100_coins_in_wallet_and_seats(wallet, make_user, room, snapshot):
    ana, bia = make_user("ana"), make_user("bia")
    before = snapshot()
    with pytest.raises(ClaimNotAvailable, match="5000 coins"):
        wallet.claim(ana, "c0")
    assert snapshot() == before
    # Seated coins count: 4,990 at the table and 10 in the wallet is still 5,000.
    pa = wallet.buy_in(ana, room, 0, 4_990, "a").participation_id
    with pytest.raises(ClaimNotAvailable):
        wallet.claim(ana, "c1")
    pb = wallet.buy_in(bia, room, 1, 4_990, "b").participation_id
    wallet.settle_hand(room, [(pa, -4_950), (pb, 4_950)], "hand-1")
    assert wallet.holdings(ana).total == 50
    assert wallet.claim(ana, "c2").amount == CLAIM_AMOUNT
    assert wallet.holdings(ana).wallet == 10 + CLAIM_AMOUNT


def test_claim_once_every_24_hours(wallet, make_user, room, clock):
    ana, bia = make_user("ana"), make_user("bia")
    _lose_everything(wallet, room, ana, bia, 5_000, "1")
    wallet.claim(ana, "c1")
    assert wallet.holdings(ana).next_claim_at == clock() + timedelta(hours=24)
    _lose_everything(wallet, "iniciante-2", ana, bia, CLAIM_AMOUNT, "2")
    clock.advance(hours=23, minutes=59)
    with pytest.raises(ClaimNotAvailable, match="next free claim"):
        wallet.claim(ana, "c2")
    clock.advance(minutes=1)
    assert wallet.claim(ana, "c3").applied


def _lose_everything(wallet, room_id, loser, winner, amount, tag):
    """``loser`` buys in with ``amount`` and loses it all to ``winner``, then both leave."""
    pl = wallet.buy_in(loser, room_id, 0, amount, f"l{tag}").participation_id
    pw = wallet.buy_in(winner, room_id, 1, 100, f"w{tag}").participation_id
    wallet.settle_hand(room_id, [(pl, -amount), (pw, amount)], f"hand{tag}")
    wallet.cash_out(pl, f"lo{tag}")
    wallet.cash_out(pw, f"wo{tag}")


def test_one_seat_per_person_per_room(wallet, make_user, room, snapshot):
    ana, bia = make_user("ana"), make_user("bia")
    wallet.buy_in(ana, room, 0, 150, "a")
    before = snapshot()
    with pytest.raises(AlreadySeated, match="already have a seat"):
        wallet.buy_in(ana, room, 1, 150, "a-again")
    with pytest.raises(AlreadySeated, match="seat is taken") as taken:
        wallet.buy_in(bia, room, 0, 150, "b")
    assert room not in taken.value.message
    assert snapshot() == before


def test_R_BA_02_bot_is_funded_from_the_reserve_and_returns_to_it(wallet, make_user, room, engine):
    reserve = wallet.reserve_balance()
    assert reserve == 100_000  # R-BA-01: created by the first migration
    ana = make_user("ana")
    pa = wallet.buy_in(ana, room, 0, 200, "a").participation_id
    bot = wallet.bot_fund(room, 4, 200, "bot-in").participation_id
    assert wallet.reserve_balance() == reserve - 200
    wallet.settle_hand(room, [(pa, -50), (bot, 50)], "hand-1")
    returned = wallet.bot_return(bot, "bot-out")
    assert returned.amount == 250
    assert wallet.reserve_balance() == reserve + 50
    assert check_ledger(engine) == []


def test_R_BA_02_reserve_never_creates_chips(wallet, room, snapshot):
    before = snapshot()
    with pytest.raises(ReserveUnavailable, match="100000"):
        wallet.bot_fund(room, 4, 100_001, "bot-in")
    assert snapshot() == before


def test_R_BA_02_reserve_add_is_a_ledger_transaction_with_a_reason(wallet, engine, snapshot):
    receipt = wallet.reserve_add(5_000, "tournament weekend", "admin-1")
    assert receipt.applied and wallet.reserve_balance() == 105_000
    before = snapshot()
    with pytest.raises(InvalidRequest, match="reason"):
        wallet.reserve_add(5_000, "  ", "admin-2")
    assert snapshot() == before
    assert check_ledger(engine) == []


def test_settle_hand_refuses_unbalanced_foreign_or_overdrawn(wallet, make_user, room, snapshot):
    ana, bia, caio = make_user("ana"), make_user("bia"), make_user("caio")
    pa = wallet.buy_in(ana, room, 0, 100, "a").participation_id
    pb = wallet.buy_in(bia, room, 1, 100, "b").participation_id
    pc = wallet.buy_in(caio, "iniciante-2", 0, 100, "c").participation_id
    before = snapshot()
    with pytest.raises(InvalidRequest, match="sum to zero"):
        wallet.settle_hand(room, [(pa, 10), (pb, -9)], "h1")
    with pytest.raises(InvalidRequest, match="not iniciante-1"):
        wallet.settle_hand(room, [(pa, 10), (pc, -10)], "h2")
    with pytest.raises(InsufficientFunds, match="cannot lose 101"):
        wallet.settle_hand(room, [(pa, 101), (pb, -101)], "h3")
    with pytest.raises(InvalidRequest, match="appears twice"):
        wallet.settle_hand(room, [(pa, 10), (pa, -10)], "h4")
    assert snapshot() == before


def test_grant_from_the_mint(wallet, make_user, engine):
    ana = make_user("ana")
    wallet.grant(ana, 700, "support ticket 12", "g1")
    assert wallet.holdings(ana).wallet == 5_700
    assert check_ledger(engine) == []
