"""R-DR-07 D, watertight: in five-card draw the hands shown at showdown reach only the players
who reached the showdown. Over 200+ draw hands on a manual clock, every frame a folded player
and a spectator receive (live frames and reconnect snapshots), and every file a folded player
downloads (PokerStars text, PHH, the replayer's JSON, the pokerfair proof and its openings)
is scanned: no card of another seat is in any of them, though many of those hands were
shown down by the others."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from random import Random
from typing import Any

from test_hands_api import CARD, _phh_cards

from ahiko.poker.actions import Action
from ahiko.poker.cards import format_card
from ahiko.poker.events import CardsShown, Discarded, HoleDealt
from ahiko.rooms import commands as c
from ahiko.rooms.blinds import BlindSchedule, Stakes
from ahiko.rooms.clock import ManualClock
from ahiko.rooms.config import RoomConfig, RoomKind, Variant
from ahiko.rooms.finished.archive import capture
from ahiko.rooms.finished.downloads import history_download, proof_for
from ahiko.rooms.finished.replay import replay_document
from ahiko.rooms.frames import snapshot_frame
from ahiko.rooms.outbox import Frame, Subscribers
from ahiko.rooms.room import Room
from ahiko.rooms.room_view import RoomView
from ahiko.rooms.table_hand import TableHand
from ahiko.store.hand_archive import ArchivedHand

HANDS = 220
PEOPLE = ("p0", "p1", "p2", "p3")
CARD_FIELDS = ("cards", "new_cards", "board", "card")


class Keep:
    """A connection keeping every frame, as JSON text (what the socket would carry)."""

    def __init__(self, player_id: str | None) -> None:
        self.player_id = player_id
        self.connection_id = f"keep-{player_id}"
        self.frames: list[str] = []

    def deliver(self, frame: Frame) -> None:
        self.frames.append(frame.text())


class Collect:
    """The room's archive: each finished hand captured in memory, as the store gets it."""

    def __init__(self) -> None:
        self.hands: list[tuple[ArchivedHand, TableHand]] = []

    def hand_finished(self, room: RoomView, hand: TableHand) -> None:
        self.hands.append((capture(room, hand, datetime.now(UTC)), hand))

    def hand_shown(self, room: RoomView, hand: TableHand) -> None:
        return None


def cards_in(text: str) -> set[str]:
    return set(CARD.findall(text)) | _cards_in_lists(json.loads(text) if text[:1] in "{[" else {})


def _cards_in_lists(value: Any) -> set[str]:
    """Every card anywhere in a JSON value: texts ("Ah", in lists or as "card") and the
    ints (0..51) of an event's card fields."""
    found: set[str] = set()
    if isinstance(value, dict):
        for key, item in value.items():
            if key in CARD_FIELDS and isinstance(item, list):  # events carry cards as ints
                found.update(format_card(x) for x in item if type(x) is int)
            found |= _cards_in_lists(item)
    elif isinstance(value, list):
        for item in value:
            found |= _cards_in_lists(item)
    elif isinstance(value, str) and CARD.fullmatch(value):
        found.add(value)
    return found


def dealt(hand: TableHand) -> dict[int, set[str]]:
    """Every card each seat held in the hand (first five and replacements)."""
    out: dict[int, set[str]] = {}
    for event in hand.hand.events:
        if isinstance(event, HoleDealt):
            out.setdefault(event.seat, set()).update(format_card(x) for x in event.cards)
        elif isinstance(event, Discarded):
            out.setdefault(event.seat, set()).update(format_card(x) for x in event.new_cards)
    return out


def choose(rng: Random, legal: Any, hole: tuple[int, ...]) -> Action:
    if legal.is_draw_phase:
        return Action.discard(tuple(rng.sample(hole, rng.randint(0, 3))))
    r = rng.random()
    if legal.call_cost > 0 and r < 0.3:
        return Action.fold()
    if legal.bet_kind is not None and r < 0.45:
        return Action(legal.bet_kind, legal.min_to)
    return Action.call() if legal.call_cost > 0 else Action.check()


