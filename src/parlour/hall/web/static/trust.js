// A hall people can trust (issue 30), the browser's side: what waits for a signed-in player on
// every page (a friend's invitation, a moderator's warning), reporting a player, a chat line's
// menu (mute here, block, report), and reputation beside a name.
//
//   showNotices(main);                                   // invitations and warnings, once each
//   reportBox(host, { player: "Cy", room: "KXMTRA" });   // an inline report form under `host`
//   chatActions(line, { code, profile, socket, signedIn, onBlocked, onMuted })

import { el, replace, api, toast } from "/static/ui.js";

/** The invitations and warnings waiting for the signed-in player, shown at the top of `where`. */
export async function showNotices(where, player) {
  if (!player) return;
  let waiting;
  try {
    waiting = await api("GET", "/api/me/notices");
  } catch {
    return;  // signed out meanwhile: nothing to show
  }
  const notes = [
    ...waiting.invitations.map((i) => el("div", { class: "notice-bar invitation", role: "status" },
      el("span", {}, el("b", {}, i.from), " invites you to their table."),
      el("a", { class: "btn btn-primary btn-small", href: i.url }, "Join"))),
    ...waiting.warnings.map((w) => el("div", { class: "notice-bar warning", role: "alert" },
      el("span", {}, el("b", {}, "A moderator warns you: "), w.reason))),
  ];
  if (notes.length) where.prepend(el("div", { class: "notices", id: "notices" }, notes));
}

/** An inline form to report `player` (from a seat, a chat line or a profile), placed after `host`. */
export function reportBox(host, { player, room = null, line = null }) {
  const old = document.getElementById("report-box");
  if (old) old.remove();
  const reason = el("input", { id: "report-reason", maxlength: 500, required: true,
    placeholder: `What did ${player} do?`, "aria-label": `Why you report ${player}` });
  const said = el("p", { class: "form-error", role: "alert" });
  const form = el("form", { class: "report-box", id: "report-box" },
    el("label", { for: "report-reason" }, `Report ${player}`),
    el("div", { class: "report-row" }, reason,
      el("button", { type: "submit", class: "btn btn-small btn-primary" }, "Send"),
      el("button", { type: "button", class: "btn btn-small btn-ghost", onclick: () => form.remove() }, "Cancel")),
    said);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      const body = { player, reason: reason.value.trim() };
      if (room) body.room = room;
      if (line !== null) body.line = line;
      const answer = await api("POST", "/api/reports", body);
      form.remove();
      toast(answer.done);
    } catch (err) {
      said.textContent = err.message;
    }
  });
  host.after(form);
  reason.focus();
  return form;
}

// --- mutes in one room, remembered by this browser -------------------------------------------------
const muteKey = (code) => `parlour.mutes.${code}`;

export function mutedNames(code) {
  try {
    return JSON.parse(localStorage.getItem(muteKey(code)) || "[]");
  } catch {
    return [];
  }
}

/** Tells the hall again of the names muted in this room (after each connection's welcome). */
export function sendMutes(socket, code) {
  for (const name of mutedNames(code)) socket.send({ type: "mute", name });
}

function mute(socket, code, name) {
  const names = new Set(mutedNames(code));
  names.add(name);
  localStorage.setItem(muteKey(code), JSON.stringify([...names].slice(-50)));
  socket.send({ type: "mute", name });
}

/** Takes away the lines of `box` said under `name` (muted) or by the chat line numbers `numbers`. */
export function dropLines(box, { name = null, numbers = [] }) {
  for (const li of [...box.children]) {
    if ((name !== null && li.dataset.who === name) || numbers.includes(Number(li.dataset.n))) li.remove();
  }
}

/** The "…" button of someone else's chat line, opening its menu: mute here, block (a signed-in
 *  player), report. Neither adds text to the line until opened (the line reads as it was said). */
export function chatActions(line, { code, profile, socket, signedIn, box }) {
  const toggle = el("button", { type: "button", class: "chat-more", title: `Mute, block or report ${line.name}`,
    "aria-label": `Actions on ${line.name}'s line`, "aria-expanded": "false" });
  toggle.addEventListener("click", () => {
    const open = toggle.nextElementSibling?.classList.contains("chat-menu") ? toggle.nextElementSibling : null;
    toggle.setAttribute("aria-expanded", String(!open));
    if (open) {
      open.remove();
      return;
    }
    toggle.after(chatMenu(line, { code, profile, socket, signedIn, box }));
  });
  return toggle;
}

