// Palace's table in the browser: everybody's face-ups and face-down backs (and what is known of
// their hands), the play pile with the card that counts marked and invisible cards shown as such,
// the pick-up and burn piles, the direction of play and what the last turn did (skips, reversals,
// burns, another turn), your sorted hand with several cards of one value selectable together,
// the Cardinal's swap prompt, a turned-over joker's prompt, and the finishing order.
//
// Everything is drawn from the seat's view and the legal actions; the only thing kept between
// updates is the selection in progress, dropped whenever the turn moves on.
//
// Keys: click or Enter/Space on a card selects it; P (or Enter) plays the selection, T takes the
// pile, F turns over a face-down, Esc clears the selection; in a swap 1-6 pick a player, N stops.

import { el, replace, button, keys, plural, seatDot } from "/static/ui.js";
import { renderer, stylesheet, explain, touchOr, gameOver, withNames } from "/static/board.js";

stylesheet(new URL("renderer.css", import.meta.url));

const SUIT = { H: "♥", D: "♦", C: "♣", S: "♠" };
const SCHOOL = { joker: "Joker", rules: "Rules", social: "Social", cardinal: "Cardinal" };
const INVISIBLE = new Set(["3", "7", "rules", "social", "cardinal"]);
const AS_ORDER = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "rules", "social", "cardinal"];

/** The value printed on a card code: "10H" -> "10", "joker" -> "joker". */
function valueOf(code) {
  return SCHOOL[code] ? code : code.slice(0, -1);
}

function label(code) {
  return SCHOOL[code] ? SCHOOL[code] : `${valueOf(code)}${SUIT[code.slice(-1)]}`;
}

const NAMED = { J: "Jack", Q: "Queen", K: "King", A: "Ace" };
const RANK = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"];

// The rules edition of the game shown (docs/rules/palace.md): before 3 a stack burn gave another turn;
// 1 besides lets a Rules card refuse Social and Cardinal cards and jokers go on anything only as plain
// cards. The view says which; the rules page shows the current one.
let edition = 3;

/** What a card does, in words; `as` is what a joker on the pile plays as. */
function cardText(code, as = null) {
  const value = valueOf(code);
  if (value === "joker") {
    return (edition === 1 ? "Joker: plays as any card you name; played alone as a 4, 5, 6, J, Q, K or A it goes on anything, as another card it goes where that card goes. It does what the card it plays as does. "
      : "Joker: plays as any card you name, and played alone goes on anything; it does what the card it plays as does. ")
      + "It counts toward a burn as the card it plays." + (as ? ` This one plays as ${asText(as)}` : "");
  }
  const anything = "goes on any card except a Rules card";
  const invisible = "and is invisible: the card beneath it still counts";
  const school = edition === 1 ? anything : "goes on any card";
  const special = {
    2: `A 2 ${anything}.`,
    3: `A 3 ${anything}, ${invisible}.`,
    7: `A 7 ${anything}, ${invisible}. Play turns back for one turn: the player before plays next, then play goes on after the 7's player.`,
    rules: `The Rules card ${anything}, ${invisible}. While it is on top, no 2, 3, 7${edition === 1 ? ", Social, Cardinal" : ""} or Rules card may be played on it.`,
    social: `The Social card ${school}, ${invisible}. It reverses the order of play.`,
    cardinal: `The Cardinal ${school}, ${invisible}. Its player may swap hands with another player.`,
  }[value];
  if (special) return special;
  const name = NAMED[value] || value;
  const rank = RANK.indexOf(value);
  const a = /^[AE8]/.test(name) ? "an" : "a";
  const base = `${a[0].toUpperCase()}${a.slice(1)} ${name} goes on ${a} ${name} or lower` + (rank < 7 ? ", and on a 9." : rank === 7 ? "." : ", but never on a 9.");
  if (value === "8") return `${base} The next player misses a turn${edition >= 3 ? ", even when 8s burn the pile" : ""}.`;
  if (value === "9") return `${base} While it counts, only a 9 or lower may follow, or a card that goes on anything.`;
  if (value === "10") return `${base} It burns the whole play pile, and its player plays again.`;
  return `${base} Four cards of one value on top of the pile burn it${edition >= 3 ? "" : ", and their player plays again"}.`;
}

