"""'Minhas mãos' end to end: a person plays a hand against a bot at a real server, then finds
it in the list, steps through the replayer and downloads its PokerStars text and proof file,
which `ahiko verify` accepts (R-RM-18, R-FD-03)."""

from __future__ import annotations

import json

import pytest

from .conftest import SCREENSHOTS
from .helpers import LIVE_WAIT_MS, assert_ahiko_verifies, close
from .play import create_room, host_menu, play, sign_up, sit

pytestmark = pytest.mark.browser


def _get_json(page, path):  # type: ignore[no-untyped-def]
    return page.evaluate("path => fetch(path).then(r => r.json())", path)


def test_R_RM_18_R_FD_03_a_played_hand_is_listed_replayed_downloaded_and_verified(
    browser, server, tmp_path
):
    page = sign_up(browser, server, "rui")
    create_room(page, "Mesa do Rui")
    sit(page, 0)
    host_menu(page, "add_bot", level="easy")
    page.wait_for_selector('[data-seat="1"] .badge-bot')
    host_menu(page, "start")
    play([page], lambda g: len(g.finished) >= 1, timeout_s=60)

    page.evaluate("location.hash = '#/hands'")  # the table page has no site header
    first = "tbody tr[data-hand]"
    page.wait_for_selector(first, timeout=LIVE_WAIT_MS)
    hand_id = page.get_attribute(first, "data-hand")
    assert "Mesa do Rui" in page.inner_text(first)
    listed = _get_json(page, "/api/hands")["hands"][0]
    assert str(listed["id"]) == hand_id and listed["seat"] == 0
    replay = _get_json(page, f"/api/hands/{hand_id}?format=json")
    my_cards = next(e for e in replay["events"] if e["kind"] == "hole_dealt" and e["seat"] == 0)
    assert all(
        "cards" not in e for e in replay["events"] if e["kind"] == "hole_dealt" and e["seat"] != 0
    )

    page.click(f'{first} [data-replay="open"]')
    page.wait_for_selector(".replayer .seat")
    # "Rever" brings the replayer on screen, titled with the room (report item 15).
    page.wait_for_function(
        "() => { const r = document.querySelector('.replayer').getBoundingClientRect();"
        " return r.top >= 0 && r.bottom <= innerHeight; }",
        timeout=LIVE_WAIT_MS,
    )
    assert page.inner_text(".replayer h2").startswith("Mesa do Rui · Mão nº ")
    step = page.inner_text(".replay-step")  # "Passo 1 de N"
    steps = int(step.rsplit(" ", 1)[1])
    assert steps >= 4
    said = [page.inner_text(".replay-event")]
    for _ in range(steps - 1):
        page.click('[data-replay="next"]')
        said.append(page.inner_text(".replay-event"))
    assert page.inner_text(".replay-step") == f"Passo {steps} de {steps}"
    assert all(said), said  # every step says what happened
    assert said[0].startswith("Mão nº ") and said[0].endswith(" começou")
    assert any(x.startswith("Suas cartas: ") for x in said)
    assert " ganha " in said[-1]
    shown = page.eval_on_selector_all(
        '.replayer [data-seat="0"] .card[data-card]', "els => els.map(e => e.dataset.card)"
    )
    assert sorted(shown) == sorted(my_cards["cards"])
    assert page.locator(".replayer .results").count() == 1
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)  # the whole page: list, pager, replayer
    page.screenshot(path=str(SCREENSHOTS / "my-hands-1280.png"), full_page=True)

    with page.expect_download() as stars_info:
        page.click(f'{first} [data-format="pokerstars"]')
    stars_path = tmp_path / "hand.txt"
    stars_info.value.save_as(stars_path)
    stars = stars_path.read_text()
    assert stars.startswith(f"PokerStars Hand #{hand_id}:")
    assert f"Dealt to rui [{' '.join(my_cards['cards'])}]" in stars

    with page.expect_download() as proof_info:
        page.click(f'{first} [data-format="proof"]')
    proof_path = tmp_path / "proof.json"
    proof_info.value.save_as(proof_path)
    # The same name as the link's and the table's "Baixar provas" (report item 22).
    expected = f"ahiko-{listed['room_id']}-hand{listed['hand_no']}-proof.json"
    assert proof_info.value.suggested_filename == expected
    assert page.get_attribute(f'{first} [data-format="proof"]', "download") == expected
    proof = json.loads(proof_path.read_text())
    key = _get_json(page, "/api/fairness/public-key")["public_key"]
    assert_ahiko_verifies(proof_path, key)
    assert {c["card"] for c in proof["cards"] if c["role"] == "hole"} == set(my_cards["cards"])
    close(page)
