// "My games" on the lobby page: the rooms this browser holds a seat in (the seat tokens it keeps,
// ui.js's loadRoom), asked of the hall in one request (POST /api/rooms/mine), with a way back to
// each and a Resign button for a game you will not finish (it frees your share of bot rooms).

import { el, replace, api, games, loadRoom, forgetSeat, seatName, toast } from "/static/ui.js";

const PREFIX = "parlour.room.";
const MAX = 30;  // the hall answers about at most 30 rooms at once
const REFRESH_EVERY = 8000;
const card = el("section", { class: "card my-games-card", id: "my-games", hidden: true },
  el("h2", { class: "card-title" }, "My games"), el("div", { class: "my-games-list" }));
const list = card.querySelector(".my-games-list");
let confirming = null;  // the room whose Resign asks for a confirmation

if (!document.querySelector('link[href="/static/table.css"]')) {
  document.head.append(el("link", { rel: "stylesheet", href: "/static/table.css" }));
}

/** The rooms whose seat token this browser keeps: [{code, token}]. */
function held() {
  const rooms = [];
  for (let i = 0; i < localStorage.length; i += 1) {
    const key = localStorage.key(i);
    if (!key || !key.startsWith(PREFIX)) continue;
    const code = key.slice(PREFIX.length);
    const token = loadRoom(code).seat_token;
    if (token && /^[A-Za-z]{1,16}$/.test(code)) rooms.push({ code, token });
  }
  return rooms.slice(-MAX);
}

async function resign(code) {
  try {
    await api("POST", `/api/rooms/${encodeURIComponent(code)}/resign`, undefined, loadRoom(code).seat_token);
    forgetSeat(code);
    toast(`You resigned in room ${code}: a bot plays your seat.`);
  } catch (err) {
    toast(err.message, "error");
  }
  confirming = null;
  refresh();
}

function row(room, names) {
  const state = room.status === "waiting" ? "waiting for players"
    : room.status === "over" ? "over" : room.my_turn ? "your turn" : "being played";
  const against = room.seats.filter((s) => s.seat !== room.seat).map(seatName).join(", ");
  const asking = confirming === room.code;
  return el("div", { class: "my-game", dataset: { code: room.code } },
    el("div", {},
      el("a", { href: `/r/${encodeURIComponent(room.code)}` }, `${names[room.game] || room.game} · ${room.code}`),
      el("div", { class: ["muted", room.my_turn && "my-turn"] }, `${state} — with ${against}`)),
    room.status === "playing" ? el("div", { class: "table-buttons" }, asking
      ? [el("span", { class: "small" }, "Resign? You place last."),
        el("button", { type: "button", class: "btn btn-danger btn-small", onclick: () => resign(room.code) }, "Yes, resign"),
        el("button", { type: "button", class: "btn btn-small", onclick: () => { confirming = null; refresh(); } }, "No")]
      : el("button", { type: "button", class: "btn btn-ghost btn-small my-game-resign",
        onclick: () => { confirming = room.code; refresh(); } }, "Resign…")) : null);
}

async function refresh() {
  const rooms = held();
  if (!rooms.length) {
    card.hidden = true;
    return;
  }
  let found;
  try {
    found = await api("POST", "/api/rooms/mine", { rooms });
  } catch {
    return;  // the lobby's own lists say when the hall cannot be reached
  }
  const names = Object.fromEntries((await games()).map((g) => [g.id, g.name]));
  // the games still on first (yours to play first of all), then the last few finished
  const mine = found.filter((r) => r.seat !== null);
  const on = mine.filter((r) => r.status !== "over").sort((a, b) => (b.my_turn - a.my_turn) || (b.created - a.created));
  const over = mine.filter((r) => r.status === "over").sort((a, b) => b.created - a.created).slice(0, 3);
  card.hidden = !on.length && !over.length;
  replace(list, [...on, ...over].map((room) => row(room, names)));
}

function mount() {
  const side = document.querySelector(".lobby-side");
  if (!side) {
    setTimeout(mount, 50);  // the lobby builds its page first
    return;
  }
  // beside the lobby's lists on a desk; on a phone first of all, before the games (yours come first)
  const intro = document.querySelector(".lobby-intro");
  if (intro && window.matchMedia("(max-width: 760px)").matches) intro.after(card);
  else side.prepend(card);
  refresh();
  setInterval(refresh, REFRESH_EVERY);
}

mount();
