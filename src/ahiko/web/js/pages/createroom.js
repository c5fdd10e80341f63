// The create-room form: every option of a recreational room or a tournament (R-RM-03,
// R-RM-04, R-RM-18, R-TN-02, R-TN-03). Fields that do not apply to the chosen game hide.

import { api, errorText } from "../api.js";
import { h } from "../dom.js";
import { allGames, gameOf, gameTitle, postsBlinds } from "../games.js";
import { optionFields, readOptions } from "../houseoptions.js";
import { lang, t } from "../i18n.js";
import { roomLink } from "./lobby.js";

function numberField(id, key, value, { min = 1, max, step = 1 } = {}) {
  const input = h(`input#${id}`, { type: "number", name: id, value: String(value), min: String(min), step: String(step), required: true });
  if (max !== undefined) input.max = String(max);
  return { input, label: h("label", { htmlFor: id }, t(key), input) };
}

/** Replace a numberField's label text, keeping its input. */
function setLabel(field, key) {
  const text = field.label.firstChild;
  if (text?.nodeType === Node.TEXT_NODE) text.textContent = t(key);
}

function radios(name, key, options, checked) {
  return h(
    "fieldset",
    { dataset: { field: name } },
    h("legend", t(key)),
    options.map(([value, text]) =>
      h("label.radio", h("input", { type: "radio", name, value, checked: value === checked }), text),
    ),
  );
}

/** The request body for POST /api/rooms (ahiko/rooms/api.py CreateRoom) from the form. */
export function roomOptions(form) {
  const v = (name) => form.elements[name]?.value;
  const n = (name) => Number.parseInt(v(name), 10);
  const variant = v("variant");
  const body = {
    name: v("name").trim(),
    kind: v("kind"),
    variant,
    seats: n("seats"),
    starting_chips: n("starting_chips"),
    public: v("visibility") === "public",
    blind_increase: v("doubling"),
  };
  if (body.kind === "recreational") body.approve_players = v("approve") === "yes";
  if (body.kind === "recreational" && form.elements.opt_straddle) body.options = readOptions(form);
  if (v("doubling") !== "never") body.blind_every = n("doubling_every");
  if (v("deadline") !== "none") body.action_deadline_s = n("deadline_seconds");
  if (v("limit") === "hands") body.limit_hands = n("limit_value");
  if (v("limit") === "none") body.limit_hands = "no_limit"; // R-DR-09 D: draw would default to 100
  if (v("limit") === "minutes") body.limit_minutes = n("limit_value");
  if (postsBlinds(gameOf(variant))) {
    body.small_blind = n("small_blind");
    body.big_blind = n("big_blind");
  } else {
    body.ante = n("ante");
    body.small_bet = n("small_bet");
    body.big_bet = n("big_bet"); // R-DR-04 D: the host sets both sizes and the cap
    body.raise_cap = n("raise_cap");
  }
  return body;
}

