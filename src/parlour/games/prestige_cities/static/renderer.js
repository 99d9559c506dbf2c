// Prestige Cities in the browser: the era card and its dice, my city (or my catastrophe target's),
// the blocks I am about to place with the count left and undo, every city's scores, a look at
// any other city, the bonus cards and who earned them, and the final scores.
//
// Legality comes from the server: the first block of a group from `legal`, the next ones by the
// rule the engine states in the task (touch the group, on a square free for that block). A group
// is sent as a short sequence of actions when it is confirmed; the frame shows refusals.
//
// Keys: 1-5 choose a die (or a Golden Age block), arrows move the cursor, Space adds the square
// under it, Backspace or U takes the last one back, Enter confirms, Esc clears, S stops converting
// or ends a bonus card's extra blocks (the blocks chosen so far are built, then no more).

import { el, svg, replace, button, keys, plural, seatDot, matching } from "/static/ui.js";
import { renderer, stylesheet, withNames, explain, touchOr, gameOver } from "/static/board.js";

stylesheet(new URL("renderer.css", import.meta.url));

const BLOCKS = ["industry", "commerce", "residential", "culture", "parks"];
const NAMES = { industry: "Industry", commerce: "Commerce", residential: "Residential", culture: "Culture",
  parks: "Parks", blight: "Blight" };
const LETTER = { industry: "I", commerce: "C", residential: "R", culture: "U", parks: "P", blight: "B" };
const BY_LETTER = Object.fromEntries(Object.entries(LETTER).map(([k, v]) => [v, k]));
const ROWS = 9;
const COLS = 8;

const key = (r, c) => `${r},${c}`;
const near = (a, b) => Math.abs(a[0] - b[0]) + Math.abs(a[1] - b[1]) === 1;

/** What each type of block does for the scores, in words. */
const BLOCK_TEXT = {
  industry: "Industry (yellow die): counts for Wealth, (Industry + Commerce) ÷ 2; each Residential block touching Industry loses 1 Happiness.",
  commerce: "Commerce (blue die): counts for Wealth, (Industry + Commerce) ÷ 2, and each one inside the Inner District adds 1 more.",
  residential: "Residential (red die): each home scores Happiness: −1 if it touches Industry, +1 if it touches Parks, +1 if it touches Culture.",
  culture: "Culture (purple die): each one inside the Inner District is a point of Culture; next to homes it adds Happiness.",
  parks: "Parks (green die): each home touching Parks gains 1 Happiness.",
  blight: "Blight: each home touching Blight loses 1 Happiness. It comes after big growth, catastrophes and the Industrial Revolution.",
  mountain: "A mountain: it counts as filled, but Residential blocks may be built over it.",
  empty: "An empty square.",
};
const START = { mountains: [], inner_rows: [2, 6], inner_cols: [2, 5], ocean: false };

/**
 * A city as an SVG grid. cityRows: 9 strings of letters ("." empty, "M" mountain); board: the view's
 * board; opts: {pending: [{row, col, block}], group: [[r, c]], removing, small, live, label,
 * cell(r, c) -> {ok, cursor, onclick, onmouseenter}}.
 */
