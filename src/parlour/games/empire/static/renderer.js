// Empire's board in the browser: the opponent's coins and role (face down unless you know it), the
// four revelatory cards marked where they have been looked at, the culprit card, the deck, the
// face-up discard pile, your role card and coins, the actions open now with their costs, the
// answer to a claim, the reveal of the last challenge, and a notebook that crosses off every role
// you know is not the culprit.
//
// Everything is drawn from the seat's view (which holds only what the seat has seen) and the legal
// actions; the only thing kept between updates is a choice in progress (the role picked in the
// notebook, the revelatory cards picked for a Reveal).
//
// Keys: I income, 2 3 4 claim, P promote, R reveal (pick the cards with A B C D first), S spy,
// U discover (uncover the culprit), E end the turn, X accuse the role picked in the notebook (N next
// suspect); K/J keep your role or the drawn card; A B C D draw a revelatory card when the deck is empty.
// Answering a claim: P pass, C challenge, G guess the picked role. Enter/Space work on any button.

import { el, replace, button, keys, plural, matching } from "/static/ui.js";
import { renderer, stylesheet, withNames, explain, touchScreen, gameOver } from "/static/board.js";

stylesheet(new URL("renderer.css", import.meta.url));

const CHALLENGE = "In a challenge both roles are shown and the higher number wins.";

/** What a role card is, in words. */
function roleText(number, name, line = "") {
  return `${name} (${number}). ${line ? `${line} ` : ""}${CHALLENGE} Once you have seen this card, it cannot be the culprit.`;
}

/** A role card's face or back: {number, name, total} known, or a back with opts.mark. */
function roleFace(number, name, total, opts = {}) {
  const known = number !== null && number !== undefined;
  const card = el("div", {
    class: ["em-card", known ? "em-face" : "em-back", opts.size && `em-${opts.size}`, opts.class,
      known && `em-strength-${Math.round((number / total) * 10)}`],
    dataset: opts.data || {},
  },
  known ? [el("span", { class: "em-number" }, String(number)), el("span", { class: "em-name" }, name)]
    : el("span", { class: "em-mark", "aria-hidden": "true" }, opts.mark || "?"),
  opts.label ? el("span", { class: "em-label" }, opts.label) : null);
  return explain(card, opts.explain || (known ? roleText(number, name, opts.line) : "A card face down: nobody at the table knows it."));
}

/** A piece for the rules page (hall/static/rules.js): {piece: "role", number, name} or {piece: "role", culprit}. */
export function piece(fields) {
  if (fields.culprit) {
    return roleFace(null, "", 15, { mark: "✦", class: "em-culprit", label: "culprit",
      explain: "The culprit card, face down. Discover (18 coins) shows it to you; an accusation shows it to everyone." });
  }
  return roleFace(Number(fields.number), fields.name, 15, { size: "big" });
}

