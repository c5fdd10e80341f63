// The games as the server defines them (ahiko/poker/games.py, Game.to_json): how many cards
// a player holds, the board, the draw, the betting structure, how a hand is valued, the
// seats. The client asks a game these questions and never compares variant names. A room's
// summary and a finished hand's document carry their game; what they carry is remembered and
// wins over the copy below, which the create form and the lobby need before any room exists
// (tests/e2e/test_client_modules.py keeps the copy equal to the server's definitions).

// BEGIN GAMES (Game.to_json of every game, generated)
const DEFINED = {"holdem": {"name": "holdem", "hole_cards": 2, "board_cards": 5, "has_draw": false, "betting": "no-limit", "forced_bets": ["ante", "blinds", "straddle"], "evaluator": "best-five", "min_players": 2, "max_players": 9, "layout": "holdem-noburn-v1", "title": {"en": "No-Limit Hold'em", "pt-BR": "Hold'em sem limite"}, "short_name": "hold'em"}, "draw": {"name": "draw", "hole_cards": 5, "board_cards": 0, "has_draw": true, "betting": "fixed-limit", "forced_bets": ["ante"], "evaluator": "draw", "min_players": 2, "max_players": 6, "layout": "draw5-v1", "title": {"en": "Five-card draw", "pt-BR": "Draw de cinco cartas"}, "short_name": "draw"}, "plo": {"name": "plo", "hole_cards": 4, "board_cards": 5, "has_draw": false, "betting": "pot-limit", "forced_bets": ["ante", "blinds", "straddle"], "evaluator": "omaha", "min_players": 2, "max_players": 9, "layout": "omaha4-noburn-v1", "title": {"en": "Pot-Limit Omaha", "pt-BR": "Omaha Pot-Limit"}, "short_name": "PLO"}};
// END GAMES

const known = new Map(Object.entries(DEFINED));

/** Keep what the server said about a game (a room summary's or a hand document's `game`). */
export function rememberGame(game) {
  if (game && typeof game.name === "string") known.set(game.name, game);
  return game ?? null;
}

/** The game named `name`, or null for a name no definition answers to. */
export function gameOf(name) {
  return known.get(name) ?? null;
}

/** Every game, in the server's order (the create form's choices, the lobby's filter). */
export function allGames() {
  return [...known.values()];
}

/** The game whose deal commits to `layout` (FAIRNESS.md), or null. */
export function gameOfLayout(layout) {
  return allGames().find((g) => g.layout === layout) ?? null;
}

/** The game named `name` as a reader of `language` ("pt-BR", "en") calls it: its title in
 *  the definition, so a new game needs no words of the client's own. */
export function gameTitle(name, language) {
  const game = gameOf(name);
  return game?.title?.[language] ?? game?.title?.en ?? name ?? "";
}

export const postsBlinds = (game) => Boolean(game?.forced_bets?.includes("blinds"));
export const holeCards = (game) => game?.hole_cards ?? 2;
