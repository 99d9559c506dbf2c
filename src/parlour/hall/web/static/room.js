// A room: the waiting room until the game starts, then the game page, whose frame (seats,
// connection, scores, whose turn, the log, errors, the rules) holds the game's own renderer.

import {
  el, replace, api, games, header, loadRoom, saveRoom, forgetSeat, lastName, rememberName,
  seatName, seatDot, toast, plural, rulesPage, RoomSocket,
} from "/static/ui.js";
import { chime, muteSwitch, notify, notifyButton } from "/static/alerts.js";
import { signedIn } from "/static/account.js";
import {
  chatActions, dropLines, inviteBox, reportBox, reputationBadge, sendMutes, showNotices,
} from "/static/trust.js";
import { deadlineText, moveTime, passed } from "/static/pace.js";
import { tableControls, leaveSeatButton } from "/static/table.js";
import { coachControls, coachLegal } from "/static/coach.js";

const code = decodeURIComponent(location.pathname.split("/")[2] || "");
const app = document.getElementById("app");
const connection = el("span", { class: "conn conn-connecting", id: "connection" }, "connecting…");
const headerGame = el("span", { class: "topbar-game" });
const headerCode = el("span", { class: "topbar-code" });
const headerTitle = el("span", { class: "topbar-title" }, headerGame, headerCode);
const rulesLink = el("a", { class: "topbar-link", target: "_blank", rel: "noopener", hidden: true }, "Rules");
const roleBadge = el("span", { class: "badge", hidden: true });
const main = el("main", { class: "room" });
const banner = el("div", { class: "offline-banner", id: "offline-banner", role: "alert", hidden: true },
  el("strong", {}, "Connection lost."), " Reconnecting… Nothing can be played until the hall answers again.");
const bar = header(headerTitle, roleBadge, rulesLink, muteSwitch(), connection);
bar.append(banner);
const notices = el("div", { class: "notices-holder" });
app.append(bar, notices, main);
let me = null;  // the signed-in player, if any (blocks and reports need one)
signedIn().then((player) => {
  me = player;
  showNotices(notices, player);
  if (waiting && last && last.room.status === "waiting") showWaiting(last.room);  // the signed-in parts
});
// a tap on a name cut short shows all of it (a mouse has its title)
main.addEventListener("click", (event) => {
  const name = event.target.closest(".seat-name");
  if (name) name.classList.toggle("full");
});

let game = null;       // the game's catalogue entry
let mySeat = null;     // my seat number, null when watching
let last = null;       // the last state message
let socket = null;
let waiting = null;    // the waiting room's parts, once built
let frame = null;      // the game page's parts, once built
let lost = false;      // the connection dropped and is not back yet: nothing can be played
let offered = null;    // the rematch room already announced to this page
const chat = buildChat();  // the room's chat: in the waiting room, then beside the board

// --- the connection -------------------------------------------------------------------------------

function onStatus(status) {
  if (status === "offline") lost = true;
  if (status === "online") lost = false;
  document.body.classList.toggle("offline", lost);
  banner.hidden = !lost;
  connection.className = `conn conn-${status}`;
  connection.textContent = { connecting: "connecting…", online: "connected", offline: "reconnecting…" }[status];
  if (frame && last && last.room.status !== "waiting") updateSidebar(last);  // no "Your turn" while lost
}

function onWelcome(msg) {
  const stored = loadRoom(code);
  if (stored.seat_token && msg.seat === null) {
    forgetSeat(code);  // the hall no longer knows this token: watch instead
    toast("Your seat in this room is no longer yours; you are watching.", "error");
  }
  if (frame && msg.seat !== mySeat) {  // the seat went (resigned in another tab): the board is drawn anew for the new seat
    if (frame.renderer) frame.renderer.destroy();
    clearInterval(frame.timerTick);
    frame = null;
  }
  mySeat = msg.seat;
  sendMutes(socket, code);
  roleBadge.hidden = false;
  roleBadge.textContent = mySeat === null ? "watching" : `seat ${mySeat + 1}`;
}

