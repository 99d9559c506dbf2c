// The lobby's bots online (GET /api/bots, docs/bot-api.md): each bot account whose program is
// connected, the games it accepts with its rating in each, and a button to challenge it (signed in).

import { el, replace, api, saveRoom, plural } from "/static/ui.js";
import { ratingText } from "/static/rating.js";

const list = el("div", { class: "rooms-list bots-list", id: "online-bots" });
const note = el("p", { class: "form-error", role: "alert", hidden: true });

/** The card; refresh() fills it and is called again every few seconds by the lobby. */
export function botsCard() {
  return el("section", { class: "card live-card bots-card" },
    el("h2", { class: "card-title" }, "Bots online"),
    el("p", { class: "muted bots-hint" }, "Signed in, challenge one to a rated game: pick the game."), note, list);
}

async function challenge(bot, game, button) {
  button.disabled = true;
  note.hidden = true;
  try {
    const room = await api("POST", "/api/challenges", { opponent: bot.name, game: game.id });
    saveRoom(room.code, { seat: room.seat, seat_token: room.seat_token });
    location.href = room.url;
  } catch (err) {
    note.textContent = err.status === 401 ? "Sign in to challenge a bot." : err.message;
    note.hidden = false;
    button.disabled = false;
  }
}

function botRow(bot, catalogue) {
  const ratings = Object.fromEntries(bot.ratings.map((r) => [r.game, r]));
  const games = catalogue.filter((g) => g.id in bot.games);
  return el("div", { class: "room-row bot-row", dataset: { bot: bot.name } },
    el("div", { class: "room-row-main" },
      el("a", { href: bot.profile_url }, el("strong", {}, bot.name)),
      el("span", { class: "badge badge-bot" }, "bot")),
    el("span", { class: "room-row-when muted" }, `up to ${plural(bot.max_games, "game")} at once`),
    el("div", { class: "bot-games" }, games.map((g) => {
      const rating = ratings[g.id];
      const button = el("button", { type: "button", class: "btn btn-small", title: `Challenge ${bot.name} to ${g.name}` },
        `${g.name}${rating ? ` · ${ratingText(rating.rating, rating.games)}` : ""}`);
      button.addEventListener("click", () => challenge(bot, g, button));
      return button;
    })));
}

export async function refreshBots(catalogue) {
  let bots;
  try {
    bots = await api("GET", "/api/bots");
  } catch (err) {
    replace(list, el("p", { class: "muted" }, `Cannot list the bots: ${err.message}`));
    return;
  }
  replace(list, bots.length ? bots.map((bot) => botRow(bot, catalogue))
    : el("p", { class: "muted empty-note" }, "No bot account is online. Write one: see docs/bot-api.md."));
}
