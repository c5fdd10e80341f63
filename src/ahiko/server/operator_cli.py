"""``ahiko admin operator add NAME``: give an account the operator role; ``ahiko admin
abuse-report``: the signals of abuse an operator looks at.

The command prints a one-time code: the console asks it once, at the operator's first visit
(a second factor beside the password: holding a session is not enough to become an operator).
Adding an operator again prints a new code and voids the old one."""

from __future__ import annotations

import argparse
import hashlib
import secrets
from typing import Any

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I: read aloud, typed by hand
CODE_LENGTH = 12  # 60 bits: never guessed before an operator notices


def new_code() -> str:
    raw = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
    return "-".join(raw[i : i + 4] for i in range(0, CODE_LENGTH, 4))


def code_hash(code: str) -> str:
    """The code as stored: its SHA-256, ignoring case, spaces and dashes as typed."""
    plain = "".join(ch for ch in code.upper() if ch.isalnum())
    return hashlib.sha256(plain.encode()).hexdigest()


def register_operator_commands(commands: Any, common: argparse.ArgumentParser) -> None:
    operator = commands.add_parser("operator", help="the operator role (the admin console)")
    actions = operator.add_subparsers(dest="operator_command", metavar="ACTION", required=True)
    add = actions.add_parser(
        "add", parents=[common], help="make an account an operator; prints a one-time code"
    )
    add.add_argument("username")
    add.set_defaults(func=_add)
    report = commands.add_parser(
        "abuse-report",
        parents=[common],
        help="signals of abuse from the hand archive: chip flow, soft play, shared addresses, "
        "account bursts (an operator decides)",
    )
    report.add_argument("--json", action="store_true", help="one JSON document")
    report.set_defaults(func=_abuse_report)


def _add(args: argparse.Namespace) -> int:
    from ahiko.server.cli import make_engine, settings_of
    from ahiko.store.accounts import find_user_by_name
    from ahiko.store.operators import add_operator
    from ahiko.wallet.ledger import utc_now

    engine = make_engine(settings_of(args).resolved_database_url)
    try:
        user = find_user_by_name(engine, args.username)
        if user is None:
            print(f"error: there is no account named {args.username!r}")
            return 1
        code = new_code()
        add_operator(engine, user.id, code_hash(code), utc_now())
    finally:
        engine.dispose()
    print(f"{user.username} is an operator. One-time code for the first visit to /admin: {code}")
    return 0


def _abuse_report(args: argparse.Namespace) -> int:
    import json

    from ahiko.fairness.keys import load_or_create_archive_key
    from ahiko.history.abuse_signals import signals
    from ahiko.server.cli import make_engine, settings_of
    from ahiko.store.hand_archive import install_sealer

    settings = settings_of(args)
    engine = make_engine(settings.resolved_database_url)
    # The archive's events are sealed at rest with the key in the data folder (the server's).
    install_sealer(engine, load_or_create_archive_key(settings.data_dir))
    try:
        found = signals(engine)
    finally:
        engine.dispose()
    if args.json:
        print(json.dumps([signal.as_dict() for signal in found], ensure_ascii=False, indent=2))
        return 0
    if not found:
        print("no signal of abuse")
    for signal in found:
        print(f"[{signal.kind}] {', '.join(signal.accounts)}")
        print(f"  {signal.measured}")
        if signal.hands:
            print(f"  hands: {' '.join(str(hand) for hand in signal.hands)}")
    return 0