function onState(msg) {
  last = msg;
  if (msg.room.status === "waiting") showWaiting(msg.room);
  else showGame(msg);
}

function onError(answer) {
  showError(answer.message);
}

function showError(message) {
  toast(message, "error");
  if (frame) {
    frame.error.textContent = message;
    frame.error.hidden = false;
    clearTimeout(frame.errorTimer);
    frame.errorTimer = setTimeout(() => { frame.error.hidden = true; }, 6000);
  }
}

// --- the waiting room ---------------------------------------------------------------------------

function hostToken() {
  return loadRoom(code).host_token;
}

async function hostCall(path, body) {
  try {  // once the host has been gone a while, a seated player stands in with their seat token
    await api("POST", `/api/rooms/${encodeURIComponent(code)}/${path}`, body, hostToken() || loadRoom(code).seat_token);
  } catch (err) {
    showError(err.message);
  }
}

async function join(seat) {
  const name = waiting.name.value.trim();
  if (!name) {
    waiting.error.textContent = "Type your name first.";
    waiting.name.focus();
    return;
  }
  waiting.error.textContent = "";
  try {
    const answer = await api("POST", `/api/rooms/${encodeURIComponent(code)}/join`, { name, seat });
    rememberName(name);
    saveRoom(code, { seat: answer.seat, seat_token: answer.seat_token, name });
    socket.reidentify(answer.seat_token);
  } catch (err) {
    waiting.error.textContent = err.message;
  }
}

function botPicker(seat) {
  const select = el("select", { "aria-label": `Bot for seat ${seat + 1}` },
    game.bots.map((bot) => el("option", { value: bot }, bot)));
  return el("span", { class: "bot-picker" }, select,
    el("button", { type: "button", class: "btn btn-small",
      onclick: () => hostCall(`seats/${seat}/bot`, { bot: select.value }) }, "Seat a bot"));
}

function buildWaiting() {
  const link = `${location.origin}/r/${encodeURIComponent(code)}`;
  const linkInput = el("input", { class: "invite-link", id: "invite-link", readonly: true, value: link,
    onfocus: (e) => e.target.select() });
  const copy = el("button", { type: "button", class: "btn", id: "copy-link", onclick: async () => {
    try {
      await navigator.clipboard.writeText(link);
    } catch {
      linkInput.select();
      document.execCommand("copy");
    }
    copy.textContent = "Copied!";
    setTimeout(() => { copy.textContent = "Copy link"; }, 1800);
  } }, "Copy link");
  const parts = {
    seats: el("ol", { class: "seat-list", id: "seats" }),
    name: el("input", { id: "join-name", maxlength: 32, placeholder: "Your name", value: lastName() }),
    error: el("p", { class: "form-error", role: "alert" }),
    joinBox: el("div", { class: "join-box" }),
    startBox: el("div", { class: "start-box" }),
    options: el("dl", { class: "options-list" }),
    friend: inviteBox(code),  // signed in and seated: a friend invited by name
  };
  parts.joinBox.append(el("label", { for: "join-name" }, "Join as"), parts.name);
  signedIn().then((player) => {  // signed in, the seat takes the account's name: none to type
    if (!player) return;
    parts.name.value = player.name;
    replace(parts.joinBox, el("span", {}, "You join as "), el("strong", { id: "join-as" }, player.name));
  });
  replace(main, el("div", { class: "waiting" },
    el("section", { class: "card waiting-card" },
      el("h1", {}, `${game.name} — waiting for players`),
      el("p", { class: "pitch" }, game.pitch),
      el("div", { class: "invite" }, el("span", { class: "invite-label" }, "Invite friends with this link"),
        el("div", { class: "invite-row" }, linkInput, copy)),
      parts.friend,
      parts.options,
      el("h2", {}, "Seats"), parts.joinBox, parts.error, parts.seats, parts.startBox),
    chat.card));
  chat.lines.scrollTop = chat.lines.scrollHeight;
  return parts;
}

