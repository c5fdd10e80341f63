"""The faster ``__init__`` of frozen slotted dataclasses keeps every dataclass behaviour."""

from __future__ import annotations

import dataclasses
import pickle
from dataclasses import dataclass

import pytest

from ahiko.poker.actions import Action, ActionKind, LegalActions
from ahiko.poker.events import ActionTaken, HandEnded, event_from_dict, event_to_dict
from ahiko.poker.fast_init import fast_constructor, fast_init


def test_positional_keyword_and_default_arguments_give_the_same_object() -> None:
    by_position = LegalActions(3, True, False, 20, ActionKind.RAISE, 40, 500, 0, 500)
    by_keyword = LegalActions(
        seat=3,
        can_fold=True,
        can_check=False,
        call_cost=20,
        bet_kind=ActionKind.RAISE,
        min_to=40,
        max_to=500,
        committed=0,
        stack=500,
    )
    assert by_position == by_keyword and hash(by_position) == hash(by_keyword)
    assert by_position.max_discards == 0 and by_position.is_draw_phase is False
    assert Action(ActionKind.FOLD) == Action.fold() == Action(ActionKind.FOLD, 0, ())
    assert dataclasses.asdict(Action.raise_to(60)) == {
        "kind": ActionKind.RAISE,
        "amount": 60,
        "cards": (),
    }


def test_objects_stay_frozen_and_replaceable() -> None:
    event = ActionTaken(2, "call", 40, 20, False)
    with pytest.raises(dataclasses.FrozenInstanceError):
        event.amount = 10  # type: ignore[misc]
    assert dataclasses.replace(event, all_in=True) == ActionTaken(2, "call", 40, 20, True)
    assert pickle.loads(pickle.dumps(event)) == event
    assert event_from_dict(event_to_dict(event)) == event
    assert repr(HandEnded({1: 5})) == "HandEnded(stacks={1: 5})"


def test_wrong_arguments_are_refused_as_before() -> None:
    with pytest.raises(TypeError):
        ActionTaken(2, "call", 40, 20)  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        Action(ActionKind.BET, amount=10, colour="red")  # type: ignore[call-arg]


def test_fast_init_refuses_classes_it_cannot_speed_up_faithfully() -> None:
    @dataclass(slots=True)
    class Mutable:
        x: int

    @dataclass(frozen=True, slots=True)
    class Checked:
        x: int

        def __post_init__(self) -> None:
            assert self.x >= 0

    @dataclass(frozen=True)
    class NoSlots:
        x: int

    for cls in (Mutable, Checked, NoSlots):
        with pytest.raises(TypeError, match="fast_init"):
            fast_init(cls)


def test_fast_constructor_builds_the_same_frozen_object() -> None:
    new_legal = fast_constructor(LegalActions)
    fast = new_legal(3, True, False, 20, ActionKind.RAISE, 40, 500, 0, 500)
    usual = LegalActions(3, True, False, 20, ActionKind.RAISE, 40, 500, 0, 500)
    assert type(fast) is LegalActions and fast == usual and hash(fast) == hash(usual)
    assert repr(fast) == repr(usual) and pickle.loads(pickle.dumps(fast)) == usual
    assert new_legal(3, True, False, 20, ActionKind.RAISE, 40, 500, 0, stack=500) == usual
    with pytest.raises(dataclasses.FrozenInstanceError):
        fast.seat = 4  # type: ignore[misc]
    assert fast_constructor(HandEnded)({1: 5}) == HandEnded({1: 5})  # one field
    assert fast_constructor(Action)(ActionKind.CALL) == Action.call()  # defaults
    with pytest.raises(TypeError):
        new_legal(3, True)  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="fast_init"):
        fast_constructor(dict)
