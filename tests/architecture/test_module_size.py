"""The rooms stay made of parts one can read: no module of ``ahiko.rooms`` grows past 400
lines (docs/rooms.md keeps the figures; ``room.py`` crept to 421 once before anyone noticed)."""

from pathlib import Path

import ahiko.rooms

LIMIT = 400


def test_no_module_of_rooms_is_longer_than_the_limit() -> None:
    package = Path(ahiko.rooms.__file__).parent
    lengths = {
        str(path.relative_to(package)): len(path.read_text(encoding="utf-8").splitlines())
        for path in package.rglob("*.py")
    }
    assert lengths, "no module found under ahiko.rooms"
    assert {name: n for name, n in lengths.items() if n > LIMIT} == {}
