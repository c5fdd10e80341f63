"""Issue 20: every figure of a profile and of the leaderboards equals a recomputation from the
hand archive done here another way — each hand read back through "my hands"
(``archived_hand_for``), folded by the engine (``rebuild_hand``) and counted from its typed
events and final state; the leaderboards from the tables' rows and the wallet's claims; the
tournament places from the order in which players' stacks reached zero (R-TN-04), and each
profile's finishes, wins and best five finishes from those places."""

from __future__ import annotations

import random
from collections import defaultdict
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import Engine, select

from ahiko.competition.leaderboard import leaderboard, period_bounds
from ahiko.competition.profiles import profile, table_line
from ahiko.competition.tournaments import tournament_finishes
from ahiko.poker.events import (
    ActionTaken,
    BettingStopped,
    Discarded,
    HandEnded,
    HandStarted,
    PotAwarded,
    StreetDealt,
)
from ahiko.rooms.blinds import Stakes
from ahiko.rooms.finished.downloads import rebuild_hand
from ahiko.store.archive_reads import archive_seats
from ahiko.store.hand_archive import archived_hand_for
from ahiko.store.schema import archived_hand_players, archived_hands, ledger_transactions
from ahiko.wallet.ledger import (
    MINT,
    PostingRequest,
    balance,
    post,
    system_account,
    wallet_account,
)
from ahiko.wallet.operations import Wallet
from archive_factory import START, Sitter, add_person, cash_session, tournament

TIER_BY_BB = {2: "Iniciante", 10: "Clássica", 20: "Alta"}


# --- the world --------------------------------------------------------------------------------
def build_world(engine: Engine) -> dict[str, int]:
    rng = random.Random(20)
    people = {name: add_person(engine, name) for name in ("ana", "bia", "caio", "davi", "eva")}
    ana, bia, caio, davi, eva = (Sitter(n, people[n]) for n in people)
    bot = Sitter("robo")
    cash_session(
        engine,
        rng,
        room_id="ahiko-ini-1",
        room_kind="ahiko",
        variant="holdem",
        sitters={0: ana, 2: bia, 5: bot, 7: caio},
        hands=60,
        stakes=Stakes(small_blind=1, big_blind=2),
        stack=200,
    )
    cash_session(
        engine,
        rng,
        room_id="ahiko-cla-1",
        room_kind="ahiko",
        variant="holdem",
        sitters={1: ana, 3: davi, 4: bot},
        hands=40,
        stakes=Stakes(small_blind=5, big_blind=10),
        stack=1000,
        start=START + timedelta(days=9),
    )
    cash_session(
        engine,
        rng,
        room_id="rec-draw",
        room_kind="recreational",
        variant="draw",
        sitters={0: ana, 1: eva, 2: bia},
        hands=30,
        stakes=Stakes(ante=1, small_bet=10, big_bet=20),
        stack=500,
    )
    for n, (seats, leave) in enumerate(
        [
            ({0: ana, 1: bia, 2: caio, 3: bot}, {}),
            ({0: ana, 1: davi, 2: eva, 3: bia, 4: caio, 5: bot}, {4: 2}),
            ({0: bia, 1: ana}, {}),
        ]
    ):
        tournament(
            engine,
            rng,
            room_id=f"tour-{n}",
            sitters=seats,
            leave_after=leave,
            ended_at=START + timedelta(days=2 + 12 * n),
        )
    # Heads-ups: four more for ana (seven finishes, more than a profile's best five), and one
    # between the winners of tour-0 and tour-1 (a first place in fields of two sizes).
    for n, pair in enumerate(((ana, caio), (bia, ana), (ana, eva), (davi, ana), (caio, eva)), 3):
        tournament(
            engine,
            rng,
            room_id=f"tour-{n}",
            sitters=dict(enumerate(pair)),
            ended_at=START + timedelta(days=4 + 6 * (n - 3), hours=5),
        )
    # Free-coin claims count against the player (the wallet's own claim, on its own clock).
    for user, day in ((people["bia"], 1), (people["bia"], 3), (people["eva"], 10)):
        burn_wallet(engine, user, START + timedelta(days=day))
        Wallet(engine, lambda d=day: START + timedelta(days=d, hours=1)).claim(
            user, f"claim-{user}-{day}"
        )
    return people