/** What a joker played as `as` does, in words: "a 7: it is invisible, and play turns back for one turn". */
function asText(as) {
  const name = SCHOOL[as] || NAMED[as] || as;
  const effect = {
    2: "anything may follow it", 3: "it is invisible: the card beneath still counts",
    7: "it is invisible, and play turns back for one turn", 8: "the next player misses a turn",
    9: "only a 9 or lower may follow it", 10: "it burns the play pile, and its player plays again",
    rules: "it is invisible, and no 2, 3, 7 or Rules card may follow it while it is on top",
    social: "it is invisible, and it reverses the order of play", cardinal: "it is invisible, and its player may swap hands",
  }[as] || `it counts as ${/^[AE8]/.test(name) ? "an" : "a"} ${name} for what may follow and for a burn`;
  return `${SCHOOL[as] ? "the" : /^[AE8]/.test(name) ? "an" : "a"} ${name}: ${effect}.`;
}

/** A card for the rules page (hall/static/rules.js): {piece: "card", code}. */
export function piece(fields) {
  return cardFace(fields.code);
}

const sameCards = (a, b) => a.length === b.length && [...a].sort().join() === [...b].sort().join();

/** A card face. opts: {as, small, invisible, counts, selected, disabled, onClick, title}. */
function cardFace(code, opts = {}) {
  const school = SCHOOL[code];
  const suit = school ? null : code.slice(-1);
  const red = suit === "H" || suit === "D";
  const attrs = {
    class: ["pa-card", school ? `pa-${code}` : red ? "pa-red" : "pa-black", opts.small && "pa-small",
      opts.invisible && "pa-invisible", opts.counts && "pa-counts", opts.selected && "pa-selected",
      opts.disabled && "pa-unplayable"],
    dataset: { code },
  };
  const text = [opts.title, cardText(code, opts.as)].filter(Boolean).join(". ");
  const body = [
    el("span", { class: "pa-rank" }, school ? school : valueOf(code)),
    suit ? el("span", { class: "pa-suit", "aria-hidden": "true" }, SUIT[suit]) : null,
    opts.as && code === "joker" ? el("span", { class: "pa-as" }, `as ${SCHOOL[opts.as] || opts.as}`) : null,
    opts.invisible ? el("span", { class: "pa-tag" }, "invisible") : null,
  ];
  if (opts.onClick) {
    return explain(el("button", { ...attrs, type: "button", onclick: opts.onClick, "aria-pressed": opts.selected ? "true" : "false",
      "aria-label": label(code) + (opts.selected ? " (selected)" : "") }, ...body), text);
  }
  return explain(el("div", attrs, ...body), text);
}

function cardBack(opts = {}) {
  const attrs = { class: ["pa-card", "pa-back", opts.small && "pa-small"] };
  const text = opts.text || `${opts.title ? `${opts.title[0].toUpperCase()}${opts.title.slice(1)}: ` : ""}face down. A face-down is turned over blind, one a turn, once its owner has no hand cards and no face-ups left.`;
  if (opts.onClick) return explain(el("button", { ...attrs, type: "button", onclick: opts.onClick, "aria-label": opts.title }, ""), text);
  return explain(el("div", attrs, ""), text);
}

