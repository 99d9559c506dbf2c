// The notification settings page (/me/notifications): the player's e-mail address and which alerts
// go to it, and Web Push in this browser. Everything the hall refuses is shown in its own words.

import { el, replace, api, header } from "/static/ui.js";
import { accountCorner, signedIn } from "/static/account.js";

const app = document.getElementById("app");
const main = el("main", { class: "players-page" });
app.append(header(accountCorner()), main);

const said = (node, text, error = false) => {
  node.className = error ? "form-error" : "muted small";
  node.textContent = text;
};

function addressState(settings) {
  if (!settings.mail_available) return "This hall sends no e-mail.";
  if (!settings.email) return "No address: no mail is sent to you.";
  return settings.confirmed ? `Alerts go to ${settings.email}.`
    : `Waiting for you to follow the link sent to ${settings.email}: nothing else goes there until then.`;
}

function mailCard(settings, refresh, note) {
  const email = el("input", { id: "email", type: "email", maxlength: 254, autocomplete: "email",
    value: settings.email || "", placeholder: "you@example.org", disabled: !settings.mail_available });
  const turns = el("input", { id: "turns", type: "checkbox", checked: settings.turns });
  const daily = el("input", { id: "daily", type: "checkbox", checked: settings.daily });
  const invites = el("input", { id: "invites", type: "checkbox", checked: settings.invites });
  const state = el("p", { class: "settings-state muted small", id: "email-state" }, addressState(settings));
  const message = el("p", { class: "muted small", role: "status", id: "settings-message" }, note || "");
  const form = el("form", { class: "card settings-form", id: "mail-form", novalidate: true },
    el("h2", { class: "card-title" }, "E-mail"),
    el("label", { class: "field", for: "email" }, el("span", {}, "Address"), email,
      el("small", {}, "Shown to nobody else. A new address gets a link to confirm it first.")),
    state,
    el("label", { class: "field field-check" }, turns, el("span", {}, "Your turn in a turn-based game"),
      el("small", {}, "At most one per game until you have looked.")),
    el("label", { class: "field field-check" }, daily, el("span", {}, "A daily summary of the games waiting for you")),
    el("label", { class: "field field-check" }, invites, el("span", {}, "A friend invites you to their table"),
      el("small", {}, "Only from players you follow too; by mail and push.")),
    el("div", { class: "page-head-links" },
      el("button", { type: "submit", class: "btn btn-primary", id: "save-settings" }, "Save"),
      el("button", { type: "button", class: "btn", id: "test-alert", onclick: async () => {
        try {
          const sent = await api("POST", "/api/me/notifications/test");
          said(message, `A test alert is on its way (${sent.queued.join(" and ")}).`);
        } catch (err) {
          said(message, err.message, true);
        }
      } }, "Send me a test")),
    message);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const body = { turns: turns.checked, daily: daily.checked, invites: invites.checked };
    if (settings.mail_available) body.email = email.value.trim() || null;
    try {
      refresh(await api("PUT", "/api/me/notifications", body), "Saved.");
    } catch (err) {
      said(message, err.message, true);
    }
  });
  return form;
}

function keyBytes(base64url) {
  const text = atob(base64url.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (base64url.length % 4)) % 4));
  return Uint8Array.from(text, (c) => c.charCodeAt(0));
}

async function currentSubscription() {
  const registration = await navigator.serviceWorker.getRegistration("/");
  return registration ? registration.pushManager.getSubscription() : null;
}

function pushCard(settings, refresh) {
  const message = el("p", { class: "muted small", role: "status", id: "push-message" });
  const card = el("section", { class: "card settings-form", id: "push-card" }, el("h2", { class: "card-title" }, "Push in this browser"));
  const supported = "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;
  if (!settings.push_key) {
    card.append(el("p", { class: "muted" }, "This hall sends no push alerts."));
    return card;
  }
  card.append(el("p", { class: "muted small", id: "push-count" },
    settings.push ? `${settings.push} browser(s) of yours get alerts.` : "No browser of yours gets alerts yet."));
  if (!supported) {
    card.append(el("p", { class: "muted", id: "push-unsupported" }, "This browser cannot get push alerts."));
    return card;
  }
  const on = el("button", { type: "button", class: "btn btn-primary", id: "push-on", onclick: async () => {
    try {
      if (await Notification.requestPermission() !== "granted") throw new Error("the browser was not allowed to show alerts");
      const registration = await navigator.serviceWorker.register("/sw.js", { scope: "/" });
      await navigator.serviceWorker.ready;
      const subscription = await registration.pushManager.subscribe({ userVisibleOnly: true,
        applicationServerKey: keyBytes(settings.push_key) });
      refresh(await api("POST", "/api/me/push", subscription.toJSON()));
    } catch (err) {
      said(message, `Push could not be turned on: ${err.message}`, true);
    }
  } }, "Turn on push here");
  const off = el("button", { type: "button", class: "btn", id: "push-off", onclick: async () => {
    try {
      const subscription = await currentSubscription();
      const endpoint = subscription ? subscription.endpoint : null;
      if (subscription) await subscription.unsubscribe();
      refresh(await api("DELETE", "/api/me/push", { endpoint }));
    } catch (err) {
      said(message, err.message, true);
    }
  } }, "Turn off push");
  card.append(el("div", { class: "page-head-links" }, on, off), message);
  return card;
}

async function start() {
  document.title = "Parlour — alerts";
  const player = await signedIn();
  if (!player) {
    replace(main, el("h1", {}, "Alerts"), el("p", { class: "lead" },
      el("a", { href: "/signin?next=/me/notifications" }, "Sign in"), " to choose how the hall tells you it is your turn."));
    return;
  }
  const show = (settings, note = "") => replace(main,
    el("div", { class: "page-head" }, el("h1", {}, "Alerts"), el("a", { class: "btn btn-small", href: "/me" }, "My games")),
    el("p", { class: "lead" }, "How the hall tells you it is your turn in a turn-based game while you are away."),
    mailCard(settings, show, note), pushCard(settings, show));
  try {
    show(await api("GET", "/api/me/notifications"));
  } catch (err) {
    replace(main, el("h1", {}, "Alerts"), el("p", { class: "form-error" }, err.message));
  }
}

start();
