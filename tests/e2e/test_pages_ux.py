"""The pages outside the table after the new-player walkthrough (/tmp/ux/REPORT.md items 4, 6,
13, 15, 20, 22, 23), each at 1280x800 and 375x812 with the API answered by the test."""

from __future__ import annotations

import json
from typing import Any

import pytest

from .conftest import DESKTOP, PHONE, screenshot
from .helpers import LIVE_WAIT_MS, close
from .test_pages_mocked import HAND, hand_page, mocked_app

pytestmark = pytest.mark.browser

SIZES = [pytest.param(DESKTOP, id="desktop"), pytest.param(PHONE, id="phone")]
ME = {"id": 1, "username": "joao", "wallet": 900}


def sized(viewport: dict[str, int]) -> dict[str, Any]:
    """Phones get a touch screen at DPR 2, as in the walkthrough."""
    return {"device_scale_factor": 2, "has_touch": True} if viewport == PHONE else {}


def tag(viewport: dict[str, int]) -> str:
    return "phone" if viewport == PHONE else "desktop"


def ahiko_room(
    tier: str,
    name: str,
    number: int,
    blinds: tuple[int, int],
    buy_in: tuple[int, int],
    **extra: Any,
) -> dict[str, Any]:
    """A room as GET /api/ahiko/rooms lists it (rooms/house/table.py AhikoTable.lobby_entry, C-AVGPOT)."""
    sb, bb = blinds
    return {
        "id": f"{tier}-104daf-{number}",
        "name": f"{name} {number}",
        "kind": "ahiko",
        "variant": "holdem",
        "tier": tier,
        "public": True,
        "status": "running",
        "blinds": {"small_blind": sb, "big_blind": bb, "ante": 0},
        "seats_total": 8,
        "seats_taken": 0,
        "hand_no": None,
        "people": 0,
        "bot_ahiko": False,
        "buy_in": {"key": tier, "buy_in_min": buy_in[0], "buy_in_max": buy_in[1]},
        "avg_pot": None,
        **extra,
    }


AHIKO_ROOMS = [
    ahiko_room("iniciante", "Iniciante", 1, (1, 2), (100, 200)),  # empty, no hand yet
    ahiko_room(
        "iniciante",
        "Iniciante",
        2,
        (1, 2),
        (100, 200),
        seats_taken=2,
        people=1,
        bot_ahiko=True,
        hand_no=14,
        avg_pot=37,
    ),
    ahiko_room("classica", "Clássica", 1, (5, 10), (500, 1000), seats_taken=1, people=1),
    ahiko_room("classica", "Clássica", 2, (5, 10), (500, 1000), avg_pot=1234),
    ahiko_room("alta", "Alta", 1, (10, 20), (1000, 2000)),
    ahiko_room("alta", "Alta", 2, (10, 20), (1000, 2000)),
]


def lobby_rows(page: Any) -> dict[str, dict[str, str]]:
    return page.eval_on_selector_all(
        "tbody tr[data-room]",
        """rows => Object.fromEntries(rows.map(r => [r.dataset.room, {
            name: r.querySelector("td a").textContent,
            status: r.querySelector("[data-status]")?.dataset.status ?? null,
            statusText: r.querySelector("[data-status]")?.textContent ?? null,
            avgPot: r.querySelector("[data-avg-pot]")?.textContent ?? null,
        }]))""",
    )


