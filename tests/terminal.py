"""Running a command as a person at a terminal would: its stdout and stderr a pseudo-terminal
of 100 columns (a fresh pty has none, and progress bars draw nothing in zero columns)."""

from __future__ import annotations

import fcntl
import os
import pty
import struct
import subprocess
import termios
from collections.abc import Sequence


def on_a_terminal(argv: Sequence[str], cwd: str | None = None) -> str:
    """Run ``argv`` to its end with a terminal as stdout and stderr; all the terminal got."""
    leader, follower = pty.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))
    proc = subprocess.Popen(
        argv, stdout=follower, stderr=follower, stdin=subprocess.DEVNULL, cwd=cwd
    )
    os.close(follower)
    seen = b""
    while True:
        try:
            chunk = os.read(leader, 4096)
        except OSError:  # every writer closed the terminal: the process is done
            break
        if not chunk:
            break
        seen += chunk
    proc.wait()
    os.close(leader)
    return seen.decode(errors="replace")
