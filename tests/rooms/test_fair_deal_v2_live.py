"""pokerfair/2 live over real WebSockets: two people and two bots play 50 hold'em hands; each
person's client commits a fresh 32-byte secret for the next hand during the current one,
reveals it while the commitment is shown, keeps the signed receipt, and builds its proof file
from the frames it got. Every person's proof of every hand verifies as pokerfair/2 with its own
secret in the mix; on the hands one of them withholds, the public fallback stands in and the
hand is played all the same, and the withhold is counted against that account."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import secrets
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from fastapi import FastAPI
from rooms_live import Client, build_app

from ahiko.fairness.contribution import seat_commitment
from ahiko.fairness.keys import public_key_bytes
from ahiko.fairness.verify_v2 import verify_any_text
from ahiko.rooms.clock import AsyncioClock
from ahiko.rooms.registry import RoomRegistry
from live_server import SPEED, serving

HANDS = 50
COMMITMENT_WINDOW_S = 150.0  # rule seconds: half a second of real time at SPEED 300
KEY = Ed25519PrivateKey.generate()


@pytest.fixture(scope="module")
def server() -> Iterator[tuple[str, FastAPI]]:
    app = build_app()
    app.state.room_registry = RoomRegistry(clock=AsyncioClock(speed=SPEED), signing_key=KEY)
    with serving(app) as port:
        yield f"127.0.0.1:{port}", app


class FairClient(Client):
    """A person whose browser takes part in the shuffle; ``withhold`` says on which hands it
    keeps its secret to itself."""

    def __init__(self, address: str, room_id: str, pid: str, seed: int, seat: int) -> None:
        super().__init__(address, room_id, pid, seed)
        self.seat: int = seat
        self.withhold: set[int] = set()
        self.secrets: dict[int, bytes] = {}  # hand number -> this browser's secret
        self.hands: dict[int, dict[str, Any]] = {}  # hand number -> what the proof needs
        self.reveal_ids: dict[str, int] = {}  # frame id of a reveal -> its hand number

    async def commit_for(self, hand_no: int) -> None:
        secret = self.secrets[hand_no] = secrets.token_bytes(32)
        commitment = seat_commitment_of(self.url, hand_no, self.seat, secret)
        await self.send("fair_commit", hand_no=hand_no, commitment=commitment.hex())

    async def play(self, stop_kinds: tuple[str, ...] = ("closed", "tournament_over")) -> None:
        while True:
            frame = await self.recv(30)
            kind = frame["t"]
            if kind in stop_kinds:
                return
            if kind == "ack" and frame.get("id") in self.reveal_ids:
                hand = self.hands[self.reveal_ids.pop(frame["id"])]
                hand["receipts"] = [[frame["data"]["seat"], frame["data"]["receipt"]]]
            elif kind == "room":
                await self.maybe_reenter(frame["room"])
            elif kind == "commitment":
                await self.on_commitment(frame)
            elif kind == "fair_mix" and frame["hand_no"] in self.hands:
                self.hands[frame["hand_no"]]["mix"] = frame
            elif kind == "hand" and frame["hand_no"] in self.hands:
                self.hands[frame["hand_no"]]["cards"] += frame["openings"]
            if kind == "hand":
                view, legal = frame["view"], frame["view"].get("legal")
                if legal is not None and view["to_act"] == view["viewer"]:
                    await self.send("act", hand_no=frame["hand_no"], **self.choose(view, legal))

    async def on_commitment(self, frame: dict[str, Any]) -> None:
        hand_no = frame["hand_no"]
        self.hands[hand_no] = {"frame": frame, "receipts": [], "cards": [], "mix": None}
        seats = [seat for seat, _ in (frame.get("contributors") or {}).get("seats", [])]
        if hand_no in self.secrets and self.seat in seats and hand_no not in self.withhold:
            sent = await self.send(
                "fair_reveal", hand_no=hand_no, secret=self.secrets[hand_no].hex()
            )
            self.reveal_ids[sent] = hand_no
        await self.commit_for(hand_no + 1)  # the secret for the next hand, during this one

    def proof(self, hand_no: int) -> dict[str, Any]:
        """The pokerfair-proof/2 file this browser would download, from its own frames."""
        hand = self.hands[hand_no]
        mix = hand["mix"]
        return {
            "format": "pokerfair-proof/2",
            "commitment": hand["frame"]["commitment"],
            "contributors": hand["frame"]["contributors"],
            "reveals": mix["reveals"],
            "mix": mix["mix"],
            "transcript": mix["transcript"],
            "receipts": hand["receipts"],
            "own": {"seat": self.seat, "secret": self.secrets[hand_no].hex()},
            "cards": hand["cards"],
        }


def seat_commitment_of(url: str, hand_no: int, seat: int, secret: bytes) -> bytes:
    room_id = url.rsplit("/", 1)[1]
    return seat_commitment(room_id, hand_no, seat, secret)


def test_R_FD_02_two_people_shape_50_shuffles_and_a_withheld_secret_never_stops_a_hand(
    server: tuple[str, FastAPI],
) -> None:
    address, app = server
    created = httpx.post(
        f"http://{address}/api/rooms",
        json={"name": "pokerfair/2", "limit_hands": HANDS},
        headers={"x-player": "ana"},
    )
    assert created.status_code == 201, created.text
    room_id = created.json()["id"]
    room = app.state.room_registry.get(room_id).room
    timing = dataclasses.replace(room.config.timing, commitment_display_s=COMMITMENT_WINDOW_S)
    room.config = dataclasses.replace(room.config, timing=timing)

    async def game() -> list[FairClient]:
        people = [
            FairClient(address, room_id, pid, i, seat=i) for i, pid in enumerate(["ana", "bia"])
        ]
        for person in people:
            await person.open()
            sit = await person.send("sit", seat=person.seat)
            await person.until(lambda f, sit=sit: f.get("id") == sit and f["t"] == "ack")
            await person.commit_for(1)  # at sit-down: the secret for the first hand
        ana, bia = people
        bia.withhold = {7, 21, 35}
        for _ in range(2):
            await ana.send("add_bot", level="random")
        await ana.send("start")  # its commitment frame may come before its ack: play reads both
        await asyncio.gather(ana.play(), bia.play())
        for person in people:
            await person.close()
        return people

    people = asyncio.run(game())
    assert room.dealer.hands_dealt == HANDS
    pubkey = public_key_bytes(KEY)
    for person in people:
        dealt_in = [
            n
            for n, h in person.hands.items()
            if person.seat in h["frame"]["commitment"]["dealt_seats"]
        ]
        assert len(dealt_in) >= HANDS - 5, person.pid  # bust-outs and re-entries aside
        for hand_no in dealt_in:
            hand = person.hands[hand_no]
            assert hand["mix"] is not None, (person.pid, hand_no)
            proof = json.dumps(person.proof(hand_no))
            digest = bytes.fromhex(hand["frame"]["commitment"]["digest"])
            result = verify_any_text(proof, public_key=pubkey, expect_digest=digest)
            assert result.ok, (
                person.pid,
                hand_no,
                [c for c in result.checks if c.status == "fail"],
            )
            own = next(c for c in result.checks if c.name == "own")
            if hand_no in person.withhold:
                assert own.status == "not_checked" and "not revealed in time" in own.detail
                revealed = {seat: kind for seat, kind, _ in hand["mix"]["reveals"]}
                assert revealed[person.seat] == "fallback"
                assert any(f["hand_no"] == hand_no for f in person.frames if f["t"] == "hand")
            else:
                assert own.status == "pass", (person.pid, hand_no, own.detail)
                assert "seu navegador contribuiu" in own.detail
    withheld = {n for n in people[1].withhold if n in people[1].hands}
    assert room.seat_secrets.withholds["bia"] == len(withheld) > 0
    assert room.seat_secrets.withholds["ana"] == 0
