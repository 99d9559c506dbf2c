// The plain board: used for a game that has no renderer yet (or whose renderer failed to load).
// It shows the seat's view as data and each legal action as a button. It is also the smallest
// example of the renderer contract (docs/client.md).

import { el, replace, card, button } from "/static/ui.js";

function describe(action) {
  return Object.entries(action).map(([k, v]) => (k === "type" ? String(v) : `${k} ${JSON.stringify(v)}`)).join(" · ");
}

export function mount(root, ctx) {
  const actions = el("div", { class: "generic-actions" });
  const data = el("pre", { class: "generic-view" });
  root.append(card({ title: `${ctx.game.name}: plain board` },
    el("p", { class: "muted" }, "This game has no board of its own yet: its view is shown as data."),
    actions, data));
  return {
    update(snapshot) {
      // one item a line, but short lists of plain values on one line
      data.textContent = JSON.stringify(snapshot.view, null, 2)
        .replace(/\[\s*([^\[\]{}]*?)\s*\]/g, (_, items) => `[${items.split(/,\s*/).join(", ")}]`);
      const legal = ctx.send ? snapshot.legal || [] : [];
      replace(actions, legal.slice(0, 200).map((action) => button(describe(action), () => ctx.send(action))),
        legal.length > 200 ? el("p", { class: "muted" }, `…and ${legal.length - 200} more`) : null);
    },
    destroy() {
      root.replaceChildren();
    },
  };
}