export function mount(root, ctx) {
  let snapshot = null;
  let picked = null;        // the role picked in the notebook (for Accuse and Guess)
  let revealPick = [];      // revelatory places picked for a Reveal
  const me = ctx.seat;

  const names = () => (snapshot && snapshot.names) || ctx.names || ["Player 1", "Player 2"];
  const who = (seat) => (seat === me ? "You" : names()[seat] || `Player ${seat + 1}`);
  const whose = (seat) => (seat === me ? "your" : `${names()[seat] || `Player ${seat + 1}`}'s`);
  const roleName = (n) => {
    const role = snapshot.view.roles.find((r) => r.number === n);
    return role ? role.name : `role ${n}`;
  };
  const legal = () => (snapshot && snapshot.legal) || [];
  // an action is possible when a legal one has the same fields (lists compared by their contents)
  const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
  const can = (fields) => legal().some((a) => Object.entries(fields).every(([k, v]) => same(a[k], v)));
  const send = (action) => {
    if (!ctx.send) return;
    ctx.send(action).then((answer) => {
      if (answer && answer.ok) {
        revealPick = [];
      }
    });
  };

  // --- keys ---------------------------------------------------------------------------------------
  const unbind = keys({
    i: () => act({ type: "income" }),
    2: () => act({ type: "claim", amount: 2 }),
    3: () => act({ type: "claim", amount: 3 }),
    4: () => act({ type: "claim", amount: 4 }),
    p: () => (step() === "respond" ? act({ type: "pass" }) : act({ type: "promote" })),
    c: () => (step() === "respond" ? act({ type: "challenge" }) : step() === "draw" ? act({ type: "draw", slot: 2 }) : togglePlace(2)),
    g: () => picked !== null && act({ type: "guess", role: picked }),
    r: () => revealPick.length && act({ type: "reveal", slots: [...revealPick].sort() }),
    s: () => act({ type: "spy" }),
    d: () => (step() === "draw" ? act({ type: "draw", slot: 3 }) : togglePlace(3)),
    u: () => act({ type: "discover" }),
    e: () => act({ type: "end" }),
    x: () => picked !== null && act({ type: "accuse", role: picked }),
    n: () => pickNext(),
    a: () => (step() === "draw" ? act({ type: "draw", slot: 0 }) : togglePlace(0)),
    b: () => (step() === "draw" ? act({ type: "draw", slot: 1 }) : togglePlace(1)),
    k: () => act({ type: "keep", card: "role" }),
    j: () => act({ type: "keep", card: "drawn" }),
    Escape: () => { picked = null; revealPick = []; draw(); },
  });

  function step() {
    return snapshot && snapshot.view.step;
  }

  /** Sends ``action`` if it is legal now; false (so the key is not swallowed) if it is not. */
  function act(action) {
    if (!can(action)) return false;
    send(action);
    return true;
  }

  function togglePlace(slot) {
    if (!snapshot || !matching(legal(), { type: "reveal" }).length) return false;
    const slotView = snapshot.view.revelatory[slot];
    if (!slotView || !slotView.present) return false;
    revealPick = revealPick.includes(slot) ? revealPick.filter((s) => s !== slot) : [...revealPick, slot].slice(-2);
    draw();
    return true;
  }

  function pickNext() {
    if (!snapshot || !snapshot.view.suspects) return false;
    const suspects = snapshot.view.suspects;
    const at = suspects.indexOf(picked);
    picked = suspects[(at + 1) % suspects.length];
    draw();
    return true;
  }

  // What each action does, in words (its explanation on hover and on tap).
  const ACTION_TEXT = {
    income: "Income: take 1 coin from the bank. It is your claim or income for this turn.",
    claim: (a) => `Claim ${a.amount} coins (you must hold at least ${a.amount}). Your opponent passes (you take them from the bank), `
      + "challenges (both roles are shown, the higher number wins) or guesses your role for 1 coin (right: you pay them; wrong: you take the coins).",
    end: "End your turn. You may end it only after your claim or income.",
    promote: (a, v) => (v.deck_count === 0 && !v.revelatory.some((s) => s.present)
      ? `Promote (${v.costs.promote} coins): you must draw, and nothing is left to draw: the game ends in a tie.`
      : `Promote (${v.costs.promote} coins): draw a card, keep it or your role, and discard the other face up. A higher role wins challenges.`),
    reveal: (a, v) => `Reveal (${v.costs.reveal} coins): look in secret at the two revelatory cards you picked. Neither can be the culprit.`,
    spy: (a, v) => `Spy (${v.costs.spy} coins): see your opponent's role. It cannot be the culprit, and you can then guess it when they claim.`,
    discover: (a, v) => `Discover (${v.costs.discover} coins): see the culprit. Your turn ends at once; accuse on your next turn.`,
    accuse: "Accuse: name the culprit. The culprit is shown: right, you win; wrong, you lose.",
    pass: "Pass: let the claimant take the coins from the bank.",
    challenge: "Challenge: both roles are shown and the higher number wins. If the claimant wins they take the coins from the bank and you; if not, they pay them to the bank. Both then draw new roles.",
    guess: "Guess (1 coin): name the claimant's role. Right: they pay you the coins claimed. Wrong: they take them from the bank.",
    decline: "Do not accuse now: the game goes on.",
    keep: (a) => (a.card === "role" ? "Keep your old role and discard the card you drew face up." : "Keep the card you drew as your role and discard your old one face up."),
  };

  // --- pieces -------------------------------------------------------------------------------------
  function roleCard(number, opts = {}) {
    const role = snapshot.view.roles.find((r) => r.number === number);
    return roleFace(number, role ? role.name : `role ${number}`, snapshot.view.roles.length,
      { ...opts, line: role ? role.line : "", explain: opts.explain || (number === null || number === undefined ? opts.title : null) });
  }

  function coins(n, label) {
    return el("span", { class: "em-coins", title: label },
      el("span", { class: "em-coin", "aria-hidden": "true" }), el("b", {}, String(n)), " ", n === 1 ? "coin" : "coins");
  }

  function playerZone(seat) {
    const view = snapshot.view;
    const mine = seat === me;
    const active = view.active === seat && !gameOver(snapshot);  // nobody's turn once over, however it ended
    const isOpponent = me !== null && !mine;
    let cards;
    if (mine) {
      cards = [roleCard(view.you.role, { size: "big", label: "your role", class: "em-mine", data: { role: "mine" } })];
      if (view.you.drawn !== null) cards.push(roleCard(view.you.drawn, { size: "big", label: "just drawn", class: "em-drawn" }));
      if (view.you.role === null) cards = [roleCard(null, { size: "big", mark: "…", label: "drawing a new role" })];
    } else {
      const known = isOpponent ? view.opponent.role : null;
      const count = view.holding[seat];
      cards = [];
      if (count === 0) cards.push(roleCard(null, { mark: "…", label: "drawing" }));
      else cards.push(roleCard(known, { label: known !== null ? "you know this role" : "role, face down", data: { role: "opponent" } }));
      if (view.promoting === seat) cards.push(roleCard(isOpponent ? view.opponent.drawn : null, { label: "just drawn" }));
    }
    const notes = [];
    if (view.discovered[seat]) notes.push(el("span", { class: "em-tag em-tag-alert" }, `${mine ? "you have" : "has"} seen the culprit`));
    if (mine && view.opponent_knows.cards.includes(view.you.role)) {
      notes.push(el("span", { class: "em-tag em-tag-alert" }, `${who(1 - seat)} knows your role`));
    }
    if (isOpponent && view.opponent.ruled_out.length) {
      notes.push(el("span", { class: "em-tag" }, `not ${view.opponent.ruled_out.map((n) => roleName(n)).join(", not ")}`));
    }
    return el("section", { class: ["em-player", mine ? "em-player-me" : "em-player-other", active && "em-active"],
      dataset: { seat }, "aria-label": `${who(seat)}: ${plural(view.coins[seat], "coin")}` },
    el("div", { class: "em-player-head" },
      el("span", { class: "seat-dot", style: { background: `var(--seat-${seat})` }, "aria-hidden": "true" }),
      el("strong", { class: "em-player-name", title: names()[seat] }, mine ? `You (${names()[seat]})` : names()[seat] || `Player ${seat + 1}`),
      coins(view.coins[seat], `${whose(seat)} coins`),
      active ? el("span", { class: "badge" }, "turn") : null),
    el("div", { class: "em-hand" }, cards),
    notes.length ? el("div", { class: "em-notes" }, notes) : null);
  }

  function revelatory() {
    const view = snapshot.view;
    const choosingReveal = matching(legal(), { type: "reveal" }).length > 0;
    const drawing = step() === "draw" && legal().length > 0;
    return el("div", { class: "em-slots", role: "group", "aria-label": "The revelatory cards" },
      el("span", { class: "em-group-name" }, "Revelatory cards"),
      view.revelatory.map((slot) => {
        const marks = [];
        for (const seat of slot.looked_at_by) {
          marks.push(el("span", { class: "em-eye", style: { background: `var(--seat-${seat})` },
            title: `${who(seat)} looked at it` }, `◉ ${seat === me ? "you" : names()[seat]}`));
        }
        let face;
        if (!slot.present) {
          face = el("div", { class: "em-card em-gone", title: `drawn by ${who(slot.taken_by)}` },
            el("span", { class: "em-mark" }, slot.name),
            el("span", { class: "em-label" }, `drawn by ${slot.taken_by === me ? "you" : names()[slot.taken_by]}`),
            slot.card !== null ? el("span", { class: "em-was" }, `${roleName(slot.card)} (${slot.card})`) : null);
        } else {
          face = roleCard(slot.card, { mark: slot.name, title: slot.card !== null ? `${slot.name}: ${roleName(slot.card)} (${slot.card}), you looked at it` : `Revelatory card ${slot.name}, face down. Reveal (3 coins) looks at two of them in secret; a card you have seen cannot be the culprit. When the deck is empty, draws come from these.` });
        }
        const pickedNow = revealPick.includes(slot.slot);
        let control = null;
        if (slot.present && drawing) {
          control = button(`Draw ${slot.name}`, () => act({ type: "draw", slot: slot.slot }), { kind: "primary", class: "btn-small", key: slot.name });
        } else if (slot.present && choosingReveal) {
          control = button(pickedNow ? `${slot.name} picked` : `Pick ${slot.name}`, () => togglePlace(slot.slot),
            { class: pickedNow ? "btn-small em-picked-btn" : "btn-small", key: slot.name });
        }
        return el("div", { class: ["em-slot", pickedNow && "em-picked"], dataset: { slot: slot.slot } },
          el("span", { class: "em-slot-name", title: `revelatory card ${slot.name}` }, `Card ${slot.name}`), face,
          el("div", { class: "em-eyes" }, marks), control);
      }));
  }

  function centre() {
    const view = snapshot.view;
    const culpritKnown = view.culprit !== null;
    const pile = view.pile;
    return el("div", { class: "em-centre" },
      revelatory(),
      el("div", { class: "em-stack" },
        el("div", { class: "em-slot em-culprit-slot" }, el("span", { class: "em-slot-name" }, "Culprit"),
          roleCard(culpritKnown ? view.culprit : null, { mark: "✦", class: "em-culprit", data: { role: "culprit" },
            explain: culpritKnown ? null : "The culprit, face down. Discover (18 coins) shows it to you; an accusation shows it to everyone.",
            label: culpritKnown ? (view.over ? "the culprit" : "you discovered it") : "face down" })),
        el("div", { class: "em-slot" }, el("span", { class: "em-slot-name" }, "Deck"),
          el("div", { class: ["em-card", "em-back", "em-deck", !view.deck_count && "em-gone"], title: plural(view.deck_count, "card") },
            el("span", { class: "em-mark" }, String(view.deck_count)), el("span", { class: "em-label" }, plural(view.deck_count, "card"))))),
      el("details", { class: "em-pile", open: true },
        el("summary", {}, `Discard pile, face up (${plural(pile.length, "card")})`),
        pile.length ? el("ol", { class: "em-pile-list" }, pile.map((n) => el("li", {}, roleCard(n, { size: "small" }))))
          : el("p", { class: "muted small" }, "Nothing discarded yet.")));
  }

  function challengeBanner() {
    const view = snapshot.view;
    const c = view.last_challenge;
    const g = view.last_guess;
    const banners = [];
    if (c && c.turn >= view.turn - 1) {
      const other = 1 - c.claimant;
      const claimantWon = c.winner === c.claimant;
      const text = claimantWon
        ? `${who(c.claimant)} won the challenge and ${c.claimant === me ? "take" : "takes"} ${plural(c.amount, "coin")}.`
        : `${who(other)} won the challenge: ${who(c.claimant)} ${c.claimant === me ? "pay" : "pays"} ${plural(c.amount, "coin")} to the bank.`;
      banners.push(el("section", { class: "em-banner em-challenge", role: "status", "aria-label": "The last challenge" },
        el("h3", {}, `Challenge! (turn ${c.turn})`),
        el("div", { class: "em-duel" },
          el("div", { class: ["em-duelist", c.winner === c.claimant && "em-won"] },
            el("span", { class: "em-duelist-name" }, `${who(c.claimant)} (claimed ${c.amount})`),
            roleCard(c.roles[c.claimant], { class: "em-flip" })),
          el("span", { class: "em-vs" }, "vs"),
          el("div", { class: ["em-duelist", c.winner === other && "em-won"] },
            el("span", { class: "em-duelist-name" }, `${who(other)} (challenged)`),
            roleCard(c.roles[other], { class: "em-flip" }))),
        el("p", {}, text, c.roles.every((n) => view.pile.includes(n)) ? " Both roles went to the discard pile."
          : " Both roles go to the discard pile once the coins are taken, then both players draw new roles.")));
    }
    if (g && g.turn >= view.turn - 1) {
      const claimant = 1 - g.guesser;
      banners.push(el("p", { class: ["em-banner", "em-guess", g.right && "em-guess-right"], role: "status" },
        `${who(g.guesser)} guessed that ${who(claimant) === "You" ? "you were" : `${who(claimant)} was`} the ${roleName(g.role)}: `,
        el("b", {}, g.right ? "right" : "wrong"), "."));
    }
    return banners;
  }

  function actionButton(label, action, opts = {}) {
    const ok = can(action);
    const b = button(label, () => act(action), { ...opts, disabled: !ok, title: null });
    const what = ACTION_TEXT[action.type];
    const text = [typeof what === "function" ? what(action, snapshot.view) : what, ok ? null : opts.why && `Not now: ${opts.why}.`]
      .filter(Boolean).join(" ");
    return explain(b, text);
  }

  function costWhy(kind) {
    const view = snapshot.view;
    const cost = view.costs[kind];
    if (view.coins[me] < cost) return `costs ${plural(cost, "coin")}; you have ${view.coins[me]}`;
    return `not possible now`;
  }

  function actions() {
    const view = snapshot.view;
    if (gameOver(snapshot)) return resultPanel();
    if (me === null) return el("section", { class: "em-actions" }, el("p", { class: "muted" }, waitingText()));
    const mine = (snapshot.to_act || []).includes(me) && legal().length > 0;
    if (!mine) return el("section", { class: "em-actions em-waiting" }, el("p", {}, waitingText()));
    const s = view.step;
    const other = 1 - me;
    const pickedName = picked !== null ? `the ${roleName(picked)}` : "a role (pick it in the notebook)";
    if (s === "respond") {
      const beat = view.you.role !== null ? beatCount() : null;
      return el("section", { class: "em-actions em-prompt", "aria-label": "Answer the claim" },
        el("h3", {}, `${names()[other]} claims ${plural(view.claim, "coin")}. Your answer?`),
        el("div", { class: "em-choices" },
          actionButton(`Pass: ${names()[other]} takes ${view.claim} from the bank`, { type: "pass" }, { key: "P" }),
          actionButton(`Challenge: compare roles, higher wins`, { type: "challenge" }, { key: "C", kind: "primary" }),
          actionButton(`Guess ${pickedName} (1 coin)`, { type: "guess", role: picked }, { key: "G",
            why: picked === null ? "pick the role to guess in the notebook first" : "a guess costs 1 coin" })),
        beat ? el("p", { class: "muted small" }, beat) : null,
        el("p", { class: "muted small" }, `A right guess makes ${names()[other]} pay you ${view.claim}; a lost challenge costs ${names()[other]} ${view.claim} to the bank, a won one lets them take it from you and the bank.`));
    }
    if (s === "collect") {
      return el("section", { class: "em-actions em-prompt", "aria-label": "Take your coins" },
        el("h3", {}, `You won the challenge: take your ${plural(view.claim, "coin")}`),
        el("div", { class: "em-choices" }, legal().map((a) => button(
          a.from_opponent === 0 ? `All ${view.claim} from the bank` : `${a.from_opponent} from ${names()[other]}, ${view.claim - a.from_opponent} from the bank`,
          () => act(a), { kind: a.from_opponent === Math.max(...legal().map((x) => x.from_opponent)) ? "primary" : null }))));
    }
    if (s === "draw") {
      return el("section", { class: "em-actions em-prompt" },
        el("h3", {}, "The deck is empty: draw a revelatory card of your choice"),
        el("p", { class: "muted small" }, `${names()[other]} may then accuse at once.`),
        el("div", { class: "em-choices" }, legal().map((a) => button(`Draw ${view.revelatory[a.slot].name}`, () => act(a),
          { key: view.revelatory[a.slot].name }))));
    }
    if (s === "accuse_chance") {
      return el("section", { class: "em-actions em-prompt" },
        el("h3", {}, `${names()[other]} drew a revelatory card: you may accuse now`),
        el("div", { class: "em-choices" },
          actionButton("Do not accuse", { type: "decline" }, {}),
          actionButton(`Accuse ${pickedName}`, { type: "accuse", role: picked }, { key: "X", kind: "danger",
            why: "pick the role to accuse in the notebook first" })));
    }
    if (s === "keep") {
      return el("section", { class: "em-actions em-prompt" },
        el("h3", {}, "Promotion: keep one card, discard the other face up"),
        el("div", { class: "em-choices" },
          actionButton(`Keep the ${roleName(view.you.role)} (${view.you.role})`, { type: "keep", card: "role" }, { key: "K" }),
          actionButton(`Keep the ${roleName(view.you.drawn)} (${view.you.drawn})`, { type: "keep", card: "drawn" }, { key: "J", kind: "primary" })));
    }
    // my turn
    const claims = [2, 3, 4].map((n) => actionButton(`Claim ${n}`, { type: "claim", amount: n }, { key: String(n),
      kind: "primary", why: view.main_done ? "you have already claimed or taken income" : `you hold ${plural(view.coins[me], "coin")}: claim no more than that` }));
    const revealAction = { type: "reveal", slots: [...revealPick].sort((a, b) => a - b) };
    const present = view.revelatory.filter((r) => r.present).length;
    const need = Math.min(2, present);
    const revealLabel = revealPick.length === need && need
      ? `Reveal ${revealPick.map((i) => view.revelatory[i].name).sort().join(" + ")}`
      : `Reveal: pick ${need === 1 ? "the last card" : "two cards"} above`;
    return el("section", { class: "em-actions", "aria-label": "Your turn" },
      el("h3", {}, view.main_done ? "Your turn: buy information, or end your turn" : "Your turn: claim coins or take income"),
      el("div", { class: "em-action-row" },
        el("span", { class: "em-row-label" }, "Main"),
        actionButton("Income +1", { type: "income" }, { key: "I", why: "you have already claimed or taken income" }),
        claims,
        actionButton("End turn", { type: "end" }, { key: "E", why: "claim coins or take income first" })),
      el("div", { class: "em-action-row" },
        el("span", { class: "em-row-label" }, "Extras"),
        actionButton(`Promote · ${view.costs.promote}`, { type: "promote" }, { key: "P", why: costWhy("promote"),
          title: "pay 2: draw a card, keep it or your role" }),
        actionButton(`${revealLabel} · ${view.costs.reveal}`, revealAction, { key: "R", why: revealPick.length < need ? "pick the revelatory cards to look at first (A B C D)" : costWhy("reveal") }),
        actionButton(`Spy · ${view.costs.spy}`, { type: "spy" }, { key: "S", why: costWhy("spy"), title: `pay 8: see ${names()[other]}'s role` }),
        actionButton(`Discover · ${view.costs.discover}`, { type: "discover" }, { key: "U", why: costWhy("discover"),
          title: "pay 18: see the culprit; ends your turn" })),
      el("div", { class: "em-action-row" },
        el("span", { class: "em-row-label" }, "Accuse"),
        actionButton(picked !== null ? `Accuse the ${roleName(picked)} (${picked})` : "Accuse: pick a suspect in the notebook",
          { type: "accuse", role: picked }, { key: "X", kind: "danger", why: "pick the role to accuse in the notebook first" }),
        el("span", { class: "muted small" }, "Right: you win. Wrong: you lose.")));
  }

  function beatCount() {
    const view = snapshot.view;
    const mine = view.you.role;
    if (view.opponent.role !== null) {
      return `You know ${names()[1 - me]} holds the ${roleName(view.opponent.role)} (${view.opponent.role}): guess it.`;
    }
    const candidates = view.suspects.filter((n) => !view.opponent.ruled_out.includes(n));
    const lower = candidates.filter((n) => n < mine).length;
    return `Your ${roleName(mine)} (${mine}) beats ${lower} of the ${candidates.length} roles ${names()[1 - me]} could hold.`;
  }

  function waitingText() {
    const view = snapshot.view;
    const acting = (snapshot.to_act || view.to_act || [])[0];
    if (acting === undefined) return "";
    const name = acting === me ? "You" : names()[acting];
    return {
      turn: `${name} ${acting === me ? "are" : "is"} taking a turn…`,
      respond: `${name} ${acting === me ? "are" : "is"} answering a claim of ${plural(view.claim, "coin")}…`,
      collect: `${name} won the challenge and ${acting === me ? "are" : "is"} choosing where the coins come from…`,
      draw: `The deck is empty: ${name} ${acting === me ? "are" : "is"} choosing a revelatory card…`,
      accuse_chance: `${name} may accuse now…`,
      keep: `${name} ${acting === me ? "are" : "is"} choosing which card to keep…`,
    }[view.step] || "";
  }

  function resultPanel() {
    const view = snapshot.view;
    const result = view.result || snapshot.result;
    const winners = (result && result.winners) || [];
    const head = winners.length !== 1 ? "A tie" : winners[0] === me ? "You win!" : `${names()[winners[0]]} wins`;
    return el("section", { class: "em-actions em-over", dataset: { verdict: "" } },
      el("h3", {}, head),
      el("p", {}, result ? withNames(result.reason, names()) : ""),
      view.culprit !== null ? el("p", {}, `The culprit was the ${roleName(view.culprit)} (${view.culprit}).`) : null);
  }

  /** On a phone the actions are above the notebook, off the screen: bring them back to accuse or guess. */
  function showActions() {
    const bar = root.querySelector(".em-actions");
    if (picked === null || !bar || !legal().length || bar.getBoundingClientRect().bottom > 0) return;
    bar.scrollIntoView({ block: "nearest" });
  }

  // --- the notebook ---------------------------------------------------------------------------------
  function notebook() {
    const view = snapshot.view;
    const reasons = new Map();
    const note = (n, why) => { if (n !== null && n !== undefined && !reasons.has(n)) reasons.set(n, why); };
    if (me !== null) {
      note(view.you.role, "your role");
      note(view.you.drawn, "your drawn card");
      note(view.opponent.role, `${names()[1 - me]}'s role`);
      note(view.opponent.drawn, `${names()[1 - me]}'s drawn card`);
    }
    for (const slot of view.revelatory) {
      if (slot.card !== null) note(slot.card, slot.present ? `revelatory ${slot.name}` : `was revelatory ${slot.name}`);
    }
    for (const n of view.pile) note(n, "discard pile");
    const suspects = new Set(view.suspects || view.roles.map((r) => r.number).filter((n) => !view.pile.includes(n)));
    if (view.culprit !== null) picked = view.over ? null : view.culprit;  // nothing left to choose
    else if (picked !== null && !suspects.has(picked)) picked = null;
    if (picked === null && suspects.size === 1) picked = [...suspects][0];
    const ruledOut = me !== null ? view.opponent.ruled_out : [];
    const left = view.culprit !== null ? 1 : suspects.size;
    return el("aside", { class: "em-notebook", "aria-label": "Notebook" },
      el("h3", {}, "Notebook"),
      el("p", { class: "muted small" }, view.culprit !== null
        ? `The culprit is the ${roleName(view.culprit)}.`
        : me === null ? `What everyone knows: the roles on the discard pile are crossed off (${plural(left, "role")} left).`
          : `${plural(left, "suspect")} left: every role you have seen is crossed off. Pick one to accuse or guess.`),
      el("ol", { class: "em-suspects" }, view.roles.map((role) => {
        const n = role.number;
        const isCulprit = view.culprit === n;
        const cleared = view.culprit !== null ? !isCulprit : !suspects.has(n);
        const why = isCulprit ? "the culprit" : reasons.get(n) || (view.culprit !== null ? "not the culprit"
          : ruledOut.includes(n) ? `suspect · not ${names()[1 - me]}'s role` : "suspect");
        return el("li", {},
          explain(el("button", {
            type: "button",
            class: ["em-suspect", cleared && "em-cleared", isCulprit && "em-is-culprit", picked === n && "em-picked"],
            "aria-pressed": picked === n ? "true" : "false",
            dataset: { role: n },
            onclick: () => { picked = picked === n ? null : n; draw(); showActions(); },
          },
          el("span", { class: "em-suspect-number" }, String(n)),
          el("span", { class: "em-suspect-name" }, role.name),
          el("span", { class: "em-suspect-why" }, why)),
          `${role.name} (${n}): ${role.line} ${cleared ? `Not the culprit (${why}).` : "Could be the culprit: pick it to accuse it or to guess it."}`));
      })),
      me === null || touchScreen() ? null : el("p", { class: "muted small em-keys" }, "Keys: N next suspect, X accuse, G guess, Esc clear."));
  }

  // --- drawing ---------------------------------------------------------------------------------------
  function draw() {
    if (!snapshot) return;
    const view = snapshot.view;
    const seats = me === null ? [1, 0] : [1 - me, me];
    // keep only picks that are still possible
    revealPick = revealPick.filter((i) => view.revelatory[i] && view.revelatory[i].present);
    const note = notebook();
    const mine = me !== null && (snapshot.to_act || []).includes(me) && legal().length > 0;
    const stepName = gameOver(snapshot) ? "over" : mine ? view.step : "waiting";
    const bar = actions();
    bar.dataset.controls = "";  // the frame brings it on screen when my turn starts
    replace(root, el("div", { class: "em-board", dataset: { step: stepName, main: view.main_done ? "done" : "open" } },
      el("div", { class: "em-table" },
        challengeBanner(),
        playerZone(seats[0]),
        centre(),
        playerZone(seats[1]),
        bar),
      note));
  }

  return renderer(root, (next) => {
    snapshot = next;
    draw();
  }, unbind);
}
