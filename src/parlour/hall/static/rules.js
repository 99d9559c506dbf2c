// A game's rules document (/games/{id}/rules, HTML from the game's package), shown in the hall's
// frame. It is drawn in a sandboxed frame: no script in it can run, and it gets the hall's type.

import { el, replace, games, header } from "/static/ui.js";

const app = document.getElementById("app");
const main = el("main", { class: "rules-page" });
const title = el("span", { class: "topbar-title" });
app.append(header(title), main);

async function start() {
  const id = new URLSearchParams(location.search).get("game");
  const game = (await games()).find((g) => g.id === id);
  if (!game) {
    replace(main, el("section", { class: "card notice" }, el("h1", {}, "No such game"),
      el("a", { class: "btn btn-primary", href: "/" }, "Back to the lobby")));
    return;
  }
  title.textContent = `${game.name} · rules`;
  document.title = `${game.name} rules — Parlour`;
  const response = await fetch(game.rules_url);
  const body = response.ok ? await response.text() : "<p>This game's rules document is missing.</p>";
  const sheet = new URL("/static/rules.css", location.href).href;
  const frame = el("iframe", { class: "rules-frame", sandbox: "allow-popups allow-popups-to-escape-sandbox", title: `${game.name} rules`, referrerpolicy: "no-referrer" });
  frame.srcdoc = `<!doctype html><html><head><meta charset="utf-8"><base target="_blank"><link rel="stylesheet" href="${sheet}"></head>` +
    `<body><article class="rules">${body}</article></body></html>`;
  replace(main, el("div", { class: "rules-head" }, el("h1", {}, `${game.name}`), el("p", { class: "muted" }, game.pitch)), frame);
}

start();