def test_R_DR_07_D_no_shown_card_reaches_a_folded_player_or_a_spectator() -> None:
    config = RoomConfig(
        name="draw",
        kind=RoomKind.RECREATIONAL,
        variant=Variant.DRAW,
        seats=4,
        starting_chips=400,
        schedule=BlindSchedule(Stakes(ante=1, small_bet=2)),
    )
    clock = ManualClock()
    archive = Collect()
    subscribers = Subscribers()
    room = Room(
        "t-draw",
        config,
        clock=clock,
        host_id="p0",
        rng=Random(5),
        archive=archive,
        deliver=subscribers.deliver,
    )
    conns = {pid: Keep(pid) for pid in PEOPLE}
    watcher = Keep(None)
    for keep in (*conns.values(), watcher):
        subscribers.add(keep.connection_id, keep.deliver)
    for seat, pid in enumerate(PEOPLE):
        assert room.submit(c.Connect(conns[pid].connection_id, pid)).ok
        assert room.submit(c.Sit(pid, pid.upper(), seat)).ok
    assert room.submit(c.Connect(watcher.connection_id, None)).ok
    assert room.submit(c.Start("p0")).ok
    rng = Random(20261201)
    marks = {key: 0 for key in (*PEOPLE, None)}
    checked = {"folded": 0, "shown_while_folded": 0, "spectated_showdowns": 0, "files": 0}
    while len(archive.hands) < HANDS:
        clock.advance(config.timing.next_hand_delay_s + config.timing.commitment_display_s)
        hand = room.dealer.hand
        for _, occupant in list(room.seats.items()):
            if occupant.stack == 0 and hand is None:
                room.submit(c.NewEntry(occupant.player_id))
        if hand is None or hand.engine is None:
            continue
        while room.dealer.hand is hand and hand.to_act is not None:
            seat = hand.to_act
            hole = hand.hand.hole_cards(seat)
            reply = room.submit(
                c.Act(hand.players[seat], hand.hand_no, choose(rng, hand.legal(), hole))
            )
            assert reply.ok, reply
        archived, finished = archive.hands[-1]
        assert finished is hand
        held = dealt(hand)
        shown = any(isinstance(e, CardsShown) for e in hand.hand.events)
        folded = [
            s
            for s in hand.dealt_seats
            if hand.view(None)["seats"][hand.dealt_seats.index(s)]["status"] == "folded"
        ]  # type: ignore[index]
        # the spectator: live frames since the last hand, and a reconnect snapshot
        seen = watcher.frames[marks[None] :]
        marks[None] = len(watcher.frames)
        seen.append(json.dumps(snapshot_frame(room, None)))
        for frame in seen:
            assert not cards_in(frame), f"a spectator received cards: {frame[:300]}"
        checked["spectated_showdowns"] += shown
        for seat in folded:
            pid = hand.players[seat]
            own = held[seat]
            others = set().union(*(cards for s, cards in held.items() if s != seat))
            frames = conns[pid].frames[marks[pid] :]
            frames.append(json.dumps(snapshot_frame(room, pid)))
            files = [
                history_download(archived, seat, "pokerstars").text,
                json.dumps(replay_document(archived, seat)),
                json.dumps(proof_for(archived, seat)),
            ]
            phh = history_download(archived, seat, "phh").text
            for text in frames + files:
                leaked = cards_in(text) & others
                assert not leaked, f"seat {seat} (folded) received {leaked}: {text[:300]}"
            assert not _phh_cards(phh) & others and not set(CARD.findall(phh)) & others
            assert own & cards_in(files[2])  # the proof does open the player's own cards
            assert own & set().union(*map(cards_in, frames))  # the scan reads int cards too
            checked["folded"] += 1
            checked["shown_while_folded"] += shown
            checked["files"] += 4
        for pid in PEOPLE:
            marks[pid] = len(conns[pid].frames)

    assert len(archive.hands) >= 200
    assert checked["folded"] >= 200 and checked["shown_while_folded"] >= 50, checked
    assert checked["spectated_showdowns"] >= 50, checked
