// Small helpers shared by the hall's pages and the games' renderers.
//
// Everything here writes text with textContent, never innerHTML: players' names and anything else
// that came over the wire can never run as HTML.
//
//   import { el, button, card } from "/static/ui.js";
//   root.append(card({ title: "Your hand" }, button("Draw", () => draw(), { key: "D" })));

const SVG_NS = "http://www.w3.org/2000/svg";

function build(node, attrs, children) {
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (name === "text") node.textContent = String(value);
    else if (name === "class") node.setAttribute("class", Array.isArray(value) ? value.filter(Boolean).join(" ") : value);
    else if (name === "style" && typeof value === "object") Object.assign(node.style, value);
    else if (name === "dataset") Object.assign(node.dataset, value);
    else if (name.startsWith("on") && typeof value === "function") node.addEventListener(name.slice(2), value);
    else if (value === true) node.setAttribute(name, "");
    else node.setAttribute(name, String(value));
  }
  append(node, children);
  return node;
}

function append(node, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(node, child);
    else node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** An HTML element: el("p", {class: "note"}, "Hello ", el("b", {}, name)). Strings become text. */
export function el(tag, attrs = {}, ...children) {
  return build(document.createElement(tag), attrs, children);
}

/** An SVG element, same calling convention as el(). */
export function svg(tag, attrs = {}, ...children) {
  return build(document.createElementNS(SVG_NS, tag), attrs, children);
}

/** Empties a node and fills it with children again. */
export function replace(node, ...children) {
  node.replaceChildren();
  append(node, children);
  return node;
}

/** "1 button", "3 buttons". */
export function plural(n, word, many = word + "s") {
  return `${n} ${n === 1 ? word : many}`;
}

// --- building blocks for renderers -------------------------------------------------------------

/**
 * A button. opts: {kind: "primary"|"ghost"|"danger", key: "S" (shown as a hint), title, disabled}.
 * The key hint is only a label: bind keys with keys().
 */
export function button(label, onClick, opts = {}) {
  return el("button", {
    type: "button",
    class: ["btn", opts.kind && `btn-${opts.kind}`, opts.class],
    title: opts.title, disabled: !!opts.disabled, onclick: onClick,
    "aria-keyshortcuts": opts.key,
  }, label, opts.key && el("kbd", { class: "key" }, opts.key));
}

/** A card: a rounded panel with an optional title, e.g. a player's hand or a prompt. */
export function card(opts = {}, ...children) {
  return el("section", { class: ["card", opts.class] },
    opts.title && el("h3", { class: "card-title" }, opts.title), ...children);
}

/**
 * A prompt: a line of text and a row of choices. Each choice is {label, onChoose, key, kind,
 * disabled, title}. For a game's "choose one of these" moments.
 */
export function prompt(text, choices = []) {
  return el("div", { class: "prompt", role: "group", "aria-label": text },
    el("span", { class: "prompt-text" }, text),
    el("div", { class: "prompt-choices" },
      choices.map((c) => button(c.label, c.onChoose, c))));
}

/**
 * Binds keys while a page or renderer is showing: keys({r: rotate, ArrowLeft: left, Enter: place}).
 * Letters match either case. Keys typed into form fields are left alone. Returns the unbinder.
 */
export function keys(map) {
  const handler = (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const target = event.target;
    if (target && (target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName))) return;
    // Enter and space on a focused button or link belong to that button or link.
    if (target && ["BUTTON", "A"].includes(target.tagName) && (event.key === "Enter" || event.key === " ")) return;
    const name = event.key.length === 1 ? event.key.toLowerCase() : event.key;
    const fn = map[name] || map[event.key];
    if (fn && fn(event) !== false) event.preventDefault();
  };
  document.addEventListener("keydown", handler);
  return () => document.removeEventListener("keydown", handler);
}

/** The legal actions that match every field of `fields`: matching(legal, {type: "play", patch: 3}). */
export function matching(legal, fields) {
  return (legal || []).filter((action) => Object.entries(fields).every(([k, v]) => action[k] === v));
}

/** A short message that fades away by itself; kind "error" or "info". */
export function toast(message, kind = "info") {
  let tray = document.getElementById("toasts");
  if (!tray) {
    tray = el("div", { id: "toasts", class: "toasts", role: "status", "aria-live": "polite" });
    document.body.append(tray);
  }
  const note = el("div", { class: ["toast", `toast-${kind}`] }, message);
  tray.append(note);
  setTimeout(() => note.classList.add("toast-out"), 4200);
  setTimeout(() => note.remove(), 4700);
  return note;
}

