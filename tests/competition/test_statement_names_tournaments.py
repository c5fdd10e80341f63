"""The statement over HTTP names what the wallet did (R-RM-15): a sit & go registration of
100 coins is a -100 line called "Heads-up 100" with its label in both languages, its refund
+100; a host's paid MTT registration is named by the MTT; every balance follows the wallet."""

from __future__ import annotations

import itertools
from typing import Any

from app_site import balance, sign_up
from fastapi.testclient import TestClient

from ahiko.wallet.policy import SIGNUP_GRANT


def lines(site: TestClient, who: dict[str, str]) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = site.get("/api/wallet/statement", cookies=who).json()["lines"]
    return found


def test_R_RM_15_tournament_lines_are_signed_named_and_labelled(site: TestClient) -> None:
    ana = sign_up(site, "ana")
    registered = site.post("/api/sitgo/queues/hu-100/register", json={"key": "a"}, cookies=ana)
    sng_id = registered.json()["sitgo"]["id"]
    newest = lines(site, ana)[0]
    assert newest["kind"] == "sng_register" and newest["amount"] == -100
    assert newest["balance"] == balance(site, ana) == SIGNUP_GRANT - 100
    assert newest["reason"] == "Heads-up 100" and newest["event_id"] == sng_id
    assert newest["label"] == {"pt-BR": "Inscrição em torneio", "en": "Tournament registration"}

    site.post(f"/api/sitgo/{sng_id}/unregister", cookies=ana)
    refund = lines(site, ana)[0]
    assert (refund["kind"], refund["amount"], refund["balance"]) == ("sng_refund", 100, 5000)
    assert refund["reason"] == "Heads-up 100"

    hosted = site.post(
        "/api/mtt",
        json={"name": "Noite de sexta", "buy_in": 250, "starts_in_minutes": 60},
        cookies=ana,
    )
    mtt_id = hosted.json()["mtt"]["id"]
    site.post(f"/api/mtt/{mtt_id}/register", json={"key": "m"}, cookies=ana)
    statement = lines(site, ana)
    assert (statement[0]["amount"], statement[0]["reason"]) == (-250, "Noite de sexta")
    assert statement[0]["balance"] == balance(site, ana) == SIGNUP_GRANT - 250
    for newer, older in itertools.pairwise(statement):
        assert older["balance"] == newer["balance"] - newer["amount"]
    assert statement[-1]["kind"] == "signup" and statement[-1]["label"]["en"] == "Welcome coins"
