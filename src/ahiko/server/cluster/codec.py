"""Room commands and replies as JSON, for the relay between nodes.

A command is a frozen dataclass of ``ahiko.rooms.commands`` whose fields are plain values
(strings, numbers, booleans, None), except ``Act.action``, an ``ahiko.poker.actions.Action``
(its kind, amount and cards as text). Only those classes decode: a message naming anything
else is refused with ``ValueError``, never instantiated.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from ahiko.poker.actions import Action, ActionKind
from ahiko.poker.cards import format_card, parse_card
from ahiko.rooms import commands as c

PLAIN = (str, int, float, bool, type(None))


def _command_classes() -> dict[str, Any]:
    return {
        name: value
        for name, value in vars(c).items()
        if isinstance(value, type)
        and dataclasses.is_dataclass(value)
        and value.__module__ == c.__name__
        and value is not c.Reply
    }


COMMANDS = _command_classes()


def encode_action(action: Action) -> dict[str, Any]:
    return {
        "kind": action.kind.value,
        "amount": action.amount,
        "cards": [format_card(card) for card in action.cards],
    }


def decode_action(data: Any) -> Action:
    if not isinstance(data, dict):
        raise ValueError(f"an action is an object, not {data!r}")
    cards = tuple(parse_card(str(text)) for text in data.get("cards", []))
    return Action(ActionKind(data["kind"]), int(data.get("amount", 0)), cards)


def encode_command(command: Any) -> dict[str, Any]:
    name = type(command).__name__
    if COMMANDS.get(name) is not type(command):
        raise ValueError(f"{name} is not a room command")
    out: dict[str, Any] = {"type": name}
    for item in dataclasses.fields(COMMANDS[name]):
        value = getattr(command, item.name)
        if isinstance(value, Action):
            out[item.name] = {"action": encode_action(value)}
        elif isinstance(value, PLAIN):
            out[item.name] = value
        else:
            raise ValueError(f"{name}.{item.name} is not a plain value: {value!r}")
    return out


def decode_command(data: Any) -> Any:
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise ValueError("a command is an object with a type")
    cls = COMMANDS.get(data["type"])
    if cls is None:
        raise ValueError(f"no room command {data['type']!r}")
    values: dict[str, Any] = {}
    for item in dataclasses.fields(cls):
        if item.name not in data:
            continue
        value = data[item.name]
        if isinstance(value, dict) and set(value) == {"action"}:
            value = decode_action(value["action"])
        elif not isinstance(value, PLAIN):
            raise ValueError(f"{cls.__name__}.{item.name} is not a plain value")
        values[item.name] = value
    return cls(**values)


REPLY_FIELDS = dataclasses.fields(c.Reply)
_REPLY_NAMES = frozenset(item.name for item in REPLY_FIELDS)


def encode_reply(reply: c.Reply) -> dict[str, Any]:
    """The reply's fields (``data`` as it is: plain JSON values; no deep copy)."""
    return {item.name: getattr(reply, item.name) for item in REPLY_FIELDS}


def decode_reply(data: dict[str, Any]) -> c.Reply:
    """The fields of ``Reply`` present in ``data`` (``data`` and ``seq`` typed back)."""
    known = _REPLY_NAMES
    values = {name: value for name, value in data.items() if name in known}
    values["data"] = dict(values.get("data") or {})
    return c.Reply(**values)
