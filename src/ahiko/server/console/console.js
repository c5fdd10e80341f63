// The operators' console: reports, accounts, rooms, the Bot Ahiko, the ledger, the
// audit log. pt-BR first, English second; the language is the site's (localStorage).
// Every action asks for a reason and the server writes it to the audit log.

const STORAGE_KEY = "ahiko.lang";
const CSRF = { "X-Ahiko-CSRF": "1" };

const WORDS = {
  "pt-BR": {
    title: "Console do operador", reports: "Denúncias", accounts: "Contas", rooms: "Salas",
    bot: "Bot Ahiko", ledger: "Razão", audit: "Auditoria", lang: "English",
    code_needed: "Digite o código de uso único impresso por `ahiko admin operator add`.",
    code: "Código", confirm: "Confirmar", reason: "Motivo", search: "Buscar", open: "Abrir",
    mute: "Silenciar chat", unmute: "Reativar chat", suspend: "Suspender", lift: "Reativar conta",
    grant: "Conceder moedas", amount: "Quantia", minutes: "Minutos",
    close: "Fechar sala", watch: "Assistir", resolve: "Resolver", note: "Nota",
    action: "Ação", none: "nenhuma", warned: "advertido", muted: "silenciado", suspended: "suspenso",
    resolved: "Resolvida", pending: "Pendente", reporter: "Denunciante", author: "Autor",
    line: "Linha", balance: "Saldo", in_seats: "Nas mesas", created: "Criada em",
    statement: "Extrato", when: "Quando", kind: "Tipo", who: "Quem", what: "O quê",
    target: "Sobre", status: "Estado", seats: "Lugares", hand: "Mão", name: "Nome",
    reserve: "Reserva", ledger_ok: "O razão fecha: nenhuma violação.",
    ledger_bad: "Violações encontradas:", check: "Verificar agora", done: "Feito.",
    muted_until: "Chat silenciado", suspended_by: "Conta suspensa", nothing: "Nada aqui.",
    refresh: "Atualizar", detail: "Detalhe", signals: "Sinais",
    signals_note: "Medidas do arquivo de mãos; nada é automático: o operador decide.",
    chip_flow: "Fluxo de fichas", soft_play: "Jogo suave", shared_address: "Mesmo endereço",
    account_burst: "Contas em rajada", hands: "Mãos", measured: "O que foi medido",
    notice_text: "Aviso", notice_all: "Avisar a todos", notice_room: "Avisar",
    fairness: "Embaralhamento", withheld: "Segredos retidos", last: "Último",
    fairness_note: "Navegadores que se comprometeram com um segredo e não o revelaram antes das cartas (o substituto público entrou no lugar; a mão seguiu). Nada é automático: o operador decide.",
    crash_cancellations: "Mãos canceladas depois das cartas (queda de um servidor)",
    errors: {
      wrong_code: "Esse não é o código impresso para você.",
      not_an_operator: "O console é só para operadores.",
      code_needed: "Digite primeiro o código de uso único.",
      no_room: "Essa sala não está aberta neste nó.",
      no_account: "Essa conta não existe.",
      not_muted: "O chat dessa conta não está silenciado.",
      already_suspended: "Essa conta já está suspensa.",
      not_suspended: "Essa conta não está suspensa.",
      already_resolved: "Essa denúncia já foi resolvida.",
      own_account: "Um operador não pode suspender a própria conta.",
      invalid_request: "Verifique os campos: o motivo tem de 3 a 400 letras; a quantia de 1 a 1.000.000.",
    },
  },
  en: {
    title: "Operator console", reports: "Reports", accounts: "Accounts", rooms: "Rooms",
    bot: "Bot Ahiko", ledger: "Ledger", audit: "Audit log", lang: "Português",
    code_needed: "Type the one-time code printed by `ahiko admin operator add`.",
    code: "Code", confirm: "Confirm", reason: "Reason", search: "Search", open: "Open",
    mute: "Mute chat", unmute: "Unmute chat", suspend: "Suspend", lift: "Lift suspension",
    grant: "Grant coins", amount: "Amount", minutes: "Minutes",
    close: "Close room", watch: "Watch", resolve: "Resolve", note: "Note",
    action: "Action", none: "none", warned: "warned", muted: "muted", suspended: "suspended",
    resolved: "Resolved", pending: "Pending", reporter: "Reporter", author: "Author",
    line: "Line", balance: "Balance", in_seats: "At tables", created: "Created",
    statement: "Statement", when: "When", kind: "Kind", who: "Who", what: "What",
    target: "About", status: "Status", seats: "Seats", hand: "Hand", name: "Name",
    reserve: "Reserve", ledger_ok: "The ledger balances: no violation.",
    ledger_bad: "Violations found:", check: "Check now", done: "Done.",
    muted_until: "Chat muted", suspended_by: "Account suspended", nothing: "Nothing here.",
    refresh: "Refresh", detail: "Detail", signals: "Signals",
    signals_note: "Measured from the hand archive; nothing is automatic: an operator decides.",
    chip_flow: "Chip flow", soft_play: "Soft play", shared_address: "Shared address",
    account_burst: "Account burst", hands: "Hands", measured: "What was measured",
    notice_text: "Notice", notice_all: "Notice to everyone", notice_room: "Notice",
    fairness: "Fair deal", withheld: "Secrets withheld", last: "Last",
    fairness_note: "Browsers that committed to a secret and did not reveal it before the cards (the public fallback stood in; the hand went on). Nothing is automatic: an operator decides.",
    crash_cancellations: "Hands cancelled after their cards (a server crashed)",
    errors: {
      wrong_code: "That is not the code printed for you.",
      not_an_operator: "The console is for operators only.",
      code_needed: "Type the one-time code first.",
      no_room: "That room is not open on this node.",
      no_account: "There is no such account.",
      not_muted: "This account's chat is not muted.",
      already_suspended: "This account is already suspended.",
      not_suspended: "This account is not suspended.",
      already_resolved: "This report was already resolved.",
      own_account: "An operator cannot suspend its own account.",
      invalid_request: "Check the fields: a reason has 3 to 400 letters; an amount 1 to 1,000,000.",
    },
  },
};

