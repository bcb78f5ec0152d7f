// Lion Square: the floating 3 × 3 field seen from your own side, your hand, and taps to
// pick a card, a cell or a line to take. Views and actions: docs/rules/lion-square.md.
//
// Field cells are the engine's relative [row, column] (rows grow to the south, columns
// to the east). A phone turns the field so that its own side is at the bottom, as the
// player sees the real cards; the shared screen shows it from the south.

const SPECIES_CLASS = (card) => `sp-${card.split("-")[0]}`;

/** A card's short face: a species mark and the number ("Li 3"), the gazelle "G". */
function face(ctx, card) {
  const [species, number] = card.split("-");
  if (species === "gazelle") return ctx.t("lion-square.gazelle.short");
  const key = `lion-square.species.${species}.short`;
  const mark = ctx.t(key) === key ? species.slice(0, 2) : ctx.t(key);
  return `${mark} ${number}`;
}

/** A card as people say it: "Lion 3", "Gazelle". */
function cardName(ctx, card) {
  const [species, number] = card.split("-");
  if (species === "gazelle") return ctx.t("lion-square.gazelle");
  const key = `lion-square.species.${species}`;
  return `${ctx.t(key) === key ? species : ctx.t(key)} ${number}`;
}

function cardNode(ctx, card, extra = {}) {
  return ctx.el("span", { class: `card ${SPECIES_CLASS(card)}`, title: cardName(ctx, card), ...extra }, face(ctx, card));
}

/**
 * How the field is turned for a side at the bottom: engine [r, c] -> display [row, col],
 * and which engine line a display row or column is (for the take handles).
 */
const TURNS = {
  S: { at: ([r, c]) => [r, c], row: (d) => ["row", d], column: (d) => ["column", d] },
  N: { at: ([r, c]) => [-r, -c], row: (d) => ["row", -d], column: (d) => ["column", -d] },
  W: { at: ([r, c]) => [-c, r], row: (d) => ["column", -d], column: (d) => ["row", d] },
  E: { at: ([r, c]) => [c, -r], row: (d) => ["column", d], column: (d) => ["row", -d] },
};

