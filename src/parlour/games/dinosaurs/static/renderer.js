// Happy Little Dinosaurs in the browser: the Disaster of the round, every dinosaur's Escape Route,
// Disaster Area (with what would eliminate it), face-down or revealed Point card and round score,
// the prompt of the moment (Point card, effects, Instant windows, the optional discard) and my hand
// with each card's effect in words.
//
// The cards come from cards.json, the same file the engine reads; legality from the server's legal
// actions. Keys: 1-9 and letters press the prompt's buttons (shown on them), P passes; with Fire
// Spray, 1-9 pick the hand's cards and Enter discards them.

import { el, replace, keys, button, plural, seatDot, matching } from "/static/ui.js";
import { renderer, stylesheet, withNames, explain, touchOr, gameOver } from "/static/board.js";

const DATA = await (await fetch(new URL("cards.json", import.meta.url))).json();
const CARDS = DATA.cards;
const DINOS = Object.fromEntries(DATA.dinosaurs.map((d) => [d.key, d]));
const TYPES = { natural: "Natural", predatory: "Predatory", emotional: "Emotional", meteor: "Meteor" };
const KEYS = "123456789ABCDEFGHIJKLMNOQRSTUVWXYZ".split("");  // P is pass

stylesheet(new URL("renderer.css", import.meta.url));

function cardTitle(id) {
  const c = CARDS[id];
  return c.kind === "point" ? `${c.name} (${c.value})` : c.name;
}

/** What a card does, in words, for its explanation. */
function cardText(id, twoPlayer = null) {
  const c = CARDS[id];
  if (c.kind === "point") {
    return `${c.name}: a Point card worth ${c.value}. ` + (c.effect ? c.effect : "It has no effect: just its value.");
  }
  if (c.kind === "instant") {
    return `${c.name}: an Instant card, played ${c.window === "scoring" ? "during scoring" : "when you would add a Disaster to your Disaster Area"}. ${c.effect}`;
  }
  const limit = twoPlayer === null ? "Three of one type, or three different types, eliminate a dinosaur (with the 2-player rules: four of one type, or two of each type)."
    : twoPlayer ? "Four of one type, or two of each of the three types, eliminate a dinosaur (2-player rules)."
      : "Three of one type, or three different types, eliminate a dinosaur.";
  return `${c.name}: ${c.type === "meteor" ? "a Meteor, which counts as any type of Disaster" : `a ${TYPES[c.type]} Disaster`}. ` +
    `The lowest score of the round adds it to its Disaster Area. Each Disaster there moves its dinosaur 1 point at the end of every round. ${limit}`;
}

/** What a Disaster does, short enough to print on its face. */
function disasterFace(twoPlayer) {
  return "The lowest score of the round takes it. " + (twoPlayer === false
    ? "Three of one type, or three types, eliminate."
    : twoPlayer ? "Four of one type, or two of each type, eliminate." : "Too many of them eliminate a dinosaur.");
}

/** A dinosaur's traits, short: "+1 Meteor, -1 Emotional". */
function traitsShort(dino) {
  return Object.entries(dino.traits).filter(([, v]) => v).map(([t, v]) => `${signed(v)} ${TYPES[t]}`).join(", ") || "no traits";
}

/** A dinosaur's traits in words: "+1 against Meteor Disasters". */
function traitsText(dino) {
  const traits = Object.entries(dino.traits).filter(([, v]) => v)
    .map(([t, v]) => `${signed(v)} point against ${t === "meteor" ? "Meteors" : `${TYPES[t]} Disasters`}`);
  return `${dino.name}: ${traits.join(", ")}. A trait is added to the Point card's value whenever the Disaster of the round is of that type.`;
}

/** A piece for the rules page (hall/static/rules.js): {piece: "card", id} or {piece: "dinosaur", key}. */
export function piece(fields) {
  if (fields.piece === "dinosaur") {
    const dino = DINOS[fields.key];
    const traits = Object.entries(dino.traits).filter(([, v]) => v);
    return explain(el("div", { class: "hld-dino" }, el("b", {}, dino.name),
      el("ul", {}, traits.map(([t, v]) => el("li", { class: `hld-type-${t}` }, `${signed(v)} against ${t === "meteor" ? "Meteors" : TYPES[t]}`)))),
    traitsText(dino));
  }
  return cardFace(Number(fields.id));
}

