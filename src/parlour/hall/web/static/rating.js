// Ratings as players know them (issue 28.6): OpenSkill's ordinal, mu - 3 sigma (0 for a new player),
// shown as 1500 + 20 x ordinal, as openskill's ordinal(alpha=20, target=1500) would, so a new player
// starts at 1500 as on Lichess, and marked provisional ("?") for their first PROVISIONAL rated games.
// Used by the players' pages (players.js) and the lobby's bots online (bots.js).

export const RATING_START = 1500;
export const RATING_SCALE = 20;
export const PROVISIONAL = 5;
export const shownRating = (ordinal) => Math.round(RATING_START + RATING_SCALE * ordinal);
export const shownChange = (change) => Math.round(RATING_SCALE * change);
/** "1464" or "1464?" while provisional (fewer than PROVISIONAL rated games). */
export const ratingText = (ordinal, games) => `${shownRating(ordinal)}${games < PROVISIONAL ? "?" : ""}`;
