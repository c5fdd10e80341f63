// A WebSocket that reconnects by itself (backoff up to 5 s), reports its state, notices
// missed frames by their sequence numbers and then asks for a snapshot. A frame is named by
// the room's run (`epoch`) and its number (`seq`): a reconnect names the last frame applied
// (`?since=N&epoch=E`) and the room replays what was missed, or sends a snapshot when it no
// longer holds the gap; a frame of another run (the room was reopened, or moved to another
// server) is not a gap but a new start: the client asks for a snapshot.
//
// On a cluster (docs/deploy.md) the socket asks to be sent to the table's owner (`direct=1`):
// a node that does not own the table answers an `owner` frame naming the route at which the
// balancer reaches the owner, and closes with 4308; the client reconnects there at once. A
// route that does not answer is not asked for again for half a minute (the room is played
// through any node meanwhile, by the relay); a room that moved (4409) asks for its new owner's.
//
// Heartbeat (docs/protocol.md): the socket asks for `ping` frames (`heartbeat=1`); a node
// frozen by its machine keeps the connection open but sends nothing, so a socket on which
// nothing was heard for 2.5 ping intervals is given up and opened again through the same
// address, where the balancer sends it to a node that answers.

import { decodeFrame, encodeSnapshotRequest } from "./wire.js";

const MIN_BACKOFF_MS = 300;
const MAX_BACKOFF_MS = 5000;
const FINAL_CLOSE_CODES = new Set([4403, 4404]); // the gateway's "refused" and "no room"
const OWNER_ROUTE = 4308; // after an "owner" frame: reconnect through its route
const ROOM_MOVED = 4409; // the table's owner changed
const ROUTE_RETRY_MS = 30000; // after a route that did not answer
const SILENT = 4000; // our own name for a socket given up after silence (never on the wire)
const PING_EVERY_S = 3; // the server's ping interval until a ping names its own
const SILENCE_FACTOR = 2.5; // pings missed before the socket counts as dead
const WATCH_MS = 500;
// Frames that repeat the latest seq instead of taking a new one (docs/protocol.md): to one
// player only ("notice", "wallet", "moved") or answers ("ack", "error"), and the snapshot itself.
const UNNUMBERED = new Set(["snapshot", "ack", "error", "notice", "wallet", "moved", "chat"]);

export class RoomConnection {
  constructor(url, { onMessage, onState }) {
    this.url = url;
    this.onMessage = onMessage;
    this.onState = onState;
    this.ws = null;
    this.backoff = MIN_BACKOFF_MS;
    this.lastSeq = null;
    this.epoch = null; // the room's run that lastSeq belongs to
    this.closed = false;
    this.timer = null;
    this.state = "connecting";
    this.route = null; // the path at which the balancer reaches the table's owner
    this.directAfter = 0; // ask to be sent to the owner from then on (Date.now())
    this.heard = false; // a frame came on this socket
    this.heardAt = 0; // when the last frame came (or the socket was opened)
    this.silenceMs = PING_EVERY_S * SILENCE_FACTOR * 1000;
    this.watch = null;
  }

  open() {
    this.closed = false;
    this.setState("connecting");
    const url = new URL(this.socketUrl());
    url.searchParams.set("heartbeat", "1"); // ask for ping frames
    const ws = new WebSocket(url.toString());
    this.ws = ws;
    this.heard = false;
    this.heardAt = Date.now();
    clearInterval(this.watch);
    this.watch = setInterval(() => this.checkSilence(ws), WATCH_MS);
    ws.addEventListener("open", () => {
      this.backoff = MIN_BACKOFF_MS;
      this.setState("online");
    });
    ws.addEventListener("message", (ev) => this.receive(ev.data));
    ws.addEventListener("close", (ev) => this.dropped(ws, ev.code));
    ws.addEventListener("error", () => {
      // "close" follows and schedules the reconnect
    });
    return this;
  }

  /** The room's address (through its owner's route once known), asking for that route
   * while there is none, and naming the last frame applied once there is one. */
  socketUrl() {
    const url = new URL(this.url);
    if (this.route !== null) url.pathname = this.route + url.pathname;
    else if (Date.now() >= this.directAfter) url.searchParams.set("direct", "1");
    if (this.lastSeq !== null && this.epoch !== null) {
      url.searchParams.set("since", String(this.lastSeq));
      url.searchParams.set("epoch", this.epoch);
    }
    return url.toString();
  }

  receive(text) {
    this.heard = true;
    this.heardAt = Date.now();
    const msg = decodeFrame(text);
    if (msg.type === "ignored" && text.startsWith('{"t":"ping"')) {
      const every = JSON.parse(text).every;
      if (every > 0) this.silenceMs = every * SILENCE_FACTOR * 1000;
      return; // the node is alive: nothing else to do
    }
    if (msg.type === "owner") {
      this.route = msg.route;
      return;
    }
    const numbered = !UNNUMBERED.has(msg.type) && msg.seq !== null;
    if (msg.type === "snapshot") {
      this.lastSeq = msg.seq;
      this.epoch = msg.epoch;
    } else if (numbered && msg.epoch !== null && this.epoch !== null && msg.epoch !== this.epoch) {
      this.lastSeq = null; // another run of the room: its numbers start again
      this.epoch = null;
      this.sendRaw(encodeSnapshotRequest());
      return;
    } else if (numbered) {
      if (this.lastSeq !== null && msg.seq <= this.lastSeq) return; // already applied
      if (this.lastSeq !== null && msg.seq > this.lastSeq + 1) {
        this.lastSeq = null;
        this.sendRaw(encodeSnapshotRequest());
        return;
      }
      this.lastSeq = msg.seq;
    }
    this.onMessage(msg);
  }

  /** Nothing heard for too long (the node froze, or the path to it broke without a
   * close): give the socket up and connect again, as after a close. */
  checkSilence(ws) {
    if (ws !== this.ws || Date.now() - this.heardAt <= this.silenceMs) return;
    this.dropped(ws, SILENT);
    try {
      ws.close(); // its close event comes late, if ever, and is ignored: ws is not this.ws
    } catch {
      // closing a socket still connecting may throw in some browsers: it is given up anyway
    }
  }

  dropped(ws, code) {
    if (ws !== this.ws) return;
    this.ws = null;
    clearInterval(this.watch);
    if (this.closed) return;
    if (FINAL_CLOSE_CODES.has(code)) {
      this.closed = true; // no such room, or refused: retrying cannot help
      this.setState("gone");
      return;
    }
    if (code === OWNER_ROUTE && this.route !== null) {
      this.timer = setTimeout(() => this.open(), 0); // to the owner, at once
      return;
    }
    if (this.route !== null && (code === ROOM_MOVED || code === SILENT || !this.heard)) {
      // the owner changed, or its route did not answer: through any node again
      if (!this.heard) this.directAfter = Date.now() + ROUTE_RETRY_MS;
      this.route = null;
    }
    this.setState("offline");
    this.timer = setTimeout(() => this.open(), this.backoff);
    this.backoff = Math.min(this.backoff * 2, MAX_BACKOFF_MS);
  }

  setState(state) {
    this.state = state;
    this.onState?.(state);
  }

  sendRaw(text) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(text);
      return true;
    }
    return false;
  }

  close() {
    this.closed = true;
    clearTimeout(this.timer);
    clearInterval(this.watch);
    this.ws?.close();
    this.ws = null;
  }
}
