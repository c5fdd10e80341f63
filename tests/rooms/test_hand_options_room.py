"""The hand options at the table (issue 43), on a manual clock: set at creation, changed by the
host for the next hand, used to build each hand's config; run it twice asked of the all-in
players (a short clock, once by default); a bomb pot on the host's request with a double
board; the second board committed and released by the fair deal."""

from __future__ import annotations

from typing import Any

from rooms_helpers import Table, holdem_config

from ahiko.fairness.positions import ROLE_BOARD2
from ahiko.fairness.proof import dumps_proof, proof_document
from ahiko.fairness.release import release_openings
from ahiko.fairness.verify import CONSISTENT, verify_text
from ahiko.poker.actions import Action
from ahiko.poker.config import HoldemConfig
from ahiko.poker.layout import SECOND_BOARD_LAYOUTS
from ahiko.rooms import commands as c
from ahiko.rooms.hand_options import HandOptions, Straddle
from ahiko.rooms.house import host_orders as h
from ahiko.rooms.table_hand import Phase, TableHand
from ahiko.server.api_rooms import CreateRoom


def heads_up(options: HandOptions) -> Table:
    t = Table(holdem_config(hand_options=options))
    t.join("host", 0)
    t.join("bia", 3)
    t.ok(c.Start("host"))
    t.to_deal()
    return t


def all_in_preflop(t: Table) -> TableHand:
    hand = t.room.dealer.hand
    assert hand is not None
    legal = hand.legal()
    t.act(Action.raise_to(legal.max_to))
    t.act(Action.call())
    return hand


def verified_with_second_board(hand: TableHand) -> int:
    """The proof a watcher gets verifies; answers how many second-board cards it opens."""
    openings = list(release_openings(hand.committer, hand.release_viewer(None), hand.deal_state))
    document = proof_document(hand.committer.commitment, openings)
    assert verify_text(dumps_proof(document)).verdict == CONSISTENT
    return sum(1 for o in openings if o.role == ROLE_BOARD2)


def config_of(hand: TableHand | None) -> HoldemConfig:
    assert hand is not None and isinstance(hand.config, HoldemConfig)
    return hand.config


def phase(hand: TableHand) -> Phase:
    return hand.phase  # read afresh: a command in between moves it


def kinds(hand: TableHand) -> list[str]:
    return [e.kind for e in hand.hand.events]


def test_R_HE_11_both_all_in_agree_and_the_hand_is_run_twice() -> None:
    t = heads_up(HandOptions(run_twice=True))
    hand = t.room.dealer.hand
    assert hand is not None
    assert hand.committer.commitment.layout in SECOND_BOARD_LAYOUTS.values()
    all_in_preflop(t)
    assert set(hand.runs_pending) == {0, 3}
    asked = t.conns["bia"].of("runs_asked")
    assert asked and sorted(asked[-1]["seats"]) == [0, 3] and asked[-1]["seconds"] > 0
    t.ok(c.ChooseRuns("host", 2))
    assert not hand.is_over
    t.ok(c.ChooseRuns("bia", 2))
    assert hand.is_over and len(hand.second_board) == 5
    assert "pot_split" in kinds(hand)
    assert verified_with_second_board(hand) == 5  # a pre-flop all-in: a whole second board
    t.assert_chips_conserved()
    assert sum(t.stacks().values()) == 2000


def test_R_HE_11_a_player_who_does_not_answer_runs_it_once() -> None:
    t = heads_up(HandOptions(run_twice=True))
    hand = all_in_preflop(t)
    t.ok(c.ChooseRuns("host", 2))
    refused = t.submit(c.ChooseRuns("host", 2))
    assert not refused.ok and refused.code == "runs_not_asked"
    t.advance(t.room.config.timing.run_twice_answer_s)
    assert hand.is_over and hand.second_board == ()
    assert verified_with_second_board(hand) == 0
    t.assert_chips_conserved()


def test_R_HE_11_run_it_twice_answers_are_refused_outside_the_question() -> None:
    t = heads_up(HandOptions(run_twice=True))
    refused = t.submit(c.ChooseRuns("bia", 2))
    assert not refused.ok and refused.code == "runs_not_asked"
    t.ok(c.Pause("host"))
    refused = t.submit(c.ChooseRuns("bia", 2))
    assert not refused.ok and refused.code == "not_running"


def test_bomb_pot_on_the_hosts_request_with_a_double_board() -> None:
    t = heads_up(HandOptions(bomb_pot_ante=20, bomb_pot_double_board=True))
    first = t.room.dealer.hand
    assert first is not None and config_of(first).bomb_pot == 0  # not due: the host did not ask
    refused = t.submit(h.BombPotNext("bia"))
    assert not refused.ok and refused.code == "not_host"
    t.ok(h.BombPotNext("host"))
    assert t.room.summary()["bomb_pot_next"] is True
    t.play_hand_passively()
    t.advance(t.room.config.timing.next_hand_delay_s)
    bomb = t.room.dealer.hand
    assert bomb is not None and bomb is not first
    assert (config_of(bomb).bomb_pot, config_of(bomb).boards) == (20, 2)
    assert bomb.committer.commitment.layout in SECOND_BOARD_LAYOUTS.values()
    commitment = t.conns["bia"].of("commitment")[-1]
    assert commitment["house"]["bomb_pot"] == 20 and commitment["house"]["boards"] == 2
    t.to_deal()
    t.play_hand_passively()
    assert bomb.is_over and len(bomb.second_board) == 5
    assert verified_with_second_board(bomb) == 5
    t.assert_chips_conserved()
    t.advance(t.room.config.timing.next_hand_delay_s)
    after = t.room.dealer.hand
    assert after is not None and config_of(after).bomb_pot == 0  # asked once, used once


