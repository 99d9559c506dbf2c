// A game's rules for players (/games/{id}/rules): the hall serves the page with the game's own
// text (its package's rules.html); this module adds the top bar, the contents, and draws each
// <figure data-piece="..."> with the game's renderer, so the pictures are the pieces of the game.
//
// A renderer draws pieces for this page with an exported piece(fields), where fields are the
// figure's data-* attributes (docs/client.md).

import { el, games, header } from "/static/ui.js";

const article = document.getElementById("rules");
const id = document.body.dataset.game;
const title = el("span", { class: "topbar-title" }, "Rules");
document.getElementById("app").append(header(title));

function contents() {
  const heads = [...article.querySelectorAll("h2[id]")];
  if (heads.length < 3) return;
  const list = el("ol", {}, heads.map((h) => el("li", {}, el("a", { href: `#${h.id}` }, h.textContent))));
  article.querySelector("h2").before(el("nav", { class: "rules-contents", "aria-label": "Contents" }, list));
}

async function pictures() {
  const figures = [...article.querySelectorAll("[data-piece]")];
  const game = (await games()).find((g) => g.id === id);
  if (!game) return;
  title.textContent = `${game.name} · rules`;
  if (!figures.length) return;
  const renderer = await import(game.renderer_url);
  for (const figure of figures) {
    const piece = renderer.piece({ ...figure.dataset });
    if (piece) figure.prepend(piece);
  }
}

contents();
pictures();
