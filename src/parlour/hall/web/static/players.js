// The players' pages: sign in or up (/signin), My games (/me), a profile (/players/NAME) and the
// leaderboards (/leaderboard/GAME). One module, one view per address; everything is text.

import { el, replace, api, games, header, ago } from "/static/ui.js";
import { accountCorner, signedIn } from "/static/account.js";
import { blocksCard, dataCard, friendsCard, profileTrust } from "/static/trust.js";
import { deadlineText, passed } from "/static/pace.js";
import { RATING_START, PROVISIONAL, shownRating, shownChange } from "/static/rating.js";
import { challengeCard } from "/static/challenges.js";

const app = document.getElementById("app");
const main = el("main", { class: "players-page" });
app.append(header(el("a", { href: "/leaderboard", class: "topbar-link" }, "Leaderboards"), accountCorner()), main);

const ROUTES = [
  [/^\/signin\/?$/, () => signInPage()],
  [/^\/me\/?$/, () => myGamesPage()],
  [/^\/players\/([^/]+)$/, (m) => profilePage(decodeURIComponent(m[1]))],
  [/^\/leaderboard(?:\/([^/]+))?\/?$/, (m, catalogue) => leaderboardPage(m[1] && decodeURIComponent(m[1]), catalogue)],
];

let gameNames = {};

async function route() {
  const catalogue = await games().catch(() => []);
  gameNames = Object.fromEntries(catalogue.map((g) => [g.id, g.name]));
  for (const [pattern, show] of ROUTES) {
    const match = location.pathname.match(pattern);
    if (match) {
      try {
        await show(match, catalogue);
      } catch (err) {
        replace(main, el("h1", {}, "Something went wrong"), el("p", { class: "form-error" }, err.message));
      }
      return;
    }
  }
}

const gameName = (id) => gameNames[id] || id;
const profileLink = (name) => el("a", { href: `/players/${encodeURIComponent(name)}` }, name);

// Ratings as players know them: static/rating.js.
const signed = (x) => (x > 0 ? `+${x}` : x < 0 ? `−${-x}` : "±0");

/** A rating as a cell: "1464?" while provisional, with its meaning on hover and for screen readers. */
function ratingCell(ordinal, games) {
  const provisional = games < PROVISIONAL;
  return el("span", { class: ["rating", provisional && "provisional"],
    title: provisional ? `Provisional: fewer than ${PROVISIONAL} rated games` : null },
  String(shownRating(ordinal)), provisional ? el("abbr", { title: "provisional", "aria-label": " provisional" }, "?") : null);
}

function place(rank, players) {
  if (rank === null || rank === undefined) return "—";
  if (rank === 1) return "Won";
  const suffix = rank === 2 ? "nd" : rank === 3 ? "rd" : "th";
  return `${rank}${suffix} of ${players}`;
}

// --- sign in and sign up ---------------------------------------------------------------------------
// Where to go once signed in: a page of this site only. The address is resolved as the browser
// would (it reads "/\\evil.example" and "/%09/evil.example" as another site) and kept only if it
// stays here; anything else goes to "My games".
function nextPage() {
  const next = new URLSearchParams(location.search).get("next") || "";
  if (!next.startsWith("/") || /[\\\s\u0000-\u001f]/.test(next)) return "/me";
  let target;
  try {
    target = new URL(next, location.origin);
  } catch {
    return "/me";
  }
  return target.origin === location.origin ? `${target.pathname}${target.search}${target.hash}` : "/me";
}

function authForm(id, title, button, path, note) {
  const name = el("input", { id: `${id}-name`, name: "username", maxlength: 32, required: true, autocomplete: "username" });
  const password = el("input", { id: `${id}-password`, name: "password", type: "password", required: true,
    minlength: 8, maxlength: 256, autocomplete: id === "signup" ? "new-password" : "current-password" });
  const error = el("p", { class: "form-error", role: "alert" });
  const submit = el("button", { type: "submit", class: "btn btn-primary btn-wide" }, button);
  const form = el("form", { class: "card auth-card", id: `${id}-form`, novalidate: true },
    el("h2", { class: "card-title" }, title),
    el("label", { class: "field" }, el("span", {}, "Name"), name),
    el("label", { class: "field" }, el("span", {}, "Password"), password,
      id === "signup" ? el("small", {}, "8 characters or more") : null),
    submit, error, note ? el("p", { class: "muted small" }, note) : null);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    submit.disabled = true;
    error.textContent = "";
    try {
      await api("POST", path, { name: name.value, password: password.value });
      location.href = nextPage();
    } catch (err) {
      error.textContent = err.message;
      submit.disabled = false;
    }
  });
  return form;
}