@pytest.mark.parametrize("viewport", SIZES)
def test_item4_lobby_status_follows_the_seats_and_shows_the_average_pot(
    browser, static_url, viewport
):
    page = mocked_app(
        browser,
        static_url,
        {"/api/me": ME, "/api/ahiko/rooms": AHIKO_ROOMS, "/api/online": {"online": 3}},
        viewport,
        **sized(viewport),
    )
    page.goto(f"{static_url}/src/ahiko/web/index.html#/lobby/ahiko")
    page.wait_for_selector('tr[data-room="alta-104daf-2"]')
    rows = lobby_rows(page)
    assert "null" not in page.inner_text("main")  # the tab's absent sections print nothing
    assert rows["iniciante-104daf-1"]["status"] == "waiting"  # 0/8: not "Em jogo"
    assert rows["iniciante-104daf-1"]["statusText"] == "Aguardando"
    assert rows["iniciante-104daf-2"]["status"] == "running"  # a hand under way
    assert rows["iniciante-104daf-2"]["statusText"] == "Em jogo"
    assert rows["classica-104daf-1"]["status"] == "waiting"  # one person, no hand yet
    assert rows["iniciante-104daf-1"]["avgPot"] == "—"  # C-AVGPOT null: no hand yet
    assert rows["iniciante-104daf-2"]["avgPot"] == "37"
    assert rows["classica-104daf-2"]["avgPot"] == "1.234"
    if viewport == PHONE:  # the status and the average pot are desktop columns
        assert not page.is_visible('tr[data-room="iniciante-104daf-2"] [data-avg-pot]')
    screenshot(page, f"pages-lobby-ahiko-{tag(viewport)}")
    close(page)


@pytest.mark.parametrize("viewport", SIZES)
def test_item6_english_lobby_names_the_ahiko_rooms_in_english(browser, static_url, viewport):
    page = mocked_app(
        browser,
        static_url,
        {"/api/me": ME, "/api/ahiko/rooms": AHIKO_ROOMS, "/api/online": {"online": 3}},
        viewport,
        lang="en",
        **sized(viewport),
    )
    page.goto(f"{static_url}/src/ahiko/web/index.html#/lobby/ahiko")
    page.wait_for_selector('tr[data-room="alta-104daf-2"]')
    names = [r["name"] for r in lobby_rows(page).values()]
    assert names == ["Beginner 1", "Beginner 2", "Classic 1", "Classic 2", "High 1", "High 2"]
    statuses = {r["statusText"] for r in lobby_rows(page).values()}
    assert statuses == {"Waiting", "Playing"}
    assert page.get_attribute('[aria-label^="Open "]', "aria-label") == "Open Beginner 1"
    screenshot(page, f"pages-lobby-en-{tag(viewport)}")
    # Back to Portuguese: the server's names again.
    page.click(".lang-switch")
    page.wait_for_selector('tr[data-room="alta-104daf-2"]')
    assert lobby_rows(page)["classica-104daf-1"]["name"] == "Clássica 1"
    close(page)


STATEMENT = {
    "page": 1,
    "per_page": 50,
    "total": 5,
    "pages": 1,
    "lines": [
        {  # C-STATEMENT: the room's name beside its id
            "id": 5,
            "kind": "cash_out",
            "amount": 152,
            "at": "2026-11-30T00:25:33+00:00",
            "reason": None,
            "balance": 5002,
            "participation": {
                "id": 2,
                "room_id": "iniciante-104daf-1",
                "room_name": "Iniciante 1",
                "seat": 0,
                "status": "closed",
                "entry": 150,
                "reloads": 0,
                "reload_count": 0,
                "exit": 152,
                "net": 2,
            },
        },
        {
            "id": 4,
            "kind": "buy_in",
            "amount": -150,
            "at": "2026-11-30T00:24:59+00:00",
            "reason": None,
            "balance": 4850,
            "participation": {
                "id": 2,
                "room_id": "iniciante-104daf-1",
                "room_name": "Iniciante 1",
                "seat": 0,
                "status": "closed",
                "entry": 150,
                "reloads": 0,
                "reload_count": 0,
                "exit": 152,
                "net": 2,
            },
        },
        {  # an older server: no name, so the Ahiko room's id says which room it was
            "id": 3,
            "kind": "buy_in",
            "amount": -500,
            "at": "2026-11-30T00:23:00+00:00",
            "reason": "room classica-9a9a9a-2",
            "balance": 5000,
            "participation": {"id": 1, "room_id": "classica-9a9a9a-2", "net": None},
        },
        {  # no name and an id that says nothing: a readable word, never the id
            "id": 2,
            "kind": "reload",
            "amount": -20,
            "at": "2026-11-30T00:22:00+00:00",
            "reason": None,
            "balance": 5500,
            "participation": {"id": 9, "room_id": "r-7pcSOSj0", "room_name": None, "net": None},
        },
        {
            "id": 1,
            "kind": "signup",
            "amount": 5520,
            "at": "2026-11-30T00:21:38+00:00",
            "reason": None,
            "balance": 5520,
            "participation": None,
        },
    ],
}
WALLET = {
    "balance": 5002,
    "in_seats": 0,
    "total": 5002,
    "claim": {"available": False, "amount": 1000, "below": 100, "next_at": None},
}


