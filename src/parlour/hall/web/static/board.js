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
 * The game's text with {p0}, {p1}... replaced by the seats' names, as the hall does for the log:
 * withNames("{p1} accused the Thief rightly", ["Ana", "Ben"]) is "Ben accused the Thief rightly".
 * A view's result.reason comes this way, since a view knows no names.
 */
export function withNames(text, names) {
  return String(text ?? "").replace(/\{p(\d+)\}/g, (whole, seat) =>
    (names && names[seat] !== undefined ? names[seat] : whole));
}

// --- explanations: every card, tile and choice says what it does, on hover and on tap ----------

let tip = null;      // the one explanation shown, {node, target, rect}
let watching = false;

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
  document.addEventListener("pointerover", (event) => {
    if (event.pointerType !== "mouse") return;
    const target = owner(event);
    if (target) show(target);
  });
  document.addEventListener("pointerout", (event) => {
    if (event.pointerType !== "mouse" || !tip) return;
    const target = owner(event);
    if (target && target === tip.target && !target.contains(event.relatedTarget)) hide();
  });
  // a finger has no hover: a tap shows the explanation (the tap still does its job) until the next tap
  document.addEventListener("pointerdown", (event) => {
    if (event.pointerType === "mouse") return;
    const target = owner(event);
    if (target) show(target);
    else hide();
  });
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
    if (!tip || tip.target.isConnected) return;
    const again = [...document.querySelectorAll("[data-explain]")]
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

function show(target) {
  if (!tip) {
    const node = document.createElement("div");
    node.className = "explain-tip";
    node.setAttribute("role", "tooltip");
    node.id = "explain-tip";
    tip = { node, target, rect: null };
  }
  tip.target = target;
  tip.node.textContent = target.dataset.explain;
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
  const box = tip.node.getBoundingClientRect();
  const margin = 6;
  const left = Math.max(margin, Math.min(window.innerWidth - box.width - margin, r.left + r.width / 2 - box.width / 2));
  const above = r.top - box.height - 8;
  const top = above >= margin ? above : Math.min(window.innerHeight - box.height - margin, r.bottom + 8);
  tip.node.style.left = `${Math.round(left)}px`;
  tip.node.style.top = `${Math.round(top)}px`;
}
