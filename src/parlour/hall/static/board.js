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