function citySvg(cityRows, board, opts = {}) {
  const mountains = new Set(board.mountains.map(([r, c]) => key(r, c)));
  const marks = new Map((opts.pending || []).map((p) => [key(p.row, p.col), p]));
  const group = new Set((opts.group || []).map(([r, c]) => key(r, c)));
  const height = ROWS + (board.ocean ? 0.45 : 0);
  const s = svg("svg", { class: ["pc-city", opts.live && "pc-city-live", opts.small && "pc-city-small"],
    viewBox: `-0.06 -0.06 ${COLS + 0.12} ${height + 0.12}`, role: "grid", "aria-label": opts.label || "a city" });
  for (let r = 0; r < ROWS; r++) {
    for (let c = 0; c < COLS; c++) {
      const letter = cityRows[r][c];
      const mark = marks.get(key(r, c));
      const kind = mark ? (opts.removing ? "removing" : mark.block) : letter === "." ? "empty" : letter === "M" ? "mountain"
        : BY_LETTER[letter];
      const live = opts.cell ? opts.cell(r, c, mark) : {};
      const g = svg("g", { class: ["pc-cell", `pc-${kind}`, mark && "pc-pending", group.has(key(r, c)) && "pc-group",
        live.ok && "pc-ok", live.cursor && "pc-cursor"], dataset: { row: r, col: c },
      onclick: live.onclick || null, onmouseenter: live.onmouseenter || null });
      g.append(svg("rect", { x: c + 0.04, y: r + 0.04, width: 0.92, height: 0.92, rx: 0.12 }));
      if (mountains.has(key(r, c))) {
        g.append(svg("path", { class: "pc-peak", d: `M${c + 0.2} ${r + 0.8}L${c + 0.5} ${r + 0.25}L${c + 0.8} ${r + 0.8}` }));
      }
      const text = mark ? (opts.removing ? "×" : LETTER[mark.block]) : letter === "." || letter === "M" ? "" : letter;
      if (text) g.append(svg("text", { x: c + 0.5, y: r + 0.66, class: "pc-letter" }, text));
      s.append(g);
    }
  }
  const [r0, r1] = board.inner_rows;
  const [c0, c1] = board.inner_cols;
  s.append(svg("rect", { class: "pc-inner", x: c0, y: r0, width: c1 - c0 + 1, height: r1 - r0 + 1, rx: 0.15 }));
  if (board.ocean) s.append(svg("rect", { class: "pc-ocean", x: 0, y: ROWS + 0.05, width: COLS, height: 0.38, rx: 0.1 }));
  return s;
}

/** A block type's key: its letter in its colour, its name; explained. */
function blockKey(block) {
  return explain(el("span", { class: `pc-key pc-key-${block}` }, el("i", {}, LETTER[block]), NAMES[block]), BLOCK_TEXT[block]);
}

/** A piece for the rules page (hall/static/rules.js): {piece: "city", rows, ocean} or {piece: "block", block}. */
export function piece(fields) {
  if (fields.piece === "block") return el("span", { class: "pc-piece" }, blockKey(fields.block));
  const rows = fields.rows.split("|");
  const mountains = [];
  rows.forEach((row, r) => [...row].forEach((ch, c) => ch === "M" && mountains.push([r, c])));
  return el("div", { class: "pc-piece pc-piece-city" }, citySvg(rows, { ...START, mountains, ocean: !!fields.ocean }));
}