def statement_texts(page: Any) -> list[str]:
    return page.eval_on_selector_all(
        ".statement tbody tr td:nth-child(2)", "tds => tds.map(td => td.textContent)"
    )


@pytest.mark.parametrize("viewport", SIZES)
def test_item6_item20_statement_names_rooms_and_the_spent_claim_looks_disabled(
    browser, static_url, viewport
):
    page = mocked_app(
        browser,
        static_url,
        {"/api/me": ME, "/api/wallet": WALLET, "/api/wallet/statement": STATEMENT},
        viewport,
        **sized(viewport),
    )
    page.goto(f"{static_url}/src/ahiko/web/index.html#/wallet")
    page.wait_for_selector('.statement tr[data-kind="signup"]')
    texts = statement_texts(page)
    assert texts[:4] == [
        "Saída da mesa · sala Iniciante 1 · resultado +2",
        "Entrada na mesa · sala Iniciante 1",
        "Entrada na mesa · sala Clássica 2",
        "Recarga · sala Ahiko",
    ]
    assert not any("104daf" in x or "9a9a9a" in x or "r-7pc" in x for x in texts)
    # Item 20: the claim that is not available now does not look like the thing to press.
    claim = '[data-wallet="claim"]'
    assert page.is_disabled(claim)
    look = page.eval_on_selector(
        claim,
        """b => { const s = getComputedStyle(b);
                 return {bg: s.backgroundColor, cursor: s.cursor, color: s.color}; }""",
    )
    assert look["bg"] != "rgb(31, 111, 67)"  # the primary green
    assert look["cursor"] == "not-allowed"
    screenshot(page, f"pages-wallet-{tag(viewport)}")
    page.click(".lang-switch")
    page.wait_for_selector('.statement tr[data-kind="signup"]')
    assert statement_texts(page)[:4] == [
        "Table exit · room Beginner 1 · result +2",
        "Table entry · room Beginner 1",
        "Table entry · room Classic 2",
        "Reload · Ahiko room",
    ]
    close(page)


@pytest.mark.parametrize("viewport", SIZES)
def test_item13_item20_create_form_says_what_comes_next_and_labels_the_interval(
    browser, static_url, viewport
):
    page = mocked_app(browser, static_url, {"/api/me": ME}, viewport, **sized(viewport))
    page.goto(f"{static_url}/src/ahiko/web/index.html#/create")
    page.wait_for_selector(".create-form")
    steps = page.eval_on_selector_all(".next-steps li", "lis => lis.map(li => li.textContent)")
    assert len(steps) == 3
    assert "“Sentar”" in steps[0]
    assert "“Adicionar bot”" in steps[1] and "link" in steps[1]
    assert "“Iniciar”" in steps[2] and "“Sala”" in steps[2]

    def every_label() -> str:
        return page.eval_on_selector('label[for="doubling_every"]', "l => l.firstChild.textContent")

    assert every_label() == "Intervalo"  # not a bare "N"
    assert page.is_disabled("#doubling_every")
    page.check('input[name="doubling"][value="hands"]')
    assert every_label() == "Mãos entre cada dobra"
    assert page.is_enabled("#doubling_every")
    page.check('input[name="doubling"][value="minutes"]')
    assert every_label() == "Minutos entre cada dobra"
    page.check('input[name="limit"][value="minutes"]')
    assert (
        page.eval_on_selector('label[for="limit_value"]', "l => l.firstChild.textContent")
        == "Duração em minutos"
    )
    page.check('input[name="doubling"][value="hands"]')
    page.eval_on_selector(".next-steps", "e => e.scrollIntoView({block: 'center'})")
    screenshot(page, f"pages-create-{tag(viewport)}")
    page.click(".lang-switch")
    page.wait_for_selector(".next-steps li")
    steps = page.eval_on_selector_all(".next-steps li", "lis => lis.map(li => li.textContent)")
    assert "“Sit”" in steps[0] and "“Add bot”" in steps[1] and "“Start”" in steps[2]
    assert every_label() == "Interval"
    close(page)


