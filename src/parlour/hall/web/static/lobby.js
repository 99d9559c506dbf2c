// The lobby: the games, a form to create a room, the rooms waiting for players and the games being
// played (to watch), both filtered by game and kept up to date by themselves.

import { el, replace, api, games, header, saveRoom, lastName, rememberName, seatName, ago, plural, rulesPage } from "/static/ui.js";
import { accountCorner, signedIn } from "/static/account.js";
import { MOVE_TIMES, DEFAULT_MOVE_TIME, moveTime } from "/static/pace.js";
import { botsCard, refreshBots } from "/static/bots.js";
import { incomingCard, refreshIncoming } from "/static/challenges.js";

const TIMERS = [[null, "No turn timer"], [30, "30 seconds a turn"], [60, "1 minute a turn"],
  [120, "2 minutes a turn"], [300, "5 minutes a turn"]];

const app = document.getElementById("app");
const gameList = el("div", { class: "game-list" });
const formCard = el("section", { class: "card create-card", id: "create" });
const roomsList = el("div", { class: "rooms-list", id: "open-rooms" });
const playingList = el("div", { class: "rooms-list", id: "playing-rooms" });
const slowList = el("div", { class: "rooms-list", id: "turn-based-rooms" });
const gameFilter = el("select", { id: "room-filter", "aria-label": "Show the rooms of", onchange: () => refreshRooms() },
  el("option", { value: "" }, "All games"));
const REFRESH_EVERY = 4000;  // ms between two looks at the rooms
let catalogue = [];
let chosen = null;

app.append(
  header(el("a", { href: "/replay", class: "topbar-link topbar-wide" }, "Watch a replay file"),
    el("a", { href: "/leaderboard", class: "topbar-link topbar-wide" }, "Leaderboards"), accountCorner()),
  el("main", { class: "lobby" },
    el("section", { class: "lobby-intro" },
      el("h1", {}, "Pull up a chair."),
      el("p", { class: "lead" }, "Pick a game, invite a friend with a link, or fill the empty seats with bots.")),
    el("div", { class: "lobby-grid" },
      el("div", { class: "lobby-games" }, el("h2", {}, "Games"), gameList),
      el("div", { class: "lobby-side" },
        incomingCard(),
        formCard,
        el("section", { class: "card live-card" },
          el("div", { class: "live-head" }, el("h2", { class: "card-title" }, "Open rooms"), gameFilter), roomsList,
          el("h2", { class: "card-title live-playing" }, "Turn-based, waiting for players"), slowList,
          el("h2", { class: "card-title live-playing" }, "Being played"), playingList),
        botsCard()))));

function playersText(game) {
  return game.min_players === game.max_players ? `${game.min_players} players`
    : `${game.min_players}–${game.max_players} players`;
}

function showGames() {
  replace(gameList, catalogue.map((game) =>
    el("article", { class: ["game-card", chosen && chosen.id === game.id && "chosen"], dataset: { game: game.id } },
      el("div", { class: "game-card-head" },
        el("h3", {}, game.name),
        el("span", { class: "pill" }, playersText(game))),
      el("p", { class: "pitch" }, game.pitch),
      el("div", { class: "game-card-actions" },
        el("button", { type: "button", class: "btn btn-primary", onclick: () => choose(game, true) }, "New room"),
        el("a", { class: "btn btn-ghost", href: rulesPage(game), target: "_blank", rel: "noopener" }, "Rules")))));
}

function choose(game, focus = false) {
  chosen = game;
  showGames();
  showForm();
  if (focus) {
    formCard.scrollIntoView({ behavior: "smooth", block: "nearest" });
    formCard.querySelector("#player-name, select").focus();
  }
}

// --- the create-a-room form, built from the catalogue's declarations ---------------------------

function optionControl(option) {
  const id = `opt-${option.name}`;
  let input;
  if (option.kind === "bool") {
    input = el("input", { type: "checkbox", id, name: option.name, checked: !!option.default });
    return el("label", { class: "field field-check", title: option.help }, input,
      el("span", {}, option.label), option.help && el("small", {}, option.help));
  }
  if (option.kind === "int") {
    input = el("input", { type: "number", id, name: option.name, value: option.default, step: 1,
      min: option.minimum, max: option.maximum, required: true });
  } else {
    const labels = option.choice_labels || [];
    input = el("select", { id, name: option.name },
      (option.choices || []).map((c, i) => el("option", { value: c, selected: c === option.default }, labels[i] || c)));
  }
  return el("label", { class: "field", for: id }, el("span", {}, option.label), input,
    option.help && el("small", {}, option.help));
}

function readOption(form, option) {
  const input = form.elements[option.name];
  if (option.kind === "bool") return input.checked;
  if (option.kind === "int") return Number.parseInt(input.value, 10);
  return input.value;
}