let lang = (() => { try { return localStorage.getItem(STORAGE_KEY) === "en" ? "en" : "pt-BR"; } catch { return "pt-BR"; } })();
const t = (key) => WORDS[lang][key] ?? key;
let tab = "reports";

function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (value !== undefined && value !== null) node.setAttribute(key, value);
  }
  for (const child of children.flat()) {
    if (child !== null && child !== undefined) node.append(child instanceof Node ? child : String(child));
  }
  return node;
}

async function call(method, path, body) {
  const response = await fetch(`/api/admin${path}`, {
    method,
    headers: body ? { "Content-Type": "application/json", ...CSRF } : CSRF,
    body: body ? JSON.stringify(body) : undefined,
    credentials: "same-origin",
  });
  const data = await response.json().catch(() => ({}));
  if (!response.ok) {
    const code = data.error ?? "error";
    throw new Error(WORDS[lang].errors[code] ?? data.message ?? code);
  }
  return data;
}


function say(text, ok = true) {
  const status = document.getElementById("console-status");
  status.textContent = text;
  status.className = `console-status ${ok ? "ok" : "error"}`;
}

async function act(method, path, body, then) {
  // "Done" is said once the view shows the change: said before the re-render, it let an
  // operator start typing into a form that the re-render then emptied.
  say("");
  try {
    await call(method, path, body);
    await then();
    say(t("done"));
  } catch (error) {
    say(error.message, false);
  }
}

function reasonField(id) {
  return h("input", { id, "data-testid": id, placeholder: t("reason"), "aria-label": t("reason"), maxlength: "400" });
}

function value(id) {
  return document.getElementById(id).value.trim();
}

function table(headers, rows) {
  if (!rows.length) return h("p", {}, t("nothing"));
  return h("table", {}, h("thead", {}, h("tr", {}, headers.map((x) => h("th", {}, x)))), h("tbody", {}, rows));
}