@pytest.mark.parametrize("viewport", SIZES)
def test_item20_sign_up_states_the_password_rule_up_front(browser, static_url, viewport):
    page = mocked_app(browser, static_url, {}, viewport, signed_in=False, **sized(viewport))
    page.goto(f"{static_url}/src/ahiko/web/index.html#/signup")
    page.wait_for_selector("#auth-password")
    assert page.inner_text("#auth-password-rule") == "Pelo menos 8 caracteres."
    assert page.get_attribute("#auth-password", "aria-describedby") == "auth-password-rule"
    assert "3 a 20" in page.inner_text("#auth-username-rule")
    page.fill("#auth-username", "rui")
    page.fill("#auth-password", "curta")
    page.click('[data-auth="signup"]')
    # The browser's own bubble says the rule in the page's language.
    assert page.eval_on_selector("#auth-password", "i => i.validationMessage") == (
        "Pelo menos 8 caracteres."
    )
    page.wait_for_timeout(600)  # the bubble fades in
    screenshot(page, f"pages-signup-{tag(viewport)}")
    close(page)


def test_item20_sign_up_errors_in_the_players_language(browser, static_url):
    page = mocked_app(browser, static_url, {}, signed_in=False)

    def taken(route: Any) -> None:
        route.fulfill(
            status=409,
            content_type="application/json",
            body='{"error": "username_taken", "message": "username \'rui\' is taken"}',
        )

    page.route("**/api/accounts", taken)
    page.goto(f"{static_url}/src/ahiko/web/index.html#/signup")
    page.wait_for_selector("#auth-password")
    page.fill("#auth-username", "rui")
    page.fill("#auth-password", "segredo-longo")
    page.click('[data-auth="signup"]')
    page.wait_for_selector(".error:not(:empty)")
    assert page.inner_text(".error") == "Esse nome de usuário já existe. Escolha outro."
    # The browser logs the refused request itself; nothing else may go wrong.
    page.console_errors[:] = [e for e in page.console_errors if "409" not in e]
    close(page)


def hands_routes() -> dict[str, Any]:
    return {"/api/me": ME, "/api/hands": hand_page, "/api/hands/42": HAND, "/api/hands/20": HAND}


def step_texts(page: Any) -> list[str]:
    """Every step's text, from the first to the last."""
    if page.is_enabled('[data-replay="first"]'):
        page.click('[data-replay="first"]')
    texts = [page.inner_text(".replay-event")]
    while not page.is_disabled('[data-replay="next"]'):
        page.click('[data-replay="next"]')
        texts.append(page.inner_text(".replay-event"))
    return texts


@pytest.mark.parametrize("viewport", SIZES)
def test_item15_replay_scrolls_into_view_and_says_each_step(browser, static_url, viewport):
    page = mocked_app(browser, static_url, hands_routes(), viewport, **sized(viewport))
    page.goto(f"{static_url}/src/ahiko/web/index.html#/hands")
    page.wait_for_selector('tr[data-hand="42"]')
    page.click('tr[data-hand="42"] [data-replay="open"]')
    page.wait_for_selector(".replayer .seat")
    # Scrolled to: the whole replayer, its title to its controls, is on the screen.
    page.wait_for_function(
        "() => { const r = document.querySelector('.replayer').getBoundingClientRect();"
        " return r.top >= 0 && r.bottom <= innerHeight && scrollY > 0; }",
        timeout=LIVE_WAIT_MS,
    )
    assert page.inner_text(".replayer h2") == "Mesa da Ana · Mão nº 7"
    when = page.inner_text(".replay-when")
    assert "Hold'em sem limite" in when and "2026" in when
    assert page.evaluate("document.activeElement.tagName") == "H2"  # read out on opening
    assert page.locator('tr.replaying[data-hand="42"]').count() == 1
    screenshot(page, f"pages-replay-start-{tag(viewport)}")

    texts = step_texts(page)
    assert len(texts) == len(HAND["events"]) - 1
    assert all(texts), texts
    assert texts[0] == "Mão nº 42 começou"
    assert texts[1] == "Suas cartas: dama de ouros, dama de espadas"
    assert texts[2] == "Ana posta SB 10"
    assert "Bruno: All-in" in texts
    assert "Caio: Aumentou para 60" in texts
    assert texts[-2] == "Pote principal: joao ganha 75 com Full house, damas e cincos"
    assert texts[-1].startswith("Pote lateral 1: joao ganha 180")
    assert page.inner_text(".replay-step") == f"Passo {len(texts)} de {len(texts)}"
    page.click('[data-replay="prev"]')
    page.click('[data-replay="prev"]')
    screenshot(page, f"pages-replay-showdown-{tag(viewport)}")
    # The arrow keys step too, and the close button puts the list back.
    page.focus('[data-replay="first"]')
    page.keyboard.press("ArrowRight")
    assert page.inner_text(".replay-event") == texts[-2]
    page.click('[data-replay="close"]')
    page.wait_for_selector(".replayer", state="detached")
    assert page.evaluate("location.hash") == "#/hands"
    close(page)


