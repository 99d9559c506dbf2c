// Turn-based rooms in the browser: the times per move the lobby offers, and a deadline in words
// ("Friday 18:00"), shared by the lobby, the room page and My games.

export const MOVE_TIMES = [[3600, "1 hour a move"], [6 * 3600, "6 hours a move"], [12 * 3600, "12 hours a move"],
  [86400, "1 day a move"], [2 * 86400, "2 days a move"], [3 * 86400, "3 days a move"], [7 * 86400, "7 days a move"],
  [14 * 86400, "14 days a move"]];
export const DEFAULT_MOVE_TIME = 86400;

/** A time per move in words: "1 day a move". */
export function moveTime(seconds) {
  const known = MOVE_TIMES.find(([s]) => s === seconds);
  if (known) return known[1];
  return seconds >= 86400 ? `${Math.round(seconds / 86400)} days a move` : `${Math.round(seconds / 3600)} hours a move`;
}

/** When ``deadline`` (epoch seconds) is, in words in the reader's own time: "today 18:00",
 * "Friday 18:00", or "5 Dec 18:00" when more than six days away. */
export function deadlineText(deadline, now = Date.now() / 1000) {
  const when = new Date(deadline * 1000);
  const time = when.toLocaleTimeString(undefined, { hour: "2-digit", minute: "2-digit" });
  const today = new Date(now * 1000);
  if (when.toDateString() === today.toDateString()) return `today ${time}`;
  if (deadline - now > 6 * 86400 || deadline < now) {
    return `${when.toLocaleDateString(undefined, { day: "numeric", month: "short" })} ${time}`;
  }
  return `${when.toLocaleDateString(undefined, { weekday: "long" })} ${time}`;
}

/** Whether ``deadline`` has passed. */
export function passed(deadline) {
  return !!deadline && Date.now() / 1000 >= deadline;
}
