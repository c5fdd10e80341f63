"""Reading a hand's event log for export, and deciding which private cards an export may hold.

``HandLog`` gathers the public facts of a finished hand (stakes, seats, the ordered steps).
``VisibleCards`` is the only source of private cards for exporters: built for a viewer it asks
``ahiko.poker.view.view`` which seats' cards that viewer may see (own cards; cards shown at
showdown unless R-DR-07 hides them from a folded draw player) and never reads the deck.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from ahiko.poker.cards import Card
from ahiko.poker.config import DrawConfig, HoldemConfig
from ahiko.poker.events import (
    AntePosted,
    BlindPosted,
    CardsShown,
    Discarded,
    Event,
    HandStarted,
    HoleDealt,
    Mucked,
)
from ahiko.poker.games import Game, game
from ahiko.poker.hand import AnyHand
from ahiko.poker.view import seat_history, view


@dataclass(slots=True)
class HandLog:
    """The event log of one hand, indexed for exporters."""

    events: Sequence[Event]
    started: HandStarted = field(init=False)

    def __post_init__(self) -> None:
        first = self.events[0] if self.events else None
        if not isinstance(first, HandStarted):
            raise ValueError("an event log must begin with hand_started")
        self.started = first

    @property
    def variant(self) -> str:
        return self.started.variant

    @property
    def game(self) -> Game:
        """What the hand's variant is (its cards, streets, names)."""
        return game(self.started.variant)

    @property
    def dealt_seats(self) -> list[int]:
        return list(self.started.dealt_seats)

    @property
    def button(self) -> int:
        return self.started.button

    @property
    def starting_stacks(self) -> dict[int, int]:
        return dict(zip(self.started.seats, self.started.stacks, strict=True))

    @property
    def holdem_config(self) -> HoldemConfig:
        return HoldemConfig(**self.started.config)

    @property
    def draw_config(self) -> DrawConfig:
        return DrawConfig(**self.started.config)

    @property
    def shown_seats(self) -> set[int]:
        return {e.seat for e in self.events if isinstance(e, CardsShown)}

    @property
    def mucked_seats(self) -> set[int]:
        return {e.seat for e in self.events if isinstance(e, Mucked)}

    def forced_bets(self) -> list[AntePosted | BlindPosted]:
        return [e for e in self.events if isinstance(e, AntePosted | BlindPosted)]

    def initial_cards(self, seat: int) -> tuple[Card, ...]:
        for e in self.events:
            if isinstance(e, HoleDealt) and e.seat == seat:
                return e.cards
        return ()

    def discard_of(self, seat: int) -> Discarded | None:
        for e in self.events:
            if isinstance(e, Discarded) and e.seat == seat:
                return e
        return None


@dataclass(frozen=True, slots=True)
class VisibleCards:
    """Which private cards an export may contain."""

    log: HandLog
    own_seat: int | None  # this seat's own private cards may be written
    visible_seats: frozenset[int]  # seats whose shown cards this reader may see
    everything: bool = False

    @classmethod
    def for_viewer(cls, hand: AnyHand, viewer: int | None) -> VisibleCards:
        """What ``viewer`` (a seat, or None for a spectator) may see, as the engine's
        ``view`` decides it."""
        seen = view(hand, viewer)
        visible = frozenset(s["seat"] for s in seen["seats"] if s.get("cards") is not None)
        own_dealt = any(  # the seat's own private cards, as the one "what a seat saw" gives
            e["kind"] == "hole_dealt" and e["seat"] == viewer and e.get("cards")
            for e in seat_history(hand, viewer)
        )
        own = viewer if viewer is not None and viewer in visible and own_dealt else None
        return cls(HandLog(hand.events), own, visible)

    @classmethod
    def all_cards(cls, hand: AnyHand) -> VisibleCards:
        """A private server archive: every dealt card."""
        log = HandLog(hand.events)
        return cls(log, None, frozenset(log.started.seats), everything=True)

    def hole(self, seat: int) -> tuple[Card | None, ...]:
        """The cards first dealt to ``seat``; unknown ones as None."""
        cards = self.log.initial_cards(seat)
        if self.everything or seat == self.own_seat:
            return cards
        # the cards a board game's player showed are the ones first dealt (no draw)
        if not self.log.game.has_draw and seat in self.visible_seats:
            shown = self.shown(seat)
            if shown is not None:
                return shown
        return (None,) * len(cards)

    def discarded(self, seat: int) -> tuple[tuple[Card | None, ...], tuple[Card | None, ...]]:
        """Five-card draw: (thrown cards, new cards) of ``seat``; unknown ones as None."""
        event = self.log.discard_of(seat)
        if event is None:
            return (), ()
        if self.everything or seat == self.own_seat:
            return event.cards, event.new_cards
        return (None,) * event.count, (None,) * event.count

    def shown(self, seat: int) -> tuple[Card, ...] | None:
        """The cards ``seat`` showed, if it did and this reader may see them."""
        if not (self.everything or seat in self.visible_seats):
            return None
        for e in self.log.events:
            if isinstance(e, CardsShown) and e.seat == seat:
                return e.cards
        return None
