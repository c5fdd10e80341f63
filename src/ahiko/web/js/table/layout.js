// Where each seat sits on the oval: seat order clockwise, rotated so that "me" (or seat 0 for
// a spectator) is at the bottom centre.

const WIDE = { seatRx: 44, seatRy: 41, betRx: 27, betRy: 24 };
// A tall phone oval: seats pulled in sideways so their boxes stay on screen; bets sit beside
// their seat (there is no room between seat and board on a narrow screen).
const COMPACT = { seatRx: 36, seatRy: 40 };

export function seatAngle(seat, anchorSeat, seatCount) {
  const offset = (((seat - anchorSeat) % seatCount) + seatCount) % seatCount;
  return Math.PI / 2 + (offset * 2 * Math.PI) / seatCount;
}

function point(angle, rx, ry) {
  return { x: 50 + rx * Math.cos(angle), y: 50 + ry * Math.sin(angle) };
}

/** Percent coordinates (of the felt box) for a seat's box and its bet. */
export function seatPlacement(seat, anchorSeat, seatCount, compact = false) {
  const g = compact ? COMPACT : WIDE;
  const angle = seatAngle(seat, anchorSeat, seatCount);
  const pos = point(angle, g.seatRx, g.seatRy);
  let side = "bottom";
  if (pos.y < 30 && Math.abs(pos.x - 50) < 20) side = "top";
  else if (pos.x < 40) side = "left";
  else if (pos.x > 60) side = "right";
  let bet;
  if (!compact) bet = point(angle, g.betRx, g.betRy);
  else if (side === "top") bet = { x: pos.x, y: pos.y + 14 };
  else if (side === "bottom") bet = { x: pos.x, y: pos.y - 19 };
  else bet = { x: pos.x + (side === "left" ? 19 : -19), y: pos.y + (pos.y > 50 ? 1 : 4) };
  return { seat, angle, pos, bet, side };
}
