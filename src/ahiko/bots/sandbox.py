"""A third party's bot in its own process: it receives only the serialised view.

``SandboxedBots(path)`` starts ``python -m ahiko.bots.sandbox path`` with an empty
environment (only ``PYTHONPATH``, so it can import the bot) and talks to it in JSON lines on
its stdin and stdout. The process holds nothing but what it is sent: the seat's view, a seed
for its rng, and at the end of a hand the seat's final view (``observe``). A bot there that
reads its caller's frame or walks ``gc.get_objects()`` finds the sandbox loop and the view,
never the deck, the other seats' cards or a room's keys.

Where the kernel allows it (Linux with ``unshare`` from util-linux: as root, or with
unprivileged user namespaces), the process runs in a PID namespace of its own with a ``/proc``
of its own: it sees no other process, so it cannot read its parent's command line,
environment or memory maps. Elsewhere it runs as a plain child, and a warning says so once.

Requests: ``{"op": "new"}`` (a fresh instance), ``{"op": "decide", "view", "seed"}`` →
``{"action": {"kind", "amount", "cards"}}`` or ``{"error"}``, ``{"op": "observe", "view"}``
(no answer).

In a room a bot decides on a worker thread (ahiko.rooms.thinking): a request and its answer
go through the pipes under one lock, so two turns never interleave. ``sandboxed_bot(path)``
is one bot with a process of its own, which ends when the bot is closed or dropped.
"""

from __future__ import annotations

import functools
import json
import logging
import os
import random
import shutil
import subprocess
import sys
import threading
import weakref
from collections.abc import Callable
from typing import IO, Any, Literal, NotRequired

from typing_extensions import TypedDict

from ahiko.poker.actions import Action, ActionKind
from ahiko.poker.view_types import HandView

log = logging.getLogger(__name__)

DECIDE_TIMEOUT_S = 10.0
CLOSE_WAIT_S = 0.5  # a room closes a bot on its loop: never wait long


class SandboxError(RuntimeError):
    """The bot's process failed, answered nonsense or died."""


class ActionDict(TypedDict):
    """An action on the pipe: its kind ("fold", "raise", "discard"...), amount and cards."""

    kind: str
    amount: int
    cards: list[int]


class Request(TypedDict):
    """What the parent sends: ``new``, ``decide`` (the view and a seed), ``observe`` (the
    final view), ``exit``."""

    op: Literal["new", "decide", "observe", "exit"]
    view: NotRequired[HandView]
    seed: NotRequired[int]


class Reply(TypedDict, total=False):
    """What the sandbox answers: ``ready`` once, then an action or an error per decision."""

    ready: bool
    action: ActionDict
    error: str


def action_to_dict(action: Action) -> ActionDict:
    return {"kind": str(action.kind), "amount": action.amount, "cards": list(action.cards)}


def action_from_dict(data: ActionDict) -> Action:
    """The bot's answer, as it came off the pipe: anything that is not an action is refused."""
    try:
        kind = ActionKind(str(data["kind"]))
        cards = tuple(int(c) for c in data.get("cards") or ())
        return Action(kind, int(data.get("amount", 0) or 0), cards)
    except (KeyError, ValueError, TypeError) as exc:
        raise SandboxError(f"the bot answered an action that is not one: {data!r}") from exc


@functools.cache
def process_isolation() -> tuple[str, ...]:
    """The prefix that starts a command alone in its own PID namespace with its own ``/proc``
    (``--kill-child``: it dies with us, even when we are killed), or ``()`` where this
    machine cannot; probed once per process."""
    unshare = shutil.which("unshare")
    if unshare is None:
        log.warning("bot sandbox: no unshare command; outside bots can see other processes")
        return ()
    flags: tuple[str, ...] = ("--pid", "--fork", "--mount-proc", "--kill-child")
    if os.geteuid() != 0:
        flags = ("--user", "--map-root-user", *flags)
    try:
        probe = subprocess.run([unshare, *flags, "true"], capture_output=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired) as exc:
        probe_error = str(exc)
    else:
        if probe.returncode == 0:
            return (unshare, *flags)
        probe_error = probe.stderr.decode(errors="replace").strip()
    log.warning("bot sandbox: no PID namespace here (%s); outside bots can see other processes",
                probe_error)  # fmt: skip
    return ()