export function createRoomPage(main) {
  const name = h("input#name", { name: "name", required: true, maxLength: 40, value: "" });
  const seats = numberField("seats", "create.seats", 8, { min: 2, max: 9 }); // R-HE-01: 8 by default
  const chips = numberField("starting_chips", "create.starting_chips", 1000);
  const sb = numberField("small_blind", "create.small_blind", 10);
  const bb = numberField("big_blind", "create.big_blind", 20);
  const ante = numberField("ante", "create.ante", 1, { min: 0 });
  const smallBet = numberField("small_bet", "create.small_bet", 2);
  const bigBet = numberField("big_bet", "create.big_bet", 4);
  const raiseCap = numberField("raise_cap", "create.raise_cap", 4, { max: 100 });
  const every = numberField("doubling_every", "create.doubling_every", 10);
  const deadline = numberField("deadline_seconds", "create.deadline_seconds", 20, { min: 5, max: 300 });
  const limit = numberField("limit_value", "create.limit_value", 100);
  const error = h("p.error.full", { role: "alert" });
  const notice = h("p.notice.full", { role: "status" });
  // What the host does once the room exists (the table shows the same steps as a checklist).
  const nextSteps = h(
    "section.next-steps.full",
    { "aria-labelledby": "next-steps-title" },
    h("h2#next-steps-title", t("create.next.title")),
    h(
      "ol",
      h("li", t("create.next.sit", { sit: t("table.sit") })),
      h("li", t("create.next.players", { menu: t("menu.title"), add: t("menu.add_bot") })),
      h("li", t("create.next.start", { start: t("menu.start"), menu: t("menu.title") })),
    ),
  );
  const holdemFields = h("fieldset.holdem-only", h("legend", "Blinds"), sb.label, bb.label);
  const drawFields = h("fieldset.draw-only", h("legend", t("game.draw")), ante.label, smallBet.label, bigBet.label, raiseCap.label, h("p.hint", t("create.big_bet_hint")));

  const form = h(
    "form.create-form",
    { novalidate: false },
    h("label.full", { htmlFor: "name" }, t("create.name"), name),
    radios("kind", "create.kind", [["recreational", t("create.kind.recreational")], ["tournament", t("create.kind.tournament")]], "recreational"),
    radios("variant", "create.variant", allGames().map((g) => [g.name, gameTitle(g.name, lang())]), "holdem"),
    h("fieldset", h("legend", t("create.seats")), seats.label, h("span.hint", t("create.seats_hint")), chips.label),
    holdemFields,
    drawFields,
    h(
      "fieldset",
      { dataset: { field: "doubling" } },
      h("legend", t("create.doubling")),
      ...["never", "hands", "minutes"].map((v) =>
        h("label.radio", h("input", { type: "radio", name: "doubling", value: v, checked: v === "never" }), t(`create.doubling.${v}`)),
      ),
      every.label,
    ),
    h(
      "fieldset",
      { dataset: { field: "deadline" } },
      h("legend", t("create.deadline")),
      ...["seconds", "none"].map((v) =>
        h("label.radio", h("input", { type: "radio", name: "deadline", value: v, checked: v === "seconds" }), v === "none" ? t("create.deadline.none") : t("create.deadline_seconds")),
      ),
      deadline.label,
    ),
    radios("visibility", "create.visibility", [["public", t("create.visibility.public")], ["private", t("create.visibility.private")]], "public"),
    radios("approve", "create.approve", [["no", t("create.approve.no")], ["yes", t("create.approve.yes")]], "no"),
    Object.assign(optionFields(), { className: "house-options full" }), // the whole row
    h(
      "fieldset",
      { dataset: { field: "limit" } },
      h("legend", t("create.limit")),
      ...["none", "hands", "minutes"].map((v) =>
        h("label.radio", h("input", { type: "radio", name: "limit", value: v, checked: v === "none" }), t(`create.limit.${v}`)),
      ),
      limit.label,
    ),
    nextSteps,
    error,
    notice,
    h(
      "div.dialog-buttons.full",
      h("a", { href: "#/lobby/public", class: "button-link" }, t("create.cancel")),
      h("button.primary", { type: "submit", dataset: { create: "submit" } }, t("create.submit")),
    ),
  );

  function sync() {
    const variant = form.elements.variant.value;
    const game = gameOf(variant);
    const kind = form.elements.kind.value;
    // Blinds for the games that post them (hold'em, Omaha), the ante and fixed bets for draw.
    const blinds = postsBlinds(game);
    holdemFields.hidden = !blinds;
    drawFields.hidden = blinds;
    for (const el of holdemFields.querySelectorAll("input")) el.disabled = !blinds;
    for (const el of drawFields.querySelectorAll("input")) el.disabled = blinds;
    const [lo, hi] = [game.min_players, game.max_players];
    seats.input.min = String(lo);
    seats.input.max = String(hi);
    if (Number(seats.input.value) > hi) seats.input.value = String(hi);
    // The interval's label says what it counts: hands or minutes between two doublings.
    const doubling = form.elements.doubling.value;
    every.input.disabled = doubling === "never";
    setLabel(every, doubling === "never" ? "create.doubling_every" : `create.doubling_every.${doubling}`);
    deadline.input.disabled = form.elements.deadline.value === "none";
    const limitKind = form.elements.limit.value;
    limit.input.disabled = limitKind === "none";
    setLabel(limit, limitKind === "none" ? "create.limit_value" : `create.limit_value.${limitKind}`);
    if (kind === "tournament" && chips.input.dataset.touched !== "1") chips.input.value = "1000";
    // R-DR-03/R-DR-04 D: the big bet follows twice the small bet until the host sets it.
    if (bigBet.input.dataset.touched !== "1") bigBet.input.value = String(2 * (Number.parseInt(smallBet.input.value, 10) || 1));
    // R-DR-09 D: a draw match has 100 hands unless the host chose otherwise.
    if (game.has_draw && limit.input.dataset.touched !== "1" && form.dataset.limitTouched !== "1") {
      form.elements.limit.value = "hands";
      limit.input.disabled = false;
      setLabel(limit, "create.limit_value.hands");
    }
    // R-TN-03: tournament blinds start at 25/50 unless the host chose others.
    if (kind === "tournament" && sb.input.dataset.touched !== "1" && bb.input.dataset.touched !== "1") {
      sb.input.value = "25";
      bb.input.value = "50";
    }
  }
  for (const field of [chips, sb, bb, bigBet, limit]) {
    field.input.addEventListener("input", () => {
      field.input.dataset.touched = "1";
    });
  }
  smallBet.input.addEventListener("input", sync);
  form.addEventListener("change", (ev) => {
    if (ev.target?.name === "limit") form.dataset.limitTouched = "1";
    sync();
  });
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    error.textContent = "";
    const body = roomOptions(form);
    if (postsBlinds(gameOf(body.variant)) && body.big_blind < body.small_blind) {
      error.textContent = `${t("create.big_blind")} < ${t("create.small_blind")}`;
      return;
    }
    try {
      const room = await api.createRoom(body);
      const id = room?.id ?? room?.room_id;
      notice.textContent = t("create.created", { link: roomLink(id) });
      location.hash = `#/room/${encodeURIComponent(id)}`;
    } catch (err) {
      error.textContent = errorText(err);
    }
  });
  sync();
  main.append(h("h1", t("create.title")), form);
  name.focus();
  return {};
}
