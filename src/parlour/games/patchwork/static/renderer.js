// Patchwork's board in the browser: the time track, both quilts, the circle of patches with the
// neutral token and the three on offer, and the controls to buy and sew a patch or skip ahead.
//
// The patches' shapes, prices, times and incomes come from patchwork.json, the same file the
// engine reads. Legality comes from the server's legal actions; the renderer only explains.
//
// Keys: 1 2 3 choose a patch on offer, arrows move it, R rotates (Shift+R back), F flips,
// Enter sews it, Esc puts it back, S skips.

import { el, svg, replace, keys, plural, seatDot } from "/static/ui.js";
import { renderer, stylesheet, withNames, explain, touchOr, touchScreen, gameOver } from "/static/board.js";

const DATA = await (await fetch(new URL("patchwork.json", import.meta.url))).json();
const SIZE = DATA.board.width;
const LAST = DATA.timeline.last_space;
const PATCHES = DATA.patches.map(([id, shape, income, price, time]) => ({ id, rows: shape.split("|"), income, price, time }));
stylesheet(new URL("renderer.css", import.meta.url));

const SPECIAL = { id: -1, rows: ["O"], income: 0, price: 0, time: 0, special: true };

// Flip (mirror each row) first, then turn clockwise: the engine's order (engine.py _transform).
function transform(rows, rotation, flip) {
  let out = flip ? rows.map((r) => [...r].reverse().join("")) : rows.slice();
  for (let i = 0; i < rotation; i++) {
    const h = out.length;
    out = Array.from({ length: out[0].length }, (_, c) => Array.from({ length: h }, (_, r) => out[h - 1 - r][c]).join(""));
  }
  return out;
}

function cellsOf(rows) {
  const cells = [];
  rows.forEach((row, y) => [...row].forEach((ch, x) => ch === "O" && cells.push([x, y])));
  return cells;
}

function patchOf(id) {
  return id < 0 ? SPECIAL : PATCHES[id];
}

// The engine lists each distinct orientation once, under the first (rotation, flip) giving it.
function canonical(patch, rotation, flip) {
  const key = transform(patch.rows, rotation, flip).join("|");
  for (const f of [false, true]) {
    for (let r = 0; r < 4; r++) {
      if (transform(patch.rows, r, f).join("|") === key) return [r, f];
    }
  }
  return [rotation, flip];
}

// --- looks ----------------------------------------------------------------------------------------

const FABRICS = ["#e07a5f", "#3d5a80", "#81b29a", "#e9c46a", "#6d597a", "#b56576", "#457b9d", "#f4a261",
  "#2a9d8f", "#9c6644", "#8d99ae", "#a3b18a"];
const WEAVES = ["", "url(#pw-dots)", "url(#pw-stripes)"];

function fabric(id) {
  if (id < 0) return { color: "#7f5539", weave: "url(#pw-cross)" };
  return { color: FABRICS[id % FABRICS.length], weave: WEAVES[Math.floor(id / FABRICS.length) % WEAVES.length] };
}

