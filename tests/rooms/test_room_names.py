"""A room's name is text other people read: it is checked where every room is made
(``RoomConfig``, so the HTTP API, the house rooms and the command line alike), not by URL
path in the security middleware, and refused by name. The API's answer (422
``invalid_text``) is pinned in ``tests/security/test_security_http.py``."""

from __future__ import annotations

import pytest

from ahiko.rooms.config import RoomConfig, RoomConfigError, RoomNameError
from ahiko.rooms.house.tiers import TIERS, ahiko_config


@pytest.mark.parametrize(
    ("name", "reason"),
    [
        ("x" * 61, "name must be at most 60 characters"),
        ("   ", "name must not be blank"),
        ("Mesa\u202eevil", "name must not contain the character U+202E"),
        ("Mesa  dupla", "name must not contain repeated spaces"),
    ],
)
def test_a_name_other_people_may_not_be_shown_makes_no_room(name: str, reason: str) -> None:
    with pytest.raises(RoomNameError) as refused:
        RoomConfig(name=name)
    assert str(refused.value) == reason
    assert isinstance(refused.value, RoomConfigError)  # the door's own refusal, by name


def test_ordinary_names_and_the_house_rooms_names_pass() -> None:
    assert RoomConfig(name="Mesa <b>da Ana</b> & Café ♠").name == "Mesa <b>da Ana</b> & Café ♠"
    for tier in TIERS:
        for number in (1, 2, 12):
            name = f"{tier.name} {number}"  # as the Ahiko lobby names its rooms
            assert ahiko_config(tier, name).name == name
