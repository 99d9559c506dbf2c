// The analysis of a finished game (/r/{code}/analysis): a chart of each player's chance of winning
// move by move, and every move with its label (best, good, inaccuracy, mistake, blunder) and the
// move the search preferred. Each move links to the replay as its player saw the game then.
// GET /api/rooms/{code}/analysis makes it on first request; while it is made, the page shows how
// far it has got and asks again.

import { el, svg, replace, api, games, header, seatDot, plural, brief } from "/static/ui.js";
import { withNames } from "/static/board.js";

const app = document.getElementById("app");
const main = el("main", { class: "analysis" });
const headerTitle = el("span", { class: "topbar-title" });
app.append(header(headerTitle), main);
const code = decodeURIComponent(location.pathname.split("/")[2] || "");
const roomPath = `/api/rooms/${encodeURIComponent(code)}`;
const LABEL_WORDS = { best: "Best", good: "Good", inaccuracy: "Inaccuracy", mistake: "Mistake", blunder: "Blunder" };
const pct = (x) => `${Math.round(100 * x)}%`;

/** The chart: each seat's chance of winning after each of its moves, with the bad moves marked. */
function chart(moves, names, onPick) {
  const W = 640, H = 220, L = 34, R = 8, T = 10, B = 24;
  const last = Math.max(1, moves.length ? moves[moves.length - 1].turn : 1);
  const x = (turn) => L + ((W - L - R) * (turn - 1)) / Math.max(1, last - 1);
  const y = (p) => T + (H - T - B) * (1 - p);
  const grid = [0, 0.25, 0.5, 0.75, 1].map((p) => [
    svg("line", { x1: L, x2: W - R, y1: y(p), y2: y(p), class: p === 0.5 ? "chart-even" : "chart-grid" }),
    svg("text", { x: L - 4, y: y(p) + 4, class: "chart-axis", "text-anchor": "end" }, pct(p))]);
  const lines = names.map((_, seat) => {
    const mine = moves.filter((m) => m.seat === seat);
    if (!mine.length) return null;
    const points = mine.map((m) => `${x(m.turn).toFixed(1)},${y(m.win_chance_after).toFixed(1)}`).join(" ");
    return svg("polyline", { points, class: "chart-line", style: { stroke: `var(--seat-${seat % 6})` } });
  });
  const marks = moves.filter((m) => ["inaccuracy", "mistake", "blunder"].includes(m.label)).map((m) =>
    svg("circle", { cx: x(m.turn), cy: y(m.win_chance_after), r: m.label === "blunder" ? 5 : 4,
      class: `chart-mark mark-${m.label}`, tabindex: 0, role: "button",
      "aria-label": `Move ${m.turn}: ${LABEL_WORDS[m.label]} by ${names[m.seat]}`,
      onclick: () => onPick(m.turn), onkeydown: (e) => { if (e.key === "Enter") onPick(m.turn); } },
      svg("title", {}, `Move ${m.turn}, ${names[m.seat]}: ${LABEL_WORDS[m.label]}`)));
  const ticks = [[1, "start"], [Math.ceil(last / 2), "middle"], [last, "end"]].map(([t, anchor]) =>
    svg("text", { x: x(t), y: H - 6, class: "chart-axis", "text-anchor": anchor }, `move ${t}`));
  return svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "analysis-chart", id: "analysis-chart", role: "img",
    "aria-label": "Each player's chance of winning after each of their moves" }, grid, lines, marks, ticks);
}