def test_item15_replay_keeps_the_lists_page_and_speaks_english(browser, static_url):
    page = mocked_app(browser, static_url, hands_routes(), lang="en")
    page.goto(f"{static_url}/src/ahiko/web/index.html#/hands")
    page.wait_for_selector('tr[data-hand="42"]')
    page.click('[data-pager="older"]')
    page.wait_for_selector('tr[data-hand="20"]')
    page.click('tr[data-hand="20"] [data-replay="open"]')
    page.wait_for_selector(".replayer .seat")
    assert page.inner_text(".pager-page") == "Page 2 of 2"  # the list did not start over
    assert page.inner_text(".replayer h2") == "Mesa da Ana · Hand #7"
    texts = step_texts(page)
    assert texts[1] == "Your cards: queen of diamonds, queen of spades"
    assert texts[-2] == "Main pot: joao wins 75 with Full house, queens full of fives"
    page.go_back()  # back to the list without the replayer
    page.wait_for_selector(".replayer", state="detached")
    assert page.inner_text(".pager-page") == "Page 2 of 2"
    close(page)


# --- second walkthrough (/tmp/ux2/REPORT.md) ---------------------------------------------------


def server_hand() -> dict[str, Any]:
    """HAND as the server's replay sends it: its hand_started event carries no hand_no."""
    events = [dict(e) for e in HAND["events"]]
    events[0].pop("hand_no", None)
    return {**HAND, "events": events}


@pytest.mark.parametrize("viewport", SIZES)
def test_n2_the_replayers_first_step_names_the_hand(browser, static_url, viewport):
    routes = {**hands_routes(), "/api/hands/42": server_hand()}
    page = mocked_app(browser, static_url, routes, viewport, **sized(viewport))
    page.goto(f"{static_url}/src/ahiko/web/index.html#/hands/42")
    page.wait_for_selector(".replayer .seat")
    assert page.inner_text(".replay-step").startswith("Passo 1 de")
    assert page.inner_text(".replay-event") == "Mão nº 7 começou"
    page.click(".lang-switch")
    page.wait_for_function("() => document.documentElement.lang === 'en'")
    page.wait_for_selector(".replayer .seat")
    assert page.inner_text(".replay-event") == "Hand #7 started"
    close(page)


def step_is(page: Any, text: str) -> None:
    page.wait_for_function(
        "t => document.querySelector('.replay-step')?.textContent === t",
        arg=text,
        timeout=LIVE_WAIT_MS,
    )


