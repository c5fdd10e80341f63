"""Finished hands for the competition tests, written to the archive as a room writes them:
the fair deal's ``TableHand`` deals and plays at random (folds, calls, bets, raises, draws,
voluntary shows after an uncontested win), and the record is built from the same parts as
``ahiko.rooms.finished.archive.capture`` (events, deal record, commitment, who sat where)."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from sqlalchemy import Engine

from ahiko.competition.player_figures import keep_player_figures
from ahiko.fairness.deal import DealCommitter
from ahiko.fairness.shuffle import shuffled_deck
from ahiko.poker.actions import Action, ActionKind, LegalActions
from ahiko.poker.events import event_to_dict
from ahiko.rooms.blinds import Stakes
from ahiko.rooms.config import Variant
from ahiko.rooms.finished.archive import deal_record, shown_seats
from ahiko.rooms.table_hand import TableHand, deal_order, layout_for
from ahiko.store.accounts import insert_user
from ahiko.store.hand_archive import ArchivedHand, ArchivedPlayer, insert_archived_hand
from ahiko.wallet.operations import open_wallet

START = datetime(2026, 11, 2, 12, 0, tzinfo=UTC)  # a Monday


@dataclass(frozen=True)
class Sitter:
    """Who sits at a seat: a person (``user_id``) or a bot."""

    name: str
    user_id: int | None = None

    @property
    def player_id(self) -> str:
        return str(self.user_id) if self.user_id is not None else f"bot-{self.name}"


def choose(rng: random.Random, legal: LegalActions, cards: tuple[int, ...]) -> Action:
    if legal.is_draw_phase:
        count = rng.randint(0, legal.max_discards)
        return Action.discard(tuple(rng.sample(cards, count)))
    roll = rng.random()
    if legal.bet_kind is not None and roll < 0.3:
        return Action(
            legal.bet_kind, rng.randint(legal.min_to, min(legal.max_to, legal.min_to * 3))
        )
    if legal.can_fold and roll > 0.8:
        return Action(ActionKind.FOLD)
    if legal.can_check:
        return Action(ActionKind.CHECK)
    if legal.can_call:
        return Action(ActionKind.CALL)
    return Action(ActionKind.FOLD)


def play_hand(
    engine: Engine,
    rng: random.Random,
    *,
    room_id: str,
    room_kind: str,
    variant: str,
    hand_no: int,
    sitters: dict[int, Sitter],
    stacks: dict[int, int],
    stakes: Stakes,
    button: int,
    ended_at: datetime,
    room_name: str = "Mesa",
    max_seats: int = 8,
    show_rate: float = 0.3,
    signing_key: Ed25519PrivateKey | None = None,
    decide: Callable[[TableHand, int], Action | None] | None = None,
) -> ArchivedHand:
    """Plays one hand among ``sitters`` (seat -> who) and archives it; returns the record.
    ``decide`` may choose a seat's action instead of the random player (None: it does not)."""
    seats = sorted(sitters)
    committer = DealCommitter(
        table_id=room_id,
        hand_no=hand_no,
        layout=layout_for(Variant(variant)),
        button_seat=button,
        dealt_seats=deal_order(seats, button),
        deck=shuffled_deck(rng.randrange),
        committed_at_ms=int((ended_at - timedelta(minutes=1)).timestamp() * 1000),
        signing_key=signing_key,
    )
    table = TableHand(
        hand_no=hand_no,
        variant=Variant(variant),
        stakes=stakes,
        players={s: sitters[s].player_id for s in seats},
        stacks={s: stacks[s] for s in seats},
        button=button,
        committer=committer,
        names={s: sitters[s].name for s in seats},
    )
    table.deal()
    while not table.is_over:
        seat = table.to_act
        assert seat is not None
        planted = None if decide is None else decide(table, seat)
        table.act(seat, planted or choose(rng, table.legal(), table.hand.hole_cards(seat)))
    winners = [s for s in seats if table.final_stacks()[s] > stacks[s]]
    events = [event_to_dict(e) for e in table.hand.events]
    if not shown_seats(events) and winners and rng.random() < show_rate:
        table.show(winners[0])  # R-HE-12: a winner without showdown shows
    events = [event_to_dict(e) for e in table.hand.events]
    final = table.final_stacks()
    showed = set(shown_seats(events))
    record = ArchivedHand(
        room_id=room_id,
        room_kind=room_kind,
        room_name=room_name,
        variant=variant,
        max_seats=max_seats,
        hand_no=hand_no,
        commitment=table.commitment(),
        events=events,
        deal=deal_record(table),
        players=tuple(
            ArchivedPlayer(
                seat=s,
                player_id=sitters[s].player_id,
                user_id=sitters[s].user_id,
                name=sitters[s].name,
                occupant="person" if sitters[s].user_id is not None else "bot",
                start_stack=stacks[s],
                net=final[s] - stacks[s],
                showed=s in showed,
            )
            for s in seats
        ),
        started_at=ended_at - timedelta(minutes=1),
        ended_at=ended_at,
    )
    keep_player_figures(engine)  # as the server does: the players' stored figures follow
    hand_id = insert_archived_hand(engine, record)
    return ArchivedHand(**{**_fields(record), "id": hand_id})


