// The coach at the table (docs/analysis.md), in a room made with it, for a person playing against
// bots: "Hint" on my turn (POST .../hint) shows the coach's move on the board, offered alone, as
// the board highlights the moves it may play, with why in one line; after a move the coach holds
// (a mistake or a blunder: the status's coach_hold has an until), its words (GET .../coach) and "Take it back" /
// "Keep it" (POST .../takeback). room.js draws coachControls() into the game page's first card
// after every state, and hands the board coachLegal(msg) instead of msg.legal.

import { el, api, brief, loadRoom } from "/static/ui.js";

if (!document.querySelector('link[href="/static/coach.css"]')) {
  document.head.append(el("link", { rel: "stylesheet", href: "/static/coach.css" }));
}

let hint = null;     // the coach's hint for my turn: {turn, best, line, ...}
let showing = false; // the board offers the hinted move alone
let asking = false;  // a hint or a take-back is on its way
let said = null;     // what the coach says of my held move: {turn, judged}
let fetching = null; // the held move's turn whose words are on their way

function call(method, code, path, body) {
  return api(method, `/api/rooms/${encodeURIComponent(code)}/${path}`, body, loadRoom(code).seat_token);
}

/** Whether the coach helps me here: a coached game under way, every other seat a bot. */
function coached(msg, mySeat) {
  const room = msg.room;
  return !!room.coach && mySeat !== null && room.status === "playing" && !msg.result
    && room.seats.every((s) => s.seat === mySeat || s.kind === "bot");
}

function myTurn(msg, mySeat) {
  return (msg.to_act || []).includes(mySeat) && (msg.legal || []).length > 0;
}

/** The moves the board may offer: only the hinted one while it is shown on my turn. */
export function coachLegal(msg, mySeat) {
  if (!showing || !hint || !coached(msg, mySeat) || hint.turn !== msg.turn || !myTurn(msg, mySeat)) return msg.legal;
  const best = JSON.stringify(hint.best);
  const found = (msg.legal || []).filter((action) => JSON.stringify(action) === best);
  return found.length ? found : msg.legal;
}

function pct(x) {
  return `${Math.round(100 * x)}%`;
}

function hintBox(code, msg, mySeat, redraw, onError) {
  const current = hint && hint.turn === msg.turn ? hint : null;
  const ask = async () => {
    if (current) {
      showing = !showing;
      redraw();
      return;
    }
    asking = true;
    redraw();
    try {
      hint = await call("POST", code, "hint");
      showing = true;
    } catch (err) {
      onError(err.message);
    }
    asking = false;
    redraw();
  };
  return el("div", { class: "coach-hint", id: "coach-hint-box" },
    el("div", { class: "table-buttons" },
      el("button", { type: "button", class: ["btn", "btn-small", current && showing ? "btn-primary" : null],
        id: "coach-hint", disabled: asking, "aria-pressed": String(!!(current && showing)), onclick: ask,
        title: "The move the coach would play, shown on the board, and its chance of winning" },
      asking ? "The coach is thinking…" : current ? (showing ? "Show all my moves" : "Show the hint") : "Hint")),
    current ? el("p", { class: "coach-line", id: "coach-line", role: "status" }, current.line, " The move: ",
      el("strong", { class: "coach-move", id: "coach-move" }, current.best_words || brief(current.best)), ".",
      showing ? el("span", { class: "muted" }, " Only that move is offered on the board now; the others show as"
        + " not playable until “Show all my moves”.") : null) : null);
}

function heldBox(code, msg, mySeat, redraw, onError) {
  const hold = msg.room.coach_hold;
  if (!hold.until) return el("p", { class: "muted small coach-judging", id: "coach-judging" }, "The coach is looking at your move…");
  if (!said || said.turn !== hold.turn) {
    if (fetching !== hold.turn) {
      fetching = hold.turn;
      call("GET", code, "coach").then((answer) => {
        said = answer.hold && answer.hold.judged ? answer.hold : null;
        redraw();
      }, (err) => onError(err.message)).finally(() => { fetching = null; });
    }
    return el("p", { class: "muted small" }, "The coach has something to say about your move…");
  }
  const answer = async (keep) => {
    asking = true;
    redraw();
    try {
      await call("POST", code, "takeback", { keep });
      said = null;
    } catch (err) {
      onError(err.message);
    }
    asking = false;
    redraw();
  };
  const judged = said.judged;
  return el("div", { class: ["coach-held", `coach-${judged.label}`], id: "coach-held", role: "alertdialog",
    "aria-label": `The coach: that looks like a ${judged.label}` },
  el("p", {}, el("strong", {}, `That looks like a ${judged.label}.`), " ",
    `Your chance of winning falls from ${pct(judged.win_chance_before)} to ${pct(judged.win_chance_after)};`
    + " the coach would play another move. The bots wait for you."),
  el("div", { class: "table-buttons" },
    el("button", { type: "button", class: "btn btn-primary btn-small", id: "coach-take-back", disabled: asking,
      onclick: () => answer(false) }, "Take it back"),
    el("button", { type: "button", class: "btn btn-small", id: "coach-keep", disabled: asking,
      onclick: () => answer(true) }, "Keep it")));
}

/**
 * The coach's part of the game page (null where it does not help): the hold of my last move, or
 * the Hint button on my turn, or a word on what it does.
 */
export function coachControls({ code, msg, mySeat, redraw, onError }) {
  if (!coached(msg, mySeat)) return null;
  const hold = msg.room.coach_hold;
  let body;
  if (hold && hold.seat === mySeat) body = heldBox(code, msg, mySeat, redraw, onError);
  else if (myTurn(msg, mySeat)) body = hintBox(code, msg, mySeat, redraw, onError);
  else body = el("p", { class: "muted small" }, "The coach gives a hint on your turn, and holds the bots"
    + " after a move that looks like a mistake.");
  return el("div", { class: "coach", id: "coach" },
    el("h4", { class: "coach-title" }, "Coach ", el("span", { class: "muted small" }, "· this game is not rated")), body);
}