@pytest.mark.parametrize("viewport", SIZES)
def test_n3_switching_language_keeps_the_replayers_step(browser, static_url, viewport):
    routes = {**hands_routes(), "/api/hands/21": HAND}
    page = mocked_app(browser, static_url, routes, viewport, **sized(viewport))
    page.goto(f"{static_url}/src/ahiko/web/index.html#/hands")
    page.wait_for_selector('tr[data-hand="42"]')
    page.click('[data-pager="older"]')
    page.wait_for_selector('tr[data-hand="20"]')
    page.click('tr[data-hand="20"] [data-replay="open"]')
    page.wait_for_selector(".replayer .seat")
    page.click('[data-replay="last"]')
    steps = page.inner_text(".replay-step")
    total = int(steps.rsplit(" ", 1)[1])
    page.click('[data-replay="prev"]')  # the main pot's step, one before the last
    assert page.inner_text(".replay-event").startswith("Pote principal: joao ganha 75")
    page.click(".lang-switch")
    page.wait_for_function("() => document.documentElement.lang === 'en'")
    page.wait_for_selector(".replayer .seat")
    step_is(page, f"Step {total - 1} of {total}")
    assert page.inner_text(".replay-event").startswith("Main pot: joao wins 75")
    assert page.inner_text(".pager-page") == "Page 2 of 2"  # the list kept its page too
    assert page.locator('tr.replaying[data-hand="20"]').count() == 1
    # and back: still the same step, in Portuguese
    page.click(".lang-switch")
    page.wait_for_function("() => document.documentElement.lang === 'pt-BR'")
    step_is(page, f"Passo {total - 1} de {total}")
    # a hand opened afterwards starts at its first step
    page.click('[data-replay="close"]')
    page.wait_for_selector(".replayer", state="detached")
    page.click('tr[data-hand="21"] [data-replay="open"]')
    page.wait_for_selector(".replayer .seat")
    step_is(page, f"Passo 1 de {total}")
    close(page)


def test_item6_english_hands_list_names_ahiko_rooms_in_english(browser, static_url):
    def ahiko_hands(query: dict[str, str]) -> dict[str, Any]:
        found = hand_page(query)
        for hand in found["hands"]:
            hand.update(room_id="iniciante-104daf-2", room_name="Iniciante 2", room_kind="ahiko")
        return found

    page = mocked_app(browser, static_url, {"/api/me": ME, "/api/hands": ahiko_hands}, lang="en")
    page.goto(f"{static_url}/src/ahiko/web/index.html#/hands")
    page.wait_for_selector('tr[data-hand="42"]')
    assert page.inner_text('tr[data-hand="42"] td:nth-child(2) .hand-room-name') == "Beginner 2"
    close(page)


def test_item22_downloads_carry_the_same_file_names_as_the_table(browser, static_url):
    page = mocked_app(browser, static_url, hands_routes())
    page.goto(f"{static_url}/src/ahiko/web/index.html#/hands")
    page.wait_for_selector('tr[data-hand="42"]')
    names = page.eval_on_selector_all(
        'tr[data-hand="42"] a[data-format]', "as => as.map(a => a.getAttribute('download'))"
    )
    # `<room>-hand<N>-proof.json`, as the server's Content-Disposition and the table's
    # "Baixar provas" name it.
    assert names == ["ahiko-r1-hand7.txt", "ahiko-r1-hand7.phh", "ahiko-r1-hand7-proof.json"]
    module = f"{static_url}/src/ahiko/web/js/pages/names.js"
    odd = page.evaluate("async m => (await import(m)).handFilename('sala/ä 1', 3, 'proof')", module)
    assert odd == "ahiko-sala_1-hand3-proof.json"  # the server's rule for unsafe characters
    close(page)


def test_item23_phone_hands_rows_keep_the_downloads_on_one_line(browser, static_url):
    page = mocked_app(browser, static_url, hands_routes(), PHONE, **sized(PHONE))
    page.goto(f"{static_url}/src/ahiko/web/index.html#/hands")
    page.wait_for_selector('tr[data-hand="42"]')
    screenshot(page, "pages-hands-phone")
    links = page.eval_on_selector_all(
        'tr[data-hand="42"] a[data-format]',
        """as => as.map(a => { const r = a.getBoundingClientRect();
              return {text: a.innerText.trim(), label: a.getAttribute('aria-label'),
                      top: Math.round(r.top), height: r.height}; })""",
    )
    assert [x["text"] for x in links] == ["Texto", "PHH", "Prova"]
    assert [x["label"] for x in links] == ["Texto PokerStars", "PHH", "Provas"]
    assert len({x["top"] for x in links}) == 1  # one line
    row = page.eval_on_selector('tr[data-hand="42"]', "r => r.getBoundingClientRect().height")
    assert row < 80, row  # a two-line card; was about 88 px, links wrapped over four lines
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], width  # nothing sticks out sideways
    close(page)