class SandboxedBots:
    """One process running the bot class at ``path``; ``new()`` gives a fresh instance."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.name = path.rpartition(":")[2] or path
        env = {"PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
        self.proc = subprocess.Popen(
            [*process_isolation(), sys.executable, "-m", "ahiko.bots.sandbox", path],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=env,
            text=True,
            bufsize=1,
        )
        self.lock = threading.Lock()
        try:
            self._expect_ready()
        except SandboxError:
            self._close()
            raise

    def _io(self) -> tuple[IO[str], IO[str]]:
        if self.proc.stdin is None or self.proc.stdout is None:
            raise SandboxError("the sandbox has no pipes")
        return self.proc.stdin, self.proc.stdout

    def _send(self, message: Request) -> None:
        stdin, _ = self._io()
        try:
            stdin.write(json.dumps(message, separators=(",", ":")) + "\n")
            stdin.flush()
        except BrokenPipeError as exc:
            raise SandboxError(
                f"bot {self.path!r}: its process is gone ({self._stderr()})"
            ) from exc

    def _receive(self) -> Reply:
        _, stdout = self._io()
        line = stdout.readline()
        if not line:
            raise SandboxError(f"bot {self.path!r}: its process is gone ({self._stderr()})")
        reply: Reply = json.loads(line)
        if "error" in reply:
            raise SandboxError(f"bot {self.path!r}: {reply['error']}")
        return reply

    def _stderr(self) -> str:
        self.proc.poll()
        if self.proc.returncode is None or self.proc.stderr is None:
            return "still running"
        return self.proc.stderr.read()[-500:]

    def _expect_ready(self) -> None:
        self._receive()

    def new(self) -> SandboxedBot:
        with self.lock:
            self._send({"op": "new"})
        return SandboxedBot(self)

    def decide(self, view: HandView, seed: int) -> Action:
        with self.lock:
            self._send({"op": "decide", "view": view, "seed": seed})
            reply = self._receive()
        return action_from_dict(reply["action"])

    def observe(self, view: HandView) -> None:
        with self.lock:
            self._send({"op": "observe", "view": view})

    def close(self) -> None:
        """End the process: politely when it is idle, at once when a turn is still being
        thought about (that turn's ``decide`` then fails, and a room answers for the bot)."""
        if self.lock.acquire(timeout=CLOSE_WAIT_S):
            try:
                self._close()
            finally:
                self.lock.release()
        else:
            self.proc.kill()
            self.proc.wait()

    def _close(self) -> None:
        if self.proc.poll() is None:
            try:
                self._send({"op": "exit"})
                self.proc.wait(timeout=CLOSE_WAIT_S)
            except (SandboxError, subprocess.TimeoutExpired):
                self.proc.kill()
                self.proc.wait()
        for pipe in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            if pipe is not None:
                pipe.close()


class SandboxedBot:
    """The parent's side of one instance: ``decide`` sends the view and a seed drawn from
    the rng it is given."""

    def __init__(self, box: SandboxedBots) -> None:
        self.box = box
        self.name = box.name
        self._closer: Callable[[], Any] | None = None  # set when the bot owns its process

    def decide(self, view: HandView, rng: random.Random) -> Action:
        return self.box.decide(view, rng.getrandbits(64))

    def observe(self, view: HandView) -> None:
        self.box.observe(view)

    def close(self) -> None:
        """End the bot's process if this bot owns one (``sandboxed_bot``)."""
        if self._closer is not None:
            self._closer()


def sandboxed_bot(path: str) -> SandboxedBot:
    """One bot of class ``path`` in a process of its own, closed with the bot."""
    box = SandboxedBots(path)
    bot = box.new()
    bot._closer = weakref.finalize(bot, box.close)
    return bot


def _serve(path: str) -> int:
    from .protocol import BotLoadError, load_bot_class

    out = sys.stdout
    try:
        cls = load_bot_class(path)
    except BotLoadError as exc:
        out.write(json.dumps({"error": str(exc)}) + "\n")
        return 2
    out.write('{"ready":true}\n')
    out.flush()
    bot: Any = None
    for line in sys.stdin:
        message = json.loads(line)
        op = message.get("op")
        if op == "exit":
            return 0
        if op == "new":
            bot = cls()
            continue
        if op == "observe":
            observe = getattr(bot, "observe", None)
            if observe is not None:
                observe(message["view"])
            continue
        try:
            action = bot.decide(message["view"], random.Random(int(message["seed"])))
            reply: Reply = {"action": action_to_dict(action)}
        except Exception as exc:  # the bot's failure goes back to the arena
            reply = {"error": f"{type(exc).__name__}: {exc}"}
        out.write(json.dumps(reply) + "\n")
        out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(_serve(sys.argv[1]))
