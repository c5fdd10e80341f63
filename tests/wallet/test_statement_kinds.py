"""The statement shows what the wallet did (R-RM-15): every posting kind the ledger can
write has a sign and a label in pt-BR and English by construction, and for any sequence of
wallet operations each line's sign and running balance agree with the wallet after it.
On SQLite and PostgreSQL (``database_url``)."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import Engine

from ahiko.competition.sitgo import queue_of
from ahiko.store.rooms import save_room
from ahiko.wallet import Wallet
from ahiko.wallet.errors import LedgerInvariantBroken, WalletError
from ahiko.wallet.ledger import PostingRequest, post, system_account, wallet_account
from ahiko.wallet.posting_kinds import POSTING_KINDS, PostingKind, kind_info
from ahiko.wallet.sitgo import SitGoBank
from ahiko.wallet.statement import MAX_PER_PAGE, StatementLine, statement
from wall_clock import ManualClock

_numbers = itertools.count(1)
MTT_NAMES = {"mtt-test-1": "Torneio das 20h"}


def event_name(event_id: str) -> str | None:
    """As the server names them: a sit & go by its queue, an MTT by its lobby."""
    queue = queue_of(event_id)
    return queue.name if queue is not None else MTT_NAMES.get(event_id)


def all_lines(engine: Engine, user_id: int) -> list[StatementLine]:
    lines: list[StatementLine] = []
    for page in itertools.count(1):
        found = statement(engine, user_id, page, MAX_PER_PAGE, event_name)
        lines.extend(found.items)
        if len(lines) >= found.total or not found.items:
            return lines
    raise AssertionError("unreachable")


def assert_statement_agrees(engine: Engine, wallet: Wallet, user_id: int) -> list[StatementLine]:
    """Newest first: the first line's balance is the wallet's; each line's sign is its
    kind's; each older balance is the newer one less the newer amount; the oldest line
    starts from an empty wallet."""
    lines = all_lines(engine, user_id)
    assert lines and lines[0].balance_after == wallet.holdings(user_id).wallet
    for newer, older in itertools.pairwise(lines):
        assert older.balance_after == newer.balance_after - newer.amount
    assert lines[-1].balance_after - lines[-1].amount == 0
    for line in lines:
        sign = kind_info(line.kind).wallet_sign
        assert sign != 0, f"{line.kind} never moves a person's wallet, yet is on the statement"
        assert line.amount * sign >= 0, f"{line.kind} {line.amount:+d}: the wrong way round"
        assert line.labels == {
            "pt-BR": POSTING_KINDS[PostingKind(line.kind)].pt_br,
            "en": POSTING_KINDS[PostingKind(line.kind)].en,
        }
        assert line.balance_after >= 0
    return lines


def test_R_RM_15_every_posting_kind_has_a_sign_and_labels_in_both_languages() -> None:
    assert set(POSTING_KINDS) == set(PostingKind)
    for kind, info in POSTING_KINDS.items():
        assert info.wallet_sign in (1, -1, 0), kind
        assert info.pt_br.strip() and info.en.strip() and info.label("en") == info.en
        assert info.label("pt-BR") == info.pt_br


def test_R_RM_15_every_kind_written_in_the_code_is_a_posting_kind() -> None:
    """The kinds the code passes to the ledger, read from the source: none is missing
    from the enum (and the ledger refuses any other, below)."""
    src = Path(__file__).resolve().parents[2] / "src" / "ahiko"
    text = "\n".join(p.read_text() for p in src.rglob("*.py"))
    written = set()
    for kind in PostingKind:
        assert f'"{kind.value}"' in text, f"{kind} is never written: drop it or test it"
        written.add(kind.value)
    assert written == {k.value for k in PostingKind}


def test_R_RM_15_the_ledger_refuses_a_kind_the_statement_could_not_show(
    engine: Engine, make_user: Callable[[str], int]
) -> None:
    user = make_user("ana")
    with pytest.raises(LedgerInvariantBroken, match="not a posting kind"), engine.begin() as conn:
        mint, mine = system_account(conn, "mint"), wallet_account(conn, user)
        request = PostingRequest("k-odd", "mystery", "0" * 64, 5)
        post(conn, request, [(mint, -5), (mine, 5)], ManualClock()())


def test_R_RM_15_a_sit_and_go_registration_is_minus_100_named_heads_up_100(
    engine: Engine, wallet: Wallet, make_user: Callable[[str], int], room: str
) -> None:
    """The audit's line: wallet 4,800 -> 4,700 showed as +100 under the raw id."""
    ana = make_user("ana")
    wallet.buy_in(ana, room, 0, 200, "bi-1")  # 5,000 -> 4,800
    SitGoBank(engine).hold("hu-100-48fa08-2", ana, 100, "hold-1")
    lines = assert_statement_agrees(engine, wallet, ana)
    newest = lines[0]
    assert (newest.kind, newest.amount, newest.balance_after) == ("sng_register", -100, 4700)
    assert newest.event_name == "Heads-up 100" and newest.reason == "hu-100-48fa08-2"
    assert lines[1].balance_after == 4800
    assert newest.labels == {"pt-BR": "Inscrição em torneio", "en": "Tournament registration"}