def _fields(hand: ArchivedHand) -> dict[str, object]:
    return {name: getattr(hand, name) for name in hand.__dataclass_fields__}


def cash_session(
    engine: Engine,
    rng: random.Random,
    *,
    room_id: str,
    room_kind: str,
    variant: str,
    sitters: dict[int, Sitter],
    hands: int,
    stakes: Stakes,
    stack: int,
    start: datetime = START,
    every: timedelta = timedelta(hours=7),
    signing_key: Ed25519PrivateKey | None = None,
) -> list[ArchivedHand]:
    """``hands`` hands at a cash table: everyone topped up to ``stack`` before each hand."""
    played = []
    seats = sorted(sitters)
    for n in range(hands):
        played.append(
            play_hand(
                engine,
                rng,
                room_id=room_id,
                room_kind=room_kind,
                variant=variant,
                hand_no=n + 1,
                sitters=sitters,
                stacks=dict.fromkeys(seats, stack),
                stakes=stakes,
                button=seats[n % len(seats)],
                ended_at=start + every * n,
                signing_key=signing_key,
            )
        )
    return played


def tournament(
    engine: Engine,
    rng: random.Random,
    *,
    room_id: str,
    sitters: dict[int, Sitter],
    stack: int = 1000,
    ended_at: datetime = START,
    leave_after: dict[int, int] | None = None,
    max_hands: int = 400,
) -> list[ArchivedHand]:
    """A hold'em tournament to the end (R-TN-01..05): blinds 25/50 doubling every 10 hands;
    ``leave_after``: seat -> the hand number after which that player leaves with chips."""
    stacks = dict.fromkeys(sitters, stack)
    leave_after = leave_after or {}
    played: list[ArchivedHand] = []
    for n in range(1, max_hands + 1):
        alive = [s for s in sorted(stacks) if stacks[s] > 0]
        if len(alive) < 2:
            break
        level = (n - 1) // 10
        stakes = Stakes(small_blind=25 * 2**level, big_blind=50 * 2**level)
        button = alive[(n - 1) % len(alive)]
        hand = play_hand(
            engine,
            rng,
            room_id=room_id,
            room_kind="tournament",
            variant="holdem",
            hand_no=n,
            sitters={s: sitters[s] for s in alive},
            stacks={s: stacks[s] for s in alive},
            stakes=stakes,
            button=button,
            ended_at=ended_at + timedelta(minutes=2 * n),
            show_rate=0.0,
        )
        for p in hand.players:
            stacks[p.seat] = p.start_stack + p.net
        played.append(hand)
        for seat, after in leave_after.items():
            if after == n and stacks.get(seat, 0) > 0:
                del stacks[seat]
    return played


def seats_of(hands: Sequence[ArchivedHand]) -> set[int]:
    return {p.seat for hand in hands for p in hand.players}


def add_person(engine: Engine, name: str, at: datetime = START) -> int:
    """A user with a wallet (the sign-up grant), as sign-up makes one."""
    with engine.begin() as conn:
        user_id = insert_user(conn, name, "not-a-hash", at)
        open_wallet(conn, user_id, at)
    return user_id