// --- talking to the hall -----------------------------------------------------------------------

/**
 * A REST call: the parsed JSON answer, or an Error whose message is the server's words.
 * A string body is sent as it is (JSON text that JavaScript must not round: 64-bit seeds).
 */
export async function api(method, path, body, token) {
  const headers = {};
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers["Authorization"] = `Bearer ${token}`;
  const payload = body === undefined || typeof body === "string" ? body : JSON.stringify(body);
  let response;
  try {
    response = await fetch(path, { method, headers, body: payload });
  } catch (err) {
    throw new Error("cannot reach the hall: check your connection");
  }
  const data = await response.json().catch(() => null);
  if (!response.ok) {
    const error = new Error(describeError(data, response));
    error.status = response.status;
    throw error;
  }
  return data;
}

function describeError(data, response) {
  const detail = data && data.detail;
  if (typeof detail === "string") return detail;
  if (Array.isArray(detail)) return detail.map((d) => `${(d.loc || []).slice(1).join(".")}: ${d.msg}`).join("; ");
  return `${response.status} ${response.statusText}`;
}

let catalogue = null;
/** The games catalogue (GET /api/games), fetched once per page. */
export function games() {
  catalogue = catalogue || api("GET", "/api/games");
  return catalogue;
}

// Seat and host tokens, kept per room so that a reload (or coming back later) keeps the seat.
const ROOM_KEY = (code) => `parlour.room.${code}`;

/** What this browser holds for a room: {seat, seat_token, host_token, name}, or {}. */
export function loadRoom(code) {
  try {
    return JSON.parse(localStorage.getItem(ROOM_KEY(code))) || {};
  } catch {
    return {};
  }
}

export function saveRoom(code, data) {
  const merged = { ...loadRoom(code), ...data };
  localStorage.setItem(ROOM_KEY(code), JSON.stringify(merged));
  return merged;
}

export function forgetSeat(code) {
  const { seat, seat_token, ...rest } = loadRoom(code);
  localStorage.setItem(ROOM_KEY(code), JSON.stringify(rest));
}

/** The name this browser last played under. */
export function lastName() {
  return localStorage.getItem("parlour.name") || "";
}

export function rememberName(name) {
  localStorage.setItem("parlour.name", name);
}

/**
 * The live connection to a room (docs/protocol.md). Reconnects by itself and says hello again
 * with the same token, so a dropped connection or a reload keeps the seat.
 *
 *   const socket = new RoomSocket(code, token, {onWelcome, onState, onError, onStatus});
 *   const answer = await socket.act({type: "skip"});  // {ok: true} or {ok: false, message}
 */
export class RoomSocket {
  constructor(code, token, handlers = {}) {
    this.code = code;
    this.token = token || null;
    this.handlers = handlers;
    this.turn = null;
    this.log = [];
    this.pending = new Map();
    this.nextId = 1;
    this.retry = 0;
    this.chatSeen = -1;  // the number of the newest chat line received
    this.closed = false;
    this.connect();
  }