function showWaiting(room) {
  if (!waiting) waiting = buildWaiting();
  const seated = mySeat !== null;
  const host = !!hostToken() || (room.host_away && seated);  // the host gone a while: any player stands in
  const shown = (value) => (value === true ? "yes" : value === false ? "no" : String(value));
  const optionLines = game.options.filter((o) => !o.replay_only).map((o) => {
    const value = room.options?.[o.name] ?? o.default;
    return [o.label, (o.choice_labels || [])[(o.choices || []).indexOf(value)] || shown(value)];
  });
  if (room.pace === "turn-based") optionLines.push(["Pace", `turn-based, ${moveTime(room.turn_timer)}`]);
  else if (room.turn_timer) optionLines.push(["Turn timer", `${room.turn_timer} seconds`]);
  replace(waiting.options, optionLines.map(([k, v]) => [el("dt", {}, k), el("dd", {}, v)]));
  replace(waiting.seats, room.seats.map((seat) => {
    const mine = seat.seat === mySeat;
    return el("li", { class: ["seat-row", `seat-${seat.kind}`, mine && "mine"], dataset: { seat: seat.seat } },
      seatDot(seat.seat),
      ...seatLabel(seat),
      mine ? el("span", { class: "badge" }, "you") : null,
      seat.kind === "bot" || seat.bot_account ? el("span", { class: "badge badge-bot" }, "bot") : null,
      seat.kind === "human" ? el("span", { class: ["presence", seat.connected ? "on" : "off"] },
        seat.connected ? "here" : "away") : null,
      ...seatTrust(seat),
      seat.kept_for ? el("span", { class: "presence kept", title: "a rematch keeps this seat a while" },
        `kept for ${seat.kept_for}`) : null,
      el("span", { class: "seat-actions" },
        seat.kind === "open" && !seated && !seat.kept_for ? el("button", { type: "button", class: "btn btn-primary btn-small",
          onclick: () => join(seat.seat) }, "Take this seat") : null,
        seat.kind === "open" && host && game.bots.length ? botPicker(seat.seat) : null));
  }));
  waiting.joinBox.hidden = seated || !room.seats.some((s) => s.kind === "open");
  waiting.friend.hidden = !(me && seated);
  const open = room.seats.filter((s) => s.kind === "open").length;
  replace(waiting.startBox, host
    ? [el("button", { type: "button", class: "btn btn-primary btn-wide", id: "start", disabled: open > 0,
      onclick: () => hostCall("start") }, "Start the game"),
    open ? el("p", { class: "muted" }, `${plural(open, "seat")} still open: wait for friends or seat bots.`) : null]
    : el("p", { class: "muted" }, open ? `Waiting for ${plural(open, "more player")}…` : "Waiting for the host to start…"),
  host && !hostToken() ? el("p", { class: "muted", id: "host-away" }, "The host has been gone a while: any player may start.") : null,
  seated ? leaveSeatButton(code, showError) : null);
}

// --- the game page ------------------------------------------------------------------------------

async function loadRenderer() {
  const url = game.renderer_url || "/static/generic.js";
  try {
    return await import(url);
  } catch (err) {
    console.warn(`${game.name}'s board could not be loaded; showing the plain board`, err);
    return import("/static/generic.js");
  }
}

function buildFrame() {
  const parts = {
    board: el("div", { class: "board", id: "board" }),
    status: el("div", { class: "turn-status", id: "turn-status", role: "status", "aria-live": "polite" }),
    timer: el("div", { class: "timer", hidden: true }),
    seats: el("ol", { class: "seat-list compact", id: "seats" }),
    log: el("ol", { class: "log", id: "log" }),
    error: el("div", { class: "frame-error", id: "frame-error", role: "alert", hidden: true }),
    after: el("div", { class: "after-game", hidden: true }),
    table: el("div", { class: "table-slot" }),  // resign, votes (table.js)
    coach: el("div", { class: "coach-slot" }),  // hints and take-backs (coach.js)
    notify: mySeat === null ? null : notifyButton(),
    renderer: null,
    myTurn: null,  // whether the last state drawn asked me to act (null: none drawn yet)
  };
  replace(main, el("div", { class: "game-page" },
    el("div", { class: "board-wrap" }, parts.error, parts.board),
    el("aside", { class: "sidebar" },
      el("section", { class: "card side-card" }, parts.status, parts.timer, parts.coach, parts.after, parts.table,
        parts.notify),
      el("section", { class: "card side-card" }, el("h3", { class: "card-title" }, "Players"), parts.seats),
      el("section", { class: "card side-card log-card" }, el("h3", { class: "card-title" }, "Log"), parts.log),
      chat.card)));
  chat.lines.scrollTop = chat.lines.scrollHeight;
  return parts;
}