def burn_wallet(engine: Engine, user_id: int, at: datetime) -> None:
    """Empties a wallet into the mint (a test's way to make the free claim available)."""
    with engine.begin() as conn:
        wallet = wallet_account(conn, user_id)
        mint = system_account(conn, MINT)
        coins = balance(conn, wallet)
        if coins:
            request = PostingRequest(f"burn-{user_id}-{at.isoformat()}", "grant", "x" * 64, coins)
            post(conn, request, [(wallet, -coins), (mint, coins)], at)


# --- the recomputation ------------------------------------------------------------------------
def recompute_profile(engine: Engine, user_id: int) -> dict[str, Any]:
    with engine.connect() as conn:
        ids = [
            int(i)
            for (i,) in conn.execute(
                select(archived_hand_players.c.hand_id).where(
                    archived_hand_players.c.user_id == user_id
                )
            )
        ]
    hands = vpip = pfr = aggressive = calls = showdowns = won = 0
    tiers: dict[str, list[float]] = defaultdict(lambda: [0, 0, 0.0])  # hands, net, bbs
    by_day: dict[str, int] = defaultdict(int)
    tournaments: set[str] = set()
    for hand_id in sorted(ids):
        archived = archived_hand_for(engine, hand_id, user_id)
        assert archived is not None
        seat = archived.seat_of_user(user_id)
        assert seat is not None
        hand = rebuild_hand(archived)
        events = hand.events
        start = events[0]
        assert isinstance(start, HandStarted)
        start_stack = dict(zip(start.seats, start.stacks, strict=True))[seat]
        end = next(e for e in events if isinstance(e, HandEnded))
        net = end.stacks[seat] - start_stack
        hands += 1
        first_round = [True]
        mine: list[ActionTaken] = []
        first: list[ActionTaken] = []
        for e in events:
            if isinstance(e, StreetDealt | Discarded):
                first_round[0] = False
            if isinstance(e, ActionTaken) and e.seat == seat:
                mine.append(e)
                if first_round[0]:
                    first.append(e)
        vpip += any(a.action in ("call", "bet", "raise") for a in first)
        pfr += any(a.action in ("bet", "raise") for a in first)
        aggressive += sum(a.action in ("bet", "raise") for a in mine)
        calls += sum(a.action == "call" for a in mine)
        me = hand.index[seat]
        standing = [i for i in range(hand.n) if not hand.folded[i]]
        stopped = any(isinstance(e, BettingStopped) for e in events)
        if not stopped and len(standing) > 1 and me in standing:
            showdowns += 1
            won += any(isinstance(e, PotAwarded) and seat in e.winners for e in events)
        if archived.room_kind == "tournament":
            tournaments.add(archived.room_id)
            continue
        stakes = hand.stakes()
        unit = stakes.get("big_blind") or stakes.get("big_bet") or 2 * stakes["small_bet"]
        label = (
            TIER_BY_BB[unit]
            if archived.room_kind == "ahiko"
            else (f"draw {unit // 2}/{unit}" if archived.variant == "draw" else f"hold'em ?/{unit}")
        )
        tiers[label][0] += 1
        tiers[label][1] += net
        tiers[label][2] += net / unit
        if archived.room_kind == "ahiko":
            by_day[archived.ended_at.date().isoformat()] += net
    running = 0
    results = []
    for day in sorted(by_day):
        running += by_day[day]
        results.append({"date": day, "net": by_day[day], "total": running})

    def pct(a: int, b: int) -> float | None:
        return None if b == 0 else round(100 * a / b, 1)

    return {
        "hands": hands,
        "vpip": pct(vpip, hands),
        "pfr": pct(pfr, hands),
        "aggression": None if calls == 0 else round(aggressive / calls, 2),
        "showdowns": showdowns,
        "showdown_win_rate": pct(won, showdowns),
        "tiers": [
            {
                "tier": k,
                "hands": int(v[0]),
                "net": int(v[1]),
                "bb_per_100": round(100 * v[2] / v[0], 2),
            }
            for k, v in sorted(tiers.items())
        ],
        "results": results,
        "tournaments_played": len(tournaments),
    }