  connect() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const ws = new WebSocket(`${scheme}//${location.host}/ws/rooms/${encodeURIComponent(this.code)}`);
    this.ws = ws;
    this.status("connecting");
    ws.onopen = () => {
      this.retry = 0;
      this.log = [];
      // with an onChat handler, the room's chat comes too: its newest lines, then each new one
      ws.send(JSON.stringify({ type: "hello", token: this.token, chat: !!this.handlers.onChat }));
      clearInterval(this.keepAlive);
      this.keepAlive = setInterval(() => this.send({ type: "ping" }), 25000);
    };
    ws.onmessage = (event) => {
      let msg;
      try {
        msg = JSON.parse(event.data);
      } catch {
        return;
      }
      this.receive(msg);
    };
    ws.onclose = () => {
      clearInterval(this.keepAlive);
      this.failPending("the connection to the hall was lost; reconnecting");
      if (this.closed) return;
      this.status("offline");
      const delay = Math.min(400 * 2 ** this.retry, 3000) * (0.8 + 0.4 * Math.random());
      this.retry += 1;
      this.timer = setTimeout(() => this.connect(), delay);
    };
  }

  receive(msg) {
    const h = this.handlers;
    if (msg.type === "welcome") {
      this.status("online");
      h.onWelcome && h.onWelcome(msg);
    } else if (msg.type === "state") {
      // Each state carries only the log lines this connection lacks, from msg.log_start on.
      this.log = this.log.slice(0, msg.log_start).concat(msg.log);
      msg.log = this.log;
      this.turn = msg.turn;
      h.onState && h.onState(msg);
    } else if (msg.type === "chat") {
      // after a reconnection the newest lines come again: keep only those not seen yet
      const fresh = msg.lines.filter((line) => line.n > this.chatSeen);
      if (fresh.length) this.chatSeen = fresh[fresh.length - 1].n;
      if (fresh.length && h.onChat) h.onChat(fresh);
      if (msg.hidden && h.onChatHidden) h.onChatHidden(msg.hidden);  // lines a moderator hid
    } else if (msg.type === "ack") {
      this.settle(msg.id, { ok: true, turn: msg.turn });
    } else if (msg.type === "error") {
      const answer = { ok: false, code: msg.code, message: msg.message };
      if (!this.settle(msg.id, answer)) h.onError && h.onError(answer);
    }
  }

  settle(id, answer) {
    const resolve = this.pending.get(id);
    if (!resolve) return false;
    this.pending.delete(id);
    resolve(answer);
    return true;
  }

  failPending(message) {
    for (const resolve of this.pending.values()) resolve({ ok: false, code: "offline", message });
    this.pending.clear();
  }

  status(value) {
    this.state = value;
    this.handlers.onStatus && this.handlers.onStatus(value);
  }

  send(msg) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify(msg));
      return true;
    }
    return false;
  }

  /** Sends an action for my seat, made against the last state seen. */
  act(action) {
    const id = `a${this.nextId++}`;
    return new Promise((resolve) => {
      if (!this.send({ type: "act", id, turn: this.turn, action })) {
        resolve({ ok: false, code: "offline", message: "not connected to the hall: wait a moment and try again" });
        return;
      }
      this.pending.set(id, resolve);
    });
  }

  /** Says `text` in the room's chat (a spectator goes by `name`); false when not connected. */
  chat(text, name = null) {
    return this.send({ type: "chat", text, name });
  }

  /** Connects again under another token (after taking a seat): hello is said once per connection. */
  reidentify(token) {
    this.token = token || null;
    const old = this.ws;
    if (old) {
      old.onclose = null;
      old.onmessage = null;
      old.close();
    }
    clearTimeout(this.timer);
    clearInterval(this.keepAlive);
    this.failPending("reconnecting with your seat");
    this.connect();
  }

  close() {
    this.closed = true;
    clearTimeout(this.timer);
    clearInterval(this.keepAlive);
    if (this.ws) this.ws.close();
  }
}

// --- page furniture ---------------------------------------------------------------------------

/** The hall's header bar, with optional extra items on the right. */
export function header(...extra) {
  return el("header", { class: "topbar" },
    el("a", { class: "brand", href: "/" },
      el("span", { class: "brand-mark", "aria-hidden": "true" }, "♜"), "Parlour"),
    el("div", { class: "topbar-extra" }, ...extra));
}

/** The page of a game's rules written for players. */
export function rulesPage(game) {
  return game.rules_url;
}

/** A seat's display name: its player's name, its bot, or "open seat". */
export function seatName(seat) {
  if (!seat) return "";
  if (seat.name) return seat.name;
  if (seat.kind === "bot") return `${seat.bot} (bot)`;
  return "open seat";
}

/** A small coloured dot that marks a seat, using the seat colours --seat-0 .. --seat-5. */
export function seatDot(seat) {
  return el("span", { class: "seat-dot", style: { background: `var(--seat-${seat % 6})` }, "aria-hidden": "true" });
}

/** "3 minutes ago" and friends, for the lobby. */
export function ago(when) {
  const epoch = typeof when === "number" ? when : Date.parse(when) / 1000;
  if (!Number.isFinite(epoch)) return "";
  const s = Math.max(0, Math.round(Date.now() / 1000 - epoch));
  if (s < 60) return "just now";
  if (s < 3600) return plural(Math.floor(s / 60), "minute") + " ago";
  if (s < 86400) return plural(Math.floor(s / 3600), "hour") + " ago";
  return plural(Math.floor(s / 86400), "day") + " ago";
}