function names(room) {
  return room.seats.map(seatName);
}

function send(action) {
  if (!socket || mySeat === null) return Promise.resolve({ ok: false, message: "you are watching this game" });
  return socket.act(action).then((answer) => {
    if (!answer.ok) showError(answer.message);
    return answer;
  });
}

async function showGame(msg) {
  if (!frame) {
    frame = buildFrame();
    frame.loading = loadRenderer().then((module) => {
      frame.renderer = module.mount(frame.board, {
        seat: mySeat, names: names(msg.room), game, send: mySeat === null ? null : send,
      });
      return stylesLoaded();  // the board's own sheet, before anything is measured or scrolled to
    });
  }
  updateSidebar(msg);
  await frame.loading;
  if (last === msg && frame.renderer) {
    frame.renderer.update({ view: msg.view, legal: coachLegal(msg, mySeat), to_act: msg.to_act, turn: msg.turn,
      result: msg.result, names: names(msg.room) });
    turnAlerts(msg);
    if (msg.result) showVerdict();
  }
}

// When the game ends, its verdict comes into view once: the board's result ([data-verdict]), or
// the status card's; below the sticky top bar (style.css gives it a scroll margin).
function showVerdict() {
  if (frame.verdictShown) return;
  frame.verdictShown = true;
  const verdict = frame.board.querySelector("[data-verdict]") || frame.status;
  verdict.scrollIntoView({ block: "start" });
}

/** Resolves once every stylesheet of the page has loaded (or failed to). */
function stylesLoaded() {
  return Promise.all([...document.querySelectorAll('link[rel="stylesheet"]')].map((link) => (link.sheet ? null
    : new Promise((done) => {
      link.addEventListener("load", done, { once: true });
      link.addEventListener("error", done, { once: true });
    }))));
}

function myTurn(msg) {
  return mySeat !== null && !msg.result && (msg.to_act || []).includes(mySeat);
}

// When my turn starts: the controls I need come on screen (a phone shows one thing at a time), and
// unless the page has just opened, a chime and (tab hidden) a notification.
function turnAlerts(msg) {
  const now = myTurn(msg);
  const before = frame.myTurn;
  frame.myTurn = now;
  if (!now || before) return;
  const controls = frame.board.querySelector("[data-controls]");
  if (controls) controls.scrollIntoView({ block: "nearest" });
  if (before === null) return;
  chime();
  notify("Your turn", `${game.name} · room ${code}`);
}

function statusText(msg) {
  const room = msg.room;
  if (msg.result) {
    const winners = msg.result.winners || [];
    const who = winners.map((s) => (s === mySeat ? "You" : seatName(room.seats[s])));
    const head = !winners.length ? "Game over" : winners.length > 1 ? `A tie: ${who.join(" and ")}`
      : `${who[0]} ${who[0] === "You" ? "win" : "wins"}!`;
    return [head, msg.result.reason];
  }
  const acting = msg.to_act || [];
  if (lost) return ["Connection lost", "Reconnecting… wait for the board to come back."];
  if (mySeat !== null && acting.includes(mySeat)) {
    const others = acting.filter((s) => s !== mySeat).map((s) => seatName(room.seats[s]));
    return ["Your turn", others.length ? `${others.join(", ")} ${others.length > 1 ? "choose" : "chooses"} too` : ""];
  }
  if (!acting.length) return ["", ""];
  return [`${acting.map((s) => seatName(room.seats[s])).join(", ")} to play`,
    mySeat === null ? "You are watching." : "Waiting for your turn…"];
}

