// The replay of a finished game, step by step, drawn by the game's own renderer (read-only).
// /r/{code}/replay shows a room's game; /replay shows a replay file chosen from the computer
// (an arena replay, say), whose frames the hall computes (POST /api/replays/frames).
// Frames come a page of PAGE at a time (a game may be long): the page of the step shown is fetched
// when it is reached, for each board shown, and the log shows that page's moves up to the step.
// A game with hidden information can be watched as the table saw it, as one seat saw it (its
// hand and all), or with everything shown: every seat's board side by side.

import { el, replace, api, games, header, keys, seatDot, plural } from "/static/ui.js";
import { withNames } from "/static/board.js";

const app = document.getElementById("app");
const main = el("main", { class: "replay" });
const headerTitle = el("span", { class: "topbar-title" });
app.append(header(headerTitle), main);

const PAGE = 100;  // frames fetched at once (the hall sends at most 200)
const pageOf = (k) => Math.floor(k / PAGE) * PAGE;

/** The frames of one view of a replay, fetched a page at a time by `fetchPage(start)`. */
function pager(first, fetchPage) {
  const pages = new Map();
  const put = (answer) => pages.set(answer.frames_start || 0, answer.frames);
  put(first);
  return {
    frame(k) {
      const page = pages.get(pageOf(k));
      return page ? page[k - pageOf(k)] : null;
    },
    async load(k) {
      if (!pages.has(pageOf(k))) put(await fetchPage(pageOf(k)));
    },
  };
}

const parts = location.pathname.split("/");
const code = parts[1] === "r" ? decodeURIComponent(parts[2]) : null;

function uploadForm(message) {
  const input = el("input", { type: "file", id: "replay-file", accept: ".json,application/json" });
  const error = el("p", { class: "form-error", role: "alert" }, message || "");
  const zone = el("label", { class: "drop-zone", for: "replay-file" },
    el("span", { class: "btn btn-primary" }, "Choose a replay file"),
    el("span", { class: "muted" }, "or drop it here: a parlour-replay/1 JSON file, from the arena or the hall"),
    input);
  const load = async (file) => {
    error.textContent = "";
    const text = await file.text();
    try {
      JSON.parse(text);
    } catch {
      error.textContent = `${file.name} is not a JSON file.`;
      return;
    }
    try {
      // as written: seeds may not fit a JS number
      const page = (seat, start) => api("POST", `/api/replays/frames?${query(seat, start)}`, text);
      show(await page(null, 0), page);
    } catch (err) {
      error.textContent = err.message;
    }
  };
  input.addEventListener("change", () => input.files[0] && load(input.files[0]));
  zone.addEventListener("dragover", (e) => { e.preventDefault(); zone.classList.add("over"); });
  zone.addEventListener("dragleave", () => zone.classList.remove("over"));
  zone.addEventListener("drop", (e) => {
    e.preventDefault();
    zone.classList.remove("over");
    if (e.dataTransfer.files[0]) load(e.dataTransfer.files[0]);
  });
  headerTitle.textContent = "Watch a replay";
  replace(main, el("section", { class: "card notice upload-card" }, el("h1", {}, "Watch a replay"),
    el("p", {}, "Open a game's replay file to step through it move by move."), zone, error));
}

let unbind = null;

function query(seat, start) {
  return `start=${start}&count=${PAGE}${seat === null ? "" : `&seat=${seat}`}`;
}

/**
 * Shows `replay` (its first page of frames as the table saw the game); `seenBy(seat, start)` fetches
 * the page from frame `start` as `seat` saw it (null: the table).
 */
