"""The table core: the room actor and its state machine, seats, blinds, timers, turns, room
kinds; house rooms in ``house/``, finished hands in ``finished/`` (docs/rooms.md)."""
