"""What every hand shares (hold'em, Omaha, five-card draw): seats, chips, the log, pots,
showdown. A hand changes only through ``act`` and ``show``, which append events or raise
:class:`IllegalAction` having changed nothing. Players are in lists in button order
(``dealt_seats``: first after the button first); the public API speaks in seats, and
``view.py`` reads the attributes without a leading underscore (read-only)."""

from __future__ import annotations

from collections.abc import Sequence
from operator import sub
from typing import Any, ClassVar, Generic, Self, TypeVar

from .actions import SHARED, Action, ActionKind, IllegalAction, LegalActions, check_action_types
from .betting import BettingRound, Rules, rotation
from .cards import Card, validate_deck
from .events import (
    ActionTaken,
    AntePosted,
    BetReturned,
    BettingStopped,
    CardsShown,
    Discarded,
    Event,
    HandEnded,
    HandStarted,
    HoleDealt,
    Mucked,
    PotAwarded,
    RunoutChosen,
    StreetDealt,
    deck_from_events,
)
from .fast_init import fast_constructor
from .games import Game
from .hand_text import HandText
from .layout import private_positions
from .pots import Pot, build_pots, split_pot
from .ranking import hand_strength, strength_ranks
from .result import HandResult, PotResult
from .seating import seating

ConfigT = TypeVar("ConfigT")

# The events and results a hand builds, through their fast constructors (``fast_init``).
_new_hand_started = fast_constructor(HandStarted)
_new_ante_posted = fast_constructor(AntePosted)
_new_hole_dealt = fast_constructor(HoleDealt)
_new_street_dealt = fast_constructor(StreetDealt)
_new_bet_returned = fast_constructor(BetReturned)
_new_cards_shown = fast_constructor(CardsShown)
_new_mucked = fast_constructor(Mucked)
_new_pot_awarded = fast_constructor(PotAwarded)
_new_hand_ended = fast_constructor(HandEnded)
_new_hand_result = fast_constructor(HandResult)
_new_pot_result = fast_constructor(PotResult)
_INT_ONLY = {int}
_FORFEIT = Action.fold()
_FOLD_ACTION, _CHECK_ACTION, _CALL_ACTION = SHARED
_FOLD_KIND = ActionKind.FOLD


