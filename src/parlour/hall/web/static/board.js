// What every game's renderer shares (docs/client.md): the object its mount() returns, and the
// players' names put into the game's own words.
//
//   import { renderer, stylesheet, withNames } from "/static/board.js";
//   stylesheet(new URL("renderer.css", import.meta.url));
//   ...
//   return renderer(root, (next) => { snapshot = next; draw(); }, unbind);

/** Adds the stylesheet at `url` to the page, once however many boards are mounted. */
export function stylesheet(url) {
  const href = String(url);
  if (document.querySelector(`link[rel="stylesheet"][href="${CSS.escape(href)}"]`)) return;
  const link = document.createElement("link");
  link.rel = "stylesheet";
  link.href = href;
  document.head.append(link);
}

/**
 * The {update, destroy} that mount() returns (docs/protocol.md): update hands each snapshot to
 * `draw`; destroy unbinds the renderer's keys (the unbinder from keys(), if any) and empties root.
 */
export function renderer(root, draw, unbind = null) {
  return {
    update(snapshot) {
      draw(snapshot);
    },
    destroy() {
      if (unbind) unbind();
      root.replaceChildren();
    },
  };
}

/**
 * Whether the game shown is over, however it ended: by its rules (the view says so), or before them
 * (a resignation, a forfeit, a vote to end it, abandonment, its cap on actions), which only the
 * hall's `result` says while the game's view still has somebody to act (docs/protocol.md). Once
 * over, a board draws nobody "to move" (the hall's `to_act` is then empty): gameOver(snapshot).
 */
export function gameOver(snapshot) {
  return !!(snapshot && (snapshot.result || (snapshot.view && snapshot.view.over)));
}

/**
 * The game's text with {p0}, {p1}... replaced by the seats' names, as the hall does for the log:
 * withNames("{p1} accused the Thief rightly", ["Ana", "Ben"]) is "Ben accused the Thief rightly".
 * A view's result.reason comes this way, since a view knows no names.
 */
export function withNames(text, names) {
  return String(text ?? "").replace(/\{p(\d+)\}/g, (whole, seat) =>
    (names && names[seat] !== undefined ? names[seat] : whole));
}

// --- explanations: every card, tile and choice says what it does, on hover and on tap ----------

let tip = null;      // the one explanation shown, {node, target, rect, held}
let watching = false;
let pointer = null;  // where the mouse last moved to: {x, y}
let still = true;    // the mouse has not moved since the board last changed under it
let heldClick = null;  // a choice whose tap only showed its explanation: its click is not made

/**
 * Whether this device is worked by touch (no hover): the hints then speak of taps, not keys.
 * touchOr("Tap a card", "Click a card or press 1-9").
 */
export function touchScreen() {
  return window.matchMedia("(hover: none) and (pointer: coarse)").matches;  // as style.css hides key hints
}

export function touchOr(touchText, otherText) {
  return touchScreen() ? touchText : otherText;
}

/**
 * Gives `node` an explanation in words, shown beside it while the mouse is over it, while it has
 * the keyboard's focus, and after a tap (until the next tap elsewhere): explain(card, "Costs 5
 * buttons..."). Returns the node. Replaces a title, which a finger can never show.
 */
export function explain(node, text) {
  if (!node || !text) return node;
  node.dataset.explain = text;
  node.removeAttribute("title");
  if (!node.hasAttribute("aria-label") && !node.hasAttribute("aria-description")) node.setAttribute("aria-description", text);
  watch();
  return node;
}