def test_bomb_pot_needs_its_ante_named_in_both_languages() -> None:
    t = heads_up(HandOptions())
    refused = t.submit(h.BombPotNext("host"))
    assert not refused.ok and refused.code == "option_bomb_pot_ante"
    assert "bomb_pot_ante" in refused.data["en"] and "aposta" in refused.data["pt"]


def test_R_RM_04_the_host_changes_the_options_for_the_next_hand() -> None:
    t = heads_up(HandOptions())
    reply = t.ok(h.ChangeTable("host", options={"run_twice": True, "seven_deuce": 10}))
    assert reply.data == {"applied": False}
    assert t.room.dealer.hand is not None and config_of(t.room.dealer.hand).run_twice == 0
    t.play_hand_passively()
    t.advance(t.room.config.timing.next_hand_delay_s)
    hand = t.room.dealer.hand
    assert hand is not None and (config_of(hand).run_twice, config_of(hand).seven_deuce) == (1, 10)
    shown: dict[str, Any] = t.room.summary()["hand_options"]
    assert shown["run_twice"] is True and shown["seven_deuce"] == 10
    assert shown["straddle"] == "off"  # the options not named stay as they were


def test_R_RM_04_a_bad_option_is_refused_by_name_and_changes_nothing() -> None:
    t = heads_up(HandOptions(straddle=Straddle.BUTTON))
    before = t.room.config
    for options, code in (
        ({"straddle": "sometimes"}, "option_straddle"),
        ({"run_twice": "yes"}, "option_run_twice"),
        ({"bomb_pot_every": 3}, "option_bomb_pot_ante"),
    ):
        refused = t.submit(h.ChangeTable("host", options=options))
        assert not refused.ok and refused.code == code, refused
        assert (
            refused.data["en"] and refused.data["pt"] and refused.data["en"] != refused.data["pt"]
        )
    assert t.room.config is before and t.room.summary()["pending_change"] is None


def test_the_create_form_sets_the_options_and_refuses_a_wrong_one() -> None:
    body = CreateRoom(name="casa", options={"run_twice": True, "bomb_pot_ante": 5})
    assert body.to_config().hand_options == HandOptions(run_twice=True, bomb_pot_ante=5)
    wrong = CreateRoom(name="omaha", variant="plo", options={"seven_deuce": 5})
    try:
        wrong.to_config()
    except ValueError as exc:
        assert "hold'em" in str(exc)
    else:
        raise AssertionError("seven-deuce accepted at an Omaha table")


def three_handed(options: HandOptions) -> Table:
    t = Table(holdem_config(hand_options=options))
    for pid, seat in (("host", 0), ("bia", 3), ("cris", 5)):
        t.join(pid, seat)
    t.ok(c.Start("host"))
    return t


def test_R_HE_02_the_straddle_is_offered_before_the_cards_and_the_cards_wait() -> None:
    t = three_handed(HandOptions(straddle=Straddle.AFTER_BIG_BLIND))
    hand = t.room.dealer.hand
    assert hand is not None
    offer = t.conns["cris"].of("straddle_offer")[-1]
    straddler = hand.players[offer["seat"]]
    assert offer["amount"] == 20 and offer["seconds"] > 0
    other = next(pid for pid in hand.players.values() if pid != straddler)
    refused = t.submit(c.TakeStraddle(other, True))
    assert not refused.ok and refused.code == "straddle_not_offered"
    t.to_deal()
    assert phase(hand) is Phase.COMMITTED  # the cards wait for the answer
    t.ok(c.TakeStraddle(straddler, True))
    assert phase(hand) is Phase.DEALT and config_of(hand).straddle == 20
    posted = [e for e in hand.hand.events if e.kind == "blind_posted"]
    assert any(getattr(e, "amount", 0) == 20 for e in posted), posted
    assert t.conns["bia"].of("straddle_answer")[-1]["take"] is True
    t.play_hand_passively()
    t.assert_chips_conserved()


def test_R_HE_02_no_answer_is_no_straddle() -> None:
    t = three_handed(HandOptions(straddle=Straddle.BUTTON))
    hand = t.room.dealer.hand
    assert hand is not None
    offer = t.conns["host"].of("straddle_offer")[-1]
    assert offer["seat"] == hand.button  # Mississippi: the button straddles
    t.to_deal()
    assert phase(hand) is Phase.COMMITTED
    t.advance(t.room.config.timing.straddle_answer_s)
    assert phase(hand) is Phase.DEALT and config_of(hand).straddle == 0
    assert t.conns["host"].of("straddle_answer")[-1]["take"] is False


def test_seven_deuce_shown_after_an_uncontested_win_is_paid_at_the_table() -> None:
    t = heads_up(HandOptions(seven_deuce=50))
    for _ in range(600):  # raise, fold, until the winner holds seven-deuce (the seed decides)
        hand = t.room.dealer.hand
        assert hand is not None
        t.act(Action.raise_to(hand.legal().min_to))
        winner = hand.to_act
        assert winner is not None
        t.act(Action.fold())
        winner = next(s for s in hand.players if s != winner)
        held = next(s["cards"] for s in (hand.view(winner) or {})["seats"] if s["seat"] == winner)
        if {card[0] for card in held} == {"7", "2"}:
            break
        t.advance(t.room.config.timing.next_hand_delay_s)
        t.to_deal()
    else:
        raise AssertionError("no seven-deuce in 600 hands")
    pid = hand.players[winner]
    before = t.stacks()
    t.ok(c.Show(pid, hand.hand_no))
    assert "bounty_paid" in kinds(hand)
    after = t.stacks()
    assert after[pid] == before[pid] + 50
    assert sum(after.values()) == sum(before.values())
    t.assert_chips_conserved()
