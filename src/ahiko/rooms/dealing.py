"""The hand cycle of a room: when the next hand begins, its commitment, the deal, what each
batch of engine events does, and the hand's end (stacks back to the seats, the outcome to
the room's kind, eliminations, leavers, the next hand).

Hand numbers are never reused, cancelled hands included (R-FD-06); the button moves one
seat on every hand (R-HE-02); the commitment is shown for two seconds before the cards
(R-FD-02) and chains to the previous one (FAIRNESS.md).
"""

from __future__ import annotations

from dataclasses import asdict
from typing import TYPE_CHECKING, cast

from ahiko.fairness.commitment import GENESIS_PREV
from ahiko.fairness.deal import DealCommitter
from ahiko.fairness.release import DealState
from ahiko.fairness.shuffle import shuffled_deck
from ahiko.poker.actions import Action
from ahiko.poker.config import DrawConfig, HoldemConfig
from ahiko.poker.events import BountyPaid, Event
from ahiko.poker.house import HouseHand
from ahiko.poker.layout import second_board_layout
from ahiko.rooms.blinds import Stakes
from ahiko.rooms.frame_types import Commitment
from ahiko.rooms.frames import HandFrames
from ahiko.rooms.hand_options import Straddle
from ahiko.rooms.hooks import HandOutcome
from ahiko.rooms.status import plays_hands
from ahiko.rooms.table_hand import Phase, TableHand, deal_order, layout_for
from ahiko.rooms.timers import TimerName

if TYPE_CHECKING:
    from ahiko.rooms.dealer_table import DealerTable

STAKES_FIELDS = frozenset({"small_blind", "big_blind", "ante"})  # in the frame's stakes


def house_of(config: HoldemConfig) -> dict[str, int]:
    """The house options a hand is dealt with, as its commitment frame tells the table."""
    return {k: v for k, v in asdict(config).items() if k not in STAKES_FIELDS}


def big_blind_seat(seats: list[int], button: int) -> int:
    """The big blind of a hand dealt to ``seats`` with ``button`` (R-HE-02; heads-up the
    button is the small blind, R-HE-03)."""
    later = [s for s in seats if s > button] + [s for s in seats if s <= button]
    return later[0] if len(seats) == 2 else later[1]