function updateSidebar(msg) {
  const room = msg.room;
  const acting = new Set(msg.to_act || []);
  const scores = msg.view && Array.isArray(msg.view.scores) ? msg.view.scores : null;
  const host = !!hostToken();
  const [head, sub] = statusText(msg);
  const mine = myTurn(msg) && !lost;
  replace(frame.status, el("strong", { class: ["status-head", mine && "my-turn"] }, head),
    sub ? el("span", { class: "muted" }, sub) : null);
  document.title = `${mine ? "▶ " : ""}${game.name} · ${code} — Parlour`;
  showTimer(msg.deadline, msg);
  replace(frame.seats, room.seats.map((seat) => el("li", {
    class: ["seat-row", acting.has(seat.seat) && !msg.result && "acting", seat.seat === mySeat && "mine"],
    dataset: { seat: seat.seat },
  },
  seatDot(seat.seat),
  ...seatLabel(seat),
  seat.seat === mySeat ? el("span", { class: "badge" }, "you") : null,
  ...seatTrust(seat),
  seat.kind === "bot" || seat.bot_account ? el("span", { class: "badge badge-bot" }, "bot")
    : el("span", { class: ["presence", seat.connected ? "on" : "off"], title: seat.connected ? "connected" : "not connected" },
      seat.connected ? "●" : "○"),
  // a host who plays has the players' controls (table.js); a host who watches may give the seat of
  // a player gone two minutes to a bot (the hall says how long is left)
  host && mySeat === null && seat.kind === "human" && !seat.connected && !msg.result && game.bots.length
    ? el("button", { type: "button", class: "btn btn-small", title: "Let a bot play this seat",
      onclick: () => hostCall(`seats/${seat.seat}/bot`, { bot: game.bots[0] }) }, "Bot takes over") : null,
  scores ? el("span", { class: "seat-score", title: game.scores_label },
    String(scores[seat.seat]), el("small", { class: "seat-score-label" }, ` ${game.scores_label}`)) : null)));
  const atBottom = frame.log.scrollHeight - frame.log.scrollTop - frame.log.clientHeight < 40;
  const lines = msg.log || [];
  const logLine = (line) => el("li", {}, el("span", { class: "log-turn" }, String(line.turn)), line.text);
  // msg.log_start: the lines before it are the ones already shown; only the rest are drawn
  const kept = frame.logShown && msg.log_start <= frame.logShown && lines.length ? msg.log_start : 0;
  if (kept) {
    while (frame.log.children.length > kept) frame.log.lastChild.remove();
    frame.log.append(...lines.slice(kept).map(logLine));
  } else {
    replace(frame.log, lines.length ? lines.map(logLine) : el("li", { class: "log-empty muted" }, "No moves yet."));
  }
  frame.logShown = lines.length;
  if (atBottom || !frame.logSeen) frame.log.scrollTop = frame.log.scrollHeight;
  frame.logSeen = true;
  frame.after.hidden = !msg.result;
  drawTable();
  drawCoach();
  if (frame.notify) frame.notify.hidden = !!msg.result;
  if (msg.result) {
    const again = room.rematch;
    replace(frame.after,
      mySeat === null ? null : el("button", { type: "button", class: "btn btn-primary", id: "rematch",
        onclick: () => (again ? joinRematch(again) : offerRematch()) }, again ? "Join the rematch" : "Play again"),
      mySeat === null && again ? el("a", { class: "btn btn-primary", id: "rematch", href: `/r/${encodeURIComponent(again)}` },
        "Watch the rematch") : null,
      el("a", { class: "btn", href: `/r/${encodeURIComponent(code)}/replay`, id: "replay-link" }, "Watch the replay"),
      el("a", { class: "btn", href: `/r/${encodeURIComponent(code)}/analysis`, id: "analysis-link" }, "Analyse the game"),
      el("a", { class: "btn btn-ghost", href: "/" }, "Back to the lobby"));
    if (again && offered !== again) {
      offered = again;
      if (loadRoom(again).seat_token === undefined) toast("A rematch is offered: one click on “Join the rematch” takes your seat.");
    }
  }
}

