// pokerfair/2 in this browser (docs/fairness.md): during each hand it draws a 32-byte secret
// for the next one (crypto.getRandomValues) and sends only its commitment, bound to the table,
// that hand's number and this seat; when that hand's commitment frame lists it among the
// contributors, it reveals the secret and keeps the server's signed receipt. The secret never
// leaves the browser before the deck is committed, so the server cannot build a deck around it.
//
//   const seed = new SeatSeed((name, args) => page.command(name, args));
//   seed.onCommitment(tableId, handNo, contributors, mySeat);  // on every commitment frame
//   seed.onAck(data);                                           // on every ack

import { toHex } from "./verify.js";
import { seatCommitment } from "./verify2.js";

export class SeatSeed {
  constructor(send, random = (bytes) => crypto.getRandomValues(bytes)) {
    this.send = send;
    this.random = random;
    this.secrets = new Map(); // hand number -> {seat, secret (hex), commitment (hex)}
  }

  /** A commitment frame for ``handNo``: reveal ours if the set holds it, then commit the
   *  secret for the next hand. Returns what was revealed ({seat, secret}) or null. */
  async onCommitment(tableId, handNo, contributors, seat) {
    const mine = this.secrets.get(handNo);
    let revealed = null;
    const listed = (contributors?.seats ?? []).some(([s, c]) => s === mine?.seat && c === mine?.commitment);
    if (mine && listed) {
      this.send("fair_reveal", { hand_no: handNo, secret: mine.secret });
      revealed = { seat: mine.seat, secret: mine.secret };
    }
    for (const old of [...this.secrets.keys()]) if (old <= handNo) this.secrets.delete(old);
    if (Number.isInteger(seat)) await this.commitFor(tableId, handNo + 1, seat);
    return revealed;
  }

  async commitFor(tableId, handNo, seat) {
    if (this.secrets.has(handNo)) return;
    const secret = this.random(new Uint8Array(32));
    const commitment = toHex(await seatCommitment(tableId, handNo, seat, secret));
    this.secrets.set(handNo, { seat, secret: toHex(secret), commitment });
    this.send("fair_commit", { hand_no: handNo, commitment });
  }
}
