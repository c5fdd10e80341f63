"""A 1,000-player multi-table tournament on one node, in one process.

The field is ``ahiko.competition.mtt.MultiTable`` (random seating across 112 tables, the big
blind moving forward, balancing and breaking after every hand, hand-for-hand at the bubble);
every hand is a real one: a fair-deal commitment (``DealCommitter``, Ed25519-signed), the
engine, random legal actions, and after each action the per-seat views a broadcast is built
from (``poker.view.views`` for every dealt seat and a spectator). No sockets: this is the
server's own work per action, not the network (that is bench/load.py's); the same tournament
at live rooms over real sockets is bench/mtt_live.py's.

Reports, for the 1,000-player field and a 100-player reference run side by side: seconds of
CPU per blind level (10 hands at every table, R-TN-03), the p99 of action→views built (ms),
the process's peak resident memory after the big field (MiB; the small one runs after), and how many levels and hands were played.

    python bench/mtt.py [--players 1000] [--levels 4] [--json]
"""

from __future__ import annotations

import argparse
import json
import math
import random
import resource
import statistics
import time
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from ahiko.competition.mtt import MultiTable
from ahiko.fairness.deal import DealCommitter
from ahiko.fairness.shuffle import shuffled_deck
from ahiko.poker.actions import Action, ActionKind, LegalActions
from ahiko.poker.view import views
from ahiko.rooms.blinds import Stakes
from ahiko.rooms.config import Variant
from ahiko.rooms.table_hand import TableHand, deal_order, layout_for

HANDS_PER_LEVEL = 10


def choose(rng: random.Random, legal: LegalActions) -> Action:
    roll = rng.random()
    if legal.bet_kind is not None and roll < 0.15:
        return Action(
            legal.bet_kind, rng.randint(legal.min_to, min(legal.max_to, legal.min_to * 3))
        )
    if legal.can_fold and roll > 0.55:
        return Action(ActionKind.FOLD)
    return Action(ActionKind.CHECK if legal.can_check else ActionKind.CALL)


def run(players: int, levels: int, seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    key = Ed25519PrivateKey.generate()
    mtt = MultiTable.seat([f"p{n}" for n in range(players)], rng, paid_places=players // 10)
    stacks = {f"p{n}": 1000 for n in range(players)}
    action_ms: list[float] = []
    level_s: list[float] = []
    hands = 0
    for level in range(levels):
        stakes = Stakes(small_blind=25 * 2**level, big_blind=50 * 2**level)
        started = time.process_time()
        for _ in range(HANDS_PER_LEVEL):
            if mtt.over:
                break
            busted: dict[int, dict[str, int]] = {}
            for number in sorted(mtt.tables):
                table = mtt.tables[number]
                button, _small, _big = table.start_hand()
                seats = table.dealt
                hands += 1
                committer = DealCommitter(
                    table_id=f"mtt-{number}",
                    hand_no=hands,
                    layout=layout_for(Variant.HOLDEM),
                    button_seat=button,
                    dealt_seats=deal_order(seats, button),
                    deck=shuffled_deck(rng.randrange),
                    committed_at_ms=hands,
                    signing_key=key,
                )
                start = {s: stacks[table.seats[s]] for s in seats}
                hand = TableHand(
                    hand_no=hands,
                    variant=Variant.HOLDEM,
                    stakes=stakes,
                    players={s: table.seats[s] for s in seats},
                    stacks=start,
                    button=button,
                    committer=committer,
                )
                hand.deal()
                viewers: list[int | None] = [*seats, None]
                while not hand.is_over:
                    seat = hand.to_act
                    assert seat is not None
                    t0 = time.perf_counter()
                    hand.act(seat, choose(rng, hand.legal()))
                    views(hand.hand, viewers)
                    action_ms.append((time.perf_counter() - t0) * 1000)
                final = hand.final_stacks()
                out = {}
                for s in seats:
                    stacks[table.seats[s]] = final[s]
                    if final[s] == 0:
                        out[table.seats[s]] = start[s]
                if out:
                    busted[number] = out
            mtt.hands_ended(busted)
        level_s.append(time.process_time() - started)
        if mtt.over:
            break
    action_ms.sort()
    return {
        "players": players,
        "tables_at_start": math.ceil(players / 9),
        "levels": len(level_s),
        "hands": hands,
        "actions": len(action_ms),
        "cpu_s_per_level_median": round(statistics.median(level_s), 3),
        "action_to_views_p99_ms": round(action_ms[int(0.99 * (len(action_ms) - 1))], 3),
        "max_rss_mib": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
        "players_left": len(mtt.remaining()),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--reference", type=int, default=100)
    parser.add_argument("--levels", type=int, default=4)
    parser.add_argument("--seed", type=int, default=20)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    ours = run(args.players, args.levels, args.seed)
    reference = run(args.reference, args.levels, args.seed)
    result = {
        **ours,
        "reference_players": reference["players"],
        "reference_cpu_s_per_level_median": reference["cpu_s_per_level_median"],
        "reference_action_to_views_p99_ms": reference["action_to_views_p99_ms"],
        "level_cpu_ratio": round(
            ours["cpu_s_per_level_median"] / max(reference["cpu_s_per_level_median"], 1e-9), 2
        ),
    }
    print(json.dumps(result) if args.json else json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