/** A card face: value, name, kind and effect in words. */
function cardFace(id, opts = {}) {
  const c = CARDS[id];
  const kind = c.kind === "point" ? (c.effect ? "Point card with an effect" : "Point card")
    : c.kind === "instant" ? (c.window === "scoring" ? "Instant: play during scoring" : "Instant: when you would add a Disaster")
      : `${TYPES[c.type]} Disaster`;
  const face = el(opts.onclick ? "button" : "div", {
    type: opts.onclick ? "button" : null,
    class: ["hld-card", `hld-${c.kind}`, c.kind === "disaster" && `hld-type-${c.type}`, opts.class,
      opts.selected && "hld-selected", opts.small && "hld-small"],
    onclick: opts.onclick || null, dataset: { card: String(id) },
    "aria-pressed": opts.onclick && opts.toggle ? String(!!opts.selected) : null,
  },
  c.kind === "point" && el("span", { class: "hld-value" }, String(c.value)),
  el("span", { class: "hld-name" }, c.name),
  !opts.small && el("span", { class: "hld-kind" }, kind),
  !opts.small && c.effect && el("span", { class: "hld-effect" }, c.effect),
  !opts.small && c.kind === "disaster" && el("span", { class: "hld-effect" }, disasterFace(opts.twoPlayer ?? null)),
  opts.key && el("kbd", { class: "key hld-card-key" }, opts.key));
  return explain(face, cardText(id, opts.twoPlayer ?? null));
}

function cardBack(label) {
  return el("div", { class: "hld-card hld-back" }, el("span", { class: "hld-name" }, label));
}

function typeChip(id) {
  const c = CARDS[id];
  return explain(el("span", { class: ["hld-chip", `hld-type-${c.type}`] }, TYPES[c.type]), cardText(id));
}

/** Whether I am looking at Treenoculars' top cards or at another hand with Dino Grabber. */
function looking(view) {
  return (view.peek && view.peek.length > 0) || !!(view.grab && view.grab.hand);
}

function signed(n) {
  return n > 0 ? `+${n}` : String(n);
}

