"""PokerStars-style text export of a finished hand, the layout hand trackers parse.

Lines follow real PokerStars histories: a header with the game and stakes, the table line
naming the button seat, ``Seat N: NAME (X in chips)``, forced bets, ``*** HOLE CARDS ***``
(hold'em) or ``*** DEALING HANDS ***`` (draw), ``Dealt to NAME [..]`` for the reader's own
cards only, actions (``raises 20 to 40``, ``calls 40``, ``and is all-in``), streets, the
draw (``discards 2 cards`` / ``stands pat``), ``Uncalled bet (x) returned to``, the
showdown, ``collected N from pot`` and ``*** SUMMARY ***``. Seats print 1-based. Private
cards come only from ``VisibleCards`` (the engine's view), never from the deck.

A hand on two boards (run twice, or a double board) writes PokerStars' run-twice lines: the
streets of each board as ``*** FIRST TURN ***`` / ``*** SECOND TURN ***`` (the streets both
run-outs share stay plain), ``*** FIRST SHOW DOWN ***`` and ``*** SECOND SHOW DOWN ***`` with
what each board's half of a pot paid, and in the summary ``Hand was run twice`` (a run-out)
and ``FIRST Board [..]`` / ``SECOND Board [..]``.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from ahiko.poker.actions import ActionKind
from ahiko.poker.cards import Card
from ahiko.poker.events import (
    ActionTaken,
    AntePosted,
    BetReturned,
    BlindPosted,
    CardsShown,
    Discarded,
    Event,
    Mucked,
    PotAwarded,
    PotSplit,
    RunoutOffered,
    SecondBoardDealt,
    StreetDealt,
)
from ahiko.poker.hand import AnyHand
from ahiko.poker.ranking import game_hand_value

from .hand_log import HandLog, VisibleCards
from .hand_names import hand_name
from .phh_moves import describe_cards

HOLDEM_STREET_TITLES = {"flop": "Flop", "turn": "Turn", "river": "River"}
DRAW_FIRST_DRAW = "draw"
_BLIND_WORDS = {"sb": "small blind", "bb": "big blind", "straddle": "straddle"}


@dataclass(frozen=True, slots=True)
class TableInfo:
    """What the text names but the hand does not know."""

    hand_number: int = 1
    table_name: str = "Ahiko"
    max_seats: int = 8
    started_at: dt.datetime = dt.datetime(2026, 1, 1, tzinfo=dt.UTC)
    time_zone: str = "ET"
    names: Mapping[int, str] = field(default_factory=dict)

    def name(self, seat: int) -> str:
        return self.names.get(seat, f"Player{seat + 1}")


class _Writer:
    def __init__(self, events: Sequence[Event], cards: VisibleCards, table: TableInfo) -> None:
        self.events = events
        self.log = HandLog(events)
        self.cards = cards
        self.table = table
        self.draw = self.log.game.has_draw
        self.lines: list[str] = []
        self.board: list[Card] = []
        self.street = "predraw" if self.draw else "preflop"
        self.street_max = 0
        self.showdown_started = False
        self.folded_on: dict[int, str] = {}
        self.put_in_voluntarily: set[int] = set()
        self.blinds: dict[int, str] = {}
        self.won: dict[int, int] = {}
        self.pot_count = sum(1 for e in events if isinstance(e, PotAwarded))
        self.pots: list[int] = []
        # two boards: the second's cards, and the showdown lines of each board's halves
        self.two_boards = any(isinstance(e, SecondBoardDealt) for e in events)
        self.run_twice = self.two_boards and any(isinstance(e, RunoutOffered) for e in events)
        self.first_board_titled = self.two_boards and not self.run_twice  # a double board
        self.second_board: list[Card] = []
        self.second_showdown: list[str] = []

    def n(self, seat: int) -> str:
        return self.table.name(seat)

    def write(self) -> str:
        self._header()
        for event in self.events:
            self._event(event)
        self._summary()
        return "\n".join(self.lines) + "\n"

    def _header(self) -> None:
        when = self.table.started_at.strftime("%Y/%m/%d %H:%M:%S")
        name = self.log.game.pokerstars_name  # "Hold'em No Limit", "Omaha Pot Limit", ...
        if self.draw:
            cfg = self.log.draw_config
            game = f"{name} ({cfg.small_bet}/{cfg.big_bet})"
        else:
            hcfg = self.log.holdem_config
            game = f"{name} ({hcfg.small_blind}/{hcfg.big_blind})"
        self.lines.append(
            f"PokerStars Hand #{self.table.hand_number}:  {game} - {when} {self.table.time_zone}"
        )
        self.lines.append(
            f"Table '{self.table.table_name}' {self.table.max_seats}-max "
            f"Seat #{self.log.button + 1} is the button"
        )
        for seat, stack in sorted(self.log.starting_stacks.items()):
            self.lines.append(f"Seat {seat + 1}: {self.n(seat)} ({stack} in chips)")

    def _deal_lines(self) -> None:
        self.lines.append("*** DEALING HANDS ***" if self.draw else "*** HOLE CARDS ***")
        # PokerStars deals "to" the reader only; a private archive lists every seat.
        readers = self.log.started.seats if self.cards.everything else (self.cards.own_seat,)
        for seat in sorted(s for s in readers if s is not None):
            hole = self.cards.hole(seat)
            if hole and all(c is not None for c in hole):
                self.lines.append(f"Dealt to {self.n(seat)} [{_cards(hole)}]")

    def _event(self, event: Event) -> None:
        if isinstance(event, AntePosted):
            self.lines.append(
                f"{self.n(event.seat)}: posts the ante {event.amount}{_allin(event.all_in)}"
            )
        elif isinstance(event, BlindPosted):
            kind = _BLIND_WORDS[event.blind]
            self.blinds[event.seat] = kind
            self.street_max = max(self.street_max, event.amount)
            self.lines.append(
                f"{self.n(event.seat)}: posts {kind} {event.amount}{_allin(event.all_in)}"
            )
        elif event.kind == "hole_dealt":
            if not any(line.startswith("*** ") for line in self.lines):
                self._deal_lines()
        elif isinstance(event, ActionTaken):
            self._action(event)
        elif isinstance(event, StreetDealt):
            self._street(event)
        elif isinstance(event, RunoutOffered):
            self.first_board_titled = self.two_boards
        elif isinstance(event, SecondBoardDealt):
            self._second_street(event)
        elif isinstance(event, PotSplit):
            self._pot_split(event)
        elif isinstance(event, Discarded):
            self._discard(event)
        elif isinstance(event, BetReturned):
            self.lines.append(f"Uncalled bet ({event.amount}) returned to {self.n(event.seat)}")
        elif isinstance(event, CardsShown):
            self._shown(event)
        elif isinstance(event, Mucked):
            self._start_showdown()
            self.lines.append(f"{self.n(event.seat)}: mucks hand")
        elif isinstance(event, PotAwarded):
            self._pot(event)

    def _action(self, e: ActionTaken) -> None:
        name = self.n(e.seat)
        if e.action == ActionKind.FOLD:
            self.folded_on.setdefault(e.seat, self.street)
            self.lines.append(f"{name}: folds")
            return
        if e.action == ActionKind.CHECK:
            self.lines.append(f"{name}: checks")
            return
        self.put_in_voluntarily.add(e.seat)
        if e.action == ActionKind.CALL:
            text = f"calls {e.added}"
        elif e.action == ActionKind.BET:
            text = f"bets {e.amount}"
        else:
            text = f"raises {e.amount - self.street_max} to {e.amount}"
        self.street_max = max(self.street_max, e.amount)
        self.lines.append(f"{name}: {text}{_allin(e.all_in)}")

    def _street(self, e: StreetDealt) -> None:
        self.street = e.name
        self.street_max = 0
        if self.draw:
            if e.name == DRAW_FIRST_DRAW:
                self.lines.append("*** FIRST DRAW ***")
            return
        before = describe_cards(self.board)
        self.board.extend(e.cards)
        title = ("FIRST " if self.first_board_titled else "") + e.name.upper()
        if before:
            self.lines.append(f"*** {title} *** [{before}] [{describe_cards(e.cards)}]")
        else:
            self.lines.append(f"*** {title} *** [{describe_cards(e.cards)}]")

    def _second_street(self, e: SecondBoardDealt) -> None:
        if not self.second_board and self.run_twice:  # the cards both run-outs share
            shared = {"flop": 0, "turn": 3, "river": 4}[e.name]
            self.second_board = self.board[:shared]
        before = describe_cards(self.second_board)
        self.second_board.extend(e.cards)
        cards = describe_cards(e.cards)
        title = f"*** SECOND {e.name.upper()} ***"
        self.lines.append(f"{title} [{before}] [{cards}]" if before else f"{title} [{cards}]")

    def _pot_split(self, e: PotSplit) -> None:
        where = self._pot_name(e.index)
        lines = [f"{self.n(s)} collected {e.shares[s]} from {where}" for s in e.winners]
        if e.board == 0:
            self._start_showdown()
            self.lines.extend(lines)
        else:
            self.second_showdown.extend(lines)

    def _discard(self, e: Discarded) -> None:
        name = self.n(e.seat)
        if e.count == 0:
            self.lines.append(f"{name}: stands pat")
            return
        plural = "card" if e.count == 1 else "cards"
        thrown, new = self.cards.discarded(e.seat)
        if all(c is not None for c in thrown):
            self.lines.append(f"{name}: discards {e.count} {plural} [{_cards(thrown)}]")
            kept = [c for c in self.cards.hole(e.seat) if c is not None and c not in thrown]
            self.lines.append(f"Dealt to {name} [{describe_cards(kept)}] [{_cards(new)}]")
        else:
            self.lines.append(f"{name}: discards {e.count} {plural}")

    def _start_showdown(self) -> None:
        if not self.showdown_started:
            self.showdown_started = True
            first = "FIRST " if self.two_boards else ""
            self.lines.append(f"*** {first}SHOW DOWN ***")

    def _shown(self, e: CardsShown) -> None:
        shown = self.cards.shown(e.seat)
        if shown is None:
            return  # not for this reader's eyes (R-DR-07)
        board_complete = self.draw or len(self.board) == 5
        if e.reason == "showdown" or (e.reason == "allin" and board_complete):
            self._start_showdown()
        self.lines.append(f"{self.n(e.seat)}: shows [{describe_cards(shown)}]{self._named(shown)}")

    def _named(self, cards: Sequence[Card]) -> str:
        value = game_hand_value(self.log.game.evaluator, cards, self.board)
        return "" if value is None else f" ({hand_name(value, 'en')})"

    def _pot(self, e: PotAwarded) -> None:
        self.pots.append(e.amount)
        if len(e.eligible) > 1 and (self.log.shown_seats or self.log.mucked_seats):
            self._start_showdown()
        where = self._pot_name(e.index)
        for seat in e.winners:
            share = e.shares.get(seat, 0)
            self.won[seat] = self.won.get(seat, 0) + share
            if not self.two_boards:  # on two boards each half was written (_pot_split)
                self.lines.append(f"{self.n(seat)} collected {share} from {where}")

    def _pot_name(self, index: int) -> str:
        if self.pot_count == 1:
            return "pot"
        return "main pot" if index == 0 else f"side pot-{index}"

    def _summary(self) -> None:
        if self.second_showdown:
            self.lines.append("*** SECOND SHOW DOWN ***")
            self.lines.extend(self.second_showdown)
        self.lines.append("*** SUMMARY ***")
        if self.run_twice:
            self.lines.append("Hand was run twice")
        total = sum(self.pots)
        if len(self.pots) > 1:
            sides = " ".join(f"Side pot-{i} {a}." for i, a in enumerate(self.pots[1:], start=1))
            self.lines.append(f"Total pot {total} Main pot {self.pots[0]}. {sides} | Rake 0")
        else:
            self.lines.append(f"Total pot {total} | Rake 0")
        if self.second_board:
            self.lines.append(f"FIRST Board [{describe_cards(self.board)}]")
            self.lines.append(f"SECOND Board [{describe_cards(self.second_board)}]")
        elif self.board:
            self.lines.append(f"Board [{describe_cards(self.board)}]")
        for seat in sorted(self.log.started.seats):
            self.lines.append(
                f"Seat {seat + 1}: {self.n(seat)}{self._roles(seat)} {self._fate(seat)}"
            )

    def _roles(self, seat: int) -> str:
        roles = " (button)" if seat == self.log.button else ""
        if seat in self.blinds:
            roles += f" ({self.blinds[seat]})"
        return roles

    def _fate(self, seat: int) -> str:
        won = self.won.get(seat, 0)
        if seat in self.folded_on:
            return self._folded(seat)
        shown = self.cards.shown(seat)
        if shown is not None and seat in self.log.shown_seats:
            name = self._named(shown).strip()
            if won:
                return (
                    f"showed [{describe_cards(shown)}] and won ({won}) with {name[1:-1]}".rstrip()
                )
            return f"showed [{describe_cards(shown)}] and lost with {name[1:-1]}".rstrip()
        if seat in self.log.mucked_seats:
            return "mucked"
        return f"collected ({won})" if won else "lost"

    def _folded(self, seat: int) -> str:
        street = self.folded_on[seat]
        if self.draw:
            text = "folded before the Draw" if street == "predraw" else "folded after the Draw"
        elif street == "preflop":
            text = "folded before Flop"
        else:
            text = f"folded on the {HOLDEM_STREET_TITLES.get(street, street)}"
        if (
            street in ("preflop", "predraw")
            and seat not in self.put_in_voluntarily
            and seat not in self.blinds
        ):
            text += " (didn't bet)"
        return text


def _allin(all_in: bool) -> str:
    return " and is all-in" if all_in else ""


def _cards(cards: Sequence[Card | None]) -> str:
    return describe_cards([c for c in cards if c is not None])


def to_pokerstars(hand: AnyHand, cards: VisibleCards, table: TableInfo | None = None) -> str:
    """The finished hand (hold'em or draw) as PokerStars-style text, for the reader that
    ``cards`` was made for."""
    return _Writer(hand.events, cards, table or TableInfo()).write()