const when = (iso) => new Date(iso).toLocaleString(lang);

// --- the tabs ---------------------------------------------------------------------------------
async function reports(main) {
  const found = await call("GET", "/reports");
  main.append(h("section", { "data-testid": "reports" }, h("h2", {}, t("reports")), table(
    [t("when"), t("author"), t("line"), t("reporter"), t("status")],
    found.map((report) => h("tr", { "data-testid": `report-${report.id}` },
      h("td", {}, when(report.at)),
      h("td", {}, h("button", { "data-testid": `report-author-${report.id}`, onclick: () => showAccount(report.author_id) }, report.author_name)),
      h("td", {}, h("q", {}, report.text), report.reason ? h("div", {}, `${t("reason")}: ${report.reason}`) : null,
        h("ol", { class: "chat-around" }, report.around.map((line) =>
          h("li", { class: line.no === report.no ? "reported" : "", value: String(line.no) }, `${line.name}: ${line.text}`)))),
      h("td", {}, report.reporter_id),
      h("td", {}, report.resolution
        ? `${t("resolved")}: ${t(report.resolution.action)} ${report.resolution.note}`
        : h("div", { class: "console-form" },
          h("select", { id: `resolve-action-${report.id}`, "data-testid": `resolve-action-${report.id}`, "aria-label": t("action") },
            ["none", "warned", "muted", "suspended"].map((a) => h("option", { value: a }, t(a)))),
          h("input", { id: `resolve-note-${report.id}`, "data-testid": `resolve-note-${report.id}`, placeholder: t("note"), "aria-label": t("note") }),
          h("button", { "data-testid": `resolve-${report.id}`, onclick: () => act("POST", `/reports/${report.id}/resolve`,
            { action: value(`resolve-action-${report.id}`), note: value(`resolve-note-${report.id}`) }, render) }, t("resolve")))),
    )),
  )));
}

async function showAccount(id) {
  tab = "accounts";
  selectedAccount = String(id);
  await render();
}

let selectedAccount = null;

async function accounts(main) {
  const results = h("div", {});
  const search = h("form", { class: "console-form", onsubmit: async (event) => {
    event.preventDefault();
    const found = await call("GET", `/accounts?q=${encodeURIComponent(value("account-q"))}`);
    results.replaceChildren(table([t("name"), t("created"), ""], found.map((user) => h("tr", {},
      h("td", {}, `${user.username} (#${user.id})`), h("td", {}, when(user.created_at)),
      h("td", {}, h("button", { type: "button", onclick: () => showAccount(user.id) }, t("open")))))));
  } }, h("input", { id: "account-q", "data-testid": "account-q", "aria-label": t("search"), placeholder: t("search") }),
  h("button", { type: "submit" }, t("search")));
  main.append(h("section", {}, h("h2", {}, t("accounts")), search, results));
  if (selectedAccount === null) return;
  const user = await call("GET", `/accounts/${selectedAccount}`);
  const id = user.id;
  main.append(h("section", { "data-testid": "account" },
    h("h2", {}, `${user.username} (#${id})`),
    h("p", {}, `${t("balance")}: `, h("strong", { "data-testid": "account-balance" }, String(user.balance)), ` · ${t("in_seats")}: ${user.in_seats} · ${t("created")}: ${when(user.created_at)}`,
      ` · ${t("withheld")}: `, h("strong", { "data-testid": "account-withheld" }, String(user.fair_withholds))),
    user.muted ? h("p", { class: "console-bad", "data-testid": "account-muted" }, `${t("muted_until")}: ${user.muted.until ? when(user.muted.until) : "∞"} — ${user.muted.reason}`) : null,
    user.suspended ? h("p", { class: "console-bad", "data-testid": "account-suspended" }, `${t("suspended_by")}: ${user.suspended.reason}`) : null,
    h("div", { class: "console-form" }, reasonField("account-reason"),
      h("input", { id: "mute-minutes", "data-testid": "mute-minutes", type: "number", min: "1", placeholder: t("minutes"), "aria-label": t("minutes") }),
      h("button", { "data-testid": "mute", onclick: () => act("POST", `/accounts/${id}/mute`,
        { reason: value("account-reason"), minutes: value("mute-minutes") ? Number(value("mute-minutes")) : null }, render) }, t("mute")),
      user.muted ? h("button", { onclick: () => act("POST", `/accounts/${id}/unmute`, { reason: value("account-reason") }, render) }, t("unmute")) : null,
      user.suspended
        ? h("button", { "data-testid": "lift", onclick: () => act("POST", `/accounts/${id}/lift`, { reason: value("account-reason") }, render) }, t("lift"))
        : h("button", { "data-testid": "suspend", onclick: () => act("POST", `/accounts/${id}/suspend`, { reason: value("account-reason") }, render) }, t("suspend"))),
    h("div", { class: "console-form" }, reasonField("grant-reason"),
      h("input", { id: "grant-amount", "data-testid": "grant-amount", type: "number", min: "1", placeholder: t("amount"), "aria-label": t("amount") }),
      h("button", { "data-testid": "grant", onclick: () => act("POST", `/accounts/${id}/grant`,
        { reason: value("grant-reason"), amount: Number(value("grant-amount")) }, render) }, t("grant"))),
    h("h3", {}, t("statement")),
    table([t("when"), t("kind"), t("amount"), t("balance"), t("reason")], user.statement.map((line) => h("tr", {},
      h("td", {}, when(line.at)), h("td", {}, line.kind), h("td", {}, String(line.amount)),
      h("td", {}, String(line.balance)), h("td", {}, line.reason ?? line.room ?? "")))),
  ));
}