function watch() {
  if (watching) return;
  watching = true;
  stylesheet("/static/board.css");
  const owner = (event) => (event.target instanceof Element ? event.target.closest("[data-explain]") : null);
  // A mouse shows an explanation when it moves onto a piece, never when the board redraws under a
  // resting pointer (a new question would hide under the explanation of what replaced the last one).
  document.addEventListener("pointermove", (event) => {
    if (event.pointerType !== "mouse") return;
    if (pointer && pointer.x === event.clientX && pointer.y === event.clientY) return;
    pointer = { x: event.clientX, y: event.clientY };
    still = false;
    const target = owner(event);
    if (target && (!tip || tip.target !== target)) show(target, false, true);
  });
  document.addEventListener("pointerover", (event) => {
    if (event.pointerType !== "mouse" || still) return;
    const target = owner(event);
    if (target) show(target, false, true);
  });
  document.addEventListener("pointerout", (event) => {
    if (event.pointerType !== "mouse" || !tip) return;
    const target = owner(event);
    if (target && target === tip.target && !target.contains(event.relatedTarget)) hide();
  });
  // A finger has no hover: a tap shows the explanation until the next tap. On a choice (a button
  // that acts), the first tap only shows what it means and the second makes it; a toggle or a
  // piece taken in hand (aria-pressed, data-tap="select") can be undone, so its first tap acts too.
  document.addEventListener("pointerdown", (event) => {
    heldClick = null;
    if (event.pointerType === "mouse") return;
    const target = owner(event);
    if (!target) {
      hide();
      return;
    }
    const choice = target.matches("button:not([aria-pressed]):not([data-tap=select]):not(:disabled)");
    if (choice && !(tip && tip.target === target && tip.held)) {
      heldClick = target;
      show(target, true);
    } else if (!choice || !tip || tip.target !== target) {
      show(target);
    }
  });
  document.addEventListener("click", (event) => {
    const held = heldClick;
    heldClick = null;
    if (held && event.target instanceof Node && held.contains(event.target)) {
      event.preventDefault();
      event.stopImmediatePropagation();
    } else if (tip && tip.held && event.target instanceof Node && tip.target.contains(event.target)) {
      hide();  // the choice is made: its explanation has done its job
    }
  }, true);
  document.addEventListener("focusin", (event) => {
    const target = owner(event);
    if (target && target.matches(":focus-visible")) show(target);
  });
  document.addEventListener("focusout", () => { if (tip && !tip.target.matches(":hover")) hide(); });
  document.addEventListener("keydown", (event) => { if (event.key === "Escape") hide(); });
  window.addEventListener("scroll", () => place(), { passive: true, capture: true });
  window.addEventListener("resize", () => place());
  // boards redraw themselves on every change: follow the explained piece to its new self
  new MutationObserver(() => {
    still = true;
    if (!tip || tip.target.isConnected) return;
    // a mouse's explanation stays only on the same piece still under the pointer
    const under = tip.byMouse && pointer ? document.elementFromPoint(pointer.x, pointer.y)?.closest("[data-explain]") : null;
    const again = tip.byMouse ? (under && under.dataset.explain === tip.target.dataset.explain ? under : null)
      : [...document.querySelectorAll("[data-explain]")]
        .filter((n) => n.dataset.explain === tip.target.dataset.explain)
        .sort((a, b) => distance(a) - distance(b))[0];
    if (again) {
      tip.target = again;
      place();
    } else {
      hide();
    }
  }).observe(document.body, { childList: true, subtree: true });
}

function distance(node) {
  const r = node.getBoundingClientRect();
  return Math.hypot(r.left - tip.rect.left, r.top - tip.rect.top);
}

function show(target, held = false, byMouse = false) {
  if (!tip) {
    const node = document.createElement("div");
    node.className = "explain-tip";
    node.setAttribute("role", "tooltip");
    node.id = "explain-tip";
    tip = { node, target, rect: null, held: false };
  }
  tip.target = target;
  tip.held = held;
  tip.byMouse = byMouse;
  tip.node.textContent = target.dataset.explain;
  if (held) {
    const again = document.createElement("span");
    again.className = "explain-again";
    again.textContent = "Tap again to choose.";
    tip.node.append(" ", again);
  }
  if (!tip.node.isConnected) document.body.append(tip.node);
  place();
}

function hide() {
  if (!tip) return;
  tip.node.remove();
  tip = null;
}

/** Above the piece when there is room, else below it; never off the screen's sides. */
function place() {
  if (!tip || !tip.node.isConnected) return;
  const r = tip.target.getBoundingClientRect();
  tip.rect = r;
  // measured where it cannot be squeezed: at the last place, near an edge, it wraps taller than it
  // will be, and an explanation placed above by that height stands far from its row
  tip.node.style.left = "0px";
  tip.node.style.top = "0px";
  const box = tip.node.getBoundingClientRect();
  const margin = 6;
  // over a wide piece (a notebook's row), beside the mouse rather than at the row's middle
  const x = tip.byMouse && pointer && r.width > box.width && pointer.x >= r.left && pointer.x <= r.right
    ? pointer.x : r.left + r.width / 2;
  const left = Math.max(margin, Math.min(window.innerWidth - box.width - margin, x - box.width / 2));
  const above = r.top - box.height - 8;
  const top = above >= margin ? above : Math.min(window.innerHeight - box.height - margin, r.bottom + 8);
  tip.node.style.left = `${Math.round(left)}px`;
  tip.node.style.top = `${Math.round(top)}px`;
}
