"""R-FD-03: which openings each viewer may be sent. Own cards to their owner when dealt,
board to everyone when dealt, shown hands to everyone; folded/mucked hands and undealt
positions to nobody, ever."""

from __future__ import annotations

import itertools
import secrets

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from fair_helpers import dumps, fixed_deal
from hypothesis import given, settings
from hypothesis import strategies as st

from ahiko.fairness.deal import DealCommitter
from ahiko.fairness.proof import proof_document
from ahiko.fairness.release import (
    DealState,
    Viewer,
    board_slots,
    changed_slots,
    draw_slots,
    hole_slots,
    newly_visible,
    release_openings,
    visible_slots,
)
from ahiko.fairness.shuffle import shuffled_deck
from ahiko.fairness.verify import verify_text
from ahiko.poker.layout import DRAW_LAYOUT, HOLDEM_LAYOUT

KEY = Ed25519PrivateKey.generate()


def positions(openings) -> set[int]:
    return {o.position for o in openings}


def test_R_FD_03_nothing_is_released_before_the_deal() -> None:
    deal = fixed_deal(7)
    for seat in (*deal.dealt_seats, None):
        assert release_openings(deal, Viewer(seat), DealState()) == []


def test_R_FD_03_hole_cards_go_to_their_owner_only() -> None:
    deal = fixed_deal(7)
    state = DealState()
    for seat in deal.dealt_seats:
        state = state.with_dealt(hole_slots(deal, seat))
    for seat in deal.dealt_seats:
        released = release_openings(deal, Viewer(seat), state)
        assert positions(released) == set(deal.hole_positions(seat))
        assert {o.role for o in released} == {"hole"}
    assert release_openings(deal, Viewer(None), state) == []
    assert release_openings(deal, Viewer(9), state) == []  # a seat not dealt in


def test_R_FD_03_board_goes_to_everyone_as_dealt() -> None:
    deal = fixed_deal(7)
    state = DealState().with_dealt(board_slots(deal, range(3)))
    flop = {deal.position("board", None, b) for b in range(3)}
    for seat in (*deal.dealt_seats, None):
        assert positions(release_openings(deal, Viewer(seat), state)) == flop


def test_R_FD_03_only_shown_hands_are_opened_to_others_as_showdown() -> None:
    deal = fixed_deal(7)
    state = DealState()
    for seat in deal.dealt_seats:
        state = state.with_dealt(hole_slots(deal, seat))
    shown_seat, mucked_seat = deal.dealt_seats[0], deal.dealt_seats[1]
    state = state.with_shown(deal.hole_positions(shown_seat))
    spectator = release_openings(deal, Viewer(None), state)
    assert positions(spectator) == set(deal.hole_positions(shown_seat))
    assert {(o.role, o.seat) for o in spectator} == {("showdown", shown_seat)}
    mucker_view = release_openings(deal, Viewer(mucked_seat), state)
    assert positions(mucker_view) == set(deal.hole_positions(shown_seat)) | set(
        deal.hole_positions(mucked_seat)
    )


def test_R_FD_03_draw_replacements_go_to_their_owner_only() -> None:
    deal = fixed_deal(9, DRAW_LAYOUT)
    deal.record_draw(4, 2)
    state = DealState().with_dealt(draw_slots(deal, 4))
    assert {(o.role, o.seat) for o in release_openings(deal, Viewer(4), state)} == {("draw", 4)}
    assert release_openings(deal, Viewer(6), state) == []


def test_R_FD_03_showing_an_undealt_or_board_position_is_refused() -> None:
    deal = fixed_deal(7)
    state = DealState().with_dealt(board_slots(deal, range(3)))
    for bad in (deal.hole_positions(4), [deal.position("board", None, 0)]):
        with pytest.raises(ValueError, match="not dealt seat cards"):
            state.with_shown(bad)
    assert state.shown == frozenset()
    with pytest.raises(ValueError, match="already dealt"):
        state.with_dealt(board_slots(deal, [0]))


@st.composite
def random_hands(draw: st.DrawFn) -> dict:
    variant = draw(st.sampled_from([HOLDEM_LAYOUT, DRAW_LAYOUT]))
    n = draw(st.integers(2, 8 if variant == HOLDEM_LAYOUT else 6))
    seats = draw(st.permutations(range(9)))[:n]
    dealt_in = draw(st.booleans())
    folded = draw(st.sets(st.sampled_from(seats), max_size=n - 1))
    shown = draw(st.sets(st.sampled_from(seats))) - folded
    board = draw(st.integers(0, 5)) if variant == HOLDEM_LAYOUT else 0
    drawing = [s for s in seats if s not in folded] if variant == DRAW_LAYOUT else []
    counts = {s: draw(st.integers(0, 3)) for s in drawing}
    drawn_so_far = draw(st.integers(0, len(drawing)))
    return dict(variant=variant, seats=seats, dealt_in=dealt_in, folded=folded, shown=shown,
                board=board, counts=counts, drawn=drawing[:drawn_so_far])  # fmt: skip