export function mount(root, ctx) {
  const me = ctx.seat;
  let snapshot = null;
  let selected = [];   // [{from: "hand" | "up", index}]
  let selectedTurn = null;
  let busy = false;

  const view = () => snapshot.view;
  const legal = () => (snapshot && snapshot.legal) || [];
  const names = () => (snapshot && snapshot.names) || ctx.names || [];
  const who = (seat) => {
    if (seat === me) return "You";
    const name = names()[seat] || `Player ${seat + 1}`;
    // several bots of one kind share a name: the seat number tells them apart
    return names().filter((other) => other === name).length > 1 ? `${name} ${seat + 1}` : name;
  };
  const myTurn = () => snapshot && me !== null && (snapshot.to_act || []).includes(me) && !!ctx.send;

  function send(action) {
    if (!ctx.send || busy) return;
    busy = true;
    ctx.send(action).then((answer) => {
      busy = false;
      if (answer && answer.ok) selected = [];
      draw();
    });
  }

  // --- selection ------------------------------------------------------------------------------------
  const mine = () => view().players[me];
  const codeAt = (s) => (s.from === "hand" ? mine().hand[s.index] : mine().face_ups[s.index]);
  const selectedCodes = () => selected.map(codeAt);
  const plays = () => legal().filter((a) => a.type === "play");
  const playsFor = (cards) => plays().filter((a) => sameCards(a.cards, cards));
  const usable = (code) => plays().some((a) => a.cards.includes(code));

  /** Why the selected cards cannot be played as they are: what to add, when some play holds them. */
  function whyNot(cards) {
    const rest = (play) => {
      const left = [...play.cards];
      for (const c of cards) {
        const at = left.indexOf(c);
        if (at < 0) return null;
        left.splice(at, 1);
      }
      return left;
    };
    const needed = plays().map(rest).filter(Boolean).sort((a, b) => a.length - b.length)[0];
    const shown = cards.map(label).join(" ");
    return needed ? `${shown} cannot be played alone: pick ${needed.map(label).join(" ")} too`
      : `${shown} cannot be played together now`;
  }

  function toggle(from, index) {
    const at = selected.findIndex((s) => s.from === from && s.index === index);
    if (at >= 0) {
      selected.splice(at, 1);
    } else {
      const code = from === "hand" ? mine().hand[index] : mine().face_ups[index];
      const value = valueOf(code);
      // a new value starts a new selection (jokers go with anything)
      const values = new Set(selectedCodes().map(valueOf).filter((v) => v !== "joker"));
      if (value !== "joker" && values.size && !values.has(value)) selected = [];
      selected.push({ from, index });
    }
    draw();
  }

  function playSelection(as) {
    const cards = selectedCodes();
    const options = playsFor(cards);
    if (!cards.length) return;
    if (!options.length) return;  // the prompt says the selection cannot be played
    const chosen = as ? options.find((a) => a.as === as) : options.length === 1 ? options[0] : null;
    if (chosen) send(chosen);
  }

  // --- keys -----------------------------------------------------------------------------------------
  const unbind = keys({
    p: () => myTurn() && playSelection(),
    Enter: () => myTurn() && selected.length && playSelection(),
    t: () => myTurn() && legal().some((a) => a.type === "take") && send({ type: "take" }),
    f: () => { const flip = legal().find((a) => a.type === "flip"); if (myTurn() && flip) send(flip); },
    n: () => myTurn() && legal().some((a) => a.type === "no_swap") && send({ type: "no_swap" }),
    Escape: () => { selected = []; draw(); },
    ...Object.fromEntries([1, 2, 3, 4, 5, 6].map((k) => [String(k), () => {
      const target = k - 1;
      const swap = legal().find((a) => a.type === "swap" && view().swap_own && a.seats.includes(target) && target !== me);
      if (myTurn() && swap) send(swap);
    }])),
  });

  // --- drawing --------------------------------------------------------------------------------------
  function announce(v) {
    const last = v.last || {};
    if (last.seat === undefined) return gameOver(snapshot) ? "" : `${who(v.first)} ${v.first === me ? "take" : "takes"} the first turn.`;
    const p = who(last.seat);
    const s = last.seat === me ? "" : "s";
    const parts = [];
    if (last.kind === "play" || (last.kind === "flip" && last.cards)) {
      const shown = (last.cards || []).map(label).join(" ");
      const asWord = (last.cards || []).includes("joker") ? ` as ${SCHOOL[last.value] || last.value}` : "";
      parts.push(`${p} played ${shown}${asWord}${last.kind === "flip" ? " from a face-down" : ""}.`);
    } else if (last.kind === "flip" && last.picked_up) {
      parts.push(`${p} turned over ${label(last.flipped)}, which could not go, and took the pile (${plural(last.picked_up, "card")}).`);
    } else if (last.kind === "flip") {
      parts.push(`${p} turned over a joker.`);
    } else if (last.kind === "take") {
      parts.push(`${p} took the pile (${plural(last.picked_up, "card")}).`);
    } else if (last.kind === "swap") {
      parts.push(`${who(last.swap[0])} and ${who(last.swap[1])} swapped hands.`);
    } else if (last.kind === "no_swap") {
      parts.push(`${p} made no more swaps.`);
    }
    if (last.burn) parts.push(last.burn === "ten" ? "The 10 burns the pile!" : "Four of a kind burn the pile!");
    if (last.again) parts.push(`${p} take${s} another turn.`);
    if (last.detour !== undefined) parts.push(`Play turns back for one turn: ${who(last.detour)} next.`);
    if (last.reversed) parts.push("The order of play is reversed.");
    if (last.skipped) parts.push(`${last.skipped.map(who).join(", ")} skipped.`);
    for (const out of last.out || []) parts.push(`${who(out)} ${out === me ? "are" : "is"} out!`);
    return parts.join(" ");
  }

  function playerPanel(v, seat) {
    const p = v.players[seat];
    const acting = (snapshot.to_act || []).includes(seat);
    const known = p.known_hand || [];
    const hidden = p.hand_count - known.length;
    return el("section", { class: ["pa-player", acting && "pa-acting", p.place && "pa-out"], dataset: { seat } },
      el("header", { class: "pa-player-head" },
        seatDot(seat), el("b", { class: "pa-name", title: who(seat) }, who(seat)),
        v.first === seat && !v.last.seat && v.last.seat !== 0 && !gameOver(snapshot) ? el("span", { class: "pa-badge" }, "starts") : null,
        p.place ? el("span", { class: "pa-badge" }, placeName(p.place, v.players.length))
          : el("span", { class: "pa-left" }, plural(p.cards_left, "card"), " left"),
        acting ? el("span", { class: "pa-badge pa-badge-turn" }, "to play") : null),
      el("div", { class: "pa-row", "aria-label": "hand" },
        el("span", { class: "pa-label" }, `Hand ${p.hand_count}`),
        cardsOf(known.map((c) => cardFace(c, { small: true, title: `${label(c)}: known to be in this hand` })),
          hidden > 0 ? backs(hidden, known.length ? "more hand cards" : "hand cards") : null)),
      el("div", { class: "pa-row", "aria-label": "face-ups and face-downs" },
        el("span", { class: "pa-label" }, "Table"),
        cardsOf(p.face_ups.map((c) => cardFace(c, { small: true })),
          p.face_downs ? backs(p.face_downs, "face-downs") : null)));
  }

  /** A row's cards, which wrap beside the row's label rather than under it. */
  function cardsOf(...cards) {
    return el("span", { class: "pa-cards" }, ...cards);
  }

  function backs(count, what) {
    const text = what === "face-downs" ? null : `${count} ${what}, seen only by their owner.`;
    return el("span", { class: "pa-stack" },
      Array.from({ length: count }, () => cardBack({ small: true, text })), el("b", {}, `×${count}`));
  }

  function placeName(place, n) {
    if (place === n) return "last";
    return ["1st", "2nd", "3rd", "4th", "5th", "6th"][place - 1] + " out";
  }

  function centre(v) {
    const pile = v.play_pile;
    let countsAt = -1;
    for (let i = pile.length - 1; i >= 0; i--) if (!INVISIBLE.has(pile[i].as)) { countsAt = i; break; }
    const shownFrom = Math.max(0, Math.min(pile.length - 6, countsAt < 0 ? pile.length : countsAt));
    const fan = pile.slice(shownFrom).map((p, k) => {
      const i = shownFrom + k;
      return cardFace(p.card, { as: p.as, invisible: INVISIBLE.has(p.as), counts: i === countsAt,
        title: `${label(p.card)}${p.card === "joker" ? ` as ${p.as}` : ""}${INVISIBLE.has(p.as) ? " (invisible)" : ""}${i === countsAt ? ": the card that counts" : ""}` });
    });
    const rule = v.counts === null ? "The play pile is empty: anything goes."
      : v.capped ? "A 9 counts: play 9 or lower (or a 2, 3, 7, school card or joker)."
        : `The card that counts: ${SCHOOL[v.counts] || v.counts}. Play the same or higher.`;
    const arrow = v.direction === 1 ? "↻" : "↺";
    return el("section", { class: "pa-centre", id: "pa-centre" },
      el("div", { class: "pa-piles" },
        el("figure", { class: "pa-pile", id: "pa-pick-up" }, v.pick_up_pile ? cardBack() : el("div", { class: "pa-card pa-empty" }),
          el("figcaption", {}, `Pick-up pile: ${v.pick_up_pile}`)),
        el("figure", { class: "pa-pile pa-play-pile", id: "pa-play-pile" },
          el("div", { class: "pa-fan" }, fan.length ? fan : el("div", { class: "pa-card pa-empty" }, "empty")),
          el("figcaption", {}, `Play pile: ${pile.length}${shownFrom ? ` (top ${pile.length - shownFrom} shown)` : ""}`,
            v.rules_on_top ? el("span", { class: "pa-warn" },
              v.edition === 1 ? " · Rules on top: no 2, 3, 7 or school card" : " · Rules on top: no 2, 3, 7 or Rules card") : null)),
        el("figure", { class: "pa-pile", id: "pa-burn" }, el("div", { class: "pa-card pa-burnt" }, String(v.burn_pile.length)),
          el("figcaption", {}, `Burnt: ${v.burn_pile.length}`))),
      el("p", { class: "pa-rule", id: "pa-rule" }, rule),
      el("p", { class: "pa-direction", id: "pa-direction" },
        el("span", { class: "pa-arrow", "aria-hidden": "true" }, arrow),
        v.direction === 1 ? " Play goes up the seats" : " Play goes down the seats (reversed)",
        v.current !== null && !gameOver(snapshot) ? ` · ${who(v.current)} ${v.current === me ? "play" : "plays"}` : "",
        v.detour !== null && v.current !== null && !gameOver(snapshot) ? ` · then back to after ${who(v.detour)}` : ""),
      el("p", { class: "pa-news", id: "pa-news", role: "status", hidden: !announce(v) }, announce(v)));
  }

  function myArea(v) {
    const p = v.players[me];
    const turn = myTurn();
    const flips = legal().filter((a) => a.type === "flip");
    const handPhase = p.hand.length > 0;
    const isSel = (from, index) => selected.some((s) => s.from === from && s.index === index);
    const hand = p.hand.map((c, i) => cardFace(c, { selected: isSel("hand", i), disabled: turn && !usable(c),
      onClick: turn && !v.swaps_left && !v.revealed ? () => toggle("hand", i) : null }));
    const ups = p.face_ups.map((c, i) => cardFace(c, { selected: isSel("up", i), disabled: turn && !usable(c),
      onClick: turn && !v.swaps_left && !v.revealed && usable(c) ? () => toggle("up", i) : null,
      title: `${label(c)} (face-up${handPhase ? ": joins your last hand cards" : ""})` }));
    const downs = Array.from({ length: p.face_downs }, (_, i) => cardBack({
      title: `face-down ${i + 1}`, onClick: turn && flips.length ? () => send({ type: "flip", index: i }) : null }));
    return el("section", { class: ["pa-me", turn && "pa-acting"], id: "pa-me", dataset: { controls: "" } },
      el("header", { class: "pa-player-head" }, seatDot(me), el("b", {}, "You"),
        p.place ? el("span", { class: "pa-badge" }, placeName(p.place, v.players.length)) : el("span", { class: "pa-left" }, plural(p.cards_left, "card"), " left")),
      el("div", { class: "pa-row pa-table-cards" }, el("span", { class: "pa-label" }, "Face-ups"), cardsOf(ups),
        el("span", { class: "pa-label" }, "Face-downs"), cardsOf(downs)),
      el("div", { class: "pa-row pa-hand", id: "pa-hand", "aria-label": "your hand" },
        el("span", { class: "pa-label" }, "Hand"), cardsOf(hand.length ? hand : el("span", { class: "muted" }, "empty"))),
      turn ? actions(v) : null);
  }

  function actions(v) {
    const bar = el("div", { class: "pa-actions", id: "pa-actions" });
    if (v.swaps_left) {
      const swaps = legal().filter((a) => a.type === "swap");
      const text = v.swap_own ? `Cardinal: swap your hand with whom? (${plural(v.swaps_left, "swap")} to make)`
        : `Cardinal: choose two players to swap hands (${plural(v.swaps_left, "swap")} left)`;
      bar.append(el("p", { class: "pa-prompt" }, text),
        el("div", { class: "pa-choices" },
          swaps.map((a) => button(v.swap_own ? `Swap with ${who(a.seats.find((s) => s !== me))}` : `${who(a.seats[0])} ⇄ ${who(a.seats[1])}`,
            () => send(a), { key: v.swap_own ? String(a.seats.find((s) => s !== me) + 1) : null, class: "pa-swap" })),
          button("No more swaps", () => send({ type: "no_swap" }), { kind: "ghost", key: "N" })));
      return bar;
    }
    if (v.revealed) {
      const options = plays();
      bar.append(el("p", { class: "pa-prompt" }, "You turned over a joker: what does it play as?"),
        el("div", { class: "pa-choices" }, options.map((a) => explain(button(SCHOOL[a.as] || a.as, () => send(a), { class: "pa-as-choice" }),
          `Played alone, a joker goes on anything. Here it plays as ${asText(a.as)}`))));
      return bar;
    }
    const flips = legal().filter((a) => a.type === "flip");
    if (flips.length) {
      bar.append(el("p", { class: "pa-prompt" }, touchOr("Only face-downs left: tap one to turn it over.", "Only face-downs left: turn one over (click it, or F).")),
        button("Turn over a face-down", () => send(flips[0]), { kind: "primary", key: "F", class: "pa-flip" }));
      return bar;
    }
    if (legal().some((a) => a.type === "take")) {
      bar.append(el("p", { class: "pa-prompt" }, "Nothing you hold can go on the pile."),
        button("Take the pile", () => send({ type: "take" }), { kind: "danger", key: "T", class: "pa-take" }));
      return bar;
    }
    const cards = selectedCodes();
    const options = cards.length ? playsFor(cards) : [];
    const needsAs = options.length > 1;
    bar.append(el("p", { class: "pa-prompt" }, cards.length
      ? (options.length ? `Play ${cards.map(label).join(" ")}${needsAs ? " as…" : ""}` : whyNot(cards))
      : touchOr("Tap cards of one value to pick them, then Play.", "Pick cards of one value to play (click them, or Tab and Enter).")));
    if (needsAs) {
      const asValues = options.map((a) => a.as).sort((a, b) => AS_ORDER.indexOf(a) - AS_ORDER.indexOf(b));
      bar.append(el("div", { class: "pa-choices" }, asValues.map((as) => explain(button(SCHOOL[as] || as, () => playSelection(as), { class: "pa-as-choice" }),
        `The joker plays as ${asText(as)}`))));
    } else {
      bar.append(button("Play", () => playSelection(), { kind: "primary", key: "P", disabled: !options.length, class: "pa-play" }));
    }
    if (cards.length) bar.append(button("Clear", () => { selected = []; draw(); }, { kind: "ghost", key: "Esc" }));
    return bar;
  }

  /** A game ended before its rules ended it (a resignation, a vote, its cap on actions): the hall's verdict. */
  function endedEarly() {
    const result = snapshot.result;
    return el("section", { class: "pa-final", id: "pa-final", dataset: { verdict: "" } },
      el("h3", {}, "The game is over"),
      el("p", { class: "pa-ended" }, withNames(result.reason, names())));
  }

  function finalOrder(v) {
    return el("section", { class: "pa-final", id: "pa-final", dataset: { verdict: "" } },
      el("h3", {}, "Finishing order"),
      el("table", { class: "pa-final-table" },
        el("thead", {}, el("tr", {}, el("th", {}, "Place"), el("th", {}, "Player"), el("th", {}, "Cards left"))),
        el("tbody", {}, v.finished.map((seat, k) => el("tr", { class: "pa-final-row" },
          el("td", {}, k === v.finished.length - 1 ? "last" : placeName(k + 1, v.players.length).replace(" out", "")),
          el("td", { class: "pa-final-place" }, seatDot(seat), ` ${who(seat)}`),
          el("td", {}, String(v.players[seat].cards_left)))))),
      el("p", { class: "muted small" }, "The number beside each name in the players' list counts the cards that player still holds:"
        + " 0 once out. The first out wins; the last still holding cards comes last."));
  }

  function draw() {
    if (!snapshot) return;
    const v = view();
    if (selectedTurn !== snapshot.turn) {
      selected = [];
      selectedTurn = snapshot.turn;
    }
    const n = v.players.length;
    const start = me === null ? 0 : me + 1;
    const others = Array.from({ length: n }, (_, k) => (start + k) % n).filter((s) => s !== me);
    replace(root, el("div", { class: "pa-board" },
      v.over ? finalOrder(v) : gameOver(snapshot) ? endedEarly() : null,
      el("div", { class: "pa-opponents" }, others.map((s) => playerPanel(v, s))),
      centre(v),
      me === null ? null : myArea(v)));
  }

  return renderer(root, (next) => {
    snapshot = next;
    edition = next.view.edition || 1;
    draw();
  }, unbind);
}
