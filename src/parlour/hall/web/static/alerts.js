// Telling players that their turn has come, besides the tab's title: a short chime made in the page
// (WebAudio, no sound file) that a remembered mute switch silences, and a browser notification
// while the tab is hidden, once the player allowed them (asked on a click, never on load).
//
//   topbar.append(muteSwitch());
//   if (myTurnStarted) { chime(); notify("Your turn", "Patchwork · room KXMTRA"); }

import { el, svg, replace } from "/static/ui.js";

const MUTE_KEY = "parlour.mute";
const NOTES = [[660, 0], [880, 0.14]];  // Hz, seconds after the start: a rising two-note chime
let audio = null;

export function muted() {
  return localStorage.getItem(MUTE_KEY) === "1";
}

/** The chime, unless muted (browsers keep it silent until the page has had a click or a key). */
export function chime() {
  const Context = window.AudioContext || window.webkitAudioContext;
  if (muted() || !Context) return;
  audio = audio || new Context();
  if (audio.state === "suspended") audio.resume().catch(() => {});
  const now = audio.currentTime;
  for (const [frequency, at] of NOTES) {
    const tone = audio.createOscillator();
    const volume = audio.createGain();
    tone.frequency.value = frequency;
    volume.gain.setValueAtTime(0.0001, now + at);
    volume.gain.exponentialRampToValueAtTime(0.18, now + at + 0.02);
    volume.gain.exponentialRampToValueAtTime(0.0001, now + at + 0.28);
    tone.connect(volume).connect(audio.destination);
    tone.start(now + at);
    tone.stop(now + at + 0.3);
  }
}

function speaker(off) {
  return svg("svg", { viewBox: "0 0 24 24", width: 18, height: 18, "aria-hidden": "true", class: "sound-icon" },
    svg("path", { d: "M3 9h4l5-4v14l-5-4H3z", fill: "currentColor" }),
    svg("path", { d: off ? "M16 9l6 6M22 9l-6 6" : "M15.5 8.5a5 5 0 0 1 0 7M18.5 5.5a9 9 0 0 1 0 13",
      fill: "none", stroke: "currentColor", "stroke-width": 2, "stroke-linecap": "round" }));
}

/** The switch that silences the chime, remembered by this browser. */
export function muteSwitch() {
  const button = el("button", { type: "button", class: "btn btn-small sound-switch", id: "sound-switch" });
  const show = () => {
    const off = muted();
    replace(button, speaker(off));
    button.setAttribute("aria-pressed", String(off));
    button.setAttribute("aria-label", off ? "Turn sound: off" : "Turn sound: on");
    button.title = off ? "The chime on your turn is off: click to hear it" : "A chime sounds on your turn: click to mute it";
  };
  button.addEventListener("click", () => {
    localStorage.setItem(MUTE_KEY, muted() ? "0" : "1");
    show();
    chime();  // a sample of what is now on (and the click lets the page make sound)
  });
  show();
  return button;
}

/** A button asking leave to notify while the tab is hidden; null when there is nothing to ask. */
export function notifyButton() {
  if (!("Notification" in window) || Notification.permission !== "default") return null;
  const button = el("button", { type: "button", class: "btn btn-small btn-ghost", id: "notify-me" },
    "Notify me when it is my turn");
  button.addEventListener("click", async () => {
    await Notification.requestPermission();
    button.remove();
  });
  return button;
}

/** A notification, only while the tab is hidden and once the player allowed them. */
export function notify(title, body) {
  if (!document.hidden || !("Notification" in window) || Notification.permission !== "granted") return;
  const note = new Notification(title, { body, tag: "parlour-turn" });
  note.addEventListener("click", () => { window.focus(); note.close(); });
}