@settings(deadline=None)
@given(random_hands())
def test_R_FD_03_random_hands_never_release_a_position_the_viewer_may_not_see(hand: dict) -> None:
    seats = hand["seats"]
    deal = DealCommitter(
        table_id="leak", hand_no=1, layout=hand["variant"], button_seat=seats[-1],
        dealt_seats=seats, deck=shuffled_deck(), committed_at_ms=1, signing_key=KEY,
    )  # fmt: skip
    state = DealState()
    owner: dict[int, int | None] = {}  # the oracle: dealt position -> seat (None: board)
    if hand["dealt_in"]:
        for seat in seats:
            state = state.with_dealt(hole_slots(deal, seat))
            owner.update(dict.fromkeys(deal.hole_positions(seat), seat))
        state = state.with_dealt(board_slots(deal, range(hand["board"])))
        owner.update({deal.position("board", None, b): None for b in range(hand["board"])})
        for seat in hand["drawn"]:
            for position in deal.record_draw(seat, hand["counts"][seat]):
                owner[position] = seat
            state = state.with_dealt(draw_slots(deal, seat))
        shown_positions = [p for p, s in owner.items() if s in hand["shown"]]
        state = state.with_shown(shown_positions)
    for viewer in (*seats, None):
        may_see = {p for p, s in owner.items() if s is None or s == viewer or s in hand["shown"]}
        released = release_openings(deal, Viewer(viewer), state)
        assert positions(released) == may_see
        text = dumps(proof_document(deal.commitment, released, draws=deal.draws))
        for position in set(range(52)) - may_see:
            assert deal.salts[position].hex() not in text
        assert verify_text(text).ok
        for folded_seat in hand["folded"] - {viewer}:
            assert not any(o.seat == folded_seat for o in released)


@settings(deadline=None)
@given(random_hands(), st.data())
def test_R_FD_03_newly_visible_slots_are_the_difference_of_what_a_viewer_sees(
    hand: dict, data: st.DataObject
) -> None:
    """A broadcast sends each viewer the openings it may hold now and could not before: the
    slots that changed since (``changed_slots``, once per broadcast) filtered per viewer are
    exactly the difference of ``visible_slots`` at the two states, for every viewer, whether it
    may see shown cards or not, across every step of a deal (and across several at once)."""
    seats = hand["seats"]
    deal = DealCommitter(
        table_id="new", hand_no=1, layout=hand["variant"], button_seat=seats[-1],
        dealt_seats=seats, deck=shuffled_deck(), committed_at_ms=1, signing_key=KEY,
    )  # fmt: skip
    states = [DealState()]
    for seat in seats:
        states.append(states[-1].with_dealt(hole_slots(deal, seat)))
    for b in range(hand["board"]):
        states.append(states[-1].with_dealt(board_slots(deal, [b])))
    for seat in hand["drawn"]:
        deal.record_draw(seat, hand["counts"][seat])
        states.append(states[-1].with_dealt(draw_slots(deal, seat)))
    for seat in sorted(hand["shown"]):
        states.append(states[-1].with_shown(deal.hole_positions(seat)))
    pairs = list(itertools.pairwise(states))
    i = data.draw(st.integers(0, len(states) - 1))
    j = data.draw(st.integers(i, len(states) - 1))
    pairs.append((states[i], states[j]))
    for before, state in pairs:
        changed = changed_slots(before, state)
        for seat in (*seats, None):
            for sees_shown in (True, False):
                viewer = Viewer(seat, sees_shown)
                had = {slot.position for slot in visible_slots(viewer, before)}
                expected = sorted(
                    (s for s in visible_slots(viewer, state) if s.position not in had),
                    key=lambda s: s.position,
                )
                assert newly_visible(viewer, before, state, changed) == expected


def test_R_FD_03_secrets_salts_differ_between_two_deals_of_the_same_deck() -> None:
    deck = shuffled_deck(secrets.randbelow)
    a = DealCommitter(table_id="t", hand_no=1, layout=HOLDEM_LAYOUT, button_seat=1,
                      dealt_seats=[0, 1], deck=deck, committed_at_ms=0)  # fmt: skip
    b = DealCommitter(table_id="t", hand_no=1, layout=HOLDEM_LAYOUT, button_seat=1,
                      dealt_seats=[0, 1], deck=deck, committed_at_ms=0)  # fmt: skip
    assert not set(a.salts) & set(b.salts)
    assert a.commitment.root != b.commitment.root