def recompute_places(engine: Engine) -> dict[str, list[tuple[str, int, frozenset[str]]]]:
    """Per tournament room: (player, place, the players it may be swapped with by lot). A
    player's elimination is the hand after which their stack was zero, or their last hand
    when they left with chips; the winner is the one with chips at the end."""
    with engine.connect() as conn:
        rows = conn.execute(
            select(
                archived_hands.c.room_id,
                archived_hands.c.hand_no,
                archived_hand_players.c.player_id,
                archived_hand_players.c.start_stack,
                archived_hand_players.c.net,
            )
            .join(archived_hand_players, archived_hand_players.c.hand_id == archived_hands.c.id)
            .where(archived_hands.c.room_kind == "tournament")
        ).all()
    rooms: dict[str, dict[str, tuple[int, int, int]]] = defaultdict(dict)  # last hand seen
    last_hand: dict[str, int] = {}
    for room_id, hand_no, player, start, net in rows:
        known = rooms[room_id].get(player)
        if known is None or hand_no > known[0]:
            rooms[room_id][player] = (int(hand_no), int(start), int(start + net))
        last_hand[room_id] = max(last_hand.get(room_id, 0), int(hand_no))
    out = {}
    for room_id, players in rooms.items():
        final = last_hand[room_id]
        alive = [p for p, (h, _s, end) in players.items() if h == final and end > 0]
        if len(alive) != 1:
            continue

        def key(
            p: str, players: dict[str, tuple[int, int, int]] = players, alive: list[str] = alive
        ) -> tuple[float, int]:
            h, start, end = players[p]
            if p in alive:
                return (float("inf"), 0)
            return (h + (0.5 if end > 0 else 0), start if end == 0 else end)

        order = sorted(players, key=key, reverse=True)
        out[room_id] = [
            (p, place, frozenset(q for q in players if key(q) == key(p)))
            for place, p in enumerate(order, start=1)
        ]
    return out


# --- the test ---------------------------------------------------------------------------------
@pytest.mark.slow
def test_R_TN_04_profiles_and_leaderboards_equal_a_recomputation_from_the_archive(
    engine: Engine,
) -> None:
    people = build_world(engine)
    expected_places = recompute_places(engine)
    assert len(expected_places) == 8  # all eight tournaments reached their end
    # (this world has no tie broken by lot: those are pinned in test_tournament_results.py)
    assert all(len(t) == 1 for places in expected_places.values() for _p, _n, t in places)
    finishes = tournament_finishes(archive_seats(engine, room_kind="tournament"))
    by_room: dict[str, dict[str, int]] = defaultdict(dict)
    for f in finishes:
        by_room[f.room_id][f.player_id] = f.place
    for room_id, places in expected_places.items():
        got = by_room[room_id]
        for player, place, tied in places:  # R-TN-04: ties by stack at the hand's start, lot
            assert {got[q] for q in tied} == {p for (q, p, _t) in places if q in tied}, room_id
            if len(tied) == 1:
                assert got[player] == place, (room_id, player)

    for name, user_id in people.items():
        figures = profile(engine, user_id, name)
        expected = recompute_profile(engine, user_id)
        for field in (
            "hands",
            "vpip",
            "pfr",
            "aggression",
            "showdowns",
            "showdown_win_rate",
            "results",
        ):
            assert figures[field] == expected[field], (name, field)
        assert figures["tiers"] == expected["tiers"], name
        assert figures["tournaments"]["played"] == expected["tournaments_played"]
        mine = recompute_finishes(engine, expected_places, str(user_id))
        assert figures["tournaments"]["finished"] == len(mine)
        assert figures["tournaments"]["wins"] == sum(1 for f in mine if f["place"] == 1)
        # Best finishes: the best places first, a larger field first among equal places, then
        # the earliest; five at the most.
        best = sorted(mine, key=lambda f: (f["place"], -f["entrants"], f["ended_at"]))[:5]
        got_best = [
            {**b, "ended_at": datetime.fromisoformat(b["ended_at"]).replace(tzinfo=UTC)}
            for b in figures["tournaments"]["best"]
        ]
        assert got_best == best, name
        line = table_line(engine, user_id, name)
        assert (line["hands"], line["vpip"], line["pfr"]) == (
            expected["hands"],
            expected["vpip"],
            expected["pfr"],
        )
    ana = profile(engine, people["ana"], "ana")["tournaments"]
    assert ana["finished"] == 7 and len(ana["best"]) == 5  # the best five of seven
    assert profile(engine, people["ana"], "ana")["hands"] > 100

    # Leaderboards: every week and month the world spans, both boards.
    for period in ("week", "month"):
        for offset in range(0, 40, 3):
            now = START + timedelta(days=offset)
            start, end = period_bounds(period, now)
            for board in ("ahiko", "tournament"):
                got = leaderboard(engine, board, period, now)
                expected = recompute_board(engine, board, start, end, expected_places)
                assert {r["user_id"]: r["score"] for r in got["rows"]} == expected, (
                    board,
                    period,
                    offset,
                )
                ranks = [r["rank"] for r in got["rows"]]
                scores = [r["score"] for r in got["rows"]]
                assert scores == sorted(scores, reverse=True)
                for i, r in enumerate(got["rows"]):
                    assert r["rank"] == 1 + sum(s > r["score"] for s in scores), ranks[i]