function defs() {
  return svg("svg", { class: "pw-defs", width: 0, height: 0, "aria-hidden": "true" },
    svg("defs", {},
      svg("pattern", { id: "pw-dots", width: 0.25, height: 0.25, patternUnits: "userSpaceOnUse" },
        svg("circle", { cx: 0.125, cy: 0.125, r: 0.035, fill: "rgba(255,255,255,.35)" })),
      svg("pattern", { id: "pw-stripes", width: 0.2, height: 0.2, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" },
        svg("rect", { width: 0.07, height: 0.2, fill: "rgba(255,255,255,.22)" })),
      svg("pattern", { id: "pw-cross", width: 0.25, height: 0.25, patternUnits: "userSpaceOnUse" },
        svg("path", { d: "M0 .125H.25M.125 0V.25", stroke: "rgba(255,220,150,.45)", "stroke-width": 0.03 }))));
}

/** A patch's squares, seams and buttons, drawn in a <g> at (x, y) in square units. */
function patchShape(patch, rows, x, y, opts = {}) {
  const cells = cellsOf(rows);
  const inside = new Set(cells.map(([cx, cy]) => `${cx},${cy}`));
  const { color, weave } = fabric(patch.id);
  const g = svg("g", { class: ["pw-patch", opts.class], transform: `translate(${x} ${y})` });
  for (const [cx, cy] of cells) {
    g.append(svg("rect", { x: cx, y: cy, width: 1, height: 1, fill: opts.fill || color }));
    if (weave && !opts.fill) g.append(svg("rect", { x: cx, y: cy, width: 1, height: 1, fill: weave }));
  }
  // seams: the patch's outline, and a stitch just inside it
  let outline = "";
  let stitch = "";
  const s = 0.13;
  for (const [cx, cy] of cells) {
    if (!inside.has(`${cx},${cy - 1}`)) { outline += `M${cx} ${cy}h1`; stitch += `M${cx} ${cy + s}h1`; }
    if (!inside.has(`${cx},${cy + 1}`)) { outline += `M${cx} ${cy + 1}h1`; stitch += `M${cx} ${cy + 1 - s}h1`; }
    if (!inside.has(`${cx - 1},${cy}`)) { outline += `M${cx} ${cy}v1`; stitch += `M${cx + s} ${cy}v1`; }
    if (!inside.has(`${cx + 1},${cy}`)) { outline += `M${cx + 1} ${cy}v1`; stitch += `M${cx + 1 - s} ${cy}v1`; }
  }
  g.append(svg("path", { d: stitch, class: "pw-stitch" }), svg("path", { d: outline, class: "pw-seam" }));
  // income buttons printed on the first squares, as on the real patches
  for (const [cx, cy] of cells.slice(0, patch.income)) g.append(buttonIcon(cx + 0.5, cy + 0.5, 0.26));
  return g;
}

function buttonIcon(cx, cy, r) {
  const h = r * 0.32;
  return svg("g", { class: "pw-button" },
    svg("circle", { cx, cy, r }),
    ...[[-1, -1], [1, -1], [-1, 1], [1, 1]].map(([dx, dy]) => svg("circle", { cx: cx + dx * h, cy: cy + dy * h, r: r * 0.16, class: "hole" })));
}

/** A small stand-alone icon: "button" or "time". */
function icon(kind) {
  if (kind === "button") {
    return svg("svg", { class: "pw-icon", viewBox: "0 0 1 1", "aria-hidden": "true" }, buttonIcon(0.5, 0.5, 0.46));
  }
  return svg("svg", { class: "pw-icon pw-icon-time", viewBox: "0 0 10 10", "aria-hidden": "true" },
    svg("path", { d: "M2 1h6M2 9h6M2.6 1.2c0 3 4.8 2.6 4.8 3.8S2.6 5.8 2.6 8.8M7.4 1.2c0 3-4.8 2.6-4.8 3.8s4.8.8 4.8 3.8" }));
}

function stat(kind, value, label) {
  return el("span", { class: `pw-stat pw-stat-${kind}`, title: label }, icon(kind === "income" ? "button" : kind),
    kind === "income" ? `+${value}` : String(value));
}

function miniPatch(patch, unit) {
  const rows = patch.rows;
  const w = rows[0].length;
  const h = rows.length;
  return svg("svg", { class: "pw-mini", viewBox: `-0.1 -0.1 ${w + 0.2} ${h + 0.2}`, width: unit * w, height: unit * h,
    "aria-hidden": "true" }, patchShape(patch, rows, 0, 0));
}

/** What a patch does, in words: its price, its time and its income. */
function patchText(patch) {
  if (patch.special) return "A special patch: a single square, free, sewn at once anywhere on your quilt. It takes no time.";
  return `Patch ${patch.id} costs ${plural(patch.price, "button")} and moves your token ${plural(patch.time, "space")} on the time track. ` +
    (patch.income ? `Its ${plural(patch.income, "button")} ${patch.income === 1 ? "pays" : "pay"} you ${patch.income} more at every button income space you reach after sewing it.`
      : "It has no buttons: it earns nothing at button income.") + ` Covers ${plural(cellsOf(patch.rows).length, "square")}.`;
}

/**
 * The time track as an SVG: the spaces, the income spaces, the special patches not yet taken and
 * the tokens. track: {income_times, specials_left, times: [t0, t1], last_mover}; ghost: a space to mark.
 */
function timeTrack(track, names, ghost = null) {
  const unit = 20;
  const width = (LAST + 1) * unit;
  const y0 = 26;
  const [t0, t1] = track.times;
  const g = svg("svg", { class: "pw-track-svg", viewBox: `0 0 ${width} 62`, preserveAspectRatio: "xMidYMid meet",
    role: "img", "aria-label": `Time track: ${names[0]} on space ${t0}, ${names[1]} on space ${t1} of ${LAST}` });
  for (let t = 0; t <= LAST; t++) {
    const x = t * unit;
    const payday = track.income_times.includes(t);
    g.append(svg("rect", { x: x + 1, y: y0, width: unit - 2, height: 18, rx: 3,
      class: ["pw-space", payday && "pw-payday", t === LAST && "pw-end"].filter(Boolean).join(" ") }));
    if (payday) {
      g.append(explain(svg("g", { transform: `translate(${x + unit / 2} ${y0 + 9}) scale(12)`, class: "pw-income-space" }, buttonIcon(0, 0, 0.5)),
        `Button income on space ${t}: whoever reaches or passes it earns the income printed on their quilt's patches.`));
    }
    if (t % 10 === 0 || t === LAST) g.append(svg("text", { x: x + unit / 2, y: 60, class: "pw-space-num" }, String(t)));
  }
  for (const t of track.specials_left) {
    g.append(explain(svg("g", { transform: `translate(${t * unit + 4} ${y0 - 13})`, class: "pw-special-space" },
      svg("rect", { width: 12, height: 12, rx: 1.5, fill: "#7f5539" }),
      svg("rect", { x: 2, y: 2, width: 8, height: 8, fill: "none", stroke: "rgba(255,220,150,.8)", "stroke-width": 1, "stroke-dasharray": "2 1.4" })),
    `Special patch on space ${t}: the first token to reach or pass it takes a single square to sew on the next turn.`));
  }
  if (ghost !== null) {
    g.append(svg("circle", { cx: ghost.space * unit + unit / 2, cy: y0 + 9, r: 8, class: ["pw-token-ghost", `pw-ghost-seat-${ghost.seat}`].join(" ") }));
  }
  const order = track.last_mover === 0 ? [1, 0] : [0, 1]; // the last mover's token lies on top
  for (const s of order) {
    const lift = t0 === t1 ? (s === track.last_mover ? -5 : 4) : 0;
    g.append(svg("circle", { cx: track.times[s] * unit + unit / 2, cy: y0 + 9 + lift, r: 7.5,
      class: ["pw-token", `pw-token-seat-${s}`].join(" ") }, svg("title", {}, `${names[s]}: space ${track.times[s]}`)));
  }
  return g;
}

/**
 * A piece of Patchwork for the rules page (hall/static/rules.js): {piece: "patch", id} draws a
 * patch with its price, time and income; {piece: "track"} the time track at the start.
 */
export function piece(fields) {
  if (fields.piece === "track") {
    return el("div", { class: "pw pw-piece pw-piece-track" }, defs(), el("div", { class: "pw-track" },
      timeTrack({ income_times: DATA.timeline.button_income_times, specials_left: DATA.timeline.special_patch_times,
        times: [0, 0], last_mover: null }, ["Player 1", "Player 2"])));
  }
  const patch = patchOf(Number(fields.id));
  return explain(el("div", { class: "pw pw-piece pw-offer" }, defs(),
    el("span", { class: "pw-offer-shape" }, miniPatch(patch, 22)),
    patch.special ? el("span", { class: "pw-offer-stats" }, "free")
      : el("span", { class: "pw-offer-stats" }, stat("button", patch.price, "price in buttons"), stat("time", patch.time, "time spaces"),
        patch.income ? stat("income", patch.income, "income at each button income space") : null)), patchText(patch));
}

// --- the renderer ---------------------------------------------------------------------------------

export function mount(root, ctx) {
  const me = ctx.seat ?? 0;
  const them = 1 - me;
  const playing = ctx.seat !== null && ctx.seat !== undefined && !!ctx.send;
  let snap = null;
  let names = ctx.names || ["player 1", "player 2"];
  let pick = null; // {patch, id, rotation, flip, x, y}: the patch in hand, a choice of this page only
  let busy = false;
  let legalKeys = new Set();

  const track = el("div", { class: "pw-track" });
  const quilt = [el("div", { class: "pw-side" }), el("div", { class: "pw-side" })];
  const centre = el("div", { class: "pw-centre", dataset: { controls: "" } });  // on screen when my turn starts
  const circle = el("div", { class: "pw-circle", id: "pw-circle" });
  const hint = el("p", { class: "pw-hint", id: "pw-hint", role: "status", "aria-live": "polite" });
  const board = el("div", { class: ["pw", playing ? "pw-playing" : "pw-watching"] },
    defs(), track,
    el("div", { class: "pw-main" }, quilt[me], centre, quilt[them]),
    el("section", { class: "pw-circle-wrap" },
      el("h3", { class: "pw-section-title" }, "The circle of patches",
        el("small", {}, " · the neutral token, then the three on offer, then the rest in order")),
      circle));
  root.append(board);

  // -- reading the snapshot ------------------------------------------------------------------------
  const view = () => snap.view;
  const myTurn = () => playing && !!snap && !gameOver(snap) && (snap.to_act || []).includes(me);
  // who the hall asks to move now: nobody once the game is over, by its rules or before them
  const acting = (seat) => !gameOver(snap) && (snap.to_act || []).includes(seat);
  const mine = () => view().players[me];
  const pendingSpecial = () => (myTurn() && mine().special_patches.length ? mine().special_patches[0] : null);

  function keyOf(id, rotation, flip, x, y) {
    const [r, f] = canonical(patchOf(id), rotation, flip);
    return `${id}/${r}/${f}/${x}/${y}`;
  }

  function skipGain() {
    const p = mine();
    const end = Math.min(view().players[them].time + 1, LAST);
    const spaces = end - p.time;
    const paydays = view().income_times.filter((t) => p.time < t && t <= end).length;
    return { spaces, buttons: spaces + paydays * p.income, end };
  }

  function affordable(id) {
    return patchOf(id).price <= mine().buttons;
  }

  /** Whether the patch can go somewhere on my quilt (the server's legal plays say so). */
  function fits(id) {
    return [...legalKeys].some((k) => k.startsWith(`${id}/`));
  }

  // -- choosing, moving and sewing a patch -----------------------------------------------------------
  function firstFit(id, rotation, flip) {
    const rows = transform(patchOf(id).rows, rotation, flip);
    for (let y = 0; y <= SIZE - rows.length; y++) {
      for (let x = 0; x <= SIZE - rows[0].length; x++) {
        if (legalKeys.has(keyOf(id, rotation, flip, x, y))) return [x, y];
      }
    }
    return null;
  }

  function choose(id) {
    if (!myTurn() || busy) return;
    const special = pendingSpecial();
    if (special !== null && id !== special) return;
    if (special === null && !view().offer.includes(id)) return;
    const patch = patchOf(id);
    if (!affordable(id)) {
      say(`That patch costs ${plural(patch.price, "button")} and you have ${mine().buttons}.`, "bad");
      return;
    }
    if (!fits(id)) {
      say("That patch fits nowhere on your quilt, however it is turned.", "bad");
      return;
    }
    const spot = firstFit(id, 0, false) || [0, 0];
    pick = { id, patch, rotation: 0, flip: false, x: spot[0], y: spot[1] };
    draw();
  }

  function chooseOffer(n) {
    const id = view().offer[n];
    if (id !== undefined && pendingSpecial() === null) choose(id);
  }

  function rows() {
    return transform(pick.patch.rows, pick.rotation, pick.flip);
  }

  function clampPick() {
    const r = rows();
    pick.x = Math.max(0, Math.min(SIZE - r[0].length, pick.x));
    pick.y = Math.max(0, Math.min(SIZE - r.length, pick.y));
  }

  function turn(by) {
    if (!pick) return;
    pick.rotation = (pick.rotation + by + 4) % 4;
    clampPick();
    draw();
  }

  function flip() {
    if (!pick) return;
    pick.flip = !pick.flip;
    clampPick();
    draw();
  }

  function move(dx, dy) {
    if (!pick) return;
    pick.x += dx;
    pick.y += dy;
    clampPick();
    drawPick();
  }

  function cancel() {
    if (!pick || pendingSpecial() !== null) return;
    pick = null;
    draw();
  }

  /** Why the patch in hand cannot go where it is, or "" if it can. */
  function problem() {
    if (legalKeys.has(keyOf(pick.id, pick.rotation, pick.flip, pick.x, pick.y))) return "";
    const quiltRows = mine().quilt;
    const clash = cellsOf(rows()).some(([cx, cy]) => quiltRows[pick.y + cy][pick.x + cx] === "O");
    if (clash) return "It would cover squares already sewn.";
    return "The patch cannot go there.";
  }

  async function act(action) {
    if (busy || !myTurn()) return;
    busy = true;
    board.classList.add("pw-busy");
    const answer = await ctx.send(action);
    busy = false;
    board.classList.remove("pw-busy");
    if (answer.ok) pick = null;
    else say(answer.message, "bad");
    if (snap) draw();
  }

  function place() {
    if (!pick || !myTurn()) return;
    const why = problem();
    if (why) {
      say(why, "bad");
      const ghost = root.querySelector(".pw-ghost");
      if (ghost) ghost.classList.add("pw-shake");
      return;
    }
    const [rotation, flipped] = canonical(pick.patch, pick.rotation, pick.flip);
    act({ type: "play", patch: pick.id, rotation, flip: flipped, x: pick.x, y: pick.y });
  }

  function skip() {
    if (!myTurn() || pendingSpecial() !== null) return;
    act({ type: "skip" });
  }

  // Keys act only on my turn, and the arrows and Enter only with a patch in hand: otherwise they
  // keep their usual jobs (scrolling the page, the replay's steps).
  const onMyTurn = (fn) => (event) => (myTurn() ? fn(event) : false);
  const holding = (fn) => (event) => (pick && myTurn() ? fn(event) : false);
  const unbind = playing ? keys({
    1: onMyTurn(() => chooseOffer(0)), 2: onMyTurn(() => chooseOffer(1)), 3: onMyTurn(() => chooseOffer(2)),
    r: holding((e) => turn(e.shiftKey ? -1 : 1)), f: holding(flip), s: onMyTurn(skip), Escape: holding(cancel),
    ArrowLeft: holding(() => move(-1, 0)), ArrowRight: holding(() => move(1, 0)),
    ArrowUp: holding(() => move(0, -1)), ArrowDown: holding(() => move(0, 1)),
    Enter: holding(place), " ": holding(place),
  }) : () => {};

  function say(text, tone = "") {
    hint.textContent = text;
    hint.className = ["pw-hint", tone && `pw-hint-${tone}`].filter(Boolean).join(" ");
  }

  // -- drawing -----------------------------------------------------------------------------------
  function drawTrack() {
    const v = view();
    const ghost = pick && !pick.patch.special ? { space: Math.min(mine().time + pick.patch.time, LAST), seat: me } : null;
    const g = timeTrack({ income_times: v.income_times, specials_left: v.specials_left,
      times: [v.players[0].time, v.players[1].time], last_mover: v.last_mover }, names, ghost);
    const scroller = track.querySelector(".pw-track-scroll");
    const left = scroller ? scroller.scrollLeft : null;
    const box = el("div", { class: "pw-track-scroll" }, g);
    replace(track, box, el("p", { class: "pw-track-note", "aria-hidden": "true" }, "◂ swipe the time track: spaces 0 to 53 ▸"));
    // on a phone the track scrolls sideways: keep it where it was, or show the token to move
    if (box.scrollWidth > box.clientWidth) {
      const unit = box.scrollWidth / (LAST + 1);
      const focus = playing ? mine().time : Math.min(v.players[0].time, v.players[1].time);
      box.scrollLeft = left !== null && left > 0 ? left : Math.max(0, focus * unit - box.clientWidth / 3);
    }
  }

  function drawQuilt(seat) {
    const v = view();
    const p = v.players[seat];
    const live = seat === me && playing;
    const grid = svg("svg", { class: ["pw-quilt", live && "pw-quilt-live"].filter(Boolean).join(" "), viewBox: "-0.08 -0.08 9.16 9.16",
      role: "img", "aria-label": `${names[seat]}'s quilt: ${plural(p.empty, "empty square")}`, dataset: { seat } });
    for (let y = 0; y < SIZE; y++) {
      for (let x = 0; x < SIZE; x++) grid.append(svg("rect", { x, y, width: 1, height: 1, class: "pw-cell" }));
    }
    for (const d of p.placed) {
      const patch = patchOf(d.patch);
      grid.append(patchShape(patch, transform(patch.rows, d.rotation, d.flip), d.x, d.y));
    }
    const ghostLayer = svg("g", { class: "pw-ghost-layer" });
    grid.append(ghostLayer);
    if (live) {
      const cellAt = (event) => {
        const box = grid.getBoundingClientRect();
        const scale = box.width / 9.16;
        return [Math.floor((event.clientX - box.left) / scale - 0.08), Math.floor((event.clientY - box.top) / scale - 0.08)];
      };
      // a finger has no hover to preview with: its first tap shows the patch there, a second one sews it
      let touch = false;
      grid.addEventListener("pointerdown", (event) => { touch = event.pointerType !== "mouse"; });
      grid.addEventListener("pointermove", (event) => {
        if (!pick || event.pointerType !== "mouse") return;
        const [cx, cy] = cellAt(event);
        const r = rows();
        const x = cx - Math.floor((r[0].length - 1) / 2);
        const y = cy - Math.floor((r.length - 1) / 2);
        if (x === pick.x && y === pick.y) return;
        pick.x = x;
        pick.y = y;
        clampPick();
        drawPick();
      });
      grid.addEventListener("click", (event) => {
        if (!pick) return;
        const [cx, cy] = cellAt(event);
        const r = rows();
        const was = [pick.x, pick.y];
        pick.x = cx - Math.floor((r[0].length - 1) / 2);
        pick.y = cy - Math.floor((r.length - 1) / 2);
        clampPick();
        drawPick();
        if (touch && (pick.x !== was[0] || pick.y !== was[1])) return;
        place();
      });
      grid.addEventListener("wheel", (event) => {
        if (!pick) return;
        event.preventDefault();
        turn(event.deltaY > 0 ? 1 : -1);
      }, { passive: false });
    }
    const head = el("div", { class: "pw-side-head" },
      seatDot(seat), el("span", { class: "pw-name" }, names[seat]),
      seat === me && playing ? el("span", { class: "badge" }, "you") : null,
      acting(seat) ? el("span", { class: "pw-to-move" }, "to move") : null);
    const facts = el("div", { class: "pw-facts" },
      explain(el("span", { class: "pw-fact", dataset: { fact: "buttons" } }, icon("button"), el("b", {}, String(p.buttons)), " buttons"),
        "Buttons to spend on patches; each one left at the end is a point."),
      explain(el("span", { class: "pw-fact", dataset: { fact: "income" } }, "income ", el("b", {}, `+${p.income}`)),
        "Buttons earned at each button income space of the time track: the buttons printed on this quilt's patches."),
      explain(el("span", { class: "pw-fact", dataset: { fact: "empty" } }, el("b", {}, String(p.empty)), " empty"),
        "Empty squares: each costs 2 points at the end."),
      explain(el("span", { class: "pw-fact", dataset: { fact: "score" } }, "score ", el("b", {}, String(p.score))),
        "The score if the game ended now: 200 + buttons − 2 per empty square + 7 for the 7×7 bonus."),
      p.bonus ? explain(el("span", { class: "pw-fact pw-bonus" }, "7×7 bonus +7"), "The first to cover a whole 7×7 square earns 7 points.") : null);
    replace(quilt[seat], head, grid, facts);
    quilt[seat].className = ["pw-side", seat === me && playing ? "pw-side-me" : "pw-side-other",
      acting(seat) && "pw-side-acting"].filter(Boolean).join(" ");
    if (live) quilt[seat].ghostLayer = ghostLayer;
  }

  function drawPick() {
    drawTrack();
    const layer = quilt[me].ghostLayer;
    if (!layer) return;
    layer.replaceChildren();
    if (!pick) return;
    const why = problem();
    const ghost = patchShape(pick.patch, rows(), pick.x, pick.y, { class: why ? "pw-ghost pw-ghost-bad" : "pw-ghost pw-ghost-ok" });
    ghost.setAttribute("data-x", pick.x);
    ghost.setAttribute("data-y", pick.y);
    if (why) {
      ghost.append(svg("path", { class: "pw-cross", d: cellsOf(rows()).map(([cx, cy]) => `M${cx + 0.3} ${cy + 0.3}l.4 .4m0 -.4l-.4 .4`).join("") }));
    }
    layer.append(ghost);
    const name = pick.patch.special ? "your special patch" : "the patch";
    const finger = touchScreen();
    if (why) {
      say(finger ? `${why} Tap elsewhere on your quilt to move ${name}, or turn or flip it.`
        : `${why} Move ${name} with the mouse or the arrow keys, R to turn, F to flip.`, "bad");
    } else {
      say(finger ? `Sew ${name} here: tap it again. Tap elsewhere to move it.`
        : `Sew ${name} here: click or Enter. R turns, F flips, Esc puts it back.`, "ok");
    }
  }

  function offerCard(id, n) {
    const patch = patchOf(id);
    const turnNow = playing && myTurn() && pendingSpecial() === null;
    const dear = turnNow && !affordable(id);
    const noRoom = turnNow && !dear && !fits(id);
    const can = turnNow && !dear && !noRoom;
    const picked = pick && pick.id === id;
    const text = patchText(patch) + (dear ? ` You have ${plural(mine().buttons, "button")}: too few.` : "")
      + (noRoom ? " It fits nowhere on your quilt now, however it is turned." : "");
    const body = [
      el("span", { class: "pw-id", "aria-hidden": "true" }, `#${id}`),
      el("span", { class: "pw-offer-shape" }, miniPatch(patch, 16)),
      el("span", { class: "pw-offer-stats" }, stat("button", patch.price, "price in buttons"), stat("time", patch.time, "time spaces"),
        patch.income ? stat("income", patch.income, "income at each button income space") : null),
      dear ? el("span", { class: "pw-offer-note" }, "too dear") : null,
      noRoom ? el("span", { class: "pw-offer-note pw-no-room" }, "no room") : null,
    ];
    if (!playing) return explain(el("div", { class: "pw-offer unable", dataset: { patch: id } }, ...body), text);
    return explain(el("button", {
      type: "button", class: ["pw-offer", picked && "picked", !can && "unable"], "aria-pressed": picked ? "true" : "false",
      dataset: { patch: id }, "aria-label": `On offer, key ${n + 1}: ${text}`, "aria-keyshortcuts": String(n + 1),
      onclick: () => (picked ? cancel() : choose(id)), "data-tap": "select",  // taken in hand, put back at will
    }, el("kbd", { class: "key" }, String(n + 1)), ...body), text);
  }

  function drawCentre() {
    const v = view();
    if (gameOver(snap)) {  // its result: the rules' own, or the hall's for a game ended early
      drawFinal();
      return;
    }
    const special = pendingSpecial();
    const turnNow = myTurn();
    const parts = [];
    if (special !== null) {
      parts.push(el("h3", { class: "pw-centre-title" }, "A special patch!"),
        el("p", { class: "pw-centre-text" }, "You reached it first: sew this single square anywhere on your quilt."),
        el("div", { class: "pw-offers" }, el("div", { class: ["pw-offer", "picked", "pw-special-offer"], dataset: { patch: special } },
          el("span", { class: "pw-offer-shape" }, miniPatch(SPECIAL, 22)), el("span", { class: "pw-offer-stats" }, "free"))));
    } else {
      const who = (v.to_act || []).map((s) => names[s]).join(", ");
      parts.push(el("h3", { class: "pw-centre-title" }, turnNow ? "Your move" : playing ? `${who} is choosing…` : `${who} to move`),
        el("div", { class: "pw-offers", id: "pw-offers" }, v.offer.map(offerCard)));
    }
    if (turnNow) {
      const gain = special === null ? skipGain() : null;
      parts.push(el("div", { class: "pw-buttons" },
        el("button", { type: "button", class: "btn", id: "pw-rotate", disabled: !pick, onclick: () => turn(1), "aria-keyshortcuts": "R" }, "↻ Turn", el("kbd", { class: "key" }, "R")),
        el("button", { type: "button", class: "btn", id: "pw-flip", disabled: !pick, onclick: flip, "aria-keyshortcuts": "F" }, "⇋ Flip", el("kbd", { class: "key" }, "F")),
        el("button", { type: "button", class: "btn btn-primary", id: "pw-place", disabled: !pick, onclick: place, "aria-keyshortcuts": "Enter" }, "Sew", el("kbd", { class: "key" }, "⏎"))),
      gain ? explain(el("button", { type: "button", class: "btn pw-skip", id: "pw-skip", onclick: skip, "aria-keyshortcuts": "S" },
        `Skip ahead: +${plural(gain.buttons, "button")}`, el("kbd", { class: "key" }, "S")),
      `Move ${plural(gain.spaces, "space")} to just ahead of ${names[them]}, one button a space` +
        (gain.buttons > gain.spaces ? ", and collect your income on the way." : ".")) : null);
    }
    parts.push(hint);
    replace(centre, ...parts);
    if (!pick) {
      if (!playing) say("");
      else if (!turnNow) say("Waiting for your turn. Meanwhile, study the circle below.");
      else say(touchOr("Tap a patch to take it in hand, or skip ahead.", "Choose a patch (1, 2, 3 or click), or skip ahead (S)."));
    }
  }

  function drawFinal() {
    const v = view();
    const result = v.result || snap.result;
    const winners = result ? result.winners : [];
    const head = winners.length === 1
      ? (playing && winners[0] === me ? "You win!" : `${names[winners[0]]} wins!`)
      : "A tie!";
    const row = (s) => {
      const p = v.players[s];
      return el("tr", { class: winners.includes(s) ? "winner" : null },
        el("th", {}, el("span", { class: "pw-final-name" }, seatDot(s), el("span", {}, names[s]))), el("td", {}, String(p.buttons)), el("td", {}, `−${2 * p.empty}`),
        el("td", {}, p.bonus ? "+7" : "—"), el("td", { class: "pw-final-score" }, String(p.score)));
    };
    replace(centre, el("div", { class: "pw-final", id: "pw-final", dataset: { verdict: "" } },
      el("h3", { class: "pw-centre-title" }, head),
      result && result.reason ? el("p", { class: "muted" }, withNames(result.reason, names)) : null,
      el("table", { class: "pw-final-table" },
        el("thead", {}, el("tr", {}, el("th", {}, ""), el("th", {}, "buttons"), el("th", {}, "empty ×2"), el("th", {}, "7×7"), el("th", {}, "score"))),
        el("tbody", {}, [0, 1].map(row))),
      el("p", { class: "muted small" }, "Score: 200 + buttons − 2 per empty square + 7 for the bonus.")));
  }

  function drawCircle() {
    const v = view();
    const items = [explain(el("div", { class: "pw-neutral" },
      el("span", { class: "pw-neutral-pawn" }), el("span", {}, "token")),
    "The neutral token: the three patches after it are on offer. When a patch is taken, the token moves to its place.")];
    v.circle.forEach((id, i) => {
      const patch = patchOf(id);
      items.push(explain(el("div", { class: ["pw-circle-patch", i < 3 && "on-offer"], dataset: { patch: id } },
      miniPatch(patch, 9),
      el("span", { class: "pw-circle-stats" }, el("span", { class: "pw-id" }, `#${id}`), stat("button", patch.price, "price"), stat("time", patch.time, "time"),
        patch.income ? stat("income", patch.income, "income") : null)),
      `${i < 3 ? "On offer now. " : `Comes on offer once the token passes ${plural(i - 2, "more patch", "more patches")}. `}${patchText(patch)}`));
    });
    replace(circle, items);
  }

  function draw() {
    if (!snap) return;
    const v = view();
    if (pick) {
      const special = pendingSpecial();
      const still = myTurn() && (special !== null ? pick.id === special : v.offer.includes(pick.id) && affordable(pick.id));
      if (!still) pick = null;
    }
    if (!pick && pendingSpecial() !== null) {
      const id = pendingSpecial();
      const spot = firstFit(id, 0, false) || [0, 0];
      pick = { id, patch: SPECIAL, rotation: 0, flip: false, x: spot[0], y: spot[1] };
    }
    drawQuilt(0);
    drawQuilt(1);
    drawCentre();
    drawCircle();
    drawPick();
    board.classList.toggle("pw-my-turn", myTurn());
    board.classList.toggle("pw-over", gameOver(snap));
  }

  return renderer(root, (snapshot) => {
    snap = snapshot;
    if (snapshot.names) names = snapshot.names;
    legalKeys = new Set((snapshot.legal || []).filter((a) => a.type === "play")
      .map((a) => keyOf(a.patch, a.rotation, !!a.flip, a.x, a.y)));
    draw();
  }, unbind);
}
