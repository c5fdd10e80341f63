"""Every duration a room waits for, in seconds, each citing the rule it comes from.

Rooms never read these directly at call sites scattered around the code: they go through a
``Timing`` value (defaults below), so a test or a fast simulation can shrink them all at once.
"""

from __future__ import annotations

from dataclasses import dataclass

COMMITMENT_DISPLAY_S = 2.0  # R-FD-02: the commitment is shown two seconds before the cards
NEXT_HAND_DELAY_S = 8.0  # R-RM-11: a hand starts eight seconds after the previous result
BOT_AHIKO_WAIT_S = 20.0  # R-BA-01: a person waiting alone this long may play the Bot Ahiko
DISCONNECTED_ACTION_S = 30.0  # R-TM-02: a disconnected player's time in rooms without deadline
ABSENCE_WITHDRAWAL_S = 120.0  # R-TM-03: after two minutes disconnected the withdrawal starts
EMPTY_ROOM_CLOSE_S = 120.0  # R-RM-09: an empty recreational room pauses up to two minutes
AHIKO_ACTION_DEADLINE_S = 20.0  # R-RM-11 (D): seconds per decision in Ahiko rooms
TOURNAMENT_ACTION_DEADLINE_S = 20.0  # R-TN-06 (D): a tournament's default; never removed
# Not a rule: a bot on a live server waits like a person would before it answers, so the
# table can follow each action (and the pre-action boxes have a turn to act on). The pause is
# BOT_DELAY_S plus up to BOT_DELAY_JITTER_S more, drawn from the room's rng.
RUN_TWICE_ANSWER_S = 10.0  # not a rule: the all-in players' short clock to run it twice
STRADDLE_ANSWER_S = 6.0  # not a rule: the straddler seat's short clock, before the cards
BOT_DELAY_S = 0.8
BOT_DELAY_JITTER_S = 0.7


@dataclass(frozen=True, slots=True)
class Timing:
    """The durations one room uses; the defaults are the rules' values, with bots answering
    at once (what tests on a manual clock expect). The server's rooms use ``LIVE_TIMING``."""

    commitment_display_s: float = COMMITMENT_DISPLAY_S
    next_hand_delay_s: float = NEXT_HAND_DELAY_S
    disconnected_action_s: float = DISCONNECTED_ACTION_S
    absence_withdrawal_s: float = ABSENCE_WITHDRAWAL_S
    empty_room_close_s: float = EMPTY_ROOM_CLOSE_S
    bot_ahiko_wait_s: float = BOT_AHIKO_WAIT_S
    run_twice_answer_s: float = RUN_TWICE_ANSWER_S
    straddle_answer_s: float = STRADDLE_ANSWER_S
    bot_delay_s: float = 0.0  # a bot's human-like thinking time (zero: it answers at once)
    bot_delay_jitter_s: float = 0.0  # up to this much more, drawn from the room's rng


# What the server's rooms use (``ahiko serve``): the rules' durations and bots that pause
# 0.8 to 1.5 s before each answer, the Bot Ahiko included.
LIVE_TIMING = Timing(bot_delay_s=BOT_DELAY_S, bot_delay_jitter_s=BOT_DELAY_JITTER_S)