function drawCoach() {
  if (!frame || !last) return;
  replace(frame.coach, coachControls({ code, msg: last, mySeat, onError: showError, redraw: () => {
    drawCoach();
    if (frame.renderer) showGame(last);  // the board offers the hinted move alone, or every move again
  } }));
}

function drawTable() {
  if (!frame || !last) return;
  replace(frame.table, tableControls({ code, room: last.room, mySeat, over: !!last.result, onError: showError,
    redraw: drawTable }));
}

// --- the rematch ----------------------------------------------------------------------------------

async function offerRematch() {
  const mine = loadRoom(code);
  try {
    const room = await api("POST", `/api/rooms/${encodeURIComponent(code)}/rematch`, undefined, mine.seat_token);
    saveRoom(room.code, { host_token: room.host_token, seat: room.seat, seat_token: room.seat_token, name: mine.name });
    location.href = `/r/${encodeURIComponent(room.code)}`;
  } catch (err) {
    showError(err.message);
  }
}

async function joinRematch(again) {
  const mine = loadRoom(code);
  const name = mine.name || seatName(last.room.seats[mySeat]);
  try {
    const answer = await api("POST", `/api/rooms/${encodeURIComponent(again)}/join`, { name, seat: null }, mine.seat_token);
    saveRoom(again, { seat: answer.seat, seat_token: answer.seat_token, name });
    location.href = `/r/${encodeURIComponent(again)}`;
  } catch (err) {
    showError(err.message);
  }
}

// --- the chat -------------------------------------------------------------------------------------

function buildChat() {
  const lines = el("ol", { class: "chat-lines", id: "chat-lines", "aria-live": "polite" },
    el("li", { class: "chat-empty muted" }, "Nothing said yet."));
  const input = el("input", { id: "chat-text", maxlength: 500, placeholder: "Say something…", autocomplete: "off",
    "aria-label": "Chat message" });
  const form = el("form", { class: "chat-form" }, input, el("button", { type: "submit", class: "btn btn-small" }, "Send"));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const text = input.value.trim();
    if (!text || !socket) return;
    if (socket.chat(text, mySeat === null ? lastName() || null : null)) input.value = "";
    else showError("not connected to the hall: wait a moment and try again");
  });
  const card = el("section", { class: "card side-card chat-card", id: "chat" },
    el("h3", { class: "card-title" }, "Chat"), lines, form);
  return { card, lines, input };
}

// A seat's name at the table: a signed-in player's links to their profile, with a mark no guest
// can copy (a guest may call themselves anything, but never gets the link or the mark)
function seatLabel(seat) {
  const name = seatName(seat);
  if (seat.kind !== "human" || !seat.profile) return [el("span", { class: "seat-name", title: name }, name)];
  return [el("a", { class: "seat-name seat-account", href: `/players/${encodeURIComponent(seat.profile)}`,
    title: `${name}: a signed-in player (${seat.profile}); their profile` }, name),
  el("span", { class: "badge badge-account", title: "a signed-in player", "aria-label": "signed in" }, "✓")];
}

// The "watching" mark stands apart from the name: no name, however long or blank, can push it out of sight
function chatLine(line) {
  if (line.kind === "system") return el("li", { class: "chat-system", dataset: { n: line.n } }, line.text);
  const mine = line.seat === mySeat && line.kind === "player";
  const profile = line.kind === "player" && last ? last.room.seats[line.seat]?.profile : null;
  return el("li", { class: ["chat-said", mine && "mine"], dataset: { n: line.n, who: line.name } },
    line.seat !== null ? seatDot(line.seat) : null,
    el("b", { class: "chat-who", title: line.name }, line.name),
    line.kind === "spectator" ? el("span", { class: "badge chat-watching" }, "watching") : null,
    " ", el("span", { class: "chat-text" }, line.text),
    mine || (me && profile === me.name) ? null
      : chatActions(line, { code, profile, socket, signedIn: !!me, box: chat.lines }));
}

/** Beside a person's seat: how often they finish their games, and (signed in) a way to report them. */
function seatTrust(seat) {
  if (seat.kind !== "human" || seat.seat === mySeat) return [];
  return [seat.profile ? reputationBadge(seat.profile) : null,
    me ? el("button", { type: "button", class: "btn btn-small btn-ghost seat-report", title: `Report ${seatName(seat)}`,
      onclick: (event) => reportBox(event.target.closest("li"), { player: seat.profile || seat.name, room: code }) },
    "Report") : null];
}