function board(ctx) {
  const { el, view, picker } = ctx;
  const side = (view.private && view.private.side) || "S";
  const turn = TURNS[side];
  const cards = new Map(view.public.field.map(({ cell, card }) => [JSON.stringify(turn.at(cell)), { cell, card }]));
  const open = new Map();
  for (const action of view.actions) {
    if (action.cell) open.set(JSON.stringify(turn.at(action.cell)), action.cell);
  }
  const spots = [...cards.keys(), ...open.keys()].map((key) => JSON.parse(key));
  if (!spots.length) return el("p", { class: "empty-field" }, ctx.t("lion-square.field.empty"));
  const rows = spots.map(([r]) => r);
  const cols = spots.map(([, c]) => c);
  const top = Math.min(...rows), bottom = Math.max(...rows), left = Math.min(...cols), right = Math.max(...cols);
  const grid = el("div", { class: "ls-field", style: `--cols: ${right - left + 2}`, "data-bar-after": "" });

  // Screen readers get what the eye sees: each card by its full name, each free cell and line
  // by its place on the drawing (rows from the top, columns from the left, as this phone shows
  // the field) and by the cards beside it or in it; chosen and greyed-out states as ARIA states.
  const position = (r, c) => ctx.t("cell.row_column", { row: r - top + 1, column: c - left + 1 });
  const cardAt = (r, c) => cards.get(JSON.stringify([r, c]));
  const lineCards = (kind, d) => (kind === "row"
    ? [...Array(right - left + 1).keys()].map((i) => cardAt(d, left + i))
    : [...Array(bottom - top + 1).keys()].map((i) => cardAt(top + i, d)))
    .filter(Boolean).map((here) => cardName(ctx, here.card)).join(ctx.t("list.separator"));
  /** A free cell by the first card beside it: "left of Lion 3". */
  const beside = (r, c) => {
    for (const [dr, dc, where] of [[0, 1, "left"], [0, -1, "right"], [1, 0, "above"], [-1, 0, "below"]]) {
      const next = cardAt(r + dr, c + dc);
      if (next) return ctx.t(`lion-square.beside.${where}`, { card: cardName(ctx, next.card) });
    }
    return ""; // not reached: every free cell on offer touches a card
  };

  /** A take handle: `shown` is the drawing's row or column ("row", d), `line` the engine's. */
  const handle = ([shownKind, d], [kind, value], label) => {
    const has = view.actions.some((a) => a.type === "take" && a[kind] === value);
    if (!has) return el("span", { class: "handle none" });
    const chosen = picker && picker.isChosen(kind, value);
    return el("button", {
      class: chosen ? "handle chosen" : "handle",
      type: "button",
      "data-pick": "take",
      "data-take": `${kind}-${value}`,
      "aria-label": ctx.t(`lion-square.take_${shownKind}`, { n: d - (shownKind === "row" ? top : left) + 1, cards: lineCards(shownKind, d) }),
      "aria-pressed": String(Boolean(chosen)),
      "data-field": kind,
      "data-value": JSON.stringify(value),
      onclick: () => picker.choose(kind, value),
    }, label);
  };
  grid.append(el("span", { class: "corner" }));
  for (let c = left; c <= right; c += 1) grid.append(handle(["column", c], turn.column(c), "▼"));
  for (let r = top; r <= bottom; r += 1) {
    grid.append(handle(["row", r], turn.row(r), "▶"));
    for (let c = left; c <= right; c += 1) {
      const key = JSON.stringify([r, c]);
      const here = cards.get(key);
      const inLine = picker && here && Object.entries(picker.chosen).some(([kind, value]) =>
        (kind === "row" && here.cell[0] === value) || (kind === "column" && here.cell[1] === value));
      if (here) {
        // ✦ marks a card put down since this phone's own last move (the others' last moves).
        const fresh = ctx.since && !(ctx.since.field || []).some((old) => old.card === here.card && JSON.stringify(old.cell) === JSON.stringify(here.cell));
        grid.append(el("span", { class: ["cell", inLine ? "taking" : "", fresh ? "last" : ""].join(" ").trim(),
          role: "img", "aria-label": ctx.t("lion-square.field_card", { card: cardName(ctx, here.card), position: position(r, c) }),
          "data-testid": fresh ? "last-move" : null }, cardNode(ctx, here.card, { "data-card": here.card })));
      } else if (open.has(key)) {
        const cell = open.get(key);
        const fits = picker.consistent("cell", cell);
        const chosen = picker.isChosen("cell", cell);
        grid.append(el("button", {
          class: ["cell", "open", fits ? "fits" : "", chosen ? "chosen" : ""].join(" "),
          type: "button",
          "data-pick": "cell",
          "data-cell": JSON.stringify(cell),
          // A round's first card goes on an empty field: the middle of the table.
          "aria-label": cards.size ? ctx.t("lion-square.open_cell", { position: position(r, c), beside: beside(r, c) })
            : ctx.t("lion-square.first_cell"),
          "aria-pressed": String(chosen),
          // Not where the chosen card may go (it is drawn without its +): a tap only changes the choice.
          "aria-disabled": fits ? null : "true",
          "data-field": "cell",
          "data-value": JSON.stringify(cell),
          onclick: () => picker.choose("cell", cell),
        }, fits ? "+" : ""));
      } else {
        grid.append(el("span", { class: "cell blank" }));
      }
    }
  }
  return el("figure", { class: "ls-board" }, grid,
    el("figcaption", {}, ctx.t("lion-square.seen_from", { side: ctx.t(`lion-square.side.${side}`) })));
}

/**
 * Why a card of the hand cannot be used now, from what the page knows (the step, the
 * colours on the field): rule [3] when its colour is not on the field, else rule [4]
 * (no free cell beside a card of its colour fits).
 */
function whyNot(ctx, card) {
  const { view } = ctx;
  if (!view.actions.length) return ctx.t("why.not_your_turn");
  const step = view.public.step;
  if (step === "pass") return ctx.t("lion-square.why.pass");
  if (step === "turn" && !view.actions.some((a) => a.type === "play")) return ctx.t("lion-square.why.must_take");
  if (step === "turn") {
    const species = card.split("-")[0];
    const onField = new Set(view.public.field.map(({ card: c }) => c.split("-")[0]));
    return ctx.t(onField.has(species) ? "lion-square.why.no_cell" : "lion-square.why.colour");
  }
  return ctx.t("lion-square.why.not_now");
}