export function mount(root, ctx) {
  const board = el("div", { class: "hld" });
  root.append(board);
  let snapshot = null;
  let chosen = [];  // Fire Spray: the cards picked to discard (dropped when no longer possible)
  let keyMap = {};
  const unbind = keys(new Proxy({}, { get: (_, name) => keyMap[String(name).toUpperCase()] || keyMap[name] }));

  const names = () => (snapshot && snapshot.names) || ctx.names || [];
  const who = (seat) => names()[seat] || `Player ${seat + 1}`;

  function send(action) {
    if (!ctx.send) return;
    chosen = [];
    ctx.send(action);
  }

  // --- the prompt ---------------------------------------------------------------------------------
  function describe(action, view) {
    const t = action.type;
    if (t === "pass") {
      if (view.phase === "disaster") return "Take the Disaster";
      if (view.phase === "discard") return "Keep my hand";
      if (view.phase === "scoring") return "Play no Instant";
      return "Do not use the effect";
    }
    if (t === "dinosaur") return DINOS[action.dinosaur].name;
    if (t === "play") return `Play ${cardTitle(action.card)}`;
    if (t === "take") return `Take ${cardTitle(action.card)}`;
    if (t === "discard") {
      const effect = view.effect && CARDS[view.effect.card];
      const verb = effect && ["pet_rock", "delicious_smoothie"].includes(effect.key)
        ? `Discard for +${CARDS[action.cards[0]].value}:` : "Discard";
      return `${verb} ${action.cards.map(cardTitle).join(", ")}`;
    }
    if (t === "instant") return action.player === undefined ? CARDS[action.card].name
      : `${CARDS[action.card].name} on ${action.player === ctx.seat ? "me" : who(action.player)}`;
    if (t === "look_hand") return `Look at ${who(action.player)}'s hand`;
    if (t === "look_deck") return "Look at the top 2 cards";
    if (t === "swap") return action.players ? `Swap ${who(action.players[0])} and ${who(action.players[1])}`
      : `Swap with ${who(action.player)}`;
    return JSON.stringify(action);
  }

  function question(view, mine) {
    const effect = view.effect && CARDS[view.effect.card];
    switch (view.phase) {
      case "dinosaur": return mine ? "Choose your dinosaur" : "Dinosaurs are being chosen";
      case "select": return mine ? "Choose a Point card to play face down" : "Everybody chooses a Point card face down";
      case "sudden_death": return mine ? "Sudden Death! Play another Point card face down: the lowest takes the Disaster"
        : "Sudden Death: the tied dinosaurs play another Point card";
      case "effect":
        if (view.peek && view.peek.length) return "Treenoculars: keep one of these, the other is discarded";
        if (view.grab && view.grab.hand) return `Dino Grabber: take a card from ${who(view.grab.player)}'s hand`;
        return mine ? `Use your ${effect.name}? ${effect.effect}` : `${who(view.effect.player)} is using ${effect.name}`;
      case "scoring": return mine ? "Scoring: play an Instant, or none (everybody answers at once)"
        : "Scoring: the dinosaurs holding cards may play Instants";
      case "disaster": return mine ? `${CARDS[view.disaster].name} would go to your Disaster Area: play a Disaster Instant?`
        : `${who(view.victim)} would take the Disaster`;
      case "discard": return mine ? "You took a Disaster: you may discard one card" : "The dinosaur that took the Disaster may discard a card";
      default: return "";
    }
  }

  function promptPanel(view, legal) {
    const mine = !!(legal && legal.length) && ctx.send;
    const text = question(view, mine);
    keyMap = {};
    if (gameOver(snapshot)) return null;  // over, by its rules or before them: nobody is asked anything
    const panel = el("section", { class: ["hld-prompt", mine && "hld-prompt-mine"], id: "hld-prompt", dataset: { controls: "" } },
      el("div", { class: "hld-question" }, text));
    if (!mine) {
      const waiting = (snapshot.to_act || []).map(who).join(", ");
      if (waiting && view.phase !== "over") panel.append(el("div", { class: "muted small" }, `Waiting for ${waiting}`));
      if (view.phase === "scoring" && view.answer) {
        const a = view.answer;
        panel.append(el("div", { class: "small" }, a.card < 0 ? "You answered: no Instant"
          : `You answered: ${CARDS[a.card].name}${a.player >= 0 ? ` on ${who(a.player)}` : ""} (hidden until everybody answers)`));
      }
      return panel;
    }
    const effect = view.effect && CARDS[view.effect.card];
    const spray = view.phase === "effect" && effect && effect.key === "fire_spray" && !looking(view);
    const row = el("div", { class: "hld-choices" });
    let n = 0;
    for (const action of legal) {
      if (spray && action.type === "discard") continue;
      let key;
      if (action.type === "pass") key = "P";
      else key = KEYS[n++];
      // a dinosaur's traits are on its button: what the choice means is read before it is made
      const label = action.type === "dinosaur"
        ? [describe(action, view), el("small", { class: "hld-choice-traits" }, traitsShort(DINOS[action.dinosaur]))]
        : describe(action, view);
      const kind = action.type === "pass" ? "ghost" : (action.type === "play" ? "primary" : null);
      const b = button(label, () => send(action), { key, kind, class: "hld-choice" });
      b.dataset.action = JSON.stringify(action);
      if (action.type === "dinosaur") explain(b, traitsText(DINOS[action.dinosaur]));
      else if (action.card !== undefined && CARDS[action.card]) explain(b, cardText(action.card));
      if (key) keyMap[key] = () => send(action);
      row.append(b);
    }
    if (spray) {
      chosen = chosen.filter((c) => view.hand.includes(c));
      const action = { type: "discard", cards: chosen };
      const ok = chosen.length > 0 && chosen.length <= 3;
      row.append(button(ok ? `Discard ${plural(chosen.length, "card")}` : touchOr("Tap up to 3 cards", "Pick up to 3 cards (1-9)"),
        () => ok && send(action), { key: "Enter", kind: "primary", disabled: !ok, class: "hld-choice" }));
      keyMap.ENTER = keyMap.Enter = () => ok && send(action);
      view.hand.forEach((c, i) => { keyMap[String(i + 1)] = () => toggle(c); });
    }
    panel.append(row);
    if (view.peek && view.peek.length) panel.append(el("div", { class: "hld-row" }, view.peek.map((c) => cardFace(c))));
    if (view.grab && view.grab.hand) panel.append(el("div", { class: "hld-row" }, view.grab.hand.map((c) => cardFace(c))));
    return panel;
  }

  function toggle(c) {
    if (chosen.includes(c)) chosen = chosen.filter((x) => x !== c);
    else if (chosen.length < 3) chosen = [...chosen, c];
    draw();
  }

  // --- the table ----------------------------------------------------------------------------------
  /** The card's heading and, when no Disaster is shown, its words: the state of the game, also once
   * it ended before its rules ended it (the view then keeps the phase it was in: only the hall's
   * result says it is over). */
  function gameState(view) {
    const first = view.phase === "dinosaur";
    if (gameOver(snapshot) && view.phase !== "over") {
      return ["Game over", first ? "The game ended before the first round" : `The game ended early in round ${view.round}`];
    }
    if (gameOver(snapshot)) return ["Game over", `The game ended in round ${view.round}`];
    return [first ? "Before the first round" : `Round ${view.round}`, first ? "Choosing dinosaurs" : "No Disaster face up"];
  }

  function disasterPanel(view) {
    const [heading, words] = gameState(view);
    const d = gameOver(snapshot) && view.phase !== "over" ? null : view.disaster;  // ended early: no Disaster of the round
    return el("section", { class: "hld-disaster", id: "hld-disaster" },
      el("div", { class: "hld-label" }, heading),
      d === null || d === undefined ? el("div", { class: "muted" }, words)
        : [el("div", { class: "hld-label" }, gameOver(snapshot) ? "The last Disaster" : "The Disaster"),
          cardFace(d, { class: "hld-disaster-card", twoPlayer: !!(view.options && view.options.two_player_rules) })],
      el("div", { class: "hld-decks small muted" },
        `Main deck ${view.deck_size} · discard ${view.discard.length} · Disaster deck ${view.disaster_deck_size}`),
      view.effects_ignored && el("div", { class: "hld-note" }, "Flaming Chainsaw: all other Point card effects are ignored"),
      view.queue && view.queue.length > 0 && el("div", { class: "small" }, "Effects to come: ",
        view.queue.map(cardTitle).join(" → ")));
  }

  function track(player, seat, goal) {
    const pct = Math.min(100, (player.escape / goal) * 100);
    return el("div", { class: "hld-track", title: `${player.escape} of ${goal} on the Escape Route` },
      el("div", { class: "hld-track-fill", style: { width: `${pct}%`, background: `var(--seat-${seat})` } }),
      el("span", { class: "hld-track-text" }, `${player.escape} / ${goal}`));
  }

  function playerPanel(view, seat) {
    const p = view.players[seat];
    const dino = p.dinosaur ? DINOS[p.dinosaur] : null;
    const acting = (snapshot.to_act || []).includes(seat);
    const deadlyNow = view.disaster !== null && view.disaster !== undefined && p.deadly.includes(CARDS[view.disaster].type);
    const traits = dino ? Object.entries(dino.traits).filter(([, v]) => v).map(([t, v]) => `${signed(v)} ${TYPES[t]}`).join(", ") : "";
    let table;
    if (p.eliminated) table = el("div", { class: "hld-out" }, `Eliminated in round ${p.eliminated_round}`);
    else if (p.card !== null) table = cardFace(p.card, { small: true, class: "hld-front" });
    else if (p.face_down) table = cardBack(seat === ctx.seat && view.face_down !== null ? `Face down: ${cardTitle(view.face_down)}` : "Face down");
    else if (view.phase === "select" && acting) table = el("div", { class: "hld-choosing muted" }, "choosing…");
    const score = p.score !== null && p.score !== undefined
      ? el("div", { class: "hld-score" }, `This round: ${p.final_score}`,
        p.final_score !== p.score && el("span", { class: "muted small" }, ` (switched from ${p.score})`),
        p.bonus ? el("span", { class: "muted small" }, ` · bonus +${p.bonus}`) : null,
        p.trait ? el("span", { class: "muted small" }, ` · trait ${signed(p.trait)}`) : null)
      : null;
    const sudden = p.sudden_death.length ? el("div", { class: "hld-row" }, el("span", { class: "small" }, "Sudden Death:"),
      p.sudden_death.map((c) => cardFace(c, { small: true }))) : null;
    const hits = view.instants.filter((i) => i.target === seat || (i.player === seat && i.target === null));
    return el("section", {
      class: ["hld-player", acting && "hld-acting", p.eliminated && "hld-eliminated", seat === ctx.seat && "hld-me",
        view.victim === seat && "hld-victim"],
      dataset: { seat: String(seat) },
    },
    el("div", { class: "hld-player-head" }, seatDot(seat), el("b", { class: "hld-pname" }, who(seat)),
      el("span", { class: "muted small" }, dino ? dino.name : "no dinosaur yet"),
      acting && el("span", { class: "hld-to-act" }, view.phase === "scoring" ? "answering" : "to act"),
      p.answered && el("span", { class: "hld-answered small" }, "answered")),
    dino && explain(el("div", { class: "small muted hld-traits" }, traits ? `Traits: ${traits}` : "No traits"), traitsText(dino)),
    track(p, seat, view.goal),
    el("div", { class: "hld-area" }, el("span", { class: "small" }, `Disasters (${p.area.length}):`),
      p.area.length ? p.area.map(typeChip) : el("span", { class: "muted small" }, "none")),
    !p.eliminated && !gameOver(snapshot) && p.deadly.length > 0 && el("div", { class: ["hld-risk", deadlyNow && "hld-risk-now"] },
      deadlyNow ? "This Disaster would eliminate!" : `Eliminated by one more: ${p.deadly.map((t) => TYPES[t]).join(", ")}`),
    el("div", { class: "small muted" }, `${plural(p.hand_size, "card")} in hand`),
    el("div", { class: "hld-table" }, table, score),
    sudden,
    hits.length > 0 && el("div", { class: "small" }, hits.map((i) =>
      `${CARDS[i.card].name} by ${who(i.player)}`).join(" · ")));
  }

  function lastRound(view) {
    const last = view.last_round;
    if (!last || view.phase !== "select" || !last.front) return null;
    const items = [];
    last.front.forEach((c, seat) => {
      if (c === null) return;
      const s = last.scores ? last.scores[seat] : null;
      items.push(el("li", {}, seatDot(seat), `${who(seat)}: ${cardTitle(c)}`, s !== null && s !== undefined ? ` → ${s}` : ""));
    });
    const fate = last.disaster === null || last.disaster === undefined ? "" : last.to === null
      ? `${CARDS[last.disaster].name} went to the bottom of the Disaster deck`
      : `${CARDS[last.disaster].name} went to ${who(last.to)}`;
    return el("section", { class: "hld-last", id: "hld-last" }, el("div", { class: "hld-label" }, `Round ${last.round}`),
      el("ul", {}, items), fate && el("div", { class: "small" }, fate));
  }

  function handPanel(view, legal) {
    if (!view.hand) return null;
    const effect = view.effect && CARDS[view.effect.card];
    const spray = ctx.send && legal.length > 0 && view.phase === "effect" && effect && effect.key === "fire_spray" && !looking(view);
    const cards = view.hand.map((c, i) => {
      if (spray) return cardFace(c, { onclick: () => toggle(c), selected: chosen.includes(c), toggle: true, key: String(i + 1) });
      const single = ctx.send ? [...matching(legal, { type: "play", card: c }),
        ...(legal || []).filter((a) => a.type === "discard" && a.cards.length === 1 && a.cards[0] === c),
        ...matching(legal, { type: "instant", card: c }).filter((a) => a.player === undefined)] : [];
      return cardFace(c, single.length === 1 ? { onclick: () => send(single[0]), class: "hld-playable" } : {});
    });
    return el("section", { class: "hld-hand", id: "hld-hand" },
      el("div", { class: "hld-label" }, `Your hand (${view.hand.length})`),
      view.face_down !== null && el("div", { class: "small" }, `Face down: ${cardTitle(view.face_down)} (hidden from the others)`),
      el("div", { class: "hld-row" }, cards.length ? cards : el("span", { class: "muted" }, "empty")));
  }

  function resultPanel(view) {
    const result = view.result || snapshot.result;  // the hall's for a game ended before its rules ended it
    if (!result) return null;
    const winners = result.winners.map(who).join(" and ");
    return el("section", { class: "hld-result", id: "hld-result", dataset: { verdict: "" } }, `${winners} won: ${withNames(result.reason, names())}`);
  }

  function draw() {
    if (!snapshot) return;
    const view = snapshot.view;
    const legal = snapshot.legal || [];
    replace(board,
      resultPanel(view),
      el("div", { class: "hld-top" }, disasterPanel(view), promptPanel(view, legal), lastRound(view)),
      el("div", { class: "hld-players", style: { gridTemplateColumns: `repeat(${view.players.length}, minmax(0, 1fr))` } },
        view.players.map((_, seat) => playerPanel(view, seat))),
      handPanel(view, legal));
  }

  return renderer(root, (next) => {
    snapshot = next;
    draw();
  }, unbind);
}
