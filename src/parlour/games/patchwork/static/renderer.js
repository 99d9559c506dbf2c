// Patchwork's board in the browser: the time track, both quilts, the circle of patches with the
// neutral token and the three on offer, and the controls to buy and sew a patch or skip ahead.
//
// The patches' shapes, prices, times and incomes come from patchwork.json, the same file the
// engine reads. Legality comes from the server's legal actions; the renderer only explains.
//
// Keys: 1 2 3 choose a patch on offer, arrows move it, R rotates (Shift+R back), F flips,
// Enter sews it, Esc puts it back, S skips.

import { el, svg, replace, keys, plural, seatDot } from "/static/ui.js";
import { renderer, stylesheet, withNames } from "/static/board.js";

const DATA = await (await fetch(new URL("patchwork.json", import.meta.url))).json();
const SIZE = DATA.board.width;
const LAST = DATA.timeline.last_space;
const PATCHES = DATA.patches.map(([id, shape, income, price, time]) => ({ id, rows: shape.split("|"), income, price, time }));
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

// --- the renderer ---------------------------------------------------------------------------------

export function mount(root, ctx) {
  stylesheet(new URL("renderer.css", import.meta.url));
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
  const myTurn = () => playing && !!snap && !view().over && (snap.to_act || []).includes(me);
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
      say(`Patch ${id} costs ${plural(patch.price, "button")} and you have ${mine().buttons}.`, "bad");
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
    const unit = 20;
    const width = (LAST + 1) * unit;
    const y0 = 26;
    const g = svg("svg", { class: "pw-track-svg", viewBox: `0 0 ${width} 62`, preserveAspectRatio: "xMidYMid meet",
      role: "img", "aria-label": `Time track: ${names[0]} on space ${v.players[0].time}, ${names[1]} on space ${v.players[1].time} of ${LAST}` });
    for (let t = 0; t <= LAST; t++) {
      const x = t * unit;
      const payday = v.income_times.includes(t);
      g.append(svg("rect", { x: x + 1, y: y0, width: unit - 2, height: 18, rx: 3,
        class: ["pw-space", payday && "pw-payday", t === LAST && "pw-end"].filter(Boolean).join(" ") }));
      if (payday) g.append(svg("g", { transform: `translate(${x + unit / 2} ${y0 + 9}) scale(12)` }, buttonIcon(0, 0, 0.5)));
      if (t % 10 === 0 || t === LAST) g.append(svg("text", { x: x + unit / 2, y: 60, class: "pw-space-num" }, String(t)));
    }
    for (const t of v.specials_left) {
      g.append(svg("g", { transform: `translate(${t * unit + 4} ${y0 - 13})` },
        svg("rect", { width: 12, height: 12, rx: 1.5, fill: "#7f5539" }),
        svg("rect", { x: 2, y: 2, width: 8, height: 8, fill: "none", stroke: "rgba(255,220,150,.8)", "stroke-width": 1, "stroke-dasharray": "2 1.4" }),
        svg("title", {}, `Special patch on space ${t}: the first to reach it sews a single square`)));
    }
    if (pick && !pick.patch.special) {
      const to = Math.min(mine().time + pick.patch.time, LAST);
      g.append(svg("circle", { cx: to * unit + unit / 2, cy: y0 + 9, r: 8, class: "pw-token-ghost", style: `stroke: var(--seat-${me})` }));
    }
    const order = v.last_mover === 0 ? [1, 0] : [0, 1]; // the last mover's token lies on top
    const same = v.players[0].time === v.players[1].time;
    for (const s of order) {
      const lift = same ? (s === v.last_mover ? -5 : 4) : 0;
      g.append(svg("circle", { cx: v.players[s].time * unit + unit / 2, cy: y0 + 9 + lift, r: 7.5,
        class: "pw-token", style: `fill: var(--seat-${s})` }, svg("title", {}, `${names[s]}: space ${v.players[s].time}`)));
    }
    replace(track, g);
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
      (v.to_act || []).includes(seat) && !v.over ? el("span", { class: "pw-to-move" }, "to move") : null);
    const facts = el("div", { class: "pw-facts" },
      el("span", { class: "pw-fact", title: "buttons to spend", dataset: { fact: "buttons" } }, icon("button"), el("b", {}, String(p.buttons)), " buttons"),
      el("span", { class: "pw-fact", title: "buttons earned at each payday on the time track", dataset: { fact: "income" } }, "income ", el("b", {}, `+${p.income}`)),
      el("span", { class: "pw-fact", title: "empty squares cost 2 points each at the end", dataset: { fact: "empty" } }, el("b", {}, String(p.empty)), " empty"),
      el("span", { class: "pw-fact", title: "200 + buttons + 7 for the bonus − 2 per empty square", dataset: { fact: "score" } }, "score ", el("b", {}, String(p.score))),
      p.bonus ? el("span", { class: "pw-fact pw-bonus", title: "first to cover a whole 7×7 square" }, "7×7 bonus +7") : null);
    replace(quilt[seat], head, grid, facts);
    quilt[seat].className = ["pw-side", seat === me && playing ? "pw-side-me" : "pw-side-other",
      (v.to_act || []).includes(seat) && !v.over && "pw-side-acting"].filter(Boolean).join(" ");
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
    const name = pick.patch.special ? "your special patch" : `patch ${pick.id}`;
    const finger = matchMedia("(hover: none) and (pointer: coarse)").matches;  // as style.css hides key hints
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
    const can = myTurn() && pendingSpecial() === null && affordable(id);
    const picked = pick && pick.id === id;
    const label = `Patch ${id}: costs ${plural(patch.price, "button")} and ${plural(patch.time, "time space")}` +
      (patch.income ? `, earns ${patch.income} at each payday` : "");
    if (!playing) {
      return el("div", { class: "pw-offer unable", dataset: { patch: id }, title: label },
        el("span", { class: "pw-offer-shape" }, miniPatch(patch, 16)),
        el("span", { class: "pw-offer-stats" }, stat("button", patch.price, "price in buttons"), stat("time", patch.time, "time spaces"),
          patch.income ? stat("income", patch.income, "income at each payday") : null));
    }
    return el("button", {
      type: "button", class: ["pw-offer", picked && "picked", !can && "unable"], "aria-pressed": picked ? "true" : "false",
      dataset: { patch: id }, title: label, "aria-label": label, "aria-keyshortcuts": String(n + 1),
      onclick: () => (picked ? cancel() : choose(id)),
    },
    el("kbd", { class: "key" }, String(n + 1)),
    el("span", { class: "pw-offer-shape" }, miniPatch(patch, 16)),
    el("span", { class: "pw-offer-stats" }, stat("button", patch.price, "price in buttons"), stat("time", patch.time, "time spaces"),
      patch.income ? stat("income", patch.income, "income at each payday") : null),
    playing && myTurn() && !affordable(id) ? el("span", { class: "pw-offer-note" }, "too dear") : null);
  }

  function drawCentre() {
    const v = view();
    if (v.over) {
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
      gain ? el("button", { type: "button", class: "btn pw-skip", id: "pw-skip", onclick: skip, "aria-keyshortcuts": "S",
        title: `Move ${plural(gain.spaces, "space")} to just ahead of ${names[them]}, one button a space` +
          (gain.buttons > gain.spaces ? ", and collect your income on the way" : "") },
      `Skip ahead: +${plural(gain.buttons, "button")}`, el("kbd", { class: "key" }, "S")) : null);
    }
    parts.push(hint);
    replace(centre, ...parts);
    if (!pick) {
      if (!playing) say("");
      else if (!turnNow) say("Waiting for your turn. Meanwhile, study the circle below.");
      else say("Choose a patch (1, 2, 3 or click), or skip ahead (S).");
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
    replace(centre, el("div", { class: "pw-final", id: "pw-final" },
      el("h3", { class: "pw-centre-title" }, head),
      result && result.reason ? el("p", { class: "muted" }, withNames(result.reason, names)) : null,
      el("table", { class: "pw-final-table" },
        el("thead", {}, el("tr", {}, el("th", {}, ""), el("th", {}, "buttons"), el("th", {}, "empty ×2"), el("th", {}, "7×7"), el("th", {}, "score"))),
        el("tbody", {}, [0, 1].map(row))),
      el("p", { class: "muted small" }, "Score: 200 + buttons − 2 per empty square + 7 for the bonus.")));
  }

  function drawCircle() {
    const v = view();
    const items = [el("div", { class: "pw-neutral", title: "The neutral token: the three patches after it are on offer" },
      el("span", { class: "pw-neutral-pawn" }), el("span", {}, "token"))];
    v.circle.forEach((id, i) => {
      const patch = patchOf(id);
      items.push(el("div", { class: ["pw-circle-patch", i < 3 && "on-offer"], dataset: { patch: id },
        title: `Patch ${id}: ${plural(patch.price, "button")}, ${plural(patch.time, "time space")}, income ${patch.income}` },
      miniPatch(patch, 9),
      el("span", { class: "pw-circle-stats" }, stat("button", patch.price, "price"), stat("time", patch.time, "time"),
        patch.income ? stat("income", patch.income, "income") : null)));
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
    board.classList.toggle("pw-over", !!v.over);
  }

  return renderer(root, (snapshot) => {
    snap = snapshot;
    if (snapshot.names) names = snapshot.names;
    legalKeys = new Set((snapshot.legal || []).filter((a) => a.type === "play")
      .map((a) => keyOf(a.patch, a.rotation, !!a.flip, a.x, a.y)));
    draw();
  }, unbind);
}
