"""One tournament lifecycle for sit & go's and MTTs (``ahiko.competition.lifecycle``): both
kinds refuse the same way, and their buy-ins, refunds and payouts are written under ledger keys
of one shape, ``<kind>:<id>:hold|refund:<user>:<registration>`` and ``<kind>:<id>:payout`` —
the keys a restart and a client's retry find again, so they must never change shape."""

from __future__ import annotations

from datetime import datetime

import pytest
from sqlalchemy import Engine, select

from ahiko.competition.lifecycle import TournamentRefused, TournamentStatus
from ahiko.competition.mtt_lobby import MttLobby
from ahiko.competition.sitgo import SitGoLobby, SitGoSpec
from ahiko.store.schema import ledger_transactions
from ahiko.wallet.sitgo import SitGoBank
from archive_factory import START, add_person


def clock() -> datetime:
    return START


def ledger_keys(engine: Engine, prefix: str) -> list[str]:
    with engine.connect() as conn:
        rows = conn.execute(
            select(ledger_transactions.c.idempotency_key)
            .where(ledger_transactions.c.idempotency_key.like(f"{prefix}%"))
            .order_by(ledger_transactions.c.id)
        )
        return [row[0] for row in rows]


def test_R_TN_08_a_sit_and_go_writes_its_buy_ins_refunds_and_payout_under_stable_keys(
    engine: Engine,
) -> None:
    spec = SitGoSpec("duel", "Duel", "holdem", 2, buy_in=50)
    lobby = SitGoLobby(SitGoBank(engine, clock), clock, [spec], prefix="run-")
    one, two = add_person(engine, "one"), add_person(engine, "two")
    sng = lobby.register("duel", one)
    lobby.withdraw(sng.id, one)
    lobby.register("duel", one)  # a second registration: a key of its own
    lobby.register("duel", two)
    assert sng.status is TournamentStatus.RUNNING
    lobby.finish(sng.id, [two, one])
    assert ledger_keys(engine, f"sng:{sng.id}:") == [
        f"sng:{sng.id}:hold:{one}:1",
        f"sng:{sng.id}:refund:{one}:1",
        f"sng:{sng.id}:hold:{one}:2",
        f"sng:{sng.id}:hold:{two}:1",
        f"sng:{sng.id}:payout",
    ]
    assert sng.paid == {two: 100} and sng.status is TournamentStatus.FINISHED
    assert sng.ended_at == START


def test_R_TN_08_an_mtt_names_its_keys_the_same_way_and_refuses_with_the_same_type() -> None:
    lobby = MttLobby(clock, every_minutes=10, prefix="run-")
    (mtt,) = lobby.open_scheduled()
    mtt_, attempt = lobby.admission(mtt.id, 7, late_open=False)
    assert lobby.hold_key(mtt.id, 7, attempt) == f"mtt:{mtt.id}:hold:7:1"
    lobby.admit(mtt_, 7, attempt)
    assert lobby.refund_key(mtt.id, 7) == f"mtt:{mtt.id}:refund:7:1"
    assert lobby.payout_key(mtt.id) == f"mtt:{mtt.id}:payout"
    with pytest.raises(TournamentRefused) as unknown:
        lobby.leaving("nowhere", 7)
    assert unknown.value.code == "no_mtt" and "no tournament" in str(unknown.value)
    with pytest.raises(TournamentRefused) as stranger:
        lobby.leaving(mtt.id, 8)
    assert stranger.value.code == "not_registered"
    assert lobby.payout_plan(mtt, [7]) == {}  # a free MTT pays nothing
    with pytest.raises(TournamentRefused) as bad:
        lobby.payout_plan(mtt, [7, 8])
    assert bad.value.code == "bad_ranking" and mtt.status is TournamentStatus.REGISTERING


def test_R_TN_08_both_kinds_refuse_an_unknown_id_naming_it(engine: Engine) -> None:
    lobby = SitGoLobby(SitGoBank(engine, clock), clock)
    with pytest.raises(TournamentRefused) as unknown:
        lobby.withdraw("nope", 1)
    assert unknown.value.code == "no_sitgo" and "no sit & go 'nope'" in str(unknown.value)