async function show(replay, seenBy) {
  const game = (await games()).find((g) => g.id === replay.game);
  if (!game) {
    uploadForm(`This hall does not know the game ${JSON.stringify(replay.game)}.`);
    return;
  }
  const total = replay.frames_total || replay.frames.length;  // every frame: the start and each move
  const table = pager(replay, (start) => seenBy(null, start));
  const names = replay.names || [];
  headerTitle.textContent = `${game.name} · replay${code ? ` of room ${code}` : ""}`;
  document.title = `${game.name} replay — Parlour`;
  const board = el("div", { class: "replay-boards", id: "board" });
  const seen = {};  // each seat's frames, by page, once first asked for
  const fetchSeat = async (seat) => {
    seen[seat] = seen[seat] || pager(await seenBy(seat, pageOf(at)), (start) => seenBy(seat, start));
    return seen[seat];
  };
  // the seats whose boards are shown: null for the table's; one seat; or each seat ("all")
  const views = el("select", { id: "replay-view", "aria-label": "Show the game as" },
    el("option", { value: "all" }, "Everything: every seat's hand"),
    el("option", { value: "table" }, "As the table saw it"),
    names.map((name, seat) => el("option", { value: String(seat) }, `As ${name} saw it`)));
  const counter = el("span", { class: "step-counter", id: "step-counter" });
  const slider = el("input", { type: "range", min: 0, max: total - 1, value: 0, id: "step-slider",
    "aria-label": "Step" });
  const log = el("ol", { class: "log", id: "log" });
  const playButton = el("button", { type: "button", class: "btn", id: "play" }, "▶ Play");
  const step = (n) => go(Math.max(0, Math.min(total - 1, n)));
  const controls = el("div", { class: "replay-controls" },
    el("button", { type: "button", class: "btn", title: "First (Home)", "aria-label": "First", onclick: () => step(0) }, "|◀"),
    el("button", { type: "button", class: "btn", id: "prev", title: "Back (←)", onclick: () => step(at - 1) }, "◀ Back"),
    counter,
    el("button", { type: "button", class: "btn btn-primary", id: "next", title: "Forward (→)", onclick: () => step(at + 1) }, "Forward ▶"),
    el("button", { type: "button", class: "btn", title: "Last (End)", "aria-label": "Last", onclick: () => step(total - 1) }, "▶|"),
    playButton, slider,
    game.hidden_information ? el("label", { class: "replay-view" }, el("span", {}, "Show"), views) : null);
  const result = replay.result;
  const winners = (result && result.winners) || [];
  // the scores as they stand at the step shown (from the view's scores, when the game has them)
  const stepScores = names.map(() => el("span", { class: "seat-score" }));
  const players = el("ol", { class: "seat-list compact" }, names.map((name, seat) =>
    el("li", { class: "seat-row" }, seatDot(seat), el("span", { class: "seat-name" }, name), stepScores[seat])));
  // the result's own scores only where the seats show none at the end (Palace's are places, not scores)
  const firstView = replay.frames[0] && replay.frames[0].view;
  const seatsScored = !!(firstView && Array.isArray(firstView.scores));
  // the winner only at the end of the replay, not from its first move
  const verdict = result ? el("p", { class: "replay-result", id: "replay-result", hidden: true },
    el("strong", {}, winners.length === 1 ? `${names[winners[0]]} won` : winners.length ? "A tie" : "Game over"),
    seatsScored ? "" : ` ${result.scores.map((x) => String(x)).join(" – ")}`,
    result.reason ? ` · ${withNames(result.reason, names)}` : "") : null;
  replace(main, el("div", { class: "game-page" },
    el("div", { class: "board-wrap" }, controls, board),
    el("aside", { class: "sidebar" },
      el("section", { class: "card side-card" }, el("h3", { class: "card-title" }, "Players"), players,
        verdict,
        replay.ended && replay.ended !== "normal" ? el("p", { class: "muted" }, `Ended: ${replay.ended}`) : null,
        code ? el("a", { class: "btn btn-small", id: "analysis-link", href: `/r/${encodeURIComponent(code)}/analysis` },
          "Analysis: every move judged") : null,
        el("p", { class: "muted small key-help" }, "← → to step, Home / End, space to play.")),
      el("section", { class: "card side-card log-card" }, el("h3", { class: "card-title" }, "Log"), log))));
  let module;
  try {
    module = await import(game.renderer_url || "/static/generic.js");
  } catch {
    module = await import("/static/generic.js");
  }
  let boards = [];  // [{seat, frames, renderer}]
  async function showAs(choice) {
    const seats = choice === "table" ? [null] : choice === "all" ? names.map((_, seat) => seat) : [Number(choice)];
    let shown;
    try {
      shown = await Promise.all(seats.map((seat) => (seat === null ? table : fetchSeat(seat))));
    } catch (err) {
      replace(board, el("p", { class: "form-error" }, err.message));
      return;
    }
    boards.forEach((b) => b.renderer.destroy());
    replace(board);
    boards = seats.map((seat, i) => {
      const root = el("div", { class: "board" });
      board.append(seats.length > 1 ? el("section", { class: "replay-seat" },
        el("h3", { class: "replay-seat-title" }, seatDot(seat), `${names[seat]}’s view`), root) : root);
      return { seat, pages: shown[i], renderer: module.mount(root, { seat, names, game, send: null }) };
    });
    go(at);
  }
  views.addEventListener("change", () => showAs(views.value));
  views.value = "all";
  // the lines step `k` added, as every board shown saw them: a line two seats read is shown once
  function stepLog(k) {
    const logs = boards.some((b) => b.seat === null) || !boards.length ? [table] : boards.map((b) => b.pages);
    const out = [];
    for (const pages of logs) {
      const unmatched = [...out];
      const frame = pages.frame(k);
      for (const line of ((frame && frame.log) || []).map((l) => (typeof l === "string" ? l : l.text))) {
        const same = unmatched.indexOf(line);
        if (same >= 0) unmatched.splice(same, 1);
        else out.push(line);
      }
    }
    return out;
  }
  let at = 0;
  let timer = null;
  async function go(n) {
    at = n;
    try {
      await Promise.all([table, ...boards.map((b) => b.pages)].map((pages) => pages.load(n)));
    } catch (err) {
      replace(board, el("p", { class: "form-error" }, err.message));
      return;
    }
    if (at !== n) return;  // another step was asked for meanwhile
    for (const shown of boards) {
      const frame = shown.pages.frame(at);
      shown.renderer.update({ view: frame.view, legal: null, to_act: frame.to_act || [], turn: at,
        result: at === total - 1 ? result : null, names });
    }
    const frame = table.frame(at);
    const scores = frame.view && Array.isArray(frame.view.scores) ? frame.view.scores : null;
    stepScores.forEach((cell, seat) => { cell.textContent = scores ? String(scores[seat]) : ""; });
    if (verdict) verdict.hidden = at !== total - 1;
    players.querySelectorAll(".seat-row").forEach((row, seat) =>
      row.classList.toggle("winner", at === total - 1 && winners.includes(seat)));
    counter.textContent = at === 0 ? `start · ${plural(total - 1, "move")}` : `move ${at} of ${total - 1}`;
    slider.value = at;
    // this page's moves up to the step shown (earlier ones are on the pages before)
    const from = Math.max(1, pageOf(at));
    const lines = [];
    for (let k = from; k <= at; k++) lines.push(...stepLog(k).map((line) => ({ step: k, line })));
    replace(log, lines.map(({ step: s, line }) => el("li", { class: s === at ? "fresh" : null },
      el("span", { class: "log-turn" }, String(s)), line)));
    log.scrollTop = log.scrollHeight;
  }
  function togglePlay() {
    if (timer) {
      clearInterval(timer);
      timer = null;
      playButton.textContent = "▶ Play";
      return;
    }
    if (at === total - 1) go(0);
    playButton.textContent = "❚❚ Pause";
    timer = setInterval(() => {
      if (at >= total - 1) togglePlay();
      else go(at + 1);
    }, 700);
  }
  playButton.addEventListener("click", togglePlay);
  slider.addEventListener("input", () => go(Number(slider.value)));
  if (unbind) unbind();
  unbind = keys({
    ArrowRight: () => step(at + 1), ArrowLeft: () => step(at - 1),
    Home: () => step(0), End: () => step(total - 1), " ": () => togglePlay(),
  });
  // ?seat=S&at=T (from the analysis): the game as seat S saw it, at step T
  const wanted = new URLSearchParams(location.search);
  const seatWanted = wanted.get("seat");
  const stepWanted = Number(wanted.get("at"));
  if (Number.isInteger(stepWanted) && stepWanted > 0 && stepWanted < total) at = stepWanted;
  if (game.hidden_information && seatWanted !== null && names[Number(seatWanted)] !== undefined) {
    views.value = seatWanted;
  }
  await showAs(game.hidden_information ? views.value : "table");
}

async function start() {
  if (!code) {
    uploadForm();
    return;
  }
  try {
    const path = `/api/rooms/${encodeURIComponent(code)}/replay`;
    const page = (seat, start) => api("GET", `${path}?${query(seat, start)}`);
    await show(await page(null, 0), page);
  } catch (err) {
    replace(main, el("section", { class: "card notice" }, el("h1", {}, "No replay yet"), el("p", {}, err.message),
      el("a", { class: "btn btn-primary", href: `/r/${encodeURIComponent(code)}` }, "Back to the room")));
  }
}

start();
