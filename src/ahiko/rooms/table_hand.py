"""One hand at a table: the commitment, then the engine's hand, and what each viewer may see.

The room owns the clock and the people; this class owns the cards. Every card or salt that
leaves it goes through ``ahiko.poker.view.view`` (the engine's visibility function) or
``ahiko.fairness.release.release_openings`` (the fair deal's release policy).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from enum import StrEnum
from typing import Any, cast

from ahiko.fairness.deal import DealCommitter
from ahiko.fairness.mixed_deal import MixedDeal
from ahiko.fairness.positions import ROLE_BOARD
from ahiko.fairness.proof_v2 import release_mixed_openings
from ahiko.fairness.release import (
    CardSlot,
    DealState,
    Viewer,
    changed_slots,
    draw_slots,
    hole_slots,
    newly_visible,
    release_openings,
    released_role,
    second_board_slots,
)
from ahiko.poker.actions import Action, LegalActions
from ahiko.poker.cards import Card, parse_card
from ahiko.poker.config import DrawConfig, HoldemConfig
from ahiko.poker.events import Event, PotAwarded, event_to_dict
from ahiko.poker.hand import AnyHand
from ahiko.poker.hands import hand_class
from ahiko.poker.layout import second_board_position
from ahiko.poker.view import sees_shown_cards
from ahiko.poker.view import view as engine_view
from ahiko.poker.view_types import HandView
from ahiko.rooms.blinds import Stakes
from ahiko.rooms.config import Variant
from ahiko.rooms.frame_types import Opening


class Phase(StrEnum):
    COMMITTED = "committed"  # commitment published, cards not yet dealt (R-FD-02)
    DEALT = "dealt"
    CANCELLED = "cancelled"  # R-FD-06


def deal_order(seats: Sequence[int], button: int) -> tuple[int, ...]:
    """Dealt seats in deal order: first seat after the button first, the button last."""
    ordered = sorted(seats)
    after = [s for s in ordered if s > button] + [s for s in ordered if s <= button]
    return tuple(after)


def layout_for(variant: Variant) -> str:
    """The deal layout a hand of ``variant`` commits to (FAIRNESS.md)."""
    return variant.game.layout


class TableHand:
    def __init__(
        self,
        *,
        hand_no: int,
        variant: Variant,
        stakes: Stakes,
        players: Mapping[int, str],
        stacks: Mapping[int, int],
        button: int,
        committer: DealCommitter,
        names: Mapping[int, str] | None = None,
        mixed: MixedDeal | None = None,
        config: HoldemConfig | DrawConfig | None = None,
    ) -> None:
        self.hand_no = hand_no
        self.variant = variant
        self.stakes = stakes
        # The engine's config of this hand: the stakes with the room's hand options applied
        # (a straddle taken, a bomb pot due, run it twice, seven-deuce); plain stakes else.
        self.config = stakes.config_for(variant.game) if config is None else config
        self.players = dict(players)  # seat -> player id, for the dealt seats
        # seat -> the player's name when the hand was committed: a finished hand still says
        # who played it after they left the table
        self.names = {seat: (names or {}).get(seat, pid) for seat, pid in self.players.items()}
        # Fixed at the deal and sent in every hand frame: built once, not per frame and viewer.
        self.names_json = {str(seat): name for seat, name in sorted(self.names.items())}
        self.start_stacks = dict(stacks)
        self.button = button
        self.committer = committer
        # pokerfair/2: the players' secrets pick which committed leaf each position opens
        self.mixed = mixed
        self.phase = Phase.COMMITTED
        self.engine: AnyHand | None = None
        self.deal_state = DealState()
        # (before, deal_state, changed_slots(before, deal_state)) of the last broadcast
        self._changed: tuple[DealState, DealState, tuple[CardSlot, ...]] | None = None
        self.history_sent = 0  # public history entries already broadcast

    # --- lifecycle -----------------------------------------------------------------------
    @property
    def dealt_seats(self) -> tuple[int, ...]:
        return self.committer.dealt_seats

    def seat_of(self, player_id: str) -> int | None:
        return next((s for s, p in self.players.items() if p == player_id), None)

    def deal(self) -> list[Event]:
        seats = sorted(self.players)
        stacks = [self.start_stacks[s] for s in seats]
        deck = self.dealt_deck
        hand, events = hand_class(self.variant).start(
            self.config,
            seats=seats,
            stacks=stacks,
            button=self.button,
            deck=deck,
        )
        self.engine = hand
        self.phase = Phase.DEALT
        self.track(events)
        return list(events)

    @property
    def hand(self) -> AnyHand:
        if self.engine is None:
            raise RuntimeError("the cards are not dealt yet")
        return self.engine

    @property
    def is_over(self) -> bool:
        return self.engine is not None and self.engine.is_over

    @property
    def to_act(self) -> int | None:
        if self.engine is None or self.engine.is_over:
            return None
        return self.engine.to_act

    def legal(self) -> LegalActions:
        return self.hand.legal_actions()

    def act(self, seat: int, action: Action) -> list[Event]:
        events = list(self.hand.act(seat, action))
        self.track(events)
        return events

    def forfeit(self, seat: int) -> list[Event]:
        events = list(self.hand.forfeit(seat))
        self.track(events)
        return events

    def stop_betting(self) -> list[Event]:
        events = list(self.hand.stop_betting())
        self.track(events)
        return events

    def show(self, seat: int) -> list[Event]:
        events = list(self.hand.show(seat))
        self.track(events)
        return events

    @property
    def second_board(self) -> tuple[Card, ...]:
        """The second board (double board, or the second run-out): empty when none."""
        return tuple(getattr(self.engine, "second_board", ()))

    @property
    def runs_pending(self) -> tuple[int, ...]:
        """Seats still to answer whether to run it twice (a game without the option: none)."""
        return tuple(getattr(self.engine, "runs_pending", ()))

    def choose_runs(self, seat: int, runs: int) -> list[Event]:
        events = list(self.hand.choose_runs(seat, runs))
        self.track(events)
        return events

    def final_stacks(self) -> dict[int, int]:
        return dict(self.hand.stacks)

    # --- cards dealt and shown -----------------------------------------------------------
    def track(self, events: Sequence[Event]) -> None:
        """Follow the deal in the fair-deal bookkeeping: what is dealt, to whom, what shown."""
        for event in events:
            data = event_to_dict(event)
            kind = data.get("kind")
            if kind == "hole_dealt":
                self.deal_state = self.deal_state.with_dealt(
                    hole_slots(self.committer, int(data["seat"]))
                )
            elif kind == "street":
                slots = [self._board_slot(card) for card in data.get("cards") or ()]
                self.deal_state = self.deal_state.with_dealt(slots)
            elif kind == "second_board":
                board_start = self.variant.game.hole_cards * len(self.dealt_seats)
                first = second_board_position(board_start, 0)
                own = [int(p) - first for p in data.get("positions") or ()]
                self.deal_state = self.deal_state.with_dealt(
                    second_board_slots(self.committer, own)
                )
            elif kind == "discarded":
                seat, count = int(data["seat"]), int(data["count"])
                self.committer.record_draw(seat, count)
                self.deal_state = self.deal_state.with_dealt(draw_slots(self.committer, seat))
            elif kind == "cards_shown":
                positions = [self._position(card) for card in data.get("cards") or ()]
                self.deal_state = self.deal_state.with_shown(positions)

    @property
    def dealt_deck(self) -> tuple[Card, ...]:
        """The cards in deal-position order (under pokerfair/2, once the reveals closed)."""
        return self.committer.deck if self.mixed is None else self.mixed.dealt_deck()

    def _position(self, card: Any) -> int:
        value: Card = parse_card(card) if isinstance(card, str) else int(card)
        return self.dealt_deck.index(value)

    def _board_slot(self, card: Any) -> CardSlot:
        position = self._position(card)
        b = position - self.variant.game.hole_cards * len(self.dealt_seats)
        return CardSlot(position, ROLE_BOARD, None, b)

    # --- what a viewer gets --------------------------------------------------------------
    def viewer_seat(self, player_id: str | None) -> int | None:
        return None if player_id is None else self.seat_of(player_id)

    def view(self, seat: int | None) -> HandView | None:
        """The engine's view for ``seat``: a bot decides on it, a snapshot carries it."""
        if self.engine is None:
            return None
        return engine_view(self.engine, seat)

    def release_viewer(self, seat: int | None) -> Viewer:
        """The fair deal's viewer for ``seat``: the engine decides whether it may see the
        cards others show (R-DR-07 D)."""
        engine = self.engine
        return Viewer(seat, engine is None or sees_shown_cards(engine, seat))

    def openings(self, seat: int | None, state: DealState | None = None) -> list[Opening]:
        viewer, at = self.release_viewer(seat), state or self.deal_state
        if self.mixed is not None:
            return [
                cast("Opening", o.to_json()) for o in release_mixed_openings(self.mixed, viewer, at)
            ]
        return [cast("Opening", o.to_json()) for o in release_openings(self.committer, viewer, at)]

    def new_openings(
        self,
        seat: int | None,
        before: DealState,
        made: dict[tuple[str, int | None, int], Opening] | None = None,
    ) -> list[Opening]:
        """Openings this viewer may hold now and could not hold at ``before``. ``made``
        keeps each opening's JSON by (role, seat, k) for the other viewers of the same
        broadcast: a board card's opening is one object for all of them (read-only)."""
        state = self.deal_state
        if state is before:
            return []  # nothing dealt or shown since (most actions): no new opening
        changed = self._changed
        if changed is None or changed[0] is not before or changed[1] is not state:
            # what was dealt or shown since: once per broadcast, not once per viewer
            changed = self._changed = (before, state, changed_slots(before, state))
        viewer = self.release_viewer(seat)
        fresh = newly_visible(viewer, before, state, changed[2])
        out = []
        for slot in fresh:
            key = (released_role(viewer, slot), slot.seat, slot.k)
            found = None if made is None else made.get(key)
            if found is None:
                found = cast("Opening", (self.mixed or self.committer).opening(*key).to_json())
                if made is not None:
                    made[key] = found
            out.append(found)
        return out

    def commitment(self) -> dict[str, Any]:
        return self.committer.commitment.to_json()

    def contributors(self) -> dict[str, Any] | None:
        """The signed contributor set of a pokerfair/2 hand (None for pokerfair/1)."""
        return None if self.mixed is None else self.mixed.contributors.to_json()

    def total_pot(self) -> int:
        """Every chip the pots paid out (uncalled bets returned are not in a pot); 0 before
        the hand is over."""
        if not self.is_over:
            return 0
        return sum(e.amount for e in self.hand.events if isinstance(e, PotAwarded))
