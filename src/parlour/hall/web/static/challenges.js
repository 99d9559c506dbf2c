// Challenges between people (docs/bot-api.md, "Challenges"): the lobby's "Challenges for you" card
// (GET /api/challenges/incoming, asked with the lobby's rooms every few seconds while a person is
// signed in: asking is what makes them challengeable), and the card on another person's profile
// that challenges them (POST /api/challenges, answered once they accept, within a minute).

import { el, replace, api, saveRoom, games } from "/static/ui.js";
import { signedIn } from "/static/account.js";

const list = el("div", { class: "rooms-list", id: "incoming-challenges" });
const note = el("p", { class: "form-error", role: "alert", hidden: true });
const card = el("section", { class: "card live-card challenges-card", hidden: true },
  el("h2", { class: "card-title" }, "Challenges for you"), note, list);
let shown = "";

const timerText = (seconds) => (seconds % 60 ? `${seconds} seconds a turn` : `${seconds / 60} minute${seconds === 60 ? "" : "s"} a turn`);

function go(room) {
  saveRoom(room.code, { seat: room.seat, seat_token: room.seat_token });
  location.href = room.url;
}

/** The lobby's card of the challenges waiting for the signed-in person; hidden while there are none. */
export function incomingCard() {
  return card;
}

function challengeRow(challenge, names) {
  const accept = el("button", { type: "button", class: "btn btn-small" }, "Accept");
  const decline = el("button", { type: "button", class: "btn btn-small btn-ghost" }, "Decline");
  const answer = async (path, body, then) => {
    accept.disabled = decline.disabled = true;
    note.hidden = true;
    try {
      then(await api("POST", `/api/challenges/${encodeURIComponent(challenge.id)}/${path}`, body));
    } catch (err) {
      note.textContent = err.message;
      note.hidden = false;
      accept.disabled = decline.disabled = false;
    }
  };
  accept.addEventListener("click", () => answer("accept", undefined, go));
  decline.addEventListener("click", () => answer("decline", {}, () => refreshIncoming()));
  return el("div", { class: "room-row challenge-row", dataset: { challenge: challenge.id } },
    el("div", { class: "challenge-text" },
      el("strong", {}, challenge.from), ` challenges you to ${names[challenge.game] || challenge.game}`),
    el("span", { class: "room-row-when muted" }, timerText(challenge.turn_timer)),
    el("div", { class: "challenge-answer" }, accept, decline));
}

/** Asks for the waiting challenges (which keeps the person challengeable) and shows them. */
export async function refreshIncoming() {
  const me = await signedIn();
  if (!me || me.kind !== "human") return;  // guests and bot accounts take no challenges here
  let waiting;
  try {
    waiting = await api("GET", "/api/challenges/incoming");
  } catch (err) {
    return;  // the next look tries again
  }
  const ids = waiting.map((c) => c.id).join(",");
  if (ids === shown) return;  // the same challenges: the buttons stay as they are
  shown = ids;
  const names = Object.fromEntries((await games()).map((g) => [g.id, g.name]));
  card.hidden = waiting.length === 0;
  replace(list, waiting.map((c) => challengeRow(c, names)));
}

/** On another person's profile, for a signed-in person: challenge them to a game; else null. */
export async function challengeCard(profile) {
  const me = await signedIn();
  if (!me || me.kind !== "human" || profile.kind !== "human" || me.name === profile.name) return null;
  const twos = (await games()).filter((g) => g.min_players <= 2 && g.max_players >= 2);
  const picker = el("select", { id: "challenge-game", "aria-label": "Game" },
    twos.map((g) => el("option", { value: g.id }, g.name)));
  const status = el("p", { class: "muted small", role: "status", id: "challenge-status" });
  const button = el("button", { type: "button", class: "btn", id: "challenge-button" }, "Challenge");
  button.addEventListener("click", async () => {
    button.disabled = picker.disabled = true;
    status.textContent = `Waiting for ${profile.name} to accept (up to a minute)…`;
    try {
      go(await api("POST", "/api/challenges", { opponent: profile.name, game: picker.value }));
    } catch (err) {
      status.textContent = err.message;
      button.disabled = picker.disabled = false;
    }
  });
  return el("section", { class: "card challenge-card" }, el("h2", { class: "card-title" }, `Challenge ${profile.name}`),
    el("p", { class: "muted small" }, `${profile.name} sees it if they are in the lobby now, and has a minute to accept.`),
    el("div", { class: "challenge-form" }, picker, button), status);
}