class Dealer:
    """Owns the hand: the one in play (``hand``), the last one finished (``last_hand``, until
    the next is committed), how many were dealt, their numbers and the button."""

    def __init__(self, table: DealerTable) -> None:
        self._room = table
        self.hand: TableHand | None = None
        self.last_hand: TableHand | None = None
        self.hands_dealt = 0
        self.next_hand_no = 1
        # The button of the last hand dealt. A hand cancelled before its cards moves none
        # (R-HE-02 counts hands played, R-FD-06): the next one starts from this again.
        self.button: int | None = None
        self._prev_digest = GENESIS_PREV

    @property
    def hand_on_show(self) -> TableHand | None:
        """The hand the table shows: the one in play, else the last one finished."""
        return self.hand or self.last_hand

    def drop_hand(self) -> None:
        """The room closed: the hand in play is undone (its stacks are the closer's)."""
        self.hand = None

    def participants_ready(self) -> list[int]:
        room = self._room
        eligible = room.seats.eligible_for_hand(absent_too=room.kind.keeps_absent_in_field)
        seats = self._big_blind_waits_kept(eligible)
        if len(seats) < 2:
            return []
        if room.kind.needs_a_person and not any(room.seats.get(s).is_person for s in seats):  # type: ignore[union-attr]
            return []  # R-RM-03 / R-RM-11: at least one person
        return seats

    def _big_blind_waits_kept(self, seats: list[int]) -> list[int]:
        """``seats`` without the players moved here from another table of their tournament
        who still wait for their big blind: the first whose seat the next hand's big blind
        would be comes in (R-HE-02 with them dealt in), so a move never skips a big blind nor
        deals a hand before it. With fewer than three others, or before the first hand, there
        is no big blind to wait for: after a heads-up hand (the button one seat on, R-HE-02)
        a newcomer is never the big blind of a three-handed one, they would wait for ever."""
        room = self._room
        waiting = [s for s in seats if room.seats.get(s).waits_for_big_blind]  # type: ignore[union-attr]
        playing = [s for s in seats if s not in waiting]
        if not waiting or len(playing) < 3 or self.button is None:
            return seats
        for seat in waiting:
            trial = sorted([*playing, seat])
            if big_blind_seat(trial, self._next_button(trial)) == seat:
                return trial
        return playing

    def schedule_next_hand(self, delay: float | None = None) -> None:
        room = self._room
        if not plays_hands(room.status) or self.hand is not None:
            return
        wait = room.config.timing.next_hand_delay_s if delay is None else delay
        if wait <= 0:
            room.timers.cancel(TimerName.NEXT_HAND)
            room.later(self.begin_hand)
        else:
            room.timers.set(TimerName.NEXT_HAND, wait, self.begin_hand)

    def wake(self) -> None:
        """Something changed that may let a waiting table deal: try now, unless a hand or
        the between-hands delay is already under way. An Ahiko room deals eight seconds
        after it becomes ready (R-RM-11), and forgets that wait if it stops being ready."""
        room = self._room
        timers = room.timers
        if room.kind.deals_after_wait:
            if self.hand is not None or not plays_hands(room.status):
                return
            if not self.participants_ready():
                timers.cancel(TimerName.NEXT_HAND)
            elif not timers.is_set(TimerName.NEXT_HAND):
                self.schedule_next_hand()
            return
        if (
            not timers.is_set(TimerName.NEXT_HAND)
            and timers.frozen_left(TimerName.NEXT_HAND) is None
        ):
            self.schedule_next_hand(0.0)

    def begin_hand(self) -> None:
        room = self._room
        if not plays_hands(room.status) or self.hand is not None:
            return
        if room.draining:
            return  # its server is stopping: the hand in progress was the last one here
        if room.limit_reached():
            room.close("limit")
            return
        if room.tournament_over():
            return
        if room.hooks.hold_deal(room.view):
            return  # a reload's write is in flight: the hooks begin the hand when it is back
        room.host_desk.between_hands()  # the host's changes for this hand (R-RM-04)
        participants = self.participants_ready()
        if not participants:
            return  # waits: a sit, a return or a new entry calls schedule_next_hand again
        button = self._next_button(participants)
        stakes = room.config.schedule.stakes_for_next_hand(self.hands_dealt, room.running_seconds)
        hand_no = self.next_hand_no
        self.next_hand_no += 1  # never reused, cancelled hands included (R-FD-06)
        config = self._hand_config(stakes, hand_no)
        dealt = deal_order(participants, button)
        layout = layout_for(room.config.variant)
        if isinstance(config, HoldemConfig) and (config.boards == 2 or config.run_twice):
            layout = second_board_layout(layout)  # a second board may come: committed too
        committer = DealCommitter(
            table_id=room.room_id,
            hand_no=hand_no,
            layout=layout,
            button_seat=button,
            dealt_seats=dealt,
            deck=shuffled_deck(room.randbelow),
            committed_at_ms=room.clock.wall_ms(),
            prev=self._prev_digest,
            signing_key=room.signing_key,
        )
        self._prev_digest = committer.commitment.digest
        players = {s: room.seats.get(s).player_id for s in participants}  # type: ignore[union-attr]
        stacks = {s: room.seats.get(s).stack for s in participants}  # type: ignore[union-attr]
        names = {s: room.seats.get(s).name for s in participants}  # type: ignore[union-attr]
        self.hand = TableHand(
            hand_no=hand_no,
            variant=room.config.variant,
            stakes=stakes,
            players=players,
            stacks=stacks,
            button=button,
            committer=committer,
            names=names,
            mixed=room.seat_secrets.mixed_deal(committer, dealt),
            config=config,
        )
        self.last_hand = None
        room.turns.new_hand()
        commitment = self.hand.commitment()
        delay = room.config.timing.commitment_display_s
        frame: dict[str, object] = {
            "hand_no": hand_no,
            "commitment": commitment,
            "cards_in_s": delay,
        }
        contributors = self.hand.contributors()
        if contributors is not None:  # pokerfair/2: reveal now, until the cards
            frame["contributors"] = contributors
        if isinstance(config, HoldemConfig) and config != stakes.holdem_config():
            frame["house"] = house_of(config)  # this hand's options: the table says them
        # the optional parts before the stakes, where clients have always found them
        body = cast("Commitment", {**frame, "stakes": stakes.as_dict()})
        # the same for every viewer: encoded once per table
        room.broadcast.emit("commitment", lambda _seat: body, public=True)
        self._offer_straddle(self.hand, participants, button, stakes)
        room.timers.set(TimerName.DEAL, delay, self.deal)  # R-FD-02

    def _hand_config(self, stakes: Stakes, hand_no: int) -> HoldemConfig | DrawConfig:
        """The engine's config of hand ``hand_no``: the stakes, with the room's hand options
        that apply to it (a bomb pot the host asked for is used up here)."""
        room = self._room
        played = room.config.variant.game
        plain = stakes.config_for(played)
        if not isinstance(plain, HoldemConfig):
            return plain
        requested = room.host_desk.take_bomb_pot()
        return room.config.hand_options.hand_config(
            plain, played, hand_no, bomb_requested=requested
        )

    def _offer_straddle(
        self, hand: TableHand, participants: list[int], button: int, stakes: Stakes
    ) -> None:
        """A table with the straddle on asks its straddler seat before the cards (not in a
        bomb pot, which has no blinds, nor heads-up)."""
        room = self._room
        options = room.config.hand_options
        config = hand.config
        if options.straddle is Straddle.OFF or not isinstance(config, HoldemConfig):
            return
        if config.bomb_pot:
            return
        button_straddle = options.straddle is Straddle.BUTTON
        seat = HouseHand.straddler_seat(participants, button, button_straddle=button_straddle)
        if seat is None:
            return
        played = room.config.variant.game
        plain = stakes.config_for(played)
        assert isinstance(plain, HoldemConfig)
        with_straddle = options.hand_config(plain, played, hand.hand_no, straddle_taken=True)
        room.straddle_offer.offer(hand, seat, with_straddle)

    def _next_button(self, participants: list[int]) -> int:
        if self.button is None:
            return participants[0]
        later = [s for s in participants if s > self.button]
        return later[0] if later else participants[0]  # R-HE-02: one seat on, every hand

    def deal(self) -> None:
        room = self._room
        hand = self.hand
        if hand is None or hand.phase is not Phase.COMMITTED:
            return
        if room.straddle_offer.holds_cards(hand):
            return  # the straddler seat has not answered: the cards come with its answer
        self.button = hand.button
        for seat in hand.players:
            occupant = room.seats.get(seat)
            if occupant is not None:
                occupant.waits_for_big_blind = False
        room.hooks.on_hand_start(room.view, hand.hand_no, hand.start_stacks)
        if hand.mixed is not None:  # the reveals close: the mix fixes the order of the cards
            mix = room.seat_secrets.close(hand.hand_no, hand.mixed, hand.players)
            room.broadcast.emit("fair_mix", lambda _seat: mix, public=True)
        events = hand.deal()
        room.turns.fold_absent_hands(hand)  # R-TN-07 D: a tournament's absent are folded
        self.hands_dealt += 1
        for seat, player_id in hand.players.items():
            occupant = room.seats.get(seat)
            if occupant is not None and not occupant.is_bot:
                room.time_banks.hand_dealt(player_id)  # the bank's refill counts hands
        self.after_events(hand, events, DealState())

    def cancel_committed_hand(self, reason: str) -> None:
        """R-FD-06: a participant left before the cards: no blinds, a new number next."""
        room = self._room
        hand = self.hand
        if hand is None or hand.phase is not Phase.COMMITTED:
            return
        hand.phase = Phase.CANCELLED
        room.timers.cancel(TimerName.DEAL)
        self.hand = None
        room.broadcast.emit(
            "hand_cancelled",
            lambda _seat: {
                "hand_no": hand.hand_no,
                "rule": "R-FD-06",
                "reason": reason,
            },
            public=True,
        )

    def after_events(self, hand: TableHand, events: list[Event], before: DealState) -> None:
        """Broadcast what just happened, then move the hand on (next turn or its end).

        The next turn is armed before the frame is built, so the frame's ``deadline`` is the
        clock of the seat now to act (a bot's or the timeout rule's answer is only queued:
        it runs after this frame went out)."""
        room = self._room
        continues = self.hand is hand and not hand.is_over
        if continues:
            room.turns.arm()
        turns = room.turns
        frames = HandFrames(hand, before, turns.deadline(), turns.auto_action)
        room.broadcast.emit("hand", frames)  # shared per viewer seat
        hand.history_sent = 0 if hand.engine is None else len(hand.engine.log)
        if continues and hand.runs_pending:
            room.run_question.ask(hand)
        if self.hand is not hand and self.last_hand is hand:
            self._late_bounty(hand, events)
            if room.archive is not None:
                room.archive.hand_shown(room.view, hand)  # a show after the hand (R-HE-12)
        if self.hand is hand and hand.is_over:
            self._finish_hand()

    def _late_bounty(self, hand: TableHand, events: list[Event]) -> None:
        """The seven-deuce bounty of a winner who shows after the hand: the stacks went back
        to the seats at its end, so the chips move there now, from the players still seated
        (one who left took their chips with them: the winner collects what is here)."""
        room = self._room
        for event in events:
            if not isinstance(event, BountyPaid):
                continue
            winner = room.seats.get(event.seat)
            if winner is None or winner.player_id != hand.players[event.seat]:
                continue
            for seat, amount in event.payers.items():
                payer = room.seats.get(seat)
                if payer is not None and payer.player_id == hand.players[seat]:
                    paid = min(amount, payer.stack)
                    payer.stack -= paid
                    winner.stack += paid
        room.emit_room()

    def apply_action(self, seat: int, action: Action) -> list[Event]:
        hand = self.hand
        assert hand is not None
        before = hand.deal_state
        events = hand.act(seat, action)
        self.after_events(hand, events, before)
        return events

    def _finish_hand(self) -> None:
        room = self._room
        hand = self.hand
        assert hand is not None
        room.time_banks.settle(room.clock.now())
        room.timers.cancel(TimerName.DEADLINE)
        room.timers.cancel(TimerName.BOT)
        final = hand.final_stacks()
        for seat, stack in final.items():
            occupant = room.seats.get(seat)
            if occupant is not None and occupant.player_id == hand.players[seat]:
                occupant.stack = stack
        self.hand = None
        self.last_hand = hand
        room.recent_pots.append(hand.total_pot())
        if room.archive is not None:
            room.archive.hand_finished(room.view, hand)
        self._bots_observe(hand)
        room.hooks.on_hand_end(
            room.view, HandOutcome.of(hand.hand_no, hand.players, hand.start_stacks, final)
        )
        room.kind.on_hand_end(room, hand)  # a tournament's eliminations (R-TN-04)
        for _seat, occupant in room.seats.bots():
            if occupant.stack == 0:
                occupant.leave_after_hand = True  # R-RM-06
        room.sitting_out.hand_finished(hand)  # two timeouts in a row sit one out
        for occupant in room.seats.between_hands():
            room.player_left(occupant)
        room.emit_room()
        if room.turns.expiring:
            room.close(room.expiry_reason)
            return
        if room.tournament_over():
            return
        self.schedule_next_hand()

    def _bots_observe(self, hand: TableHand) -> None:
        """Bots with a memory (``observe``) get their own final view of the hand, with the
        players' public names: what they learn lives as long as they sit here."""
        room = self._room
        names: dict[str, str] = {}
        for seat, player_id in hand.players.items():
            occupant = room.seats.get(seat)
            if occupant is not None and occupant.player_id == player_id:
                names[str(seat)] = occupant.name
            else:
                names[str(seat)] = room.departed_names.get(player_id, "")
        for seat, player_id in hand.players.items():
            observe = getattr(room.bots.get(player_id), "observe", None)
            if observe is not None:
                observe({**(hand.view(seat) or {}), "players": names})