def test_item23_desktop_hands_rows_keep_the_full_labels(browser, static_url):
    page = mocked_app(browser, static_url, hands_routes())
    page.goto(f"{static_url}/src/ahiko/web/index.html#/hands")
    page.wait_for_selector('tr[data-hand="42"]')
    text = page.inner_text('tr[data-hand="42"] .downloads')
    assert text.replace("\n", " ").split() == ["Texto", "PokerStars", "·", "PHH", "·", "Provas"]
    screenshot(page, "pages-hands-desktop")
    close(page)


def test_R_DR_04_D_R_DR_09_D_the_draw_form_sets_both_bet_sizes_the_cap_and_the_hand_limit(
    browser, static_url
):
    """The host of a draw room sets the small bet, the big bet (following twice the small bet
    until set), the cap, and the number of hands (100 unless chosen; "no limit" is sent as
    such, not left to the server's draw default of 100)."""
    page = mocked_app(browser, static_url, {"/api/me": ME}, DESKTOP)
    sent: list[dict[str, Any]] = []

    def create(route: Any) -> None:
        sent.append(json.loads(route.request.post_data))
        route.fulfill(status=200, content_type="application/json", body='{"id": "r1"}')

    page.route("**/api/rooms", create)
    page.goto(f"{static_url}/src/ahiko/web/index.html#/create")
    page.wait_for_selector(".create-form")
    assert page.is_hidden("#big_bet")
    page.check('input[name="variant"][value="draw"]')
    assert page.input_value("#big_bet") == "4" and page.input_value("#raise_cap") == "4"
    assert page.is_checked('input[name="limit"][value="hands"]')
    assert page.input_value("#limit_value") == "100"
    page.fill("#small_bet", "5")
    assert page.input_value("#big_bet") == "10"
    page.fill("#big_bet", "15")
    page.fill("#small_bet", "6")
    assert page.input_value("#big_bet") == "15"  # the host's own figure stays
    page.fill("#raise_cap", "3")
    page.fill("#name", "Draw night")
    page.click('[data-create="submit"]')
    page.wait_for_function("() => location.hash.startsWith('#/room/')")
    page.goto(f"{static_url}/src/ahiko/web/index.html#/create")
    page.wait_for_selector(".create-form")
    page.check('input[name="variant"][value="draw"]')
    page.check('input[name="limit"][value="none"]')
    page.fill("#name", "Endless draw")
    page.click('[data-create="submit"]')
    page.wait_for_function("() => location.hash.startsWith('#/room/')")
    first, second = sent
    assert (first["small_bet"], first["big_bet"], first["raise_cap"]) == (6, 15, 3)
    assert first["limit_hands"] == 100
    assert second["limit_hands"] == "no_limit" and second["big_bet"] == 4
    # The mocked API has no table to open a socket to; anything else in the console fails.
    errors = [e for e in page.console_errors if "/ws/rooms/r1" not in e]
    page.context.close()
    assert errors == []


NEW_PLAYER_PROFILE = {
    "name": "joao",
    "hands": 0,
    "vpip": None,
    "pfr": None,
    "aggression": None,
    "showdown_win_rate": None,
    "tiers": [],
    "results": [],
    "tournaments": {"played": 0, "finished": 0, "wins": 0, "best": []},
}


@pytest.mark.parametrize("viewport", SIZES)
def test_a_new_players_profile_says_there_is_nothing_yet_instead_of_empty_boxes(
    browser, static_url, viewport
):
    page = mocked_app(
        browser,
        static_url,
        {"/api/me": ME, "/api/players/joao/profile": NEW_PLAYER_PROFILE},
        viewport,
        **sized(viewport),
    )
    page.goto(f"{static_url}/src/ahiko/web/index.html#/players/joao")
    page.wait_for_selector('[data-empty="results"]')
    assert page.locator("table.tiers").count() == 0
    assert page.locator(".results-graph").count() == 0
    assert page.text_content('[data-empty="tiers"]') == "Nenhuma mão nas salas Ahiko ainda."
    screenshot(page, f"pages-profile-new-{tag(viewport)}")
    close(page)
