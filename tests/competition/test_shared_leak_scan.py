"""Issue 20, the leak scan over shared hands and rabbit hunts (R-FD-03, R-DR-07 D, R-HE-12).

Hundreds of finished hands of hold'em and five-card draw (folds, all-ins, showdowns, mucks,
voluntary shows) are shared from every seat with every choice (own cards shown or not, the
rabbit or not). Every card in the public document, its proof and its PokerStars and PHH
downloads must be one the public may know: the board dealt; in hold'em a hand shown; the
sharer's own cards only when they chose to show them; the rabbit's cards only in a link that
carries the rabbit. Never a mucked or folded hand, never an undealt hole card, never a draw
hand shown at showdown (spectators get only its category). Every proof passes ``ahiko verify``'s
checks; every rabbit opening is a board position, and it is the card that would have come.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest
from sqlalchemy import Engine

from ahiko.competition.sharing import (
    NotShareable,
    ShareGrant,
    rabbit_document,
    read_token,
    share_key,
    share_token,
    shared_document,
    shared_download,
    shared_proof,
)
from ahiko.fairness.positions import ROLE_BOARD, ROLE_DRAW, ROLE_HOLE, ROLE_SHOWDOWN
from ahiko.fairness.verify import verify_text
from ahiko.poker.cards import format_card
from ahiko.rooms.blinds import Stakes
from ahiko.rooms.finished.archive import deal_from_record
from ahiko.store.hand_archive import ArchivedHand
from archive_factory import START, Sitter, add_person, play_hand

CARD = re.compile(r"(?<![A-Za-z0-9])[2-9TJQKA][cdhs](?![A-Za-z0-9])")
HANDS = 120
KEY = share_key(b"k" * 32)


def _hands(engine: Engine) -> list[ArchivedHand]:
    rng = random.Random(7)
    people = {s: Sitter(f"p{s}", add_person(engine, f"p{s}")) for s in range(6)}
    played = []
    for n in range(HANDS):
        variant = "holdem" if n % 3 else "draw"
        seats = sorted(rng.sample(range(6), rng.randint(2, 6)))
        stakes = (
            Stakes(small_blind=5, big_blind=10)
            if variant == "holdem"
            else Stakes(ante=2, small_bet=10, big_bet=20)
        )
        played.append(
            play_hand(
                engine,
                rng,
                room_id=f"r-{variant}",
                room_kind="recreational",
                variant=variant,
                hand_no=n + 1,
                sitters={s: people[s] for s in seats},
                stacks={s: rng.choice([40, 200, 1000]) for s in seats},
                stakes=stakes,
                button=seats[n % len(seats)],
                ended_at=START,
                show_rate=0.5,
            )
        )
    return played


def _public_cards(archived: ArchivedHand, grant: ShareGrant) -> dict[str, str]:
    """card text -> why the public may see it."""
    deal = deal_from_record(archived.commitment, archived.deal)
    deck = deal.committer.deck
    allowed: dict[str, str] = {}
    for slot in deal.state.dealt:
        card = format_card(deck[slot.position])
        if slot.role == ROLE_BOARD:
            allowed[card] = "board"
        elif slot.seat == grant.seat and grant.show_own:
            allowed[card] = "own"
        elif (
            archived.variant == "holdem"
            and slot.role == ROLE_HOLE
            and slot.position in deal.state.shown
        ):
            allowed[card] = "shown"
    if grant.show_own and archived.variant == "draw":
        for event in archived.events:  # own thrown cards: the sharer's own too
            if event.get("kind") == "discarded" and event["seat"] == grant.seat:
                allowed.update({format_card(int(c)): "own" for c in event["cards"]})
    if grant.rabbit:
        dealt = {s.k for s in deal.state.dealt if s.role == ROLE_BOARD}
        for b in range(5):
            if b not in dealt:
                allowed[format_card(deck[deal.committer.position(ROLE_BOARD, None, b)])] = "rabbit"
    return allowed


def _check_proof(archived: ArchivedHand, grant: ShareGrant, proof: dict[str, Any]) -> None:
    deal = deal_from_record(archived.commitment, archived.deal)
    assert verify_text(json.dumps(proof)).ok
    dealt = {s.position: s for s in deal.state.dealt}
    board_positions = (
        {deal.committer.position(ROLE_BOARD, None, b) for b in range(5)}
        if (archived.variant == "holdem")
        else set()
    )
    for card in proof["cards"]:
        position, role = int(card["position"]), card["role"]
        if role == ROLE_BOARD:
            assert position in dealt or (grant.rabbit and position in board_positions)
        elif role == ROLE_SHOWDOWN:
            assert archived.variant == "holdem" and position in deal.state.shown
        elif role in (ROLE_HOLE, ROLE_DRAW):
            assert grant.show_own and card["seat"] == grant.seat and position in dealt
        else:
            raise AssertionError(f"unexpected role {role}")


@pytest.mark.slow
def test_shared_links_and_rabbit_hunts_never_leak_a_card(engine: Engine) -> None:
    hands = _hands(engine)
    scanned = rabbits = 0
    kinds: set[str] = set()
    for archived in hands:
        for player in archived.players:
            for show_own in (False, True):
                for rabbit in (False, True):
                    grant = ShareGrant(archived.id or 0, player.seat, show_own, rabbit)
                    try:
                        document = shared_document(archived, grant)
                    except NotShareable:
                        assert rabbit  # only the rabbit can be refused
                        continue
                    allowed = _public_cards(archived, grant)
                    files = [
                        json.dumps(document),
                        *(shared_download(archived, grant, f).text for f in ("pokerstars", "phh")),
                    ]
                    for text in files:
                        for found in CARD.findall(text.replace("Seat ", "")):
                            assert found in allowed, (archived.hand_no, grant, found)
                            kinds.add(allowed[found])
                    _check_proof(archived, grant, shared_proof(archived, grant))
                    _check_proof(archived, grant, document["proof"])
                    scanned += 1
        try:
            hunted = rabbit_document(archived)
        except NotShareable:
            assert archived.variant == "draw" or len(_board(archived)) == 5
            continue
        rabbits += 1
        deal = deal_from_record(archived.commitment, archived.deal)
        assert verify_text(json.dumps(hunted["proof"])).ok
        assert all(c["role"] == ROLE_BOARD and "seat" not in c for c in hunted["proof"]["cards"])
        full = [
            format_card(deal.committer.deck[deal.committer.position(ROLE_BOARD, None, b)])
            for b in range(5)
        ]
        assert hunted["board"] + hunted["rabbit"] == full
    assert scanned > 1000 and rabbits > 10
    assert kinds == {"board", "own", "shown", "rabbit"}


def _board(archived: ArchivedHand) -> list[int]:
    return [c for e in archived.events if e.get("kind") == "street" for c in e["cards"]]


def test_share_tokens_are_signed_and_cannot_be_widened() -> None:
    grant = ShareGrant(hand_id=42, seat=3, show_own=False, rabbit=False)
    token = share_token(KEY, grant)
    assert read_token(KEY, token) == grant
    widened = token.replace(".3.00.", ".3.10.")
    assert widened != token and read_token(KEY, widened) is None
    other_hand = token.replace("s1.42.", "s1.43.")
    assert read_token(KEY, other_hand) is None
    assert read_token(share_key(b"x" * 32), token) is None
    for junk in ("", "s1", "s1.1.1.00.", "../../etc", token + "x", "s1.-1.0.00." + "A" * 22):
        assert read_token(KEY, junk) is None