function chatMenu(line, { code, profile, socket, signedIn, box }) {
  const menu = el("span", { class: "chat-menu" });
  const item = (label, cls, action) => el("button", { type: "button", class: ["btn", "btn-small", "btn-ghost", cls],
    onclick: action }, label);
  menu.append(item("Mute here", "do-mute", () => {
    mute(socket, code, line.name);
    dropLines(box, { name: line.name });
    toast(`${line.name} is muted in this room, for you.`);
  }));
  if (signedIn && profile) {
    menu.append(item("Block", "do-block", async () => {
      try {
        const answer = await api("PUT", `/api/me/blocks/${encodeURIComponent(profile)}`);
        dropLines(box, { name: line.name });
        toast(answer.done);
      } catch (err) {
        toast(err.message, "error");
      }
    }));
  }
  if (signedIn) {
    menu.append(item("Report", "do-report", (event) => {
      const li = event.target.closest("li");
      menu.remove();
      reportBox(li, { player: profile || line.name, room: code, line: line.n });
    }));
  }
  return menu;
}

// --- reputation ----------------------------------------------------------------------------------------
const reputations = new Map();

/** "finishes 93%" beside a signed-in player's name (filled in once the hall answers). */
export function reputationBadge(profile) {
  const badge = el("span", { class: "badge badge-rep" });
  if (!reputations.has(profile)) {
    reputations.set(profile, api("GET", `/api/players/${encodeURIComponent(profile)}/reputation`).catch(() => null));
  }
  reputations.get(profile).then((rep) => {
    if (!rep || rep.share === null) {
      badge.remove();
      return;
    }
    replace(badge, `finishes ${Math.round(rep.share * 100)}%`);
    badge.title = reputationWords(rep);
  });
  return badge;
}

export function reputationWords(rep) {
  if (!rep || rep.share === null) return "No game finished or left yet.";
  const how = [[rep.resigned, "resigned"], [rep.away, "gone too long or out of time"], [rep.abandoned, "abandoned"]]
    .filter(([n]) => n > 0).map(([n, words]) => `${n} ${words}`);
  return `Finishes ${Math.round(rep.share * 100)}% of their games (${rep.finished} played to the end, ${rep.left} left`
    + `${how.length ? `: ${how.join(", ")}` : ""}).`;
}

/** "Invite a friend" at one's own table: their name; they see it on their next page. */
export function inviteBox(code) {
  const name = el("input", { id: "invite-friend", maxlength: 64, placeholder: "A friend's name", "aria-label": "Friend's name" });
  const said = el("p", { class: "form-error", role: "alert" });
  const form = el("form", { class: "invite-friend" },
    el("label", { for: "invite-friend" }, "Invite a friend by name"),
    el("div", { class: "report-row" }, name, el("button", { type: "submit", class: "btn btn-small" }, "Invite")), said);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    said.textContent = "";
    try {
      const answer = await api("POST", "/api/me/invitations", { player: name.value.trim(), room: code });
      name.value = "";
      toast(answer.done);
    } catch (err) {
      said.textContent = err.message;
    }
  });
  return form;
}

// --- the player's own page (/me) and profiles ------------------------------------------------------------
function nameForm(id, label, button, act) {
  const name = el("input", { id, maxlength: 64, placeholder: "A player's name", "aria-label": label });
  const said = el("p", { class: "form-error", role: "alert" });
  const form = el("form", { class: "name-form" }, el("div", { class: "report-row" }, name,
    el("button", { type: "submit", class: "btn btn-small" }, button)), said);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    said.textContent = "";
    try {
      await act(name.value.trim());
    } catch (err) {
      said.textContent = err.message;
    }
  });
  return form;
}

