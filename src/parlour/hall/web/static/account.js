// The sign-in corner of the top bar: "Sign in" for a guest; the player's name (their profile),
// "My games" and "Sign out" once signed in. Guests lose nothing: every page works without it.
//
//   import { accountCorner, signedIn } from "/static/account.js";
//   header(..., accountCorner());

import { el, replace, api } from "/static/ui.js";
import { showNotices } from "/static/trust.js";

let me = null;
/** The signed-in player ({name, kind}), or null for a guest; asked once per page. */
export function signedIn() {
  // GET /api/session answers a guest with null: no 401 in the console of every guest's page
  me = me || api("GET", "/api/session").then((answer) => answer.player, () => null);
  return me;
}

export async function signOut() {
  await api("DELETE", "/api/session");
  location.href = "/";
}

/** The corner element; fills itself in once the hall says who is signed in. */
export function accountCorner() {
  const corner = el("span", { class: "account-corner", id: "account" });
  signedIn().then((player) => {
    if (!player) {
      const back = encodeURIComponent(location.pathname + location.search);
      replace(corner, el("a", { class: "topbar-link", href: `/signin?next=${back}`, id: "sign-in-link" }, "Sign in"));
      return;
    }
    const holder = el("div", { class: "notices-holder" });  // a friend's invitation, a moderator's warning
    corner.closest("header")?.after(holder);
    showNotices(holder, player);
    replace(corner,
      el("a", { class: "topbar-link account-name", href: `/players/${encodeURIComponent(player.name)}`,
        title: "Your profile" }, player.name),
      el("a", { class: "topbar-link", href: "/me", id: "my-games-link" }, "My games"),
      el("button", { type: "button", class: "btn btn-ghost btn-small", id: "sign-out",
        onclick: () => signOut() }, "Sign out"));
  });
  return corner;
}
