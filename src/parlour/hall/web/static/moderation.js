// The moderators' page (/moderation): the reports queue, each with the copy of the chat kept with
// it, the actions (warn, mute, ban with days, hide a chat line, close a room), the pairs of players
// who met more often than is rated (flagged by the ratings), and the log of every action with who
// took it. The hall answers 403 to anyone else.

import { el, replace, api, header, toast, ago } from "/static/ui.js";
import { accountCorner } from "/static/account.js";

const app = document.getElementById("app");
const main = el("main", { class: "players-page moderation" });
app.append(header(el("span", { class: "topbar-title" }, "Moderation"), accountCorner()), main);
const queue = el("div", { id: "queue" });
const log = el("div", { id: "log" });
const pairs = el("div", { id: "flagged" });
replace(main, el("h1", {}, "Moderation"),
  el("section", { class: "card" }, el("h2", { class: "card-title" }, "Reports"), queue),
  el("section", { class: "card" }, el("h2", { class: "card-title" }, "Flagged pairs"),
    el("p", { class: "muted small" }, "Two players who met at one game more often than is rated in a day"
      + " (their later games together were played but not rated): two accounts of one person may be"
      + " throwing games to each other."), pairs),
  el("section", { class: "card" }, el("h2", { class: "card-title" }, "Log"), log));

async function act(body) {
  try {
    const answer = await api("POST", "/api/moderation/actions", body);
    toast(answer.done);
    await refresh();
  } catch (err) {
    toast(err.message, "error");
  }
}

function actions(report) {
  const days = el("input", { type: "number", min: 1, max: 3650, value: 7, class: "days", "aria-label": "Days" });
  const reason = el("input", { maxlength: 500, class: "reason", value: report.reason, "aria-label": "Reason" });
  const who = report.signed_in ? { player: report.player } : null;
  const button = (label, cls, body) => el("button", { type: "button", class: ["btn", "btn-small", cls],
    onclick: () => act({ ...body(), reason: reason.value.trim(), report: report.id }) }, label);
  return el("div", { class: "mod-actions" },
    el("label", {}, "Reason ", reason), el("label", {}, "Days ", days),
    who ? button("Warn", "do-warn", () => ({ ...who, action: "warn" })) : null,
    who ? button("Mute", "do-mute", () => ({ ...who, action: "mute", days: Number(days.value) })) : null,
    who ? button("Ban", "btn-danger do-ban", () => ({ ...who, action: "ban", days: Number(days.value) })) : null,
    report.room ? button("Close the room", "do-close", () => ({ action: "close_room", room: report.room })) : null,
    who ? null : el("span", { class: "muted small" }, "a guest: ban their address from the server's logs"));
}

const profile = (name) => el("a", { href: `/players/${encodeURIComponent(name)}` }, name);

function pairActions(pair) {
  const days = el("input", { type: "number", min: 1, max: 3650, value: 7, class: "days", "aria-label": "Days" });
  const reason = el("input", { maxlength: 500, class: "reason", "aria-label": "Reason",
    value: `${pair.first} and ${pair.second} met at ${pair.game} more often than is rated` });
  const button = (label, cls, body) => el("button", { type: "button", class: ["btn", "btn-small", cls],
    onclick: () => act({ ...body(), reason: reason.value.trim() }) }, label);
  return el("div", { class: "mod-actions" },
    el("label", {}, "Reason ", reason), el("label", {}, "Days ", days),
    [pair.first, pair.second].map((player) => [
      button(`Warn ${player}`, "do-warn", () => ({ player, action: "warn" })),
      button(`Ban ${player}`, "btn-danger do-ban", () => ({ player, action: "ban", days: Number(days.value) }))]));
}

function flaggedPair(pair) {
  return el("article", { class: "flagged-pair" },
    el("p", {}, profile(pair.first), " and ", profile(pair.second), ` at ${pair.game}: `,
      el("b", {}, `${pair.unrated} game${pair.unrated === 1 ? "" : "s"} not rated`),
      " · first ", ago(pair.since), " · latest ", el("a", { href: `/r/${pair.room}` }, pair.room), " ", ago(pair.last)),
    pairActions(pair));
}

function evidence(report) {
  if (!report.evidence.length) return null;
  return el("ol", { class: "evidence chat-lines" }, report.evidence.map((line) => el("li", {
    class: ["chat-said", line.n === report.line && "reported"] },
  el("b", { class: "chat-who" }, line.name || "hall"), " ", el("span", { class: "chat-text" }, line.text),
  line.kind !== "system" ? el("button", { type: "button", class: "btn btn-small btn-ghost do-hide",
    onclick: () => act({ action: "hide_line", room: report.room, line: line.n, reason: `reported: ${report.reason}`,
      report: report.id }) }, "Hide") : null)));
}

async function refresh() {
  let reports;
  let entries;
  let flagged;
  try {
    [reports, entries, flagged] = await Promise.all([api("GET", "/api/moderation/reports"),
      api("GET", "/api/moderation/log"), api("GET", "/api/moderation/flagged")]);
  } catch (err) {
    replace(main, el("h1", {}, "Moderation"), el("p", { class: "form-error" }, err.message));
    return;
  }
  replace(queue, reports.length ? reports.map((r) => el("article", { class: "report", dataset: { id: r.id } },
    el("p", {}, el("b", { class: "reported" }, r.player), r.signed_in ? "" : " (a guest)", " reported by ", r.reporter,
      " · ", ago(r.created), r.room ? [" · room ", el("a", { href: `/r/${r.room}` }, r.room)] : null),
    el("p", { class: "report-reason" }, r.reason), evidence(r), actions(r)))
    : el("p", { class: "muted", id: "queue-empty" }, "No report waits."));
  replace(pairs, flagged.length ? flagged.map(flaggedPair) : el("p", { class: "muted", id: "flagged-empty" }, "No pair is flagged."));
  replace(log, entries.length ? el("table", { class: "data-table", id: "log-table" },
    el("thead", {}, el("tr", {}, ["When", "Moderator", "Action", "On", "Days", "Reason"].map((h) => el("th", {}, h)))),
    el("tbody", {}, entries.map((e) => el("tr", {}, [ago(e.at), e.moderator, e.action,
      e.line !== null ? `${e.target} line ${e.line}` : e.target, e.days ?? "", e.reason].map((c) => el("td", {}, String(c)))))))
    : el("p", { class: "muted" }, "Nothing done yet."));
}

refresh();