async function rooms(main) {
  const found = await call("GET", "/rooms");
  main.append(h("section", { "data-testid": "rooms" }, h("h2", {}, t("rooms")),
    h("div", { class: "console-form" }, reasonField("room-reason")),
    h("div", { class: "console-form" },
      h("input", { id: "notice-text", "data-testid": "notice-text", maxlength: "200", placeholder: t("notice_text"), "aria-label": t("notice_text") }),
      h("button", { "data-testid": "notice-all", onclick: () => act("POST", "/notice", { text: value("notice-text") }, render) }, t("notice_all"))),
    table([t("name"), t("kind"), t("status"), t("seats"), t("hand"), ""], found.map((room) => h("tr", { "data-testid": `room-${room.id}` },
      h("td", {}, `${room.name} (${room.id})`), h("td", {}, `${room.kind} · ${room.variant}`), h("td", {}, room.status),
      h("td", {}, `${room.seats_taken}/${room.seats_total}`), h("td", {}, room.hand_no ?? "—"),
      h("td", {}, h("a", { href: room.watch, target: "_blank", rel: "noopener" }, t("watch")), " ",
        h("button", { "data-testid": `notice-${room.id}`, onclick: () => act("POST", "/notice", { text: value("notice-text"), room_id: room.id }, render) }, t("notice_room")), " ",
        h("button", { "data-testid": `close-${room.id}`, onclick: () => act("POST", `/rooms/${encodeURIComponent(room.id)}/close`, { reason: value("room-reason") }, render) }, t("close"))))))));
}

async function bot(main) {
  const found = await call("GET", "/bot-ahiko");
  main.append(h("section", {}, h("h2", {}, t("bot")), h("p", {}, `${t("reserve")}: `, h("strong", {}, String(found.reserve))),
    table([t("when"), t("kind"), t("amount"), t("detail")], found.statement.map((line) => h("tr", {},
      h("td", {}, when(line.at)), h("td", {}, line.kind), h("td", {}, String(line.amount)), h("td", {}, line.reason ?? `#${line.participation}`))))));
}