OPS = st.lists(
    st.tuples(
        st.sampled_from(
            [
                "buy_in",
                "reload",
                "settle",
                "cash_out",
                "claim",
                "grant",
                "sng_register",
                "mtt_register",
                "refund",
                "payout",
                "bot",
                "reserve_add",
            ]
        ),
        st.integers(min_value=1, max_value=2500),
    ),
    min_size=1,
    max_size=25,
)


@settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(ops=OPS)
def test_R_RM_15_property_every_line_sign_and_running_balance_agree_with_the_wallet(
    engine: Engine, make_user: Callable[[str], int], ops: list[tuple[str, int]]
) -> None:
    play(engine, make_user, ops)


def test_R_RM_15_one_sequence_writes_every_kind_a_wallet_sees(
    engine: Engine, make_user: Callable[[str], int]
) -> None:
    """The property's operations, scripted so that each of them lands at least once: a
    seat lost in full (a zero exit), a claim once the coins are gone, both registrations, a
    refund and a prize shared with another winner."""
    ops = [
        ("buy_in", 2500),
        ("reload", 5),
        ("settle", 2506),
        ("cash_out", 1),
        ("buy_in", 2440),
        ("settle", 2440),
        ("cash_out", 1),
        ("claim", 1),
        ("grant", 10),
        ("sng_register", 100),
        ("mtt_register", 300),
        ("refund", 1),
        ("payout", 1),
        ("bot", 7),
    ]
    lines = play(engine, make_user, ops)
    wallet_kinds = {k.value for k, info in POSTING_KINDS.items() if info.wallet_sign != 0}
    assert {line.kind for line in lines} == wallet_kinds
    assert any(line.kind == "cash_out" and line.amount == 0 for line in lines)  # R-RM-15


def play(
    engine: Engine, make_user: Callable[[str], int], ops: list[tuple[str, int]]
) -> list[StatementLine]:
    """Run ``ops`` for a fresh person; after each, their statement must agree."""
    clock = ManualClock()
    wallet, bank = Wallet(engine, clock), SitGoBank(engine, clock)
    n = next(_numbers)
    me, other = make_user(f"me{n}"), make_user(f"other{n}")
    rooms = [f"prop-{n}-{i}" for i in range(2)]
    for room_id in rooms:
        save_room(engine, room_id, "ahiko", {"tier": "iniciante", "name": f"Mesa {room_id}"})
    seats: dict[str, int] = {}  # room -> my open participation
    others: dict[str, int] = {}  # room -> the other player's
    held: list[tuple[str, int]] = []  # (event id, amount) registrations not refunded/paid
    keys = (f"p{n}-{i}" for i in itertools.count())
    for op, amount in ops:
        clock.advance(hours=25)  # a claim's 24 h apart; the order of lines is the ids'
        try:
            if op == "buy_in":
                free = [r for r in rooms if r not in seats]
                if free:
                    seats[free[0]] = wallet.buy_in(
                        me, free[0], 0, amount, next(keys)
                    ).participation_id  # type: ignore[assignment]
                    if free[0] not in others:
                        others[free[0]] = wallet.buy_in(
                            other, free[0], 1, 500, next(keys)
                        ).participation_id  # type: ignore[assignment]
            elif op == "reload" and seats:
                wallet.reload(me, next(iter(seats.values())), amount, next(keys))
            elif op == "settle" and seats:
                room_id, mine = next(iter(seats.items()))
                theirs = others[room_id]
                won = (
                    min(amount, wallet.participation_balance(theirs))
                    if amount % 2
                    else -min(amount, wallet.participation_balance(mine))
                )
                wallet.settle_hand(room_id, [(mine, won), (theirs, -won)], next(keys))
            elif op == "cash_out" and seats:
                room_id, mine = seats.popitem()
                wallet.cash_out(mine, next(keys), user_id=me)
            elif op == "claim":
                wallet.claim(me, next(keys))
            elif op == "grant":
                wallet.grant(me, amount, "a test's credit", next(keys))
            elif op in ("sng_register", "mtt_register"):
                event = f"hu-100-t{n}-{len(held)}" if op == "sng_register" else "mtt-test-1"
                if bank.hold(event, me, amount, next(keys)):
                    held.append((event, amount))
            elif op == "refund" and held:
                event, paid = held.pop()
                bank.refund(event, me, paid, next(keys))
            elif op == "payout" and held:
                event, paid = held.pop()  # shared: one posting, no single user on it
                bank.pay(event, {me: paid - paid // 2, other: paid // 2}, next(keys))
            elif op == "bot":
                wallet.reserve_add(amount, "a test's refill", next(keys))
        except WalletError:
            pass  # refused (short of coins, nothing to claim): nothing changed, still agrees
        lines = assert_statement_agrees(engine, wallet, me)
        for line in lines:
            if line.kind.startswith("sng_"):
                assert line.event_name in ("Heads-up 100", "Torneio das 20h"), line
    assert_statement_agrees(engine, wallet, other)
    return lines