def recompute_finishes(
    engine: Engine, places: dict[str, list[tuple[str, int, frozenset[str]]]], player: str
) -> list[dict[str, Any]]:
    """``player``'s finishes as a profile shows them: the room, its name, the place, the
    field, and when the room's last hand ended."""
    with engine.connect() as conn:
        rooms = {
            room: (name, ended.replace(tzinfo=UTC))
            for room, name, ended in conn.execute(
                select(
                    archived_hands.c.room_id,
                    archived_hands.c.room_name,
                    archived_hands.c.ended_at,
                ).order_by(archived_hands.c.hand_no)
            )
            if room in places
        }
    return [
        {
            "room_id": room,
            "room_name": rooms[room][0],
            "place": place,
            "entrants": len(rows),
            "ended_at": rooms[room][1],
        }
        for room, rows in places.items()
        for who, place, _tied in rows
        if who == player
    ]


def recompute_board(
    engine: Engine,
    board: str,
    start: datetime,
    end: datetime,
    places: dict[str, list[tuple[str, int, frozenset[str]]]],
) -> dict[int, int]:
    scores: dict[int, int] = defaultdict(int)
    with engine.connect() as conn:
        if board == "ahiko":
            for user, net, ended in conn.execute(
                select(
                    archived_hand_players.c.user_id,
                    archived_hand_players.c.net,
                    archived_hands.c.ended_at,
                )
                .join(archived_hands, archived_hands.c.id == archived_hand_players.c.hand_id)
                .where(
                    archived_hands.c.room_kind == "ahiko",
                    archived_hand_players.c.user_id.is_not(None),
                )
            ):
                if start <= ended.replace(tzinfo=UTC) < end:
                    scores[int(user)] += int(net)
            for user, amount, at in conn.execute(
                select(
                    ledger_transactions.c.user_id,
                    ledger_transactions.c.amount,
                    ledger_transactions.c.created_at,
                ).where(ledger_transactions.c.kind == "claim")
            ):
                if start <= at.replace(tzinfo=UTC) < end:
                    scores[int(user)] -= int(amount)
            return dict(scores)
        last_end = {
            room: max(
                e.replace(tzinfo=UTC)
                for (e,) in conn.execute(
                    select(archived_hands.c.ended_at).where(archived_hands.c.room_id == room)
                )
            )
            for room in places
        }
    for room, rows in places.items():
        if not start <= last_end[room] < end:
            continue
        for player, place, _tied in rows:
            if player.isdigit():
                scores[int(player)] += len(rows) - place + 1
    return dict(scores)