export function mount(root, ctx) {
  let snap = null;
  let pending = []; // [{row, col, block}] not yet sent
  let chosen = null; // the block chosen for a pick, or for the next Golden Age square
  let cursor = [4, 3];
  let shown = null; // the seat whose city the side panel shows
  let sending = false;
  let note = "";
  let noteBad = false; // whether the note is a refusal (red), not a plain remark
  let askedGolden = -1; // the Golden Age blocks placed when Confirm last asked whether to stop short

  const unbind = keys({
    1: () => chooseByIndex(0), 2: () => chooseByIndex(1), 3: () => chooseByIndex(2), 4: () => chooseByIndex(3),
    5: () => chooseByIndex(4),
    ArrowUp: () => moveCursor(-1, 0), ArrowDown: () => moveCursor(1, 0),
    ArrowLeft: () => moveCursor(0, -1), ArrowRight: () => moveCursor(0, 1),
    " ": () => clickSquare(cursor[0], cursor[1]),
    Backspace: () => undo(), u: () => undo(), Enter: () => confirm(), Escape: () => clear(),
    s: () => stop(),
  });

  // --- what the current task allows ------------------------------------------------------------
  function task() {
    return snap && snap.view && ctx.send && snap.legal && snap.legal.length ? snap.view.task : null;
  }

  function blockChoices() {
    const t = task();
    if (!t) return [];
    if (t.kind === "pick") return t.choices.map((c) => ({ block: c.block, count: c.count }));
    if (t.kind === "golden") return t.blocks.filter((b) => !pending.some((p) => p.block === b)).map((b) => ({ block: b, count: 1 }));
    return [];
  }

  function boardSeat() {
    const t = task();
    if (t && t.kind === "remove") return t.target;
    return ctx.seat ?? shownOr(0);
  }

  function shownOr(fallback) {
    return shown ?? fallback;
  }

  function rows(seat) {
    return snap.view.cities[seat].rows;
  }

  function needed() {
    const t = task();
    if (!t) return 0;
    if (t.kind === "pick") {
      const choice = t.choices.find((c) => c.block === chosen);
      return choice ? choice.count : 0;
    }
    // no group as large as the die: the first block picks a smaller group, removed whole
    if (t.kind === "remove" && t.whole && pending.length) return groupSize(rows(t.target), pending[0].row, pending[0].col);
    if (t.kind === "build" || t.kind === "remove") return t.left;
    if (t.kind === "golden") return t.blocks.length;
    return 1;
  }

  const FULL = "that is all of them: confirm or undo";

  /** How many squares the side-connected group holding (row, col) has, of the letter there. */
  function groupSize(grid, row, col) {
    const letter = grid[row][col];
    const seen = new Set([`${row},${col}`]);
    const todo = [[row, col]];
    while (todo.length) {
      const [r, c] = todo.pop();
      for (const [nr, nc] of [[r + 1, c], [r - 1, c], [r, c + 1], [r, c - 1]]) {
        if (grid[nr] && grid[nr][nc] === letter && !seen.has(`${nr},${nc}`)) {
          seen.add(`${nr},${nc}`);
          todo.push([nr, nc]);
        }
      }
    }
    return seen.size;
  }

  /** Why (row, col) cannot be the next square, or "" when it can. */
  function refusal(row, col) {
    const t = task();
    if (!t) return "nothing to place now";
    if (pending.some((p) => p.row === row && p.col === col)) return `already chosen: ${touchOr("tap", "click")} it again to take it back`;
    const legal = snap.legal;
    if (t.kind === "blight") return matching(legal, { type: "blight", row, col }).length ? "" : "the Blight cannot go there";
    if (t.kind === "convert") return matching(legal, { type: "convert", row, col }).length ? "" : `no ${NAMES[t.block]} you may convert there`;
    if (pending.length >= needed() && needed() > 0 && t.kind !== "golden") return FULL;
    if (t.kind === "golden") {
      if (!chosen) return touchOr("choose a block first", "choose a block first (1-5)");
      return matching(legal, { type: "build", block: chosen, row, col }).length ? "" : "that square is taken";
    }
    if (t.kind === "remove") {
      const group = t.group.concat(pending.map((p) => [p.row, p.col]));
      if (!group.length) return matching(legal, { type: "remove", row, col }).length ? ""
        : `pick ${NAMES[t.block]} in a group of at least ${t.left}`;
      if (rows(t.target)[row][col] !== LETTER[t.block]) return `no ${NAMES[t.block]} there`;
      return group.some((g) => near(g, [row, col])) ? "" : "the blocks removed must touch each other";
    }
    const block = t.kind === "build" ? t.block : chosen;
    if (!block) return touchOr("choose a die first", "choose a die first (1-5)");
    const group = (t.kind === "build" ? t.group : []).concat(pending.map((p) => [p.row, p.col]));
    if (!group.length) {
      return matching(legal, { type: "build", block, row, col }).length ? ""
        : rows(ctx.seat)[row][col] === "." || (block === "residential" && rows(ctx.seat)[row][col] === "M")
          ? `too little room there for ${needed()} connected blocks` : "that square is taken";
    }
    const here = rows(ctx.seat)[row][col];
    if (!(here === "." || (block === "residential" && here === "M"))) {
      return here === "M" ? "only Residential may be built over a mountain" : "that square is taken";
    }
    return group.some((g) => near(g, [row, col])) ? "" : "the blocks of a round must all touch each other";
  }

  // --- acting ----------------------------------------------------------------------------------
  function chooseByIndex(i) {
    const choices = blockChoices();
    if (choices[i]) choose(choices[i].block);
  }

  function choose(block) {
    const t = task();
    if (!t) return;
    if (t.kind === "pick" && chosen !== block) pending = [];
    chosen = block;
    note = "";
    draw();
  }

  function moveCursor(dr, dc) {
    cursor = [Math.max(0, Math.min(ROWS - 1, cursor[0] + dr)), Math.max(0, Math.min(COLS - 1, cursor[1] + dc))];
    draw();
  }

  function clickSquare(row, col) {
    const t = task();
    if (!t || sending) return;
    cursor = [row, col];
    const at = pending.findIndex((p) => p.row === row && p.col === col);
    if (at >= 0) {  // a second click takes the square back
      pending.splice(at, 1);
      note = "";
      draw();
      return;
    }
    const why = refusal(row, col);
    if (why) {
      note = why;
      noteBad = why !== FULL;
      draw();
      return;
    }
    note = "";
    if (t.kind === "blight" || t.kind === "convert") {
      send([{ type: t.kind, row, col }]);
      return;
    }
    const block = t.kind === "build" ? t.block : t.kind === "remove" ? t.block : chosen;
    pending.push({ row, col, block });
    if (t.kind === "golden") chosen = null;
    draw();
  }

  /** Whether Confirm has just asked about a short Golden Age, and nothing changed since. */
  function asking() {
    return pending.length > 0 && askedGolden === pending.length;
  }

  /** In the Golden Age, whether a block not yet chosen still has a free square. */
  function goldenShort() {
    const taken = new Set(pending.map((p) => key(p.row, p.col)));
    const placed = new Set(pending.map((p) => p.block));
    return (snap.legal || []).some((a) => a.type === "build" && !placed.has(a.block) && !taken.has(key(a.row, a.col)));
  }

  function undo() {
    if (sending || !pending.length) return;
    pending.pop();
    note = "";
    draw();
  }

  function clear() {
    if (sending) return;
    pending = [];
    chosen = null;
    note = "";
    draw();
  }

  /** Whether the task may end early with a stop: a Deck 3 change, or a Deck 1 card's extra blocks. */
  function stoppable() {
    return (snap.legal || []).some((a) => a.type === "stop");
  }

  function stop() {
    const t = task();
    if (!t || sending || !stoppable()) return;
    if (t.kind === "convert") send([{ type: "stop" }]);
    if (t.kind !== "build") return;
    const built = pending.map((p) => ({ type: "build", block: p.block, row: p.row, col: p.col }));
    send(pending.length < t.left ? built.concat([{ type: "stop" }]) : built);  // all of them: nothing to stop
  }

  function confirm() {
    const t = task();
    if (!t || !pending.length || sending) return;
    if (t.kind !== "golden" && pending.length < needed()) {
      note = `place ${plural(needed() - pending.length, "more block")} first`
        + (t.kind === "build" && stoppable() ? `, or press No more blocks${touchOr("", " (S)")} to build only ${plural(pending.length, "block")}` : "");
      noteBad = true;
      draw();
      return;
    }
    if (t.kind === "golden" && askedGolden !== pending.length && goldenShort()) {
      askedGolden = pending.length;
      const left = t.blocks.length - pending.length;
      note = `Only ${pending.length} of the ${t.blocks.length} Golden Age blocks: press Confirm again to build these now, `
        + `and place the other ${left} after; or ${touchOr("tap", "click")} a free square to add more first.`;
      noteBad = false;
      draw();
      return;
    }
    const actions = pending.map((p) => (t.kind === "remove" ? { type: "remove", row: p.row, col: p.col }
      : { type: "build", block: p.block, row: p.row, col: p.col }));
    send(actions);
  }

  let waiters = [];
  function caughtUp(turn) {
    if (turn === undefined || (snap && snap.turn >= turn)) return Promise.resolve();
    return new Promise((done) => {
      waiters.push({ turn, done });
      setTimeout(done, 3000);
    });
  }

  async function send(actions) {
    sending = true;
    note = "";
    noteBad = false;
    draw();
    try {
      for (const action of actions) {
        let answer;
        for (let tries = 0; tries < 40; tries++) {
          answer = await ctx.send(action);
          if (answer.ok || answer.code !== "stale") break;
          await new Promise((done) => setTimeout(done, 120)); // someone else moved first: go again
        }
        if (!answer.ok) {
          note = answer.message || "refused";
          noteBad = true;
          break;
        }
        await caughtUp(answer.turn); // the next action is made against the state this one made
      }
    } finally {
      sending = false;
      askedGolden = -1;
      pending = [];
      chosen = null;
      draw();
    }
  }

  // --- drawing -----------------------------------------------------------------------------------
  function cityBoard(seat, opts = {}) {
    const live = opts.live ? (r, c, mark) => ({
      ok: !mark && !refusal(r, c), cursor: cursor[0] === r && cursor[1] === c,
      onclick: () => clickSquare(r, c), onmouseenter: () => hover(r, c),
    }) : null;
    return citySvg(snap.view.cities[seat].rows, snap.view.board,
      { ...opts, cell: live, label: `${ctx.names[seat] || `Player ${seat + 1}`}'s city` });
  }

  function hover(r, c) {
    if (!task() || asking()) return;  // the Golden Age's question stays until it is answered
    // a square just chosen, or a group already complete, is no refusal: say so without the red
    const chosenHere = pending.some((p) => p.row === r && p.col === c);
    const why = chosenHere ? "" : refusal(r, c);
    const at = `Row ${r + 1}, column ${c + 1}`;  // counted from 1, as the rules page counts
    note = chosenHere ? `${at}: chosen; ${touchOr("tap", "click")} it again to take it back` : why ? `${at}: ${why}` : "";
    noteBad = !!why && why !== FULL;
    const hint = root.querySelector("#pc-hint");
    if (hint) {
      hint.textContent = note || hintText();
      hint.className = ["pc-hint", noteBad && "pc-hint-bad"].filter(Boolean).join(" ");
    }
  }

  function hintText() {
    const t = task();
    if (!t) {
      const v = snap.view;
      if (gameOver(snap)) return "The game is over.";
      if (ctx.send && v.phase === "choose" && !(snap.to_act || []).includes(ctx.seat)) return "Your choice is made: waiting for the others.";
      return "";
    }
    if (t.kind === "pick") {
      if (!chosen) return touchOr("Choose a die, then tap the squares of one connected group.", "Choose a die (1-5), then click the squares of one connected group.");
      return `${NAMES[chosen]}: ${plural(needed() - pending.length, "block")} left to place${pending.length >= needed() ? touchOr(" - tap Confirm", " - press Enter to confirm") : ""}.`;
    }
    if (t.kind === "build" && stoppable()) {
      return `Bonus card: up to ${plural(t.left - pending.length, `more ${NAMES[t.block]} block`)}, touching each other`
        + `${t.group.length ? " and the ones built" : ""}; or No more blocks${touchOr("", " (S)")} to stop${pending.length ? " after these" : " without any"}.`;
    }
    if (t.kind === "build") return `${NAMES[t.block]}: ${plural(t.left - pending.length, "block")} left, touching the group.`;
    if (t.kind === "golden") return chosen ? `${touchOr("Tap", "Click")} a free square for the ${NAMES[chosen]} block.` : `The Golden Age: choose a block${touchOr("", " (1-5)")}, then its square; they need not touch.`;
    if (t.kind === "remove" && t.whole && !pending.length) return `Catastrophe: no group of ${NAMES[t.block]} in ${ctx.names[t.target]}'s city is as large as the die; pick one of its groups to remove whole.`;
    if (t.kind === "remove") return `Catastrophe: remove ${plural(needed() - pending.length, `${NAMES[t.block]} block`)} from ${ctx.names[t.target]}'s city, one connected group.`;
    return t.text[0].toUpperCase() + t.text.slice(1) + ".";
  }

  function diceRow() {
    const v = snap.view;
    if (!v.dice.length) return el("div", { class: "pc-dice pc-no-dice" }, "No dice this era.");
    return el("div", { class: "pc-dice" }, v.dice.map((d) => explain(el("span", {
      class: ["pc-die", `pc-die-${d.block}`, !d.usable && "pc-die-out"] }, String(d.value)),
    `The ${d.color} die: ${d.value} ${NAMES[d.block]}${d.usable ? ". Choose it to build that many connected blocks."
      : d.value === 6 ? ". A 6 is never usable." : ": not usable in this era."} ${BLOCK_TEXT[d.block]}`)));
  }

  function eraCard() {
    const v = snap.view;
    return explain(el("section", { class: ["pc-era", `pc-era-${v.era.kind}`] },
      el("div", { class: "pc-era-head" }, el("span", { class: "pc-round" }, `Round ${v.round}`),
        el("h3", { class: "pc-era-name", id: "pc-era-name" }, v.era.name)),
      el("p", { class: "pc-era-rule" }, v.era.rule),
      diceRow(),
      el("p", { class: "pc-deck muted" }, `${plural(v.deck.left, "era")} left in the deck; set aside: `,
        v.deck.set_aside.join(", ").replaceAll("_", " "))), eraText(v.era));
  }

  function eraText(era) {
    const how = {
      dice: "Choose one usable die and build that many blocks of its type, all touching each other. A 6 is never usable; place a die in full if you can.",
      me: "No dice: choose a type and place 2 connected blocks of it.",
      golden: "No dice: place one block of each of the five types, anywhere; they need not touch.",
      catastrophe: "A catastrophe: remove a connected group of blocks, as many as the die, from the city just above yours in the scores (the leader strikes the last).",
      pregame: "The opening round: every die is fixed and usable.",
    }[era.kind] || "";
    return `${era.name}: ${era.rule} ${how} The eras set aside are sure to come within the next deck.`;
  }

  function controls() {
    const t = task();
    const parts = [];
    const choices = blockChoices();
    if (choices.length) {
      parts.push(el("div", { class: "pc-choices", role: "group", "aria-label": "dice" }, choices.map((c, i) => explain(button(
        `${NAMES[c.block]}${t.kind === "pick" ? ` × ${c.count}` : ""}`, () => choose(c.block),
        { key: String(i + 1), kind: chosen === c.block ? "primary" : null, class: `pc-choice pc-choice-${c.block}` }),
      `${t.kind === "pick" ? `Build ${plural(c.count, `${NAMES[c.block]} block`)}, all touching each other. ` : `Build one ${NAMES[c.block]} block anywhere. `}${BLOCK_TEXT[c.block]}`))));
    }
    if (t && ["pick", "build", "golden", "remove"].includes(t.kind)) {
      parts.push(el("div", { class: "pc-actions" },
        button("Undo", undo, { key: "U", disabled: !pending.length || sending, class: "pc-undo" }),
        button(asking() ? `Confirm ${pending.length} of ${t.blocks.length}` : "Confirm", confirm, { key: "Enter", kind: "primary", class: "pc-confirm",
          disabled: sending || !pending.length || (t.kind !== "golden" && pending.length < needed()) }),
        button("Clear", clear, { key: "Esc", kind: "ghost", disabled: !pending.length || sending })));
    }
    if (t && t.kind === "convert") parts.push(button("Stop converting", stop, { key: "S", class: "pc-stop" }));
    if (t && t.kind === "build" && stoppable()) {
      parts.push(explain(button("No more blocks", stop, { key: "S", class: "pc-stop", disabled: sending }),
        "The bonus card's extra blocks are an offer: build the squares chosen so far (if any) and no more."));
    }
    return parts;
  }

  function scoreTable() {
    const v = snap.view;
    const acting = new Set(snap.to_act || []);
    const meaning = {
      Culture: "Culture: the Culture blocks inside the Inner District.",
      Wealth: "Wealth: (Industry + Commerce) ÷ 2, plus 1 for each Commerce block inside the Inner District.",
      Happiness: "Happiness: for each home, −1 if it touches Industry, +1 if it touches Parks, +1 if it touches Culture.",
      Bonus: "Bonus: the points of the bonus cards earned.",
      Overall: "Overall: the two lowest of Culture, Wealth and Happiness, plus the bonus. The highest wins.",
    };
    const head = el("tr", {}, ["", "Culture", "Wealth", "Happiness", "Bonus", "Overall"].map((h) =>
      (meaning[h] ? explain(el("th", {}, h), meaning[h]) : el("th", {}, h))));
    const body = v.cities.map((c, seat) => el("tr", {
      class: ["pc-score-row", seat === ctx.seat && "pc-me", seat === shown && "pc-shown"], tabindex: 0,
      dataset: { seat }, onclick: () => show(seat),
      onkeydown: (e) => { if (e.key === "Enter") { show(seat); e.preventDefault(); } },
      title: "Show this city" },
    el("td", { class: "pc-who" }, seatDot(seat), el("span", { class: "pc-name", title: ctx.names[seat] },
      ctx.names[seat] || `Player ${seat + 1}`),
      acting.has(seat) && v.phase === "choose" ? el("span", { class: "pc-choosing" }, "choosing") : null),
    el("td", {}, String(c.culture)), el("td", {}, String(c.wealth)), el("td", {}, String(c.happiness)),
    el("td", {}, String(c.bonus)), el("td", { class: "pc-overall" }, String(c.overall))));
    return el("div", { class: "pc-scores-wrap" },
      el("table", { class: "pc-scores", id: "pc-scores" }, el("thead", {}, head), el("tbody", {}, body)));
  }

  function show(seat) {
    shown = shown === seat ? null : seat;
    draw();
  }

  function bonusCards() {
    const v = snap.view;
    const when = { 1: "Deck 1, a race: awarded as soon as a player reaches it, then gone.",
      2: "Deck 2: judged once, after the twelfth era of the deck.", 3: "Deck 3: for the first to complete their city.",
      4: "Deck 4: judged when the game ends." };
    return el("ul", { class: "pc-cards" }, v.bonus_cards.map((card) => explain(el("li", {
      class: ["pc-card", card.winners && "pc-card-done"] },
    el("span", { class: "pc-card-deck" }, `Deck ${card.deck}`), el("b", {}, card.name),
    el("span", { class: "pc-card-text" }, card.text),
    el("span", { class: "pc-card-winners" }, card.winners === null ? "not yet awarded"
      : card.winners.length ? `earned by ${card.winners.map((s) => ctx.names[s]).join(" and ")}` : "earned by nobody")),
    `${card.name}: ${card.text} ${when[card.deck]} One player alone earns 5 points; several at the same moment earn 2 each.`)));
  }

  function finalScores() {
    const early = !snap.view.result;  // ended before its rules ended it: the hall's places, no final count
    const result = snap.view.result || snap.result;
    if (!result) return null;
    const order = result.ranks.map((rank, seat) => [rank, seat]).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    return el("section", { class: "pc-final", id: "pc-final", dataset: { verdict: "" } },
      el("h3", {}, early ? "The game is over" : "Final scores"),
      el("ol", {}, order.map(([rank, seat]) => el("li", {}, seatDot(seat), `${ctx.names[seat]}: `,
        early ? el("b", {}, `rank ${rank}`) : el("b", { class: "pc-final-score" }, String(result.scores[seat])),
        early ? "" : ` (rank ${rank})`))),
      el("p", { class: "muted" }, withNames(result.reason, ctx.names)));
  }

  function draw() {
    if (!snap) return;
    const v = snap.view;
    const t = task();
    if (chosen && t && t.kind === "pick" && !t.choices.some((c) => c.block === chosen)) chosen = null;
    const mainSeat = boardSeat();
    const removing = t && t.kind === "remove";
    const myGroup = ctx.seat !== null && !removing ? v.group : [];
    const mainTitle = removing ? `${ctx.names[mainSeat]}'s city - your catastrophe target`
      : ctx.seat !== null ? "Your city" : `${ctx.names[mainSeat]}'s city`;
    const other = shown !== null && shown !== mainSeat ? shown : null;
    replace(root, el("div", { class: ["pc", gameOver(snap) && "pc-over"] },
      el("div", { class: "pc-left" }, eraCard(),
        el("section", { class: "pc-board", dataset: { controls: "" } },
          el("h3", { class: "pc-board-title" }, mainTitle),
          cityBoard(mainSeat, { live: !!t, pending, group: removing ? t.group : myGroup, removing }),
          el("p", { class: ["pc-hint", t && note && noteBad && "pc-hint-bad"], id: "pc-hint", role: "status" }, (t && note) || hintText()),
          controls())),
      el("div", { class: "pc-right" }, finalScores(), scoreTable(),
        other !== null ? el("section", { class: "pc-other" }, el("h3", {}, `${ctx.names[other]}'s city`),
          cityBoard(other, { small: true })) : null,
        el("h3", { class: "pc-cards-title" }, "Bonus cards"), bonusCards(),
        legend())));
  }

  function legend() {
    return el("div", { class: "pc-legend" }, Object.keys(LETTER).map(blockKey));
  }

  return renderer(root, (snapshot) => {
    const before = snap && snap.view;
    snap = snapshot;
    waiters = waiters.filter((w) => (snapshot.turn >= w.turn ? (w.done(), false) : true));
    if (ctx.names && snapshot.names) ctx.names = snapshot.names;
    const v = snapshot.view;
    if (!sending && before && (before.round !== v.round || before.phase !== v.phase)) {
      pending = [];
      chosen = null;
      note = "";
    }
    draw();
  }, unbind);
}
