"""One betting round, no-limit, pot-limit or fixed-limit: whose turn, what is legal, what an
action does.

Players are indexed 0..n-1 in button order (first seat after the button first); the round
reads and writes the hand's ``stacks`` list and reads ``folded``.

No-limit (R-HE-06..09): the first bet is at least the big blind; a raise adds at least the
largest raise of the round (never less than the big blind); the most is the whole stack. A
player who already acted may raise again only if the amount they now face reaches a full
raise — the largest raise of the round, never less than the big blind — so one short all-in
does not reopen raising but several that add up to a full raise do (R-HE-08, with its **D**:
a call of the big blind then an all-in for less than a raise does not reopen it). A player
who has not acted yet in the round may always raise.

Pot limit: as no-limit, but the most a bet or raise may reach is the pot after the player's
call (every chip already in the middle, the bets of this round and the call) on top of the
call: ``2 * highest bet - own bet + pot``, never below the least raise, never above the stack
(pokerkit's ``pot_completion_betting_or_raising_to_amount``).

Fixed limit (R-DR-03/04/08): bets and raises go up one fixed size at a time to the next
"level"; the number of bets and raises is capped unless only two players remain. An all-in
of at least half a size counts as a full bet or raise (the level goes up, raising reopens);
less than half does not.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from operator import add

# FOLD..RAISE: the kinds as module constants (an enum member read through its class costs a
# metaclass lookup, and these comparisons run on every action).
from .actions import (
    BET,
    CALL,
    CHECK,
    FOLD,
    RAISE,
    Action,
    ActionKind,
    IllegalAction,
    LegalActions,
)
from .events import ActionTaken
from .fast_init import fast_constructor
from .games import BettingStructure

_FIXED_LIMIT = BettingStructure.FIXED_LIMIT
_POT_LIMIT = BettingStructure.POT_LIMIT


@dataclass(frozen=True, slots=True)
class Rules:
    """Which rule ids to cite; hold'em and draw cite different ones."""

    order: str  # out of turn
    actions: str  # check facing a bet, fold for nothing, wrong kind
    size: str  # amount outside the allowed range
    reopen: str  # raising closed by a short all-in
    cap: str  # raise cap reached (limit)


# The same objects as the classes' calls, built for less (``fast_init``): every decision
# builds its legal actions, and most actions an event.
_new_legal_actions = fast_constructor(LegalActions)
_new_action_taken = fast_constructor(ActionTaken)

# A fold's and a check's last action (``last_action``), the same for every seat.
_FOLD_NAME, _CHECK_NAME, _CALL_NAME = FOLD._value_, CHECK._value_, CALL._value_
_FOLD_LAST = (_FOLD_NAME, 0)
_CHECK_LAST = (_CHECK_NAME, 0)

# Folds and checks carry no amount: their events are the same for every hand, and events are
# frozen, so one object per seat serves every log (a third of all actions, one less object).
_SHARED_EVENT_SEATS = 16
_FOLDED = tuple(ActionTaken(s, FOLD._value_, 0, 0, False) for s in range(_SHARED_EVENT_SEATS))
_CHECKED = tuple(ActionTaken(s, CHECK._value_, 0, 0, False) for s in range(_SHARED_EVENT_SEATS))