function showMade(answer, game, replay) {
  const names = answer.names;
  const moves = answer.moves;
  const words = (turn) => {
    const frame = replay && replay.frames && replay.frames[turn];
    return frame && frame.log && frame.log.length ? frame.log.map((l) => (typeof l === "string" ? l : l.text)).join(" ") : null;
  };
  const rows = new Map();
  const pick = (turn) => {
    const row = rows.get(turn);
    if (!row) return;
    rows.forEach((r) => r.classList.remove("picked"));
    row.classList.add("picked");
    row.scrollIntoView({ block: "center", behavior: "smooth" });
  };
  const summary = el("table", { class: "analysis-summary" },
    el("thead", {}, el("tr", {}, el("th", {}, "Player"), el("th", {}, "Inaccuracies"), el("th", {}, "Mistakes"),
      el("th", {}, "Blunders"))),
    el("tbody", {}, names.map((name, seat) => {
      const c = answer.summary[seat] || {};
      return el("tr", {}, el("td", {}, seatDot(seat), " ", name), el("td", {}, String(c.inaccuracy || 0)),
        el("td", {}, String(c.mistake || 0)), el("td", {}, String(c.blunder || 0)));
    })));
  const list = el("ol", { class: "analysis-moves", id: "analysis-moves" }, moves.map((m) => {
    const better = ["best", "good"].includes(m.label) ? null
      : el("div", { class: "analysis-better" }, "Better: ", el("strong", {}, m.best_words || brief(m.best)),
        ` (${pct(m.win_chance_before)} to win)`);
    const row = el("li", { class: `analysis-move label-${m.label}`, id: `move-${m.turn}` },
      el("span", { class: "log-turn" }, String(m.turn)),
      el("div", { class: "analysis-what" },
        // the log's words for the move (they name its player), else the move in brief
        words(m.turn) ? el("div", {}, seatDot(m.seat), " ", withNames(words(m.turn), names))
          : el("div", {}, seatDot(m.seat), " ", el("strong", {}, names[m.seat]), " ", brief(m.action)),
        better),
      el("span", { class: "analysis-chance", title: "chance of winning: with the best move → after the move played" },
        m.label === "best" ? pct(m.win_chance_after) : `${pct(m.win_chance_before)} → ${pct(m.win_chance_after)}`),
      el("span", { class: `label-badge badge-${m.label}` }, LABEL_WORDS[m.label]),
      el("a", { class: "analysis-see", href: `/r/${encodeURIComponent(code)}/replay?seat=${m.seat}&at=${m.turn - 1}`,
        title: `The board as ${names[m.seat]} saw it before this move` }, "See"));
    rows.set(m.turn, row);
    return row;
  }));
  replace(main, el("div", { class: "analysis-page" },
    el("section", { class: "card" },
      el("h1", {}, `${game.name}: the game analysed`),
      el("p", { class: "muted" }, `Every move judged by the hard level's search: its player's chance of winning`
        + " with the best move it found and with the move played."
        + (game.hidden_information ? " Each move is judged only from what its player could see when they chose,"
          + " never from the cards revealed later." : "")),
      chart(moves, names, pick), summary,
      el("p", { class: "analysis-links" },
        el("a", { class: "btn", href: `/r/${encodeURIComponent(code)}/replay` }, "Watch the replay"), " ",
        el("a", { class: "btn", href: `/r/${encodeURIComponent(code)}` }, "Back to the room"))),
    el("section", { class: "card" }, el("h2", {}, "Every move"), list)));
}

async function start() {
  const all = await games();
  let replay = null;
  for (;;) {
    let answer;
    try {
      answer = await api("GET", `${roomPath}/analysis`);
    } catch (err) {
      replace(main, el("section", { class: "card notice" }, el("h1", {}, "No analysis yet"), el("p", {}, err.message),
        el("a", { class: "btn btn-primary", href: `/r/${encodeURIComponent(code)}` }, "Back to the room")));
      return;
    }
    const game = all.find((g) => g.id === answer.game) || { name: answer.game, hidden_information: false };
    headerTitle.textContent = `${game.name} · analysis`;
    document.title = `${game.name} analysis — Parlour`;
    if (answer.status === "made") {
      try { replay = await api("GET", `${roomPath}/replay`); } catch { replay = null; }
      showMade(answer, game, replay);
      return;
    }
    if (answer.status === "failed") {
      replace(main, el("section", { class: "card notice" }, el("h1", {}, "The analysis failed"), el("p", {}, answer.reason)));
      return;
    }
    const share = answer.total ? answer.done / answer.total : 0;
    replace(main, el("section", { class: "card notice", id: "analysis-pending" },
      el("h1", {}, "Analysing the game…"),
      el("p", {}, `${answer.done} of ${plural(answer.total, "move")} judged`
        + (answer.ahead ? `; ${plural(answer.ahead, "game")} ahead of this one` : "") + "."),
      el("progress", { max: 1, value: share, "aria-label": "Progress" }),
      answer.waiting ? el("p", { class: "muted", id: "analysis-waiting" }, waitingWords(answer)) : null));
    await new Promise((resolve) => setTimeout(resolve, 1500));
  }
}

/** Why nothing moves: the hall is busy with live games, and analyses wait for them (hall/pacing.py). */
function waitingWords(answer) {
  const left = Math.max(0, Math.ceil((answer.patience - answer.waited) / 60));
  return "The hall is busy with live games, and they come first: the analysis waits for a quieter moment"
    + (left > 0 ? ` (${plural(left, "minute")} at most), then goes on slowly if it has to.` : "; it goes on slowly meanwhile.");
}

start();
