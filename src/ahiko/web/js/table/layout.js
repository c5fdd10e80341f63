// Where each seat sits on the oval: seat order clockwise, rotated so that "me" (or seat 0 for
// a spectator) is at the bottom centre.

const WIDE = { seatRx: 44, seatRy: 41, cy: 50, betRx: 29, betRy: 24 };
// A tall phone oval: seats pulled in sideways so their boxes stay on screen. The board fills
// the middle band between the side seats, so a bet never goes there: it sits in the free
// corner next to its seat, toward the pot (COMPACT_BET).
const COMPACT = { seatRx: 37.5, seatRy: 39, cy: 48 };

export function seatAngle(seat, anchorSeat, seatCount) {
  const offset = (((seat - anchorSeat) % seatCount) + seatCount) % seatCount;
  return Math.PI / 2 + (offset * 2 * Math.PI) / seatCount;
}

function point(angle, rx, ry, cy = 50) {
  return { x: 50 + rx * Math.cos(angle), y: cy + ry * Math.sin(angle) };
}

/** A phone seat's bet: an offset in rem from its seat (the seat's own size is in rem, the
 *  felt's in percent). The board fills the middle band and the pots hang under it, so a bet
 *  goes into a free gap next to its seat: under the seats of the top row and those level with
 *  the board, beside the others on their inner side, clear of the big cards at the bottom
 *  (checked for 2 to 9 seats by tests/e2e/test_table_ux.py). */
function compactBet(pos, side, seatCount, cy) {
  const inward = pos.x < 50 ? 1 : -1;
  const y = pos.y + 50 - cy; // as if the oval were centred at 50 %
  const at = (dx, dy) => ({ x: pos.x, y: pos.y, dx, dy });
  if (side === "bottom" && Math.abs(pos.x - 50) < 8) return at(seatCount >= 7 ? 0 : 3.6, -4.6);
  if (y < 25) return at(inward * 0.2, 3.8);
  if (y < 40) return at(inward * 4.6, 0.3);
  if (Math.abs(y - 50) < 13) return at(inward * -0.5, 3.8);
  if (seatCount >= 7) return at(inward * 3.7, -2.3);
  return at(inward * 4.6, -0.5);
}

/** A desktop seat's bet: just clear of its own box on the side toward the pot (an offset in
 *  rem, the seat's size being in rem): beside a side seat, under a top seat, and above a
 *  bottom seat's cards. */
function wideBet(pos, angle) {
  const ux = -Math.cos(angle);
  const uy = -Math.sin(angle);
  const up = uy < -0.3; // a bottom seat: its cards stand above its box
  const bottomCentre = up && Math.abs(pos.x - 50) < 8; // my seat: the big cards
  const reach = bottomCentre ? 8.4 : up ? 6.6 : 4.4;
  if (bottomCentre) return { x: pos.x, y: pos.y, dx: 7.2, dy: -3.4 }; // beside my cards
  return { x: pos.x, y: pos.y, dx: ux * 7.4, dy: uy * reach };
}

/** Percent coordinates (of the felt box) for a seat's box and its bet (plus, on a phone,
 *  the bet's offset `dx`/`dy` in rem). */
export function seatPlacement(seat, anchorSeat, seatCount, compact = false) {
  return placementAt(seat, seatAngle(seat, anchorSeat, seatCount), seatCount, compact);
}

/** The same for a seat at a given angle (radians, π/2 = bottom centre) on a table drawn with
 *  `seatCount` seats. */
export function placementAt(seat, angle, seatCount, compact = false) {
  const g = compact ? COMPACT : WIDE;
  const pos = point(angle, g.seatRx, g.seatRy, g.cy);
  let side = "bottom";
  if (pos.y < 30 && Math.abs(pos.x - 50) < 20) side = "top";
  else if (pos.x < 40) side = "left";
  else if (pos.x > 60) side = "right";
  const bet = compact ? compactBet(pos, side, seatCount, g.cy) : wideBet(pos, angle);
  return { seat, angle, pos, bet, side };
}