async function signInPage() {
  document.title = "Parlour — sign in";
  const player = await signedIn();
  replace(main,
    el("h1", {}, "Sign in"),
    player ? el("p", { class: "lead" }, `You are signed in as ${player.name}. `, el("a", { href: "/me" }, "Your games"))
      : el("p", { class: "lead" }, "An account keeps your seats on every device, your games and a rating per game. "
        + "You can also play as a guest, without one."),
    el("div", { class: "auth-grid" },
      authForm("signin", "Welcome back", "Sign in", "/api/session"),
      authForm("signup", "New here? Make an account", "Create account", "/api/accounts",
        "Your name is public: it shows at the table, on your profile and on the leaderboards.")));
}

// --- My games --------------------------------------------------------------------------------------
function gameRow(game, finished) {
  const status = finished
    ? el("span", { class: ["result", game.rank === 1 && "won"] }, place(game.rank, game.players.length))
    : game.status === "waiting" ? el("span", { class: "pill" }, "waiting for players")
      : game.your_turn ? el("span", { class: "badge badge-turn" }, "Your turn")
        : el("span", { class: "muted small" }, game.to_act.length ? `${game.to_act.join(", ")} to play` : "");
  const until = !finished && game.deadline ? el("span", { class: ["small", "deadline", passed(game.deadline) ? "late" : "muted"] },
    passed(game.deadline) ? `time ran out ${deadlineText(game.deadline)}` : `until ${deadlineText(game.deadline)}`) : null;
  return el("li", { class: "game-row", dataset: { code: game.code } },
    el("div", { class: "game-row-main" },
      el("strong", {}, gameName(game.game)),
      el("span", { class: "muted small" }, game.players.join(" · ")),
      el("span", { class: "room-code" }, `${game.code} · ${ago(game.created)}`)),
    el("div", { class: "game-row-side" },
      status, until,
      finished && game.change !== null ? el("span", { class: ["rating-change", game.change >= 0 ? "up" : "down"],
        title: "rating change" }, signed(shownChange(game.change))) : null,
      finished ? el("a", { class: "btn btn-small", href: game.replay_url }, "Replay") : null,
      finished ? el("a", { class: "btn btn-small", href: game.replay_url.replace(/\/replay$/, "/analysis") }, "Analysis")
        : el("a", { class: "btn btn-small btn-primary", href: game.url }, "Open")));
}

function gameList(list, finished, empty) {
  return list.length ? el("ul", { class: "game-rows" }, list.map((g) => gameRow(g, finished)))
    : el("p", { class: "muted" }, empty);
}

function passwordForm() {
  const current = el("input", { id: "current-password", type: "password", autocomplete: "current-password", required: true });
  const fresh = el("input", { id: "new-password", type: "password", autocomplete: "new-password", required: true, minlength: 8 });
  const said = el("p", { class: "form-error", role: "alert" });
  const done = el("p", { class: "muted small", role: "status" });
  const form = el("form", { class: "card", id: "password-form" },
    el("h2", { class: "card-title" }, "Change password"),
    el("label", { class: "field" }, el("span", {}, "Current password"), current),
    el("label", { class: "field" }, el("span", {}, "New password"), fresh,
      el("small", {}, "Your other devices are signed out")),
    el("button", { type: "submit", class: "btn" }, "Change password"), said, done);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    said.textContent = done.textContent = "";
    try {
      await api("PUT", "/api/me/password", { password: current.value, new_password: fresh.value });
      form.reset();
      done.textContent = "Password changed.";
    } catch (err) {
      said.textContent = err.message;
    }
  });
  return form;
}

async function myGamesPage() {
  document.title = "Parlour — my games";
  const player = await signedIn();
  if (!player) {
    replace(main, el("h1", {}, "My games"),
      el("p", { class: "lead" }, el("a", { href: "/signin?next=/me" }, "Sign in"),
        " to see your games on any device. Guests' seats stay in the browser that took them."));
    return;
  }
  const mine = await api("GET", "/api/me/games");
  replace(main,
    el("div", { class: "page-head" }, el("h1", {}, "My games"),
      el("div", { class: "page-head-links" },
        el("a", { class: "btn btn-small", href: "/me/notifications", id: "notification-settings" }, "Alerts"),
        el("a", { class: "btn btn-small", href: `/players/${encodeURIComponent(player.name)}` }, "My profile"))),
    el("section", { class: "card", id: "playing" }, el("h2", { class: "card-title" }, "In progress"),
      gameList(mine.playing, false, "No game in progress. Start one from the lobby.")),
    el("section", { class: "card", id: "finished" }, el("h2", { class: "card-title" }, "Finished"),
      gameList(mine.finished, true, "No finished game yet.")),
    await friendsCard(), await blocksCard(),
    passwordForm(), dataCard());
}

