"""Commands: ``ahiko verify FILE`` and ``ahiko fairness demo --out DIR``."""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ahiko.poker.games import GAMES, game

if TYPE_CHECKING:  # the commands import what they use when they run (fast `ahiko` start)
    from ahiko.fairness.verify import VerificationResult

_MARKS = {"pass": "ok", "fail": "FAIL", "not_checked": "--", "skipped": "..", "malformed": "BAD"}


def register(subparsers: Any) -> None:
    verify = subparsers.add_parser(
        "verify",
        help="check pokerfair-proof/1 or /2 files against their commitment (several files "
        "of one hand are also checked together)",
    )
    verify.add_argument("files", type=Path, nargs="+", metavar="FILE")
    verify.add_argument("--expect-digest", metavar="HEX", help="digest recorded at receipt")
    verify.add_argument("--pubkey", metavar="HEX", help="the server's Ed25519 public key")
    verify.add_argument("--json", action="store_true", help="print the result as JSON")
    verify.set_defaults(func=_run_verify)

    fairness = subparsers.add_parser("fairness", help="fair-deal tools")
    commands = fairness.add_subparsers(dest="fairness_command", metavar="COMMAND", required=True)
    demo = commands.add_parser("demo", help="deal one random hand and write its proof files")
    demo.add_argument("--out", type=Path, required=True)
    demo.add_argument("--players", type=int, default=4)
    demo.add_argument("--variant", choices=tuple(GAMES), default="holdem")
    demo.add_argument(
        "--tables",
        type=int,
        default=2,
        help="tables of the pokerfair/2 duplicate deal written to OUT/duplicate "
        "(hold'em; 0 or 1: none)",
    )
    demo.add_argument(
        "--data-dir",
        help="sign with the server key kept here (default: a throwaway key for this demo)",
    )
    demo.set_defaults(func=_run_demo)


def _run_verify(args: argparse.Namespace) -> int:
    from ahiko.fairness.verify import EXIT_MALFORMED
    from ahiko.fairness.verify_files import verify_files

    try:
        expect = _hex_option(args.expect_digest, "--expect-digest", 32)
        pubkey = _hex_option(args.pubkey, "--pubkey", 32)
        raws = [(str(path), path.read_bytes()) for path in args.files]
    except (ValueError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_MALFORMED
    report = verify_files(raws, expect_digest=expect, public_key=pubkey)
    if len(raws) == 1:
        result = report.results[0][1]
        print(json.dumps(_as_json(result), indent=1) if args.json else _as_text(result))
        return result.exit_code
    if args.json:
        print(
            json.dumps(
                {
                    "files": [dict(_as_json(r), file=name) for name, r in report.results],
                    "together": asdict(report.together),
                },
                indent=1,
            )
        )
    else:
        for name, result in report.results:
            print(f"== {name}\n{_as_text(result)}")
        t = report.together
        print(f"== together\n[{_MARKS[t.status]:>4}] {t.number} {t.name}: {t.detail}")
    return report.exit_code


def _run_demo(args: argparse.Namespace) -> int:
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    from ahiko.fairness.demo import deal_demo_hand, write_demo
    from ahiko.fairness.demo_v2 import deal_demo_v2, write_demo_v2
    from ahiko.fairness.keys import load_or_create_signing_key, public_key_bytes

    key = (
        load_or_create_signing_key(args.data_dir) if args.data_dir else Ed25519PrivateKey.generate()
    )
    try:
        hand = deal_demo_hand(args.variant, args.players, key)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    pubkey = public_key_bytes(key).hex()
    written = [(hand.deal.commitment, write_demo(hand, args.out))]
    try:
        mixed = deal_demo_v2(args.variant, args.players, key)
        written.append((mixed.mixed.deal.commitment, write_demo_v2(mixed, args.out / "v2")))
        if args.tables > 1 and not game(args.variant).has_draw:
            labels = [chr(ord("A") + i) for i in range(args.tables)]
            duplicate = deal_demo_v2(args.variant, args.players, key, tables=labels, hand_no=3)
            paths = write_demo_v2(duplicate, args.out / "duplicate")
            written.append((duplicate.mixed.deal.commitment, paths))
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    (args.out / "public-key.txt").write_text(pubkey + "\n", encoding="utf-8")
    for commitment, paths in written:
        print(
            f"table {commitment.table_id} hand {commitment.hand_no}, {commitment.layout}, "
            f"seats {list(commitment.dealt_seats)}, digest {commitment.digest.hex()}"
        )
        for path in paths:
            print(f"wrote {path}")
        print(
            f"check one with: ahiko verify {paths[0]} --pubkey {pubkey} "
            f"--expect-digest {commitment.digest.hex()}"
        )
    print(f"check a duplicate deal's tables together: ahiko verify {args.out}/duplicate/*.json")
    return 0


def _hex_option(value: str | None, name: str, size: int) -> bytes | None:
    if value is None:
        return None
    try:
        raw = bytes.fromhex(value)
    except ValueError:
        raise ValueError(f"{name} is not hex") from None
    if len(raw) != size:
        raise ValueError(f"{name} must be {size} bytes ({2 * size} hex digits)")
    return raw


def _as_text(result: VerificationResult) -> str:
    lines = [f"[{_MARKS[c.status]:>4}] {c.number} {c.name}: {c.detail}" for c in result.checks]
    lines += [f"       card {text}" for text in result.cards]
    if result.observation:
        lines.append(f"       observation: {result.observation}")
    lines.append(f"verdict: {result.summary}")
    return "\n".join(lines)


def _as_json(result: VerificationResult) -> dict[str, Any]:
    return {
        "ok": result.ok,
        "malformed": result.malformed,
        "verdict": result.verdict,
        "summary": result.summary,
        "observation": result.observation,
        "checks": [asdict(c) for c in result.checks],
    }