class BaseHand(HandText, Generic[ConfigT]):
    """A hand of a game whose stakes are a ``ConfigT`` (HoldemConfig, DrawConfig). What the
    game is (cards, streets, betting, seats, layout) is its ``game``'s data; the names below
    are read from it once, for the hot paths and the older callers."""

    game: ClassVar[Game]
    variant: ClassVar[str]
    layout: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    rules: ClassVar[Rules]
    show_rule: ClassVar[str]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        played = cls.__dict__.get("game")
        if played is not None:
            cls.variant = played.name
            cls.layout = played.layout
            cls.min_players = played.min_players
            cls.max_players = played.max_players

    def __init__(
        self,
        config: ConfigT,
        seats: Sequence[int],
        stacks: Sequence[int],
        button: int,
        deck: Sequence[Card],
        *,
        _deck_checked: bool = False,
    ) -> None:
        self.config = config
        seats, stacks = tuple(seats), tuple(stacks)
        self.n = n = len(seats)
        if not self.min_players <= n <= self.max_players:
            raise ValueError(
                f"{self.variant} needs {self.min_players} to {self.max_players} players, got {n}"
            )
        if len(set(seats)) != n or len(stacks) != n:
            raise ValueError("seats must be distinct, with one stack per seat")
        # One test of the usual case (plain ints, positive stacks); else find the culprit.
        if (
            type(button) is not int
            or set(map(type, seats + stacks)) != _INT_ONLY
            or min(stacks) <= 0
        ):
            for value in (*seats, button):
                if type(value) is not int:
                    raise ValueError(f"seats and the button are whole numbers, got {value!r}")
            for stack in stacks:
                if type(stack) is not int or stack <= 0:
                    raise ValueError(
                        f"every stack must be a positive whole number of chips, got {stack!r}"
                    )
        # ``_deck_checked``: the caller built the deck as ``validate_deck`` returns one (a tuple,
        # each of the 52 cards once as a plain int), so it is not checked again (a PHH replay).
        self.deck: tuple[Card, ...] = (
            deck if _deck_checked and type(deck) is tuple else validate_deck(deck)
        )
        self.button = button
        order, self.index, first = seating(seats, button)
        self.order = order
        if first >= 0:  # the usual case: seats given ascending, stacks follow
            self.starting = [*stacks[first:], *stacks[:first]]
        else:
            self.starting = list(map(dict(zip(seats, stacks, strict=True)).__getitem__, order))
        self.chips = list(self.starting)
        self.total = [0] * n  # chips put in this hand (after uncalled bets came back)
        self.folded = [False] * n
        self.holes: list[list[Card]] = []  # by index; filled by the deal (_begin)
        self.community: list[Card] = []
        self.shown: dict[int, tuple[Card, ...]] = {}  # index -> cards shown
        self.mucked: set[int] = set()
        self.discard_counts: dict[int, int] = {}  # draw: index -> cards drawn
        self.street = ""
        self.round: BettingRound | None = None
        self.result: HandResult | None = None
        self.is_over = False  # ``result is not None``, read before every decision: no property
        self.forfeits: list[int] = []  # log indices of R-TM-04 forfeits (folds the export marks)
        self.halted = False  # R-TM-06 D: betting stopped; the hand runs out to the pots
        self.log: list[Event] = []
        self._seats_given = seats
        self._stacks_given = stacks

    @classmethod
    def start(
        cls,
        config: ConfigT,
        seats: Sequence[int],
        stacks: Sequence[int],
        button: int,
        deck: Sequence[Card],
    ) -> tuple[Self, list[Event]]:
        """Post the forced bets, deal, and stop at the first decision (or play to the end if
        nobody can bet). Returns the hand and the events so far."""
        hand = cls(config, seats, stacks, button, deck)
        hand._begin()
        return hand, list(hand.log)

    # --- public API -------------------------------------------------------------------

    @property
    def events(self) -> tuple[Event, ...]:
        return tuple(self.log)

    @property
    def board(self) -> tuple[Card, ...]:
        return tuple(self.community)

    @property
    def dealt_seats(self) -> tuple[int, ...]:
        return tuple(self.order)

    @property
    def to_act(self) -> int | None:
        i = self._to_act_index()
        return None if i is None else self.order[i]

    def legal_actions(self, seat: int | None = None) -> LegalActions:
        """What the seat to act may do (``seat``, if given, must be that seat)."""
        i = self._to_act_index()
        if i is None:
            raise IllegalAction(self.rules.actions, "the hand is over: nobody is to act")
        if seat is not None:
            self._check_seat(seat)
        if seat is not None and seat != self.order[i]:
            raise IllegalAction(
                self.rules.order, f"it is seat {self.order[i]}'s turn, not seat {seat}'s"
            )
        return self._legal(i)

    def act(self, seat: int, action: Action) -> list[Event]:
        """Apply ``action`` for ``seat``; returns the new events, or raises and changes nothing.

        The engine's door: anything but an int seat and a well-typed :class:`Action` (an
        :class:`ActionKind`, a whole number of chips, a tuple of cards) is refused with an
        :class:`IllegalAction` naming what was wrong, as a plug-in bot may call it directly."""
        if type(seat) is not int:
            self._check_seat(seat)
        # Action.fold(), .check() and .call() are three shared objects, well-typed: known by
        # identity, the usual action skips the checks below.
        if (
            action is not _CALL_ACTION
            and action is not _CHECK_ACTION
            and action is not _FOLD_ACTION
        ):
            check_action_types(action, self.rules.actions, self.rules.size)
        # The usual turn, read here without a call: the head of the betting queue. (A draw
        # is taken while no betting round is open, its queue empty: ``_turn_index`` knows it.)
        betting = self.round
        queue = betting.queue if betting is not None and self.result is None else None
        # else another turn, or a refusal that says why
        i = queue[0] if queue and seat == self.order[queue[0]] else self._turn_index(seat)
        log = self.log
        mark = len(log)
        self._act(i, action)
        return log[mark:]

    def forfeit(self, seat: int) -> list[Event]:
        """R-TM-04: a withdrawn absentee folds even with nothing to call and (D) at once, at
        its turn or not, in the draw too; an all-in has nothing to forfeit. Logged as a fold:
        a replayed fold that could have been a check, or out of turn, is a forfeit."""
        i = self._seat_index(seat)
        mark = len(self.log)
        if seat == self.to_act and not self._legal(i).is_draw_phase:
            self._act(i, _FORFEIT, forced=True)
        else:
            self._withdraw(i)
        self.forfeits.append(mark)  # the fold just logged
        return self.log[mark:]

    def _withdraw(self, i: int) -> None:
        """A forfeit out of turn: the player leaves the betting wherever they stood in it."""
        betting = self.round
        if self.result is not None or betting is None or self.folded[i] or self.chips[i] == 0:
            raise IllegalAction(
                self.rules.order, f"seat {self.order[i]} has no chips contesting this hand"
            )
        self.log.append(betting.withdraw(i))
        if not betting.queue or self.folded.count(False) <= 1:
            self._advance()

    def stop_betting(self, reason: str = "room_expired") -> list[Event]:
        """R-TM-06 D: the room expired. The betting round in progress stops where it
        stands: an amount nobody matched goes back (R-PT-03), players who had not answered
        stay in with what they had put in, the remaining cards are dealt without betting and
        the pots formed are resolved. Nothing happens to a hand already over."""
        if self.result is not None or self.halted:
            return []
        mark = len(self.log)
        self.halted = True
        self.log.append(BettingStopped(reason))
        if self.round is not None:
            self.round.stop()
        self._advance()
        return self.log[mark:]

    def fold_or_forfeit(self, seat: int) -> list[Event]:
        """A logged fold, replayed: a fold, or a forfeit where the seat could have checked."""
        self._check_seat(seat)
        if seat != self.to_act:
            return self.forfeit(seat)  # R-TM-04 D: an absentee out of turn
        legal = self._legal(self._turn_index(seat))
        if legal.can_check or legal.is_draw_phase:
            return self.forfeit(seat)
        return self.act(seat, _FORFEIT)

    @property
    def stacks(self) -> dict[int, int]:
        return {s: self.chips[i] for i, s in enumerate(self.order)}

    def hole_cards(self, seat: int) -> tuple[Card, ...]:
        """The seat's private cards now (draw: after the draw). Not for players' eyes: use view."""
        return tuple(self.holes[self._seat_index(seat)])

    def has_shown(self, seat: int) -> bool:
        """Whether the seat's cards are face up (at the showdown, or shown since)."""
        return self.index.get(seat) in self.shown

    def show(self, seat: int) -> list[Event]:
        """Voluntary show once the hand is over: the uncontested winner or a mucker (R-HE-12)."""
        i = self._seat_index(seat)
        if self.result is None:
            raise IllegalAction(
                self.show_rule, "cards may be shown voluntarily only after the hand"
            )
        if self.folded[i]:
            raise IllegalAction(self.show_rule, f"seat {seat} folded: its cards stay in the muck")
        if i in self.shown:
            raise IllegalAction(self.show_rule, f"seat {seat} has already shown")
        mark = len(self.log)
        self._reveal(i, "voluntary")
        return self.log[mark:]

    @classmethod
    def from_events(cls, events: Sequence[Event], deck: Sequence[Card] | None = None) -> Self:
        """Rebuild a hand by replaying its log; the result has exactly these events.

        Without ``deck`` the cards come from the log itself; positions the log never dealt
        are filled with the unused cards in order, so a hand still in progress continues with
        arbitrary (but valid) cards."""
        if not events or not isinstance(events[0], HandStarted):
            raise ValueError("an event log starts with hand_started")
        started = events[0]
        if started.variant != cls.variant:
            raise ValueError(f"this log is a {started.variant} hand, not {cls.variant}")
        hand = cls._from_started(started, deck_from_events(events) if deck is None else deck)
        for event in events[len(hand.log) :]:
            if isinstance(event, ActionTaken) and hand.to_act is not None:
                if event.action == "fold":
                    hand.fold_or_forfeit(event.seat)
                else:
                    hand.act(event.seat, Action(ActionKind(event.action), event.amount))
            elif isinstance(event, Discarded) and hand.to_act is not None:
                hand.act(event.seat, Action.discard(event.cards))
            elif isinstance(event, BettingStopped):
                hand.stop_betting(event.reason)
            elif isinstance(event, CardsShown) and event.reason == "voluntary":
                hand.show(event.seat)
            elif isinstance(event, RunoutChosen):
                hand.choose_runs(event.seat, event.runs)
        if hand.log != list(events):
            raise ValueError("replaying the actions does not give back this log")
        return hand

    def stakes(self) -> dict[str, int]:
        """The stakes as the view shows them."""
        raise NotImplementedError

    # --- for subclasses ---------------------------------------------------------------

    @classmethod
    def _from_started(cls, started: HandStarted, deck: Sequence[Card]) -> Self:
        config = cls._config_from(started.config)
        hand, _ = cls.start(config, started.seats, started.stacks, started.button, deck)
        return hand

    @classmethod
    def _config_from(cls, values: dict[str, int]) -> ConfigT:
        """The config a ``hand_started`` event's stakes describe."""
        raise NotImplementedError

    def _begin(self) -> None:
        """Forced bets and the deal, up to the first decision."""
        raise NotImplementedError

    def _turn_index(self, seat: int) -> int:
        """The index of ``seat`` if it is that seat's turn; else IllegalAction says why."""
        to_act = self._to_act_index()
        if to_act is None:
            raise IllegalAction(self.rules.actions, "the hand is over")
        if seat == self.order[to_act]:
            return to_act
        if seat not in self.index:
            raise IllegalAction(self.rules.order, f"seat {seat} is not in this hand")
        raise IllegalAction(
            self.rules.order, f"it is seat {self.order[to_act]}'s turn, not seat {seat}'s"
        )

    def _to_act_index(self) -> int | None:
        betting = self.round
        if self.result is not None or betting is None or not betting.queue:
            return None
        return betting.queue[0]

    def _legal(self, i: int) -> LegalActions:
        assert self.round is not None
        return self.round.legal(i)

    def _act(self, i: int, action: Action, forced: bool = False) -> None:
        """Take a betting action of the seat at index i (the round checks it, unless it is a
        ``forced`` fold: a forfeit) and move the hand on. ``forced`` is positional: 3.11
        specialises no call with keyword-only parameters, and every action comes here."""
        betting = self.round
        assert betting is not None
        event = betting.take(i, action, forced)
        self.total[i] += event.added
        self.log.append(event)
        # Only a fold can leave one player in: other actions need not count the live ones.
        if not betting.queue or (action.kind is _FOLD_KIND and self.folded.count(False) <= 1):
            self._advance()

    def _advance(self) -> None:
        """The betting round just ended: move the hand on."""
        raise NotImplementedError

    def _showdown_cards(self, i: int) -> list[Card]:
        raise NotImplementedError

    def _check_seat(self, seat: object) -> None:
        if type(seat) is not int:
            raise IllegalAction(
                self.rules.order, f"a seat is a whole number, got {type(seat).__name__} {seat!r}"
            )

    def _seat_index(self, seat: int) -> int:
        self._check_seat(seat)
        i = self.index.get(seat)
        if i is None:
            raise IllegalAction(self.rules.order, f"seat {seat} is not in this hand")
        return i

    def _start_log(self, config: dict[str, int]) -> None:
        self.log.append(
            _new_hand_started(
                self.variant,
                config,
                self._seats_given,
                self._stacks_given,
                self.button,
                tuple(self.order),
                self._deal_layout(),
            )
        )

    def _deal_layout(self) -> str:
        """The deal layout this hand's cards follow (a house option may change it)."""
        return self.layout

    def choose_runs(self, seat: int, runs: int) -> list[Event]:
        raise IllegalAction("R-HE-11", f"{self.variant} hands are not run twice (house.py)")

    def _post_antes(self, ante: int) -> None:
        if ante <= 0:
            return
        for i in range(self.n):
            paid = min(ante, self.chips[i])
            self.chips[i] -= paid
            self.total[i] += paid
            self.log.append(_new_ante_posted(self.order[i], paid, self.chips[i] == 0))

    def _deal_private(self, per_player: int) -> None:
        n, deck, order, log = self.n, self.deck, self.order, self.log
        end = per_player * n
        self.holes = holes = []
        for j, positions in enumerate(private_positions(n, per_player)):
            cards = deck[j:end:n]  # the same positions, as one slice of the deck tuple
            holes.append(list(cards))
            log.append(_new_hole_dealt(order[j], cards, positions))

    def _deal_street(self, name: str, positions: tuple[int, ...]) -> None:
        deck = self.deck
        cards = tuple([deck[p] for p in positions])
        self.community.extend(cards)
        self.street = name
        self.log.append(_new_street_dealt(name, cards, positions))

    def _new_round(self, min_bet: int, cap: int | None = None) -> BettingRound:
        """A betting round of this game's structure; the chips already in the middle (earlier
        rounds, antes) count towards a pot-limit maximum."""
        self.round = betting = BettingRound(
            self.order,
            self.chips,
            self.folded,
            min_bet,
            self.game.betting,
            cap,
            self.rules,
            sum(self.total),
        )
        return betting

    def _close_round(self) -> int:
        """Return an uncalled bet (R-PT-03); give the number of players still in."""
        assert self.round is not None
        back = self.round.uncalled()
        if back is not None:
            i, amount = back
            self.round.bets[i] -= amount
            self.chips[i] += amount
            self.total[i] -= amount
            self.log.append(_new_bet_returned(self.order[i], amount))
        return self.folded.count(False)

    def _live(self) -> list[int]:
        return [i for i, folded in enumerate(self.folded) if not folded]

    def _pots(self) -> list[Pot]:
        return build_pots(self.order, self.total, [not f for f in self.folded])

    def _reveal(self, i: int, reason: str) -> None:
        cards = tuple(self.holes[i])
        self.shown[i] = cards
        self.mucked.discard(i)
        self.log.append(_new_cards_shown(self.order[i], cards, reason))

    def _finish_uncontested(self) -> None:
        """Everyone else folded: the last player takes every pot unseen (R-HE-10)."""
        winner = self.folded.index(False)  # the only one who did not fold
        seat = self.order[winner]
        total = self.total
        if total[winner] <= 0:  # nothing of the winner's in: let the general split decide
            pots = self._pots()
            awards = [
                _new_pot_result(p.amount, p.eligible, (seat,), {seat: p.amount}) for p in pots
            ]
            self._finish(awards, {}, showdown=False)
            return
        # Uncalled chips are back, so the winner's bet is the highest: one pot, one winner.
        amount = sum(total)
        only = (seat,)
        self.chips[winner] += amount
        self.log.append(_new_pot_awarded(0, amount, only, only, {seat: amount}, {}))
        self._end((_new_pot_result(amount, only, only, {seat: amount}),), showdown=False)

    def _showdown(self) -> None:
        """Compare hands pot by pot (R-PT-04); show and muck in order (R-HE-12)."""
        order, index, log = self.order, self.index, self.log
        live = self._live()
        # index -> value; no ``strict=``: a keyword argument costs zip a dict (one value each)
        strength = dict(zip(live, self._strengths(live)))  # noqa: B905
        pots = self._pots()
        chips = self.chips
        # at most one live player has chips left (counted without a generator's frames)
        if sum(map(bool, map(chips.__getitem__, live))) <= 1:
            for i in self._showdown_order(live):  # all-in: every hand is tabled
                self._reveal(i, "allin")
        else:
            # The best value shown so far for each pot; values are never negative, so -1
            # means nobody has shown for it yet. A hand is shown if it ties or beats that
            # best in one of its pots, and mucked otherwise.
            best = [-1] * len(pots)
            for i in self._showdown_order(live):
                seat, value = order[i], strength[i]
                shows = False
                for k, pot in enumerate(pots):
                    if value >= best[k] and seat in pot.eligible:
                        best[k] = value
                        shows = True
                if shows:
                    self._reveal(i, "showdown")
                else:
                    self.mucked.add(i)
                    log.append(_new_mucked(seat))
        awards = []
        for pot in pots:
            values = [strength[index[s]] for s in pot.eligible]
            top = max(values)
            winners = tuple([s for s, v in zip(pot.eligible, values) if v == top])  # noqa: B905
            awards.append(
                _new_pot_result(pot.amount, pot.eligible, winners, split_pot(pot.amount, winners))
            )
        # seat -> {"category", "ranks"}: no words
        names = {order[i]: strength_ranks(strength[i]) for i in self.shown}
        self._finish(awards, names, showdown=True)

    def _strengths(self, live: list[int]) -> list[int]:
        """The showdown value of each of the ``live`` indices' hands."""
        return [hand_strength(self._showdown_cards(i)) for i in live]

    def _showdown_order(self, live: list[int]) -> list[int]:
        """Last aggressor of the final round first, else first after the button; clockwise."""
        assert self.round is not None
        first = self.round.last_aggressor
        folded = self.folded
        if first is None or folded[first]:
            first = live[0]
        return [j for j in rotation(self.n, first) if not folded[j]]

    def _finish(
        self, awards: list[PotResult], names: dict[int, dict[str, Any]], *, showdown: bool
    ) -> None:
        chips, index, log = self.chips, self.index, self.log
        for k, award in enumerate(awards):
            for seat, won in award.shares.items():
                chips[index[seat]] += won
            pot_names = {s: names[s] for s in award.eligible if s in names} if names else {}
            log.append(
                _new_pot_awarded(
                    k, award.amount, award.eligible, award.winners, dict(award.shares), pot_names
                )
            )
        self._end(tuple(awards), showdown=showdown)

    def _end(self, awards: tuple[PotResult, ...], *, showdown: bool) -> None:
        """The pots are paid out: log the final stacks and set the result."""
        order, chips = self.order, self.chips
        # one chip count per seat: no ``strict=`` (a keyword argument costs zip a dict)
        final = dict(zip(order, chips))  # noqa: B905
        self.street = "over"
        self.log.append(_new_hand_ended(final))
        net = dict(zip(order, map(sub, chips, self.starting)))  # noqa: B905
        self.result = _new_hand_result(awards, net, final, showdown)
        self.is_over = True


AnyHand = BaseHand[Any]  # a hand of either variant