// --- a profile --------------------------------------------------------------------------------------
function table(id, heads, rows, empty) {
  if (!rows.length) return el("p", { class: "muted" }, empty);
  return el("table", { class: "data-table", id },
    el("thead", {}, el("tr", {}, heads.map((h) => el("th", { scope: "col" }, h)))),
    el("tbody", {}, rows.map((cells) => el("tr", {}, cells.map((c) => el("td", {}, c))))));
}

async function profilePage(name) {
  document.title = `Parlour — ${name}`;
  const profile = await api("GET", `/api/players/${encodeURIComponent(name)}`);
  const played = Object.fromEntries(profile.played.map((p) => [p.game, p]));
  const challenge = await challengeCard(profile);
  replace(main,
    el("div", { class: "page-head" },
      el("h1", { id: "profile-name" }, profile.name),
      profile.kind === "bot" ? el("span", { class: "badge badge-bot" }, "built-in bot")
        : profile.kind === "botacct" ? el("span", { class: "badge badge-bot" }, "bot account") : null),
    profileTrust(profile, await signedIn()),
    el("section", { class: "card" }, el("h2", { class: "card-title" }, "Ratings"),
      table("ratings", ["Game", "Rating", "Rated games", "Played", "Won"], profile.ratings.map((r) => [
        el("a", { href: `/leaderboard/${encodeURIComponent(r.game)}` }, gameName(r.game)),
        ratingCell(r.rating, r.games), String(r.games), String(played[r.game]?.played ?? 0), String(played[r.game]?.won ?? 0)]),
      "No rated game yet: a game is rated when every person at the table is signed in."),
      profile.played.filter((p) => !profile.ratings.some((r) => r.game === p.game)).length
        ? table("played", ["Game", "Played", "Won"], profile.played
          .filter((p) => !profile.ratings.some((r) => r.game === p.game))
          .map((p) => [gameName(p.game), String(p.played), String(p.won)]), "") : null),
    el("section", { class: "card" }, el("h2", { class: "card-title" }, "Recent games"),
      gameList(profile.recent, true, "No finished game yet.")),
    challenge);
}

// --- leaderboards -----------------------------------------------------------------------------------
async function leaderboardPage(game, catalogue) {
  game = game || (catalogue[0] && catalogue[0].id);
  document.title = `Parlour — ${gameName(game)} leaderboard`;
  const picker = el("select", { id: "leaderboard-game", "aria-label": "Game" },
    catalogue.map((g) => el("option", { value: g.id, selected: g.id === game }, g.name)));
  picker.addEventListener("change", () => { location.href = `/leaderboard/${encodeURIComponent(picker.value)}`; });
  const rows = await api("GET", `/api/games/${encodeURIComponent(game)}/leaderboard`);
  const bots = await api("GET", `/api/games/${encodeURIComponent(game)}/leaderboard/bots`);
  replace(main,
    el("div", { class: "page-head" }, el("h1", {}, `${gameName(game)} leaderboard`), picker),
    el("section", { class: "card" },
      table("leaderboard", ["#", "Player", "Rating", "Rated games"], rows.map((r) => [
        String(r.place),
        el("span", { class: "leader-name" }, profileLink(r.name), r.kind === "bot" || r.kind === "botacct" ? el("span", { class: "badge badge-bot" }, "bot") : null),
        ratingCell(r.rating, r.games), String(r.games)]),
      "Nobody is rated in this game yet: play a game signed in, against friends or bots."),
      el("p", { class: "muted small", id: "ratings-help" }, `Everyone starts at ${RATING_START}. A rating rises with wins `
        + "and, as the games you play show more surely how strong you are, with certainty; it falls with losses. "
        + `A “?” marks a provisional rating: fewer than ${PROVISIONAL} rated games. `
        + "The built-in bots are rated the same way and their ratings move like anyone's: each shows how strong "
        + "that bot has played so far.")),
    el("section", { class: "card" }, el("h2", { class: "card-title" }, "Bot accounts"),
      table("bot-leaderboard", ["#", "Bot", "Rating", "Rated games"], bots.map((r) => [
        String(r.place), el("span", { class: "leader-name" }, profileLink(r.name)), ratingCell(r.rating, r.games), String(r.games)]),
      "No bot account has a rated game here yet: the lobby lists the bots online to challenge."),
      el("p", { class: "muted small" }, "Bot accounts are programs their authors connect to the hall; "
        + "people challenge them from the lobby.")));
}

route();
