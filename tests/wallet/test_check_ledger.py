"""`ahiko admin check-ledger` finds each kind of broken invariant (they cannot happen through
the wallet, so the tests break the database by hand)."""

from __future__ import annotations

import pytest
from sqlalchemy import insert, update
from sqlalchemy.exc import IntegrityError

from ahiko.store.rooms import SeatRecord
from ahiko.store.schema import ledger_accounts, ledger_entries, participations
from ahiko.wallet.check import check_ledger
from store_helpers import save_seats


def test_clean_ledger_after_migration(engine):
    assert check_ledger(engine) == []


def test_balance_not_matching_its_entries_and_coins_created(engine, make_user, wallet):
    ana = make_user("ana")
    with engine.begin() as conn:
        conn.execute(
            update(ledger_accounts).where(ledger_accounts.c.user_id == ana).values(balance=6_000)
        )
    problems = check_ledger(engine)
    assert any("balance 6000 != sum of its entries 5000" in p for p in problems)
    assert any("mint + every account = 1000" in p for p in problems)


def test_unbalanced_transaction(engine, make_user):
    ana = make_user("ana")
    with engine.begin() as conn:
        conn.execute(insert(ledger_entries).values(transaction_id=1, account_id=2, amount=7))
        conn.execute(
            update(ledger_accounts).where(ledger_accounts.c.user_id == ana).values(balance=5_000)
        )
    problems = check_ledger(engine)
    assert any("transaction 1 (reserve_add) entries sum to 7" in p for p in problems)


def test_negative_balance_is_refused_by_the_database_too(engine, make_user):
    ana = make_user("ana")
    with pytest.raises(IntegrityError, match="no_overdraft"), engine.begin() as conn:
        conn.execute(
            update(ledger_accounts).where(ledger_accounts.c.user_id == ana).values(balance=-1)
        )
    assert check_ledger(engine) == []


def test_seat_stack_must_match_its_escrow(engine, make_user, wallet, room):
    ana = make_user("ana")
    pid = wallet.buy_in(ana, room, 2, 150, "a").participation_id
    save_seats(engine, room, [SeatRecord(2, "person", "ana", 150, ana, pid)])
    assert check_ledger(engine) == []
    save_seats(engine, room, [SeatRecord(2, "person", "ana", 170, ana, pid)])
    assert check_ledger(engine) == [f"room {room} seat 2 has 170 chips but its escrow holds 150"]


def test_two_open_participations_on_one_seat(engine, make_user, wallet, room):
    ana, bia = make_user("ana"), make_user("bia")
    wallet.buy_in(ana, room, 2, 150, "a")
    pid = wallet.buy_in(bia, room, 3, 150, "b").participation_id
    with engine.begin() as conn:
        conn.execute(update(participations).where(participations.c.id == pid).values(seat=2))
    assert check_ledger(engine) == [f"room {room} seat 2 has 2 open participations"]