const LEVELS = ["easy", "medium", "hard"];  // every game's bot levels, listed first

function seatControl(game, index, seats) {
  const notes = game.bot_notes || {};
  const bots = [...LEVELS.filter((b) => game.bots.includes(b)), ...game.bots.filter((b) => !LEVELS.includes(b))];
  const select = el("select", { name: `seat-${index}`, "aria-label": `Seat ${index + 1}` },
    el("option", { value: "you" }, "You"),
    el("option", { value: "open" }, "Open: invite a friend"),
    bots.map((bot) => el("option", { value: `bot:${bot}`, title: notes[bot] || "" }, `Bot: ${bot}`)));
  const preferred = game.bots.includes("medium") ? "medium" : bots[0];
  select.value = index === 0 ? "you" : preferred ? `bot:${preferred}` : "open";
  const note = el("small", { class: "seat-note" });
  const describe = () => { note.textContent = select.value.startsWith("bot:") ? notes[select.value.slice(4)] || "" : ""; };
  describe();
  select.addEventListener("change", () => {
    describe();
    if (select.value !== "you") return;
    for (const other of seats.querySelectorAll("select")) {
      if (other !== select && other.value === "you") {
        other.value = "open";
        other.dispatchEvent(new Event("change"));
      }
    }
  });
  return el("label", { class: "seat-choice" }, el("span", { class: "seat-label" }, `Seat ${index + 1}`), select, note);
}

/** The options a new room may set: not those kept only for old games' replays (rules editions). */
function offered(game) {
  return game.options.filter((o) => !o.replay_only);
}

function showForm() {
  const game = chosen;
  const options = offered(game);
  const seats = el("div", { class: "seat-choices" });
  const fillSeats = (count) => replace(seats, Array.from({ length: count }, (_, i) => seatControl(game, i, seats)));
  const count = el("select", { name: "players", id: "players" },
    Array.from({ length: game.max_players - game.min_players + 1 }, (_, i) => game.min_players + i)
      .map((n) => el("option", { value: n }, plural(n, "player"))));
  count.value = Math.min(game.max_players, Math.max(2, game.min_players));
  count.addEventListener("change", () => fillSeats(Number(count.value)));
  fillSeats(Number(count.value));
  const nameField = el("label", { class: "field", for: "player-name" }, el("span", {}, "Your name"),
    el("input", { id: "player-name", name: "name", maxlength: 32, placeholder: "e.g. Ana", value: lastName(), required: true }));
  signedIn().then((player) => {  // a signed-in player's seat takes the account's name: none to type
    if (!player) return;
    nameField.dataset.account = player.name;
    replace(nameField, el("span", {}, "You play as"), el("strong", { id: "signed-in-as", class: "field-value" }, player.name));
  });
  const timerSelect = el("select", { id: "turn-timer", name: "turn_timer" });
  const timerNote = el("small", {});
  const timerField = el("label", { class: "field", for: "turn-timer" }, el("span", {}, "Turn timer"), timerSelect, timerNote);
  const paceSelect = el("select", { id: "pace", name: "pace" },
    el("option", { value: "live" }, "Live: everyone at the table"),
    el("option", { value: "turn-based" }, "Turn-based: a move when you can"));
  const showTimers = () => {
    const slow = paceSelect.value === "turn-based";
    replace(timerSelect, (slow ? MOVE_TIMES : TIMERS).map(([value, label]) =>
      el("option", { value: value ?? "", selected: slow && value === DEFAULT_MOVE_TIME }, label)));
    timerField.firstChild.textContent = slow ? "Time per move" : "Turn timer";
    timerNote.textContent = slow ? "When it runs out, the others choose: a bot takes the seat, or the game ends."
      : "When it runs out, a bot makes that seat's move.";
  };
  paceSelect.addEventListener("change", showTimers);
  showTimers();
  const paceField = () => el("label", { class: "field", for: "pace" }, el("span", {}, "Pace"), paceSelect);
  const error = el("p", { class: "form-error", role: "alert" });
  const submit = el("button", { type: "submit", class: "btn btn-primary btn-wide" }, `Create ${/^[AEIOU]/i.test(game.name) ? "an" : "a"} ${game.name} room`);
  const form = el("form", { class: "create-form", autocomplete: "off" },
    el("label", { class: "field", for: "game-choice" }, el("span", {}, "Game"),
      el("select", { id: "game-choice", onchange: (e) => choose(catalogue.find((g) => g.id === e.target.value)) },
        catalogue.map((g) => el("option", { value: g.id, selected: g.id === game.id }, g.name)))),
    nameField,
    game.min_players !== game.max_players
      ? el("label", { class: "field", for: "players" }, el("span", {}, "Players"), count) : null,
    el("fieldset", { class: "field" }, el("legend", {}, "Seats"), seats),
    options.length ? el("details", { class: "field options", open: options.length <= 3 },
      el("summary", {}, `Game options (${options.length})`, el("span", { class: "muted" }, " · the defaults are fine")),
      el("div", { class: "options-body" }, options.map(optionControl))) : null,
    paceField(), timerField,
    error, submit);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    error.textContent = "";
    const account = nameField.dataset.account;
    const name = account || (form.elements.name ? form.elements.name.value.trim() : "");
    const choices = [...seats.querySelectorAll("select")].map((s) => s.value);
    const you = choices.indexOf("you");
    if (you >= 0 && !name) {
      error.textContent = "Type your name to take a seat.";
      form.elements.name.focus();
      return;
    }
    const body = {
      game: game.id,
      options: Object.fromEntries(options.map((o) => [o.name, readOption(form, o)])),
      seats: choices.map((c) => (c.startsWith("bot:") ? { kind: "bot", bot: c.slice(4) } : { kind: "open" })),
      turn_timer: form.elements.turn_timer.value ? Number(form.elements.turn_timer.value) : null,
      pace: paceSelect.value,
      host_name: name || "host",
      take_seat: you >= 0 ? you : null,
    };
    submit.disabled = true;
    try {
      const room = await api("POST", "/api/rooms", body);
      if (name && !account) rememberName(name);
      saveRoom(room.code, { host_token: room.host_token, seat: room.seat, seat_token: room.seat_token, name });
      location.href = `/r/${encodeURIComponent(room.code)}`;
    } catch (err) {
      error.textContent = err.message;
      submit.disabled = false;
    }
  });
  replace(formCard, el("h2", { class: "card-title" }, "Create a room"), form);
}

