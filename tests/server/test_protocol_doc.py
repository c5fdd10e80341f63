"""``docs/protocol.md`` is checked against the frame types: every server frame type of the
outbound schema (``SERVER_FRAME``, derived from ``ahiko.rooms.frame_types``) has its section
under "Server → client", and every section there names a frame type the server sends."""

from __future__ import annotations

import re
import typing
from pathlib import Path

from pydantic import BaseModel

from ahiko.server import protocol as p

PROTOCOL_DOC = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"


def schema_frame_types() -> set[str]:
    """The ``t`` of every member of the outbound schema's union."""
    union = typing.get_args(p.ServerFrame)[0]
    tags: set[str] = set()
    for member in typing.get_args(union):
        if isinstance(member, type) and issubclass(member, BaseModel):
            annotation = member.model_fields["t"].annotation
        else:
            annotation = typing.get_type_hints(member)["t"]
        tags.update(typing.get_args(annotation))
    return tags


def documented_frame_types() -> set[str]:
    """The frame types named by the ``### `t` `` headings under "Server → client"."""
    text = PROTOCOL_DOC.read_text(encoding="utf-8")
    section = text.split("\n## Server → client\n", 1)[1].split("\n## ", 1)[0]
    return set(re.findall(r"^### `([a-z_]+)`", section, re.MULTILINE))


def test_every_frame_type_of_the_schema_is_documented_and_no_other() -> None:
    in_schema, in_doc = schema_frame_types(), documented_frame_types()
    assert {"hand", "room", "snapshot", "ack", "error"} <= in_schema  # the reading works
    assert in_schema - in_doc == set(), "frame types the protocol doc does not describe"
    assert in_doc - in_schema == set(), "documented frame types the schema does not know"