function onChat(lines) {
  const box = chat.lines;
  const atBottom = box.scrollHeight - box.scrollTop - box.clientHeight < 40;
  box.querySelector(".chat-empty")?.remove();
  box.append(...lines.map(chatLine));
  if (atBottom) box.scrollTop = box.scrollHeight;
}

function showTimer(deadline, msg) {
  clearInterval(frame.timerTick);
  if (!deadline || msg.result) {
    frame.timer.hidden = true;
    return;
  }
  if (msg.room.pace === "turn-based") {
    showDeadline(deadline, msg);
    return;
  }
  const tick = () => {
    const left = Math.max(0, Math.ceil(deadline - Date.now() / 1000));
    frame.timer.hidden = false;
    frame.timer.className = ["timer", left <= 10 && "timer-low"].filter(Boolean).join(" ");
    frame.timer.textContent = `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")} left for this turn`;
  };
  tick();
  frame.timerTick = setInterval(tick, 500);
}

// A turn-based room's deadline, in words; once it passed, the other players choose what becomes of
// the late seat (nothing happens by itself).
function showDeadline(deadline, msg) {
  const room = msg.room;
  const late = (msg.to_act || []).filter((s) => room.seats[s].kind === "human");
  const who = late.map((s) => (s === mySeat ? "You" : seatName(room.seats[s])));
  const mayChoose = mySeat !== null && !late.includes(mySeat) && room.seats[mySeat].kind === "human";
  const choose = (seat, choice) => api("POST", `/api/rooms/${encodeURIComponent(code)}/late/${seat}`, { choice },
    loadRoom(code).seat_token).catch((err) => showError(err.message));
  const draw = () => {
    frame.timer.hidden = false;
    if (!passed(deadline)) {
      frame.timer.className = "timer deadline";
      const verb = who.length === 1 && who[0] !== "You" ? "has" : "have";
      frame.timer.textContent = `${who.join(", ")} ${verb} until ${deadlineText(deadline)}`;
      return;
    }
    frame.timer.className = "timer timer-low deadline";
    replace(frame.timer, el("span", {}, `Time ran out for ${who.join(", ")} (${deadlineText(deadline)}).`),
      mayChoose ? late.map((seat) => el("span", { class: "late-choices" },
        el("button", { type: "button", class: "btn btn-small", onclick: () => choose(seat, "bot") },
          `A bot plays for ${seatName(room.seats[seat])}`),
        el("button", { type: "button", class: "btn btn-small", onclick: () => choose(seat, "forfeit") },
          `End the game, ${seatName(room.seats[seat])} last`)))
        : el("span", { class: "muted" }, " The other players choose: a bot takes the seat, or the game ends."));
  };
  draw();
  frame.timerTick = setInterval(() => { if (passed(deadline)) draw(); }, 30000);
}

// --- start ----------------------------------------------------------------------------------------

async function start() {
  let room;
  try {
    room = await api("GET", `/api/rooms/${encodeURIComponent(code)}`);
    game = (await games()).find((g) => g.id === room.game);
  } catch (err) {
    replace(main, el("section", { class: "card notice" }, el("h1", {}, "No such room"),
      el("p", {}, err.message), el("a", { class: "btn btn-primary", href: "/" }, "Back to the lobby")));
    connection.hidden = true;
    return;
  }
  headerGame.textContent = game.name;
  replace(headerCode, el("span", { class: "topbar-code-word" }, "room "), code);
  headerTitle.title = `${game.name} · room ${code}`;
  rulesLink.href = rulesPage(game);
  rulesLink.hidden = false;
  document.title = `${game.name} · ${code} — Parlour`;
  socket = new RoomSocket(code, loadRoom(code).seat_token, { onWelcome, onState, onError, onStatus, onChat,
    onChatHidden: (numbers) => dropLines(chat.lines, { numbers }) });
}

start();