/** My friends: online or not, where they sit (a link), follow another, unfollow. */
export async function friendsCard() {
  const list = el("ul", { class: "people-list", id: "friends-list" });
  const card = el("section", { class: "card", id: "friends" }, el("h2", { class: "card-title" }, "Friends"), list,
    nameForm("follow-name", "Follow a player", "Follow", async (name) => {
      await api("PUT", `/api/me/friends/${encodeURIComponent(name)}`);
      await fill();
    }));
  async function fill() {
    const friends = await api("GET", "/api/me/friends");
    replace(list, friends.length ? friends.map((f) => el("li", { class: "person", dataset: { name: f.name } },
      el("span", { class: ["presence", f.online ? "on" : "off"], title: f.online ? "online" : "offline" }, f.online ? "●" : "○"),
      el("a", { href: `/players/${encodeURIComponent(f.name)}` }, f.name),
      f.room ? el("a", { class: "btn btn-small", href: f.url }, `at ${f.game} · ${f.room}`) : null,
      el("button", { type: "button", class: "btn btn-small btn-ghost", onclick: async () => {
        await api("DELETE", `/api/me/friends/${encodeURIComponent(f.name)}`);
        await fill();
      } }, "Unfollow"))) : el("li", { class: "muted" }, "You follow nobody yet: follow the people you play with."));
  }
  await fill();
  return card;
}

/** The players I block: only I see this list. */
export async function blocksCard() {
  const list = el("ul", { class: "people-list", id: "blocks-list" });
  const card = el("section", { class: "card", id: "blocks" }, el("h2", { class: "card-title" }, "Blocked players"),
    el("p", { class: "muted small" }, "Their chat never reaches you and they cannot sit at your table. Only you see this list."),
    list);
  async function fill() {
    const blocked = await api("GET", "/api/me/blocks");
    replace(list, blocked.length ? blocked.map((b) => el("li", { class: "person" }, el("span", {}, b.name),
      el("button", { type: "button", class: "btn btn-small btn-ghost", onclick: async () => {
        await api("DELETE", `/api/me/blocks/${encodeURIComponent(b.name)}`);
        await fill();
      } }, "Unblock"))) : el("li", { class: "muted" }, "Nobody."));
  }
  await fill();
  return card;
}

/** Download everything the hall keeps about me; delete my account (my games stay, under no name of mine). */
export function dataCard() {
  const password = el("input", { id: "delete-password", type: "password", maxlength: 256, autocomplete: "current-password",
    "aria-label": "Your password" });
  const said = el("p", { class: "form-error", role: "alert" });
  const form = el("form", { class: "name-form", id: "delete-form" },
    el("label", { for: "delete-password" }, "Delete my account: type your password"),
    el("div", { class: "report-row" }, password, el("button", { type: "submit", class: "btn btn-small btn-danger" }, "Delete")),
    said);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    if (!confirm("Delete your account for good? Your games stay, under a name that is no longer yours.")) return;
    try {
      await api("DELETE", "/api/me", { password: password.value });
      location.href = "/";
    } catch (err) {
      said.textContent = err.message;
    }
  });
  return el("section", { class: "card", id: "my-data" }, el("h2", { class: "card-title" }, "Your data"),
    el("p", {}, el("a", { class: "btn btn-small", href: "/api/me/data", download: "parlour-my-data.json", id: "download-data" },
      "Download everything the hall keeps about you (JSON)")), form);
}

/** On a profile: the reputation, and (signed in, someone else's) follow, block, report. */
export function profileTrust(profile, me) {
  const line = el("p", { class: "reputation", id: "reputation" }, reputationWords(profile.reputation));
  if (!me || me.name === profile.name || profile.kind !== "human") return line;
  const act = (label, id, run) => el("button", { type: "button", class: "btn btn-small", id, onclick: async () => {
    try {
      toast((await run()).done);
    } catch (err) {
      toast(err.message, "error");
    }
  } }, label);
  const name = encodeURIComponent(profile.name);
  const actions = el("div", { class: "profile-actions" },
    act("Follow", "follow", () => api("PUT", `/api/me/friends/${name}`)),
    act("Block", "block", () => api("PUT", `/api/me/blocks/${name}`)),
    el("button", { type: "button", class: "btn btn-small btn-ghost", id: "report",
      onclick: () => reportBox(actions, { player: profile.name }) }, "Report"));
  return el("div", {}, line, actions);
}
