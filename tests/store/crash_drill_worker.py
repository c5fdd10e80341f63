"""A stand-in for an Ahiko table process, for the SIGKILL drill (test_store_crash_drill.py).

Plays random hands forever with the store's durable-room protocol: on start, recover; per
hand, ``begin_hand`` with the start stacks, then settle in the ledger, record the hand and save
the seats in one database transaction; now and then players cash out and others buy in.
Usage: python crash_drill_worker.py DATABASE_URL ROOM_ID USER_ID...
"""

from __future__ import annotations

import contextlib
import random
import sys
import time
import uuid

from ahiko.store.engine import make_engine
from ahiko.store.rooms import (
    SeatRecord,
    begin_hand,
    finish_hand,
    load_rooms,
    recover_interrupted_hands,
    write_seats,
)
from ahiko.wallet import Wallet
from ahiko.wallet.errors import WalletError


def main(url: str, room_id: str, user_ids: list[int]) -> None:
    engine = make_engine(url)
    wallet = Wallet(engine)
    recover_interrupted_hands(engine)
    rng = random.Random()
    while True:
        [room] = [r for r in load_rooms(engine) if r.id == room_id]
        seated = {s.seat: s for s in room.seats}
        if len(seated) < 3:
            _seat_someone(wallet, room_id, seated, user_ids, rng)
            continue
        hand_no = room.last_hand_no + 1
        begin_hand(engine, room_id, hand_no, {s.seat: s.stack for s in seated.values()})
        time.sleep(rng.uniform(0, 0.02))  # the hand is being played
        winner, loser = rng.sample(sorted(seated), 2)
        delta = rng.randint(0, seated[loser].stack)
        after = dict(seated)
        after[winner] = _with_stack(seated[winner], seated[winner].stack + delta)
        after[loser] = _with_stack(seated[loser], seated[loser].stack - delta)
        deltas = [
            (seated[winner].participation_id, delta),
            (seated[loser].participation_id, -delta),
        ]
        events = [{"kind": "hand_started", "seats": sorted(seated)}, {"kind": "hand_ended"}]

        def end_hand(conn, _receipt, hand_no=hand_no, events=events, after=after):
            finish_hand(conn, room_id, hand_no, events, "finished")
            write_seats(conn, room_id, list(after.values()))

        wallet.settle_hand(room_id, deltas, f"{room_id}:hand:{hand_no}", also=end_hand)
        leaver = after[loser] if after[loser].stack == 0 or rng.random() < 0.2 else None
        if leaver is not None:
            remaining = [s for s in after.values() if s.seat != leaver.seat]
            wallet.cash_out(
                leaver.participation_id,
                f"{room_id}:out:{leaver.participation_id}",
                also=lambda conn, _r, remaining=remaining: write_seats(conn, room_id, remaining),
            )


def _with_stack(record: SeatRecord, stack: int) -> SeatRecord:
    return SeatRecord(record.seat, record.occupant, record.name, stack, record.user_id,
                      record.participation_id)  # fmt: skip


def _seat_someone(wallet, room_id, seated, user_ids, rng):
    sitting = {s.user_id for s in seated.values()}
    user_id = rng.choice([u for u in user_ids if u not in sitting])
    seat = rng.choice([n for n in range(8) if n not in seated])
    amount = min(wallet.holdings(user_id).wallet, rng.randint(100, 200))
    if amount <= 0:
        return

    def take_seat(conn, receipt):
        record = SeatRecord(seat, "person", f"user{user_id}", amount, user_id,
                            receipt.participation_id)  # fmt: skip
        write_seats(conn, room_id, [*seated.values(), record])

    with contextlib.suppress(WalletError):
        wallet.buy_in(user_id, room_id, seat, amount, uuid.uuid4().hex, also=take_seat)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], [int(u) for u in sys.argv[3:]])