function hand(ctx) {
  const { el, view, picker } = ctx;
  const mine = view.private;
  const cards = mine.hand.map((card) => {
    const usable = picker.possible("card", card);
    return el("button", {
      class: ["card", SPECIES_CLASS(card), usable ? "" : "idle", picker.consistent("card", card) ? "fits" : "",
        picker.isChosen("card", card) ? "chosen" : ""].join(" ").replace(/\s+/g, " ").trim(),
      type: "button",
      "data-pick": "card",
      "data-card": card,
      "aria-label": cardName(ctx, card),
      // Greyed out: a tap only says why it cannot be used now.
      "aria-disabled": usable ? null : "true",
      "aria-pressed": usable ? String(picker.isChosen("card", card)) : null,
      "data-field": usable ? "card" : null,
      "data-value": usable ? JSON.stringify(card) : null,
      title: cardName(ctx, card),
      onclick: () => (usable ? picker.choose("card", card) : ctx.explain(`${cardName(ctx, card)}: ${whyNot(ctx, card)}`)),
    }, face(ctx, card));
  });
  return el("section", { class: "private ls-hand", "data-bar-after": "" },
    el("h2", {}, ctx.t("lion-square.your_hand"), " · ", ctx.t("lion-square.your_herd", { herd: mine.herd })),
    el("div", { class: "hand" }, cards),
    mine.passing ? el("p", {}, ctx.t("lion-square.passing", { card: cardName(ctx, mine.passing) })) : null);
}

export default {
  render(ctx) {
    return [board(ctx), ctx.view.private ? hand(ctx) : null];
  },

  status(ctx) {
    const p = ctx.view.public;
    // The last screen says why the game ended: a herd at 0 can end it before the last round.
    if (p.step === "over") {
      const why = ctx.view.result && ctx.view.result.lions_win ? "lions" : p.round < p.rounds ? "herd" : "rounds";
      return ctx.t(`lion-square.over.${why}`, { round: p.round, rounds: p.rounds });
    }
    const parts = [ctx.t("status.round_of", { round: p.round, rounds: p.rounds }), this.stepLabel(ctx, p.step)];
    if (p.step === "pass") parts.push(ctx.t("lion-square.adjustment", { n: p.adjustment }));
    parts.push(ctx.t("lion-square.pile", { n: p.pile }));
    return parts.join(" · ");
  },

  seatInfo(ctx, seat) {
    const p = ctx.view.public;
    const bits = [
      ctx.t(`lion-square.side.${p.sides[seat]}`),
      ctx.t("lion-square.hand_size", { n: p.hand_sizes[seat] }),
      ctx.t("lion-square.taken", { n: p.taken[seat] }),
    ];
    if (p.chosen) bits.push(p.chosen[seat] ? ctx.t("seat.chosen") : ctx.t("seat.choosing"));
    return ctx.el("span", { class: "seat-info" }, bits.join(" · "));
  },

  /** Cards, cells and the take handles are tapped on the drawing, so the type is never a button. */
  drawnFields(ctx, field) {
    return field === "card" || field === "cell" || field === "type" || field === "shape";
  },

  prompt(ctx, field) {
    const step = ctx.view.public.step;
    if (field === "card") return ctx.t(step === "pass" ? "lion-square.prompt.pass" : "lion-square.prompt.card");
    if (field === "cell") return ctx.t("lion-square.prompt.cell");
    if (field === "type") return ctx.t("lion-square.prompt.type");
    if (field === "shape") return ctx.t("lion-square.prompt.shape"); // a forced take: row or column
    return undefined;
  },

  label(ctx, field, value) {
    if (field === "card") return cardName(ctx, value);
    if (field === "row" || field === "column") return ctx.t("lion-square.line_marked");
    return undefined;
  },

  /** Taking a line ends your plays this turn: it asks to confirm. Other choices go at once. */
  confirm(ctx, action) {
    return action.type === "take";
  },

  describe(ctx, action) {
    const left = ctx.seatName((ctx.seat + 1) % ctx.view.players);
    if (action.type === "pass") return ctx.t("lion-square.do.pass", { card: cardName(ctx, action.card), name: left });
    if (action.type === "take") {
      const n = ctx.view.public.field.filter(({ cell }) => ("row" in action ? cell[0] === action.row : cell[1] === action.column)).length;
      return ctx.t("lion-square.do.take", { n });
    }
    return ctx.t(`lion-square.do.${action.type}`, { card: cardName(ctx, action.card) });
  },
};