async function ledger(main) {
  const found = await call("GET", "/ledger");
  main.append(h("section", { "data-testid": "ledger" }, h("h2", {}, t("ledger")),
    found.ok ? h("p", { class: "console-ok", "data-testid": "ledger-ok" }, t("ledger_ok"))
      : h("div", {}, h("p", { class: "console-bad" }, t("ledger_bad")), h("ul", {}, found.problems.map((p) => h("li", {}, p)))),
    h("button", { onclick: render }, t("check"))));
}

async function audit(main) {
  const found = await call("GET", "/audit");
  main.append(h("section", { "data-testid": "audit" }, h("h2", {}, t("audit")),
    table([t("when"), t("who"), t("what"), t("target"), t("reason")], found.map((entry) => h("tr", { "data-testid": `audit-${entry.action}` },
      h("td", {}, when(entry.at)), h("td", {}, entry.operator), h("td", {}, entry.action),
      h("td", {}, entry.target), h("td", {}, entry.reason))))));
}

async function signals(main) {
  const found = await call("GET", "/signals");
  main.append(h("section", { "data-testid": "signals" }, h("h2", {}, t("signals")), h("p", {}, t("signals_note")),
    table([t("kind"), t("accounts"), t("measured"), t("hands")], found.map((signal) => h("tr", { "data-testid": `signal-${signal.kind}` },
      h("td", {}, t(signal.kind)), h("td", {}, signal.accounts.join(", ")), h("td", {}, signal.measured),
      h("td", {}, signal.hands.slice(0, 12).map((id) => h("a", { href: `/#/hands/${id}`, target: "_blank", rel: "noopener" }, `#${id} `))))))));
}

async function fairness(main) {
  const found = await call("GET", "/fairness");
  main.append(h("section", { "data-testid": "fairness" }, h("h2", {}, t("fairness")),
    h("p", {}, `${t("crash_cancellations")}: `, h("strong", { "data-testid": "crash-cancellations" }, String(found.crash_cancellations))),
    h("p", {}, t("fairness_note")),
    table([t("name"), t("withheld"), t("last")], found.withholds.map((row) => h("tr", { "data-testid": `withheld-${row.user_id}` },
      h("td", {}, h("button", { onclick: () => showAccount(row.user_id) }, row.username)),
      h("td", { "data-testid": `withheld-count-${row.user_id}` }, String(row.withheld)), h("td", {}, when(row.last_at)))))));
}

const TABS = { reports, accounts, rooms, signals, fairness, bot, ledger, audit };

async function render() {
  const root = document.getElementById("console");
  document.documentElement.lang = lang;
  document.title = `Ahiko — ${t("title")}`;
  const me = await call("GET", "/me").catch((error) => ({ error: error.message }));
  const header = h("header", { class: "console-header" }, h("h1", {}, t("title")),
    me.activated ? h("nav", { class: "console-tabs", role: "tablist" }, Object.keys(TABS).map((name) =>
      h("button", { role: "tab", "data-testid": `tab-${name}`, "aria-selected": String(name === tab), onclick: () => { tab = name; render(); } }, t(name)))) : null,
    h("span", { class: "console-spacer" }),
    me.name ? h("span", {}, me.name) : null,
    h("button", { "data-testid": "lang", onclick: () => { lang = lang === "en" ? "pt-BR" : "en"; try { localStorage.setItem(STORAGE_KEY, lang); } catch {} render(); } }, t("lang")));
  const main = h("main", { class: "console-main" }, h("div", { id: "console-status", role: "status", class: "console-status" }));
  root.replaceChildren(header, main);
  if (me.error) {
    say(me.error, false);
    return;
  }
  if (!me.activated) {
    main.append(h("section", {}, h("p", {}, t("code_needed")), h("form", { class: "console-form", onsubmit: (event) => {
      event.preventDefault();
      act("POST", "/activate", { code: value("operator-code") }, render);
    } }, h("input", { id: "operator-code", "data-testid": "operator-code", "aria-label": t("code"), autocomplete: "one-time-code" }),
    h("button", { type: "submit", "data-testid": "operator-code-submit" }, t("confirm")))));
    return;
  }
  try {
    await TABS[tab](main);
  } catch (error) {
    say(error.message, false);
  }
}

render();