// --- the rooms: open ones to join, games in progress to watch ------------------------------------

function roomRow(room, names) {
  const playing = room.status === "playing";
  const open = room.seats.filter((s) => s.kind === "open").length;
  return el("a", { class: "room-row", href: `/r/${encodeURIComponent(room.code)}`, dataset: { code: room.code } },
    el("div", { class: "room-row-main" },
      el("strong", {}, names[room.game] || room.game),
      el("span", { class: "room-code" }, room.code)),
    el("span", { class: "room-row-when muted" }, playing ? `move ${room.turn}`
      : room.pace === "turn-based" ? moveTime(room.turn_timer) : ago(room.created)),
    el("div", { class: "room-row-seats" },
      room.seats.map((s) => el("span", {  // who is at the table now (presence), who is away
        class: ["seat-chip", s.bot_account ? "seat-bot" : `seat-${s.kind}`,  // a bot account's seat looks like a bot's
          s.kind === "human" && (s.connected ? "seat-here" : "seat-away")],
        title: s.kind === "human" ? `${seatName(s)}${s.bot_account ? " (bot account)" : ""}: ${s.connected ? "here" : "away"}`
          : seatName(s) }, seatName(s))),
      !playing && room.host_here === false ? el("span", { class: "muted small host-away" },
        "the host is away: any player may start") : null),
    el("span", { class: "room-row-join", title: open ? `${plural(open, "seat")} open` : "" },
      playing ? "Watch →" : open ? "Join →" : "Watch →"));
}

async function listRooms(list, status, empty, pace) {
  const query = new URLSearchParams({ status });
  if (pace) query.set("pace", pace);
  if (gameFilter.value) query.set("game", gameFilter.value);
  let rooms;
  try {
    rooms = await api("GET", `/api/rooms?${query}`);
  } catch (err) {
    replace(list, el("p", { class: "muted" }, `Cannot list the rooms: ${err.message}`));
    return;
  }
  const names = Object.fromEntries(catalogue.map((g) => [g.id, g.name]));
  replace(list, rooms.length ? rooms.map((room) => roomRow(room, names)) : el("p", { class: "muted empty-note" }, empty));
}

function refreshRooms() {
  listRooms(roomsList, "waiting", "No room is waiting for players. Create one!", "live");
  listRooms(slowList, "waiting", "No turn-based room is waiting for players.", "turn-based");
  listRooms(playingList, "playing", "No game is being played right now.");
  refreshBots(catalogue);
  refreshIncoming();
}

async function start() {
  try {
    catalogue = await games();
  } catch (err) {
    replace(gameList, el("p", { class: "form-error" }, `Cannot load the games: ${err.message}`));
    return;
  }
  const wanted = new URLSearchParams(location.search).get("game");
  chosen = catalogue.find((g) => g.id === wanted) || catalogue[0];
  showGames();
  if (chosen) showForm();
  gameFilter.append(...catalogue.map((g) => el("option", { value: g.id }, g.name)));
  refreshRooms();
  setInterval(refreshRooms, REFRESH_EVERY);
}

start();
