"""Wallet over HTTP: balance, the free claim, the statement (Extrato, R-RM-15)."""

from __future__ import annotations

from ahiko.store.rooms import save_room
from ahiko.wallet.check import check_ledger


def _seat_and_bust(services, user_id, winner_id, room_id, amount):
    """``user_id`` buys in with ``amount`` and loses it all to ``winner_id``; both leave."""
    wallet = services.wallet
    save_room(services.engine, room_id, "ahiko", {"tier": "classica"})
    mine = wallet.buy_in(user_id, room_id, 0, amount, f"{room_id}:a").participation_id
    theirs = wallet.buy_in(winner_id, room_id, 1, 500, f"{room_id}:b").participation_id
    wallet.settle_hand(room_id, [(mine, -amount), (theirs, amount)], f"{room_id}:h1")
    wallet.cash_out(mine, f"{room_id}:out-a", user_id=user_id)
    wallet.cash_out(theirs, f"{room_id}:out-b")
    return mine


def test_wallet_balance(client, sign_up):
    sign_up("ana")
    body = client.get("/api/wallet").json()
    assert body["balance"] == 5_000 and body["in_seats"] == 0
    assert body["claim"]["available"] is False


def test_wallet_needs_a_session(client):
    response = client.get("/api/wallet")
    assert response.status_code == 401 and response.json()["error"] == "not_signed_in"


def test_claim_refused_with_a_json_error_when_rich(client, sign_up):
    sign_up("ana")
    response = client.post("/api/wallet/claim")
    assert response.status_code == 409
    assert response.json() == {
        "error": "claim_not_available",
        "message": "you hold 5000 coins; the free claim needs fewer than 100",
    }


def test_claim_after_losing_everything_and_retry_with_the_same_key(client, sign_up, services):
    ana = sign_up("ana")["id"]
    bia = sign_up("bia")["id"]  # signs in as bia; switch back below
    client.post("/api/session", json={"username": "ana", "password": "correct horse"})
    _seat_and_bust(services, ana, bia, "classica-1", 5_000)
    assert client.get("/api/wallet").json()["claim"]["available"] is True
    first = client.post("/api/wallet/claim", headers={"Idempotency-Key": "tap-1"})
    retry = client.post("/api/wallet/claim", headers={"Idempotency-Key": "tap-1"})
    assert first.status_code == retry.status_code == 200
    assert first.json()["applied"] is True and retry.json()["applied"] is False
    assert retry.json()["balance"] == 1_000
    assert check_ledger(services.engine) == []


def test_R_RM_15_statement_shows_entry_reload_exit_and_net_including_zero_exit(
    client, sign_up, services
):
    ana = sign_up("ana")["id"]
    bia = sign_up("bia")["id"]
    client.post("/api/session", json={"username": "ana", "password": "correct horse"})
    save_room(services.engine, "iniciante-1", "ahiko", {"tier": "iniciante"})
    wallet = services.wallet
    pid = wallet.buy_in(ana, "iniciante-1", 2, 150, "a1").participation_id
    wallet.reload(ana, pid, 50, "a2")
    wallet.cash_out(pid, "a3")
    busted = _seat_and_bust(services, ana, bia, "classica-1", 700)

    body = client.get("/api/wallet/statement", params={"per_page": 3}).json()
    assert (body["total"], body["pages"], body["page"]) == (6, 2, 1)
    zero_exit, busted_entry, exit_line = body["lines"]
    assert (zero_exit["kind"], zero_exit["amount"]) == ("cash_out", 0)
    assert zero_exit["participation"]["id"] == busted
    assert (zero_exit["participation"]["exit"], zero_exit["participation"]["net"]) == (0, -700)
    assert (busted_entry["kind"], busted_entry["amount"]) == ("buy_in", -700)
    assert (exit_line["kind"], exit_line["amount"]) == ("cash_out", 200)
    summary = exit_line["participation"]
    assert (summary["entry"], summary["reloads"], summary["reload_count"]) == (150, 50, 1)
    assert (summary["exit"], summary["net"]) == (200, 0)

    page2 = client.get("/api/wallet/statement", params={"per_page": 3, "page": 2}).json()
    kinds = [(line["kind"], line["amount"], line["balance"]) for line in page2["lines"]]
    assert kinds == [("reload", -50, 4_800), ("buy_in", -150, 4_850), ("signup", 5_000, 5_000)]
    assert [line["balance"] for line in body["lines"]] == [4_300, 4_300, 5_000]


def test_statement_rejects_bad_paging(client, sign_up):
    sign_up("ana")
    for params in ({"page": 0}, {"per_page": 101}, {"page": "x"}):
        response = client.get("/api/wallet/statement", params=params)
        assert response.status_code == 422 and response.json()["error"] == "invalid_request"


def test_R_RM_15_statement_lines_name_their_room(client, sign_up, services):
    """The Extrato shows "Iniciante 1", not the room's id: each line carries ``room_name``
    (null when the line has no room, or the room has no name) besides ``room_id``."""
    ana = sign_up("ana")["id"]
    lobby_room = next(r for r in client.get("/api/ahiko/rooms").json() if r["tier"] == "iniciante")
    bought = client.post(
        f"/api/ahiko/rooms/{lobby_room['id']}/buy_in",
        json={"seat": 1, "amount": 120, "key": "b1"},
    )
    assert bought.status_code == 200, bought.text
    assert client.post(f"/api/ahiko/rooms/{lobby_room['id']}/leave", json={}).status_code == 200
    save_room(services.engine, "unnamed-1", "ahiko", {"tier": "iniciante"})
    pid = services.wallet.buy_in(ana, "unnamed-1", 0, 100, "u1").participation_id
    services.wallet.cash_out(pid, "u2")

    lines = client.get("/api/wallet/statement").json()["lines"]
    named = [(line["kind"], line["room_id"], line["room_name"]) for line in lines]
    assert named == [
        ("cash_out", "unnamed-1", None),
        ("buy_in", "unnamed-1", None),
        ("cash_out", lobby_room["id"], lobby_room["name"]),
        ("buy_in", lobby_room["id"], lobby_room["name"]),
        ("signup", None, None),
    ]
    assert lobby_room["name"] == "Iniciante 1"
    assert lines[2]["participation"]["room_name"] == "Iniciante 1"
    assert lines[0]["participation"]["room_name"] is None
    stays = client.get("/api/ahiko/participations").json()
    assert [s["room_name"] for s in stays] == [None, "Iniciante 1"]