class BettingRound:
    __slots__ = (
        "_legal_cache",
        "acted_level",
        "bets",
        "cap",
        "collected",
        "fixed_limit",
        "folded",
        "full_raise",
        "last_action",
        "last_aggressor",
        "level",
        "max_bet",
        "min_bet",
        "n",
        "others",
        "pot_limit",
        "queue",
        "raise_count",
        "rules",
        "seats",
        "stacks",
    )

    def __init__(
        self,
        seats: Sequence[int],
        stacks: list[int],
        folded: list[bool],
        min_bet: int,
        structure: BettingStructure,
        cap: int | None,
        rules: Rules,
        collected: int = 0,
    ) -> None:
        self.seats = seats
        self.n = n = len(seats)
        self.others = _others_table(n)  # others[i]: every index but i, clockwise after it
        self.stacks = stacks
        self.folded = folded
        self.min_bet = min_bet  # NL: the big blind; limit: the fixed bet size
        # the structure as two flags: every decision tests them
        self.fixed_limit = structure is _FIXED_LIMIT
        self.pot_limit = structure is _POT_LIMIT
        self.collected = collected  # chips in the middle from earlier rounds (and antes)
        self.cap = cap
        self.rules = rules
        self.bets = [0] * self.n
        self.max_bet = 0
        # NL: the full raise a seat faces, the largest bet/raise increment of the round and
        # never less than the big blind (R-HE-07/08)
        self.full_raise = min_bet
        self.level = 0  # limit: the current full betting level
        self.raise_count = 0  # limit: bets + raises (full or half-bet all-ins)
        # NL: True once acted; limit: the level the seat last acted at. None = not yet.
        self.acted_level: list[int | None] = [None] * self.n
        self.last_action: list[tuple[str, int] | None] = [None] * self.n
        self.last_aggressor: int | None = None
        self.queue: list[int] = []
        self._legal_cache: LegalActions | None = None  # legal(to_act), until the next change

    # --- setting up -------------------------------------------------------------------

    def post(self, i: int, amount: int) -> int:
        """A forced bet (blind) of up to ``amount``; returns what was actually posted."""
        self._legal_cache = None
        posted = min(amount, self.stacks[i])
        self.stacks[i] -= posted
        self.bets[i] += posted
        self.max_bet = max(self.max_bet, self.bets[i])
        return posted

    def begin(self, first: int) -> None:
        """Queue every seat that can still act, starting at index ``first``."""
        n, folded, stacks, bets, max_bet = self.n, self.folded, self.stacks, self.bets, self.max_bet
        turn_order = rotation(n, first)
        if max_bet == 0:
            # No bet yet (a new street, or antes only): every bet is 0, so a live seat with
            # chips can act exactly when another live seat has chips too (the rule below).
            queue = [j for j in turn_order if not folded[j] and stacks[j] > 0]
            self.queue = queue if len(queue) > 1 else []
            return
        if True not in folded and min(map(add, bets, stacks)) > max_bet:
            # The usual start of a hand: everyone can put in more than the highest bet, so
            # everyone can lose more (the rule below), in turn from ``first``.
            self.queue = list(turn_order)
            return
        # A seat can lose more only if another live seat reaches past its bet: compare each
        # seat with the largest reach (bet + stack) among the others.
        best = second = -1
        best_at = -1
        for k in range(n):
            if not folded[k]:
                reach = bets[k] + stacks[k]
                if reach > best:
                    best, second, best_at = reach, best, k
                elif reach > second:
                    second = reach
        queue = []
        for j in turn_order:
            if not folded[j] and stacks[j] > 0 and (second if j == best_at else best) > bets[j]:
                queue.append(j)
        # Nobody can respond to a lone player who has already matched: no betting (R-HE-11).
        if len(queue) == 1 and bets[queue[0]] >= max_bet:
            queue = []
        self.queue = queue

    @property
    def to_act(self) -> int | None:
        queue = self.queue
        return queue[0] if queue else None

    def is_done(self) -> bool:
        return not self.queue or self.folded.count(False) <= 1

    # --- what is legal ------------------------------------------------------------------

    def _raise_block(self, i: int) -> tuple[str, str] | None:
        """Why seat i may not bet/raise now (rule id, reason), or None if it may."""
        stacks, bets, folded, max_bet = self.stacks, self.bets, self.folded, self.max_bet
        to_call = max_bet - bets[i]
        if stacks[i] <= to_call:
            return self.rules.size, "your stack only covers a call"
        for j in self.others[i]:
            if not folded[j] and stacks[j] + bets[j] > max_bet:
                break
        else:
            return self.rules.actions, "every opponent is all-in: nobody could call a raise"
        acted = self.acted_level[i]
        if acted is not None:
            if self.fixed_limit:
                if self.level <= acted:
                    return self.rules.reopen, "a short all-in does not reopen raising"
            else:
                # R-HE-08 D: the full raise to face is never less than the big blind, so a
                # short all-in before any full bet of the round (a call of the big blind,
                # then all-in for less than a raise) does not reopen raising either.
                full = self.full_raise
                if to_call < full:
                    return (
                        self.rules.reopen,
                        f"raising is closed: the raise you face ({to_call}) is less than a "
                        f"full raise ({full})",
                    )
        if (
            self.fixed_limit
            and self.cap is not None
            and self.raise_count >= self.cap
            and folded.count(False) > 2
        ):
            return self.rules.cap, f"the cap of {self.cap} bets and raises is reached"
        return None

    def bet_bounds(self, i: int) -> tuple[ActionKind, int, int] | None:
        """The bet/raise seat i may make now: (BET or RAISE, least and most street total),
        or None if it may not (``_raise_block`` says why)."""
        if self._raise_block(i) is not None:
            return None
        max_bet = self.max_bet
        hi = self.stacks[i] + self.bets[i]  # all-in
        if self.fixed_limit:
            lo = self.level + self.min_bet
            if lo > hi:
                lo = hi
            hi = lo
        else:
            lo = max_bet + self.full_raise
            if self.pot_limit:
                hi = min(hi, max(lo, self.pot_raise_to(i)))
            if lo > hi:
                lo = hi
        return (BET if max_bet == 0 else RAISE), lo, hi

    def pot_raise_to(self, i: int) -> int:
        """The street total of a raise the size of the pot after seat i's call."""
        bets = self.bets
        return 2 * self.max_bet - bets[i] + self.collected + sum(bets)

    def legal(self, i: int) -> LegalActions:
        cached = self._legal_cache
        seat = self.seats[i]
        if cached is not None and cached.seat == seat:
            return cached
        stacks, bets = self.stacks, self.bets
        stack, bet, max_bet = stacks[i], bets[i], self.max_bet
        to_call = max_bet - bet
        kind: ActionKind | None = None
        lo = hi = 0
        if self.fixed_limit:
            bounds = self.bet_bounds(i)
            if bounds is not None:
                kind, lo, hi = bounds
        elif stack > to_call:
            # No-limit and pot-limit: ``bet_bounds`` and ``_raise_block`` inlined (every
            # decision asks).
            folded = self.folded
            for j in self.others[i]:
                if not folded[j] and stacks[j] + bets[j] > max_bet:  # someone could call
                    full = self.full_raise
                    if to_call >= full or self.acted_level[i] is None:  # R-HE-08 (and D)
                        kind = BET if max_bet == 0 else RAISE
                        hi = stack + bet
                        lo = max_bet + full
                        if self.pot_limit:
                            hi = min(hi, max(lo, self.pot_raise_to(i)))
                        if lo > hi:
                            lo = hi
                    break
        legal = _new_legal_actions(
            seat,
            to_call > 0,
            to_call == 0,
            (stack if stack < to_call else to_call) if to_call > 0 else 0,
            kind,
            lo,
            hi,
            bet,
            stack,
        )
        self._legal_cache = legal
        return legal

    def check_action(self, i: int, action: Action) -> None:
        """Raise IllegalAction if seat i may not take ``action`` now; change nothing."""
        to_call = self.max_bet - self.bets[i]
        kind = action.kind
        if kind is FOLD:
            if to_call <= 0:
                raise IllegalAction(self.rules.actions, "nothing to call: check instead of fold")
        elif kind is CHECK:
            if to_call > 0:
                raise IllegalAction(
                    self.rules.actions, f"cannot check facing a bet: call {to_call} or fold"
                )
        elif kind is CALL:
            if to_call <= 0:
                raise IllegalAction(self.rules.actions, "nothing to call: check instead")
        elif kind is BET or kind is RAISE:
            legal = self._legal_cache  # the player usually asked before acting
            if legal is not None and legal.seat == self.seats[i]:
                kind_now = legal.bet_kind
                bounds = None if kind_now is None else (kind_now, legal.min_to, legal.max_to)
            else:
                bounds = self.bet_bounds(i)
            if bounds is None:
                block = self._raise_block(i)
                assert block is not None
                raise IllegalAction(*block)
            expected, lo, hi = bounds
            if kind is not expected:
                word = "bet" if expected is BET else "raise"
                raise IllegalAction(
                    self.rules.actions,
                    f"{'no bet yet' if expected is BET else 'there is a bet'}: "
                    f"{word} instead (to {lo}..{hi})",
                )
            if not lo <= action.amount <= hi:
                word = "bet" if kind is BET else "raise"
                if lo == hi:
                    msg = f"{word} must be to exactly {lo}"
                else:
                    msg = f"min {word} is to {lo}, max {hi}"
                raise IllegalAction(self.rules.size, f"{msg}; got {action.amount}")
        else:
            raise IllegalAction(self.rules.actions, f"{kind.value} is not a betting action")

    # --- doing it -----------------------------------------------------------------------

    def take(self, i: int, action: Action, forced: bool = False) -> ActionTaken:
        """Seat i's action: refused with IllegalAction (nothing changed), or applied; returns
        its event. The one way an action changes the round. A fold or a call is legal facing
        a bet and a check when there is none, so only bets, raises and refusals ask
        ``check_action`` (it words the refusals). ``forced``: a fold the seat makes whatever
        it faces, a forfeit (R-TM-04)."""
        kind = action.kind
        bets = self.bets
        to_call = self.max_bet - bets[i]
        if kind is FOLD:
            if to_call <= 0 and not forced:
                self.check_action(i, action)  # raises: nothing to call
            self._legal_cache = None
            del self.queue[0]
            self.folded[i] = True
            self.last_action[i] = _FOLD_LAST
            seat = self.seats[i]
            if 0 <= seat < _SHARED_EVENT_SEATS:
                return _FOLDED[seat]
            return _new_action_taken(seat, _FOLD_NAME, 0, 0, False)
        if kind is CALL:
            if to_call <= 0:
                self.check_action(i, action)  # raises: nothing to call
            self._legal_cache = None
            del self.queue[0]
            self.acted_level[i] = self.level if self.fixed_limit else 0
            stacks = self.stacks
            stack = stacks[i]
            added = to_call if to_call <= stack else stack
            stacks[i] = stack - added
            to = bets[i] = bets[i] + added
            self.last_action[i] = (_CALL_NAME, to)
            return _new_action_taken(self.seats[i], _CALL_NAME, to, added, stack == added)
        if kind is CHECK and to_call <= 0:
            self._legal_cache = None
            del self.queue[0]
            self.acted_level[i] = self.level if self.fixed_limit else 0
            self.last_action[i] = _CHECK_LAST
            seat = self.seats[i]
            if 0 <= seat < _SHARED_EVENT_SEATS:
                return _CHECKED[seat]
            return _new_action_taken(seat, _CHECK_NAME, 0, 0, False)
        self.check_action(i, action)  # a bet or a raise (or a check refused)
        return self._bet_or_raise(i, kind, action.amount)

    def stop(self) -> None:
        """Nobody acts any more in this round (R-TM-06 D: the room expired)."""
        self._legal_cache = None
        self.queue = []

    def _bet_or_raise(self, i: int, kind: ActionKind, to: int) -> ActionTaken:
        """A bet or raise to ``to`` that ``check_action`` accepted."""
        name = kind._value_
        self._legal_cache = None
        stacks, bets = self.stacks, self.bets
        added = to - bets[i]
        increment = to - self.max_bet
        stacks[i] -= added
        bets[i] = to
        self.max_bet = to
        if self.fixed_limit:
            if 2 * (to - self.level) >= self.min_bet:  # full, or an all-in of half or more
                self.level += self.min_bet
                self.raise_count += 1
            self.acted_level[i] = self.level
        else:
            self.acted_level[i] = 0
            if increment > self.full_raise:
                self.full_raise = increment
        self.last_aggressor = i
        self.last_action[i] = (name, to)
        folded = self.folded
        # everyone else still able to act answers the new bet (the queue starts anew)
        self.queue = [j for j in self.others[i] if not folded[j] and stacks[j] > 0]
        return _new_action_taken(self.seats[i], name, to, added, stacks[i] == 0)

    def withdraw(self, i: int) -> ActionTaken:
        """R-TM-04 D: the player at ``i`` abandons the hand out of turn (a withdrawn
        absentee): folded now, out of the queue wherever they stood in it. Their bets stay
        in; what nobody matches goes back when the round closes (R-PT-03)."""
        self._legal_cache = None
        if i in self.queue:
            self.queue.remove(i)
        self.folded[i] = True
        self.last_action[i] = _FOLD_LAST
        return _new_action_taken(self.seats[i], _FOLD_NAME, 0, 0, False)

    def uncalled(self) -> tuple[int, int] | None:
        """(index, amount) of a bet nobody matched (R-PT-03), once the round is over."""
        if self.max_bet == 0:  # nobody bet (all checked, or nobody could act)
            return None
        bets = self.bets
        highest = max(bets)
        if bets.count(highest) > 1:  # matched: the usual end of a round
            return None
        i = bets.index(highest)
        bets[i] = 0  # the highest of the others, read without copying the list (bets >= 0)
        second = max(bets)
        bets[i] = highest
        return i, highest - second


@lru_cache(maxsize=256)
def rotation(n: int, first: int) -> tuple[int, ...]:
    """Indices ``first..n-1`` then ``0..first-1``: everyone once, clockwise from ``first``."""
    return (*range(first, n), *range(first))


@lru_cache(maxsize=16)
def _others_table(n: int) -> tuple[tuple[int, ...], ...]:
    """For each index ``i`` of ``n``: every other index, clockwise from the one after it."""
    return tuple((*range(i + 1, n), *range(i)) for i in range(n))
