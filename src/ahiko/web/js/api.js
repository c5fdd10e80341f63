// HTTP API calls. Errors come back as JSON {error, message}; they surface as ApiError.

import { t } from "./i18n.js";

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message || code || `HTTP ${status}`);
    this.status = status;
    this.code = code;
  }
}

/** The player's words for an error: the localized text of its code (`error.<code>`), else
 * the server's message (C-ERRORS). */
export function errorText(err) {
  const code = err?.code;
  if (code) {
    const key = `error.${code}`;
    const text = t(key);
    if (text !== key) return text;
  }
  return err?.message ?? String(err ?? "");
}

async function request(method, path, body) {
  const init = { method, credentials: "same-origin", headers: { Accept: "application/json" } };
  // State-changing calls carry the header a cross-site form cannot send (server CSRF rule).
  if (method !== "GET") init.headers["X-Ahiko-CSRF"] = "1";
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let res;
  try {
    res = await fetch(path, init);
  } catch (err) {
    throw new ApiError(0, "network", err.message);
  }
  const text = await res.text();
  let data = null;
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = text;
    }
  }
  if (!res.ok) {
    const detail = data && typeof data === "object" ? data : {};
    const message =
      detail.message ||
      (typeof detail.detail === "string" ? detail.detail : null) ||
      (Array.isArray(detail.detail) ? detail.detail.map((d) => d.msg).join("; ") : null);
    throw new ApiError(res.status, detail.error, message || `HTTP ${res.status}`);
  }
  return data;
}

export const api = {
  signUp: (username, password) => request("POST", "/api/accounts", { username, password }),
  logIn: (username, password) => request("POST", "/api/session", { username, password }),
  logOut: () => request("DELETE", "/api/session"),
  me: () => request("GET", "/api/me"),
  wallet: () => request("GET", "/api/wallet"),
  statement: (page = 1) => request("GET", `/api/wallet/statement?page=${page}&per_page=50`),
  claim: () => request("POST", "/api/wallet/claim"),
  rooms: () => request("GET", "/api/rooms"),
  room: (id) => request("GET", `/api/rooms/${encodeURIComponent(id)}`),
  createRoom: (options) => request("POST", "/api/rooms", options),
  // A home game's ledger, for its host and players.
  roomLedger: (id) => request("GET", `/api/rooms/${encodeURIComponent(id)}/ledger`),
  roomLedgerCsvUrl: (id) => `/api/rooms/${encodeURIComponent(id)}/ledger.csv`,
  myHands: (page = 1, perPage = 20) => request("GET", `/api/hands?page=${page}&per_page=${perPage}`),
  // The hand as this player saw it, for the replayer (docs/hands-api.md).
  hand: (id) => request("GET", `/api/hands/${encodeURIComponent(id)}?format=json`),
  // format: "pokerstars" | "phh" (hand histories) or "proof" (pokerfair-proof/1 file).
  handDownloadUrl: (id, format) =>
    format === "proof"
      ? `/api/hands/${encodeURIComponent(id)}/proof`
      : `/api/hands/${encodeURIComponent(id)}?format=${encodeURIComponent(format)}`,
  text: async (path) => {
    const res = await fetch(path, { credentials: "same-origin" });
    if (!res.ok) throw new ApiError(res.status, "download", `HTTP ${res.status}`);
    return res.blob();
  },
  publicKey: () => request("GET", "/api/fairness/public-key"),
  // Players' pages, leaderboards, shared hands and rabbit hunts.
  profile: (name) => request("GET", `/api/players/${encodeURIComponent(name)}/profile`),
  playerLine: (userId) => request("GET", `/api/players/by-id/${encodeURIComponent(userId)}/line`),
  leaderboard: (board, period) =>
    request("GET", `/api/leaderboards?board=${encodeURIComponent(board)}&period=${encodeURIComponent(period)}`),
  shareHand: (id, showOwn, rabbit) =>
    request("POST", `/api/hands/${encodeURIComponent(id)}/share`, { show_own: showOwn, rabbit }),
  rabbit: (id) => request("GET", `/api/hands/${encodeURIComponent(id)}/rabbit`),
  shared: (token) => request("GET", `/api/shared/${encodeURIComponent(token)}`),
  sharedDownloadUrl: (token, format) =>
    `/api/shared/${encodeURIComponent(token)}/download?format=${encodeURIComponent(format)}`,
  // Sit & go's; `key` makes a retried registration harmless.
  sitgo: () => request("GET", "/api/sitgo"),
  sitgoRegister: (queue, key) =>
    request("POST", `/api/sitgo/queues/${encodeURIComponent(queue)}/register`, { key }),
  mtts: () => request("GET", "/api/mtt"),
  mtt: (id) => request("GET", `/api/mtt/${encodeURIComponent(id)}`),
  mttCreate: (body) => request("POST", "/api/mtt", body),
  mttRegister: (id, key) => request("POST", `/api/mtt/${encodeURIComponent(id)}/register`, { key }),
  mttUnregister: (id) => request("POST", `/api/mtt/${encodeURIComponent(id)}/unregister`),
  mttCancel: (id) => request("POST", `/api/mtt/${encodeURIComponent(id)}/cancel`),
  sitgoUnregister: (id) => request("POST", `/api/sitgo/${encodeURIComponent(id)}/unregister`),
  ahikoRooms: () => request("GET", "/api/ahiko/rooms"),
  online: () => request("GET", "/api/online"),
  // R-RM-12..17: Ahiko seats are paid from the wallet; `key` makes a retried click harmless.
  ahikoBuyInRange: (roomId) => request("GET", `/api/ahiko/rooms/${encodeURIComponent(roomId)}/buy_in`),
  ahikoBuyIn: (roomId, seat, amount, key) =>
    request("POST", `/api/ahiko/rooms/${encodeURIComponent(roomId)}/buy_in`, { seat, amount, key }),
  ahikoReload: (roomId, amount, key) =>
    request("POST", `/api/ahiko/rooms/${encodeURIComponent(roomId)}/reload`, { amount, key }),
  ahikoLeave: (roomId, afterHand) =>
    request("POST", `/api/ahiko/rooms/${encodeURIComponent(roomId)}/leave`, { after_hand: afterHand }),
};
