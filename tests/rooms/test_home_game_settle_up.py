"""Settling up a home game (issue 43): every debt paid, in the fewest transfers; the ledger's
CSV balances."""

from __future__ import annotations

import csv
import io
import itertools
from random import Random

import pytest

from ahiko.rooms.house.room_ledger import RoomLedger, ledger_csv
from ahiko.rooms.house.settle_up import EXACT_UP_TO, Transfer, settle_up


def _settled(nets: dict[str, int], transfers: list[Transfer]) -> dict[str, int]:
    left = dict(nets)
    for t in transfers:
        assert t.amount > 0
        left[t.payer] += t.amount
        left[t.payee] -= t.amount
    return left


def _fewest_by_brute_force(values: list[int]) -> int:
    """n minus the most zero-sum blocks of any ordering (tiny n only)."""
    best = 0
    for order in itertools.permutations(values):
        blocks, running = 0, 0
        for v in order:
            running += v
            if running == 0:
                blocks += 1
        best = max(best, blocks)
    return len(values) - best


def test_settle_up_pays_every_debt_in_the_fewest_transfers() -> None:
    rng = Random(43)
    for _ in range(150):
        count = rng.randint(2, 7)
        values = [rng.choice([-30, -20, -10, 10, 20, 30, 5, -5]) for _ in range(count - 1)]
        values.append(-sum(values))
        nets = {f"p{i}": v for i, v in enumerate(values)}
        transfers = settle_up(nets)
        assert all(v == 0 for v in _settled(nets, transfers).values())
        assert len(transfers) == _fewest_by_brute_force([v for v in values if v])


def test_settle_up_beats_the_plain_greedy_when_pairs_cancel() -> None:
    # Greedy (largest to largest) takes 4 transfers here; {+7,-7} and {+5,+3,-8} take 3.
    nets = {"ana": 7, "bia": 5, "cai": 3, "dan": -8, "eva": -7}
    assert len(settle_up(nets)) == 3


def test_settle_up_of_a_big_game_is_greedy_and_still_complete() -> None:
    rng = Random(7)
    values = [rng.randint(-500, 500) for _ in range(EXACT_UP_TO + 5)]
    values.append(-sum(values))
    nets = {f"p{i}": v for i, v in enumerate(values)}
    transfers = settle_up(nets)
    assert all(v == 0 for v in _settled(nets, transfers).values())
    assert len(transfers) <= len([v for v in values if v]) - 1


def test_settle_up_refuses_nets_that_do_not_balance() -> None:
    with pytest.raises(ValueError, match="sum to 5"):
        settle_up({"ana": 10, "bia": -5})


def test_the_ledger_csv_has_a_row_a_player_and_balances() -> None:
    ledger = RoomLedger()
    ledger.sat("1", "=HYPERLINK(1)", False, 1000, 1)
    ledger.sat("2", "Bia", False, 1000, 1)
    ledger.rebought("2", "Bia", 1000, 5)
    ledger.adjusted("1", "=HYPERLINK(1)", 300, 6)
    ledger.left("2", "Bia", False, 200, 9)
    report = ledger.report({"1": 3100}, final=True)
    rows = list(csv.DictReader(io.StringIO(ledger_csv(report))))
    assert [r["player"] for r in rows] == ["'=HYPERLINK(1)", "Bia", "TOTAL"]
    assert [int(r["net"]) for r in rows] == [1800, -1800, 0]
    assert report["settle_up"] == [
        {"from": "2", "to": "1", "amount": 1800, "from_name": "Bia", "to_name": "=HYPERLINK(1)"}
    ]
