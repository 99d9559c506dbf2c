// Leaving the table (docs/protocol.md: resign, vote): a Resign button that asks first, the
// players' vote under way, "Let a bot play" for a player gone a while, and "End the game".
// room.js draws tableControls() into the game page's first card after every state.

import { el, replace, api, loadRoom, saveRoom, forgetSeat, seatName, toast } from "/static/ui.js";

if (!document.querySelector('link[href="/static/table.css"]')) {
  document.head.append(el("link", { rel: "stylesheet", href: "/static/table.css" }));
}

const SAID = "parlour.table.said";  // a word to show once the page has loaded again
if (sessionStorage.getItem(SAID)) {
  toast(sessionStorage.getItem(SAID));
  sessionStorage.removeItem(SAID);
}

export const AWAY_GRACE = 120;  // seconds a player must be gone before the others may vote their seat to a bot
const awaySince = new Map();    // seat -> when this page first saw its player gone (ms)
let asking = false;             // the Resign button's confirmation is showing
let ticking = null;

function post(code, path, body) {
  const token = loadRoom(code).seat_token;  // signed in without one, the session's seat is used
  return api("POST", `/api/rooms/${encodeURIComponent(code)}/${path}`, body, token);
}

/** Leaves the seat (resign): the browser forgets its token first, so that the page, told it
 * watches now, does not take it for a seat lost; then it loads again as a spectator's. */
async function leaveSeat(code, onError, word) {
  const { seat, seat_token: token } = loadRoom(code);
  forgetSeat(code);
  try {
    await api("POST", `/api/rooms/${encodeURIComponent(code)}/resign`, undefined, token);
  } catch (err) {
    if (token) saveRoom(code, { seat, seat_token: token });
    onError(err.message);
    return false;
  }
  if (word) sessionStorage.setItem(SAID, word);
  location.reload();
  return true;
}

async function call(code, path, body, onError) {
  try {
    return await post(code, path, body);
  } catch (err) {
    onError(err.message);
    return null;
  }
}

/** The seats of people still playing, but mine. */
function others(room, mySeat) {
  return room.seats.filter((s) => s.kind === "human" && !s.left && s.seat !== mySeat);
}

function goneFor(seat) {
  if (seat.connected) {
    awaySince.delete(seat.seat);
    return 0;
  }
  if (!awaySince.has(seat.seat)) awaySince.set(seat.seat, Date.now());
  return (Date.now() - awaySince.get(seat.seat)) / 1000;
}

function ballot(code, room, mySeat, redraw, onError) {
  const vote = room.vote;
  if (!vote || vote.until * 1000 < Date.now()) return null;
  const who = (s) => (s === mySeat ? "You" : seatName(room.seats[s]));
  const what = vote.motion === "end" ? "end the game now"
    : `let a bot play ${seatName(room.seats[vote.seat])}'s seat`;
  const waiting = vote.needed.filter((s) => !vote.yes.includes(s));
  const mine = mySeat !== null && waiting.includes(mySeat);
  const answer = (agree) => call(code, "vote", { motion: vote.motion, seat: vote.seat, agree }, onError).then(redraw);
  return el("div", { class: "table-vote", id: "table-vote", role: "group", "aria-label": "A vote" },
    el("p", {}, el("strong", {}, `${who(vote.by)} ${vote.by === mySeat ? "propose" : "proposes"} to ${what}.`), " ",
      waiting.length ? `Waiting for ${waiting.map((s) => (s === mySeat ? "you" : who(s))).join(", ")}.` : ""),
    mine ? el("div", { class: "table-buttons" },
      el("button", { type: "button", class: "btn btn-primary btn-small", id: "vote-yes", onclick: () => answer(true) }, "Agree"),
      el("button", { type: "button", class: "btn btn-small", id: "vote-no", onclick: () => answer(false) }, "No")) : null);
}

function absentSeats(code, room, mySeat, redraw, onError) {
  return others(room, mySeat).filter((s) => !s.connected).map((seat) => {
    const left = Math.ceil(AWAY_GRACE - goneFor(seat));
    const name = seatName(seat);
    if (left > 0) {
      return el("p", { class: "muted small table-away", dataset: { seat: seat.seat } },
        `${name} is away. If they are not back in ${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")},`
        + " you may let a bot play their seat.");
    }
    return el("button", { type: "button", class: "btn btn-small table-bot", dataset: { seat: seat.seat },
      title: `${name} has been gone a while: a bot plays their seat on, and they lose as a forfeit`,
      onclick: () => call(code, "vote", { motion: "bot", seat: seat.seat }, onError).then(redraw) },
    `Let a bot play ${name}'s seat`);
  });
}

function resignBox(code, redraw, onError) {
  if (!asking) {
    return el("button", { type: "button", class: "btn btn-ghost btn-small", id: "resign",
      onclick: () => {
        asking = true;
        redraw();  // the question on screen, whatever was drawn above it meanwhile (a phone scrolls)
        document.getElementById("resign-confirm")?.scrollIntoView({ block: "nearest" });
      } }, "Resign…");
  }
  return el("div", { class: "table-confirm", id: "resign-confirm", role: "alertdialog", "aria-label": "Resign?" },
    el("p", {}, el("strong", {}, "Resign this game?"), " You place last (a forfeit) and a bot plays your seat on."),
    el("div", { class: "table-buttons" },
      el("button", { type: "button", class: "btn btn-danger btn-small", id: "resign-yes", onclick: async () => {
        asking = false;
        if (!await leaveSeat(code, onError, "You resigned: a bot plays your seat. You are watching now.")) redraw();
      } }, "Yes, resign"),
      el("button", { type: "button", class: "btn btn-small", id: "resign-no", onclick: () => { asking = false; redraw(); } },
        "Keep playing")));
}

/**
 * What a player may do about leaving, for the game page (null when watching or once it is over):
 * the vote under way, a bot for a player gone a while, ending the game, resigning.
 */
export function tableControls({ code, room, mySeat, over, onError, redraw }) {
  clearTimeout(ticking);
  if (mySeat === null || over || room.status !== "playing") return null;
  const away = others(room, mySeat).filter((s) => !s.connected);
  if (away.length) ticking = setTimeout(redraw, 1000);  // the countdown to "Let a bot play"
  const alone = others(room, mySeat).length === 0;
  const someoneLeft = room.seats.some((s) => s.left);  // alone against bots from the start: only Resign
  const voting = room.vote && room.vote.until * 1000 >= Date.now();
  return el("div", { class: "table-controls", id: "table-controls" },
    ballot(code, room, mySeat, redraw, onError),
    voting ? null : absentSeats(code, room, mySeat, redraw, onError),
    el("div", { class: "table-buttons" },
      voting || (alone && !someoneLeft) ? null : el("button", { type: "button", class: "btn btn-small", id: "end-game",
        title: alone ? "Only bots play on: end the game now; those who left place last"
          : "Ask the others to end the game now (those gone a while place last; with nobody gone, a draw)",
        onclick: () => call(code, "vote", { motion: "end" }, onError).then(redraw) },
      alone ? "End the game" : "Propose to end the game"),
      resignBox(code, redraw, onError)));
}

/** The waiting room's button for a seated player: leave the seat before the game starts. */
export function leaveSeatButton(code, onError) {
  return el("button", { type: "button", class: "btn btn-ghost btn-small", id: "leave-seat",
    onclick: () => leaveSeat(code, onError, "You left your seat.") }, "Leave this seat");
}
