// SWAP 5: the 5 × 5 board (columns A–E, rows 1–5), each piece drawn in its colour AND
// with its letter; tap one of your pieces, then a highlighted neighbour (a piece: swap,
// an empty cell: move); or play a trump card. Views and actions: docs/rules/swap5.md.

const COLUMNS = ["A", "B", "C", "D", "E"];
const COLOUR_NAMES = { R: "red", G: "green", Y: "yellow", B: "blue" };

/** A trump card as people say it: "row-2-3" -> "Rows 2 ↔ 3", "col-A-B" -> "Columns A ↔ B". */
function trumpName(ctx, card) {
  const [kind, a, b] = card.split("-");
  return ctx.t(kind === "row" ? "swap5.trump.rows" : "swap5.trump.columns", { a, b });
}

function colourName(ctx, letter) {
  return ctx.t(`swap5.colour.${COLOUR_NAMES[letter] ?? letter}`);
}

/** Why a piece cannot be tapped now: not this phone's turn, or not one of its colours. */
function whyNotPiece(ctx, piece) {
  const { view } = ctx;
  if (!view.actions.length) return ctx.t("why.not_your_turn");
  const colours = view.private.colours.map((c) => colourName(ctx, c)).join(ctx.t("list.separator"));
  return ctx.t("swap5.why.colour", { piece: colourName(ctx, piece), colours });
}

/** A cell as a screen reader says it: "A1, red piece", "B2, empty cell". */
function cellName(ctx, cell, piece) {
  const what = piece === "." ? ctx.t("swap5.empty") : ctx.t("swap5.piece", { colour: colourName(ctx, piece) });
  return ctx.t("swap5.cell", { cell, what });
}

function board(ctx) {
  const { el, view, picker } = ctx;
  const rows = view.public.board;
  const last = view.public.last_move;
  const grid = el("div", { class: "s5-board", "data-bar-after": "" }, el("span", { class: "corner" }),
    COLUMNS.map((c) => el("span", { class: "axis" }, c)));
  rows.forEach((row, r) => {
    grid.append(el("span", { class: "axis" }, String(r + 1)));
    [...row].forEach((piece, c) => {
      const cell = `${COLUMNS[c]}${r + 1}`;
      const content = piece === "." ? "" : piece;
      const classes = ["s5-cell", piece === "." ? "empty" : `s5-${COLOUR_NAMES[piece]}`];
      if (last && JSON.stringify(last).includes(`"${cell}"`)) classes.push("last");
      const asFrom = picker && picker.possible("from", cell);
      const asTo = picker && "from" in picker.chosen && picker.consistent("to", cell);
      if (asFrom || asTo) {
        const field = asTo ? "to" : "from";
        const chosen = picker.isChosen("from", cell) || picker.isChosen("to", cell);
        if (chosen) classes.push("chosen"); // "to": a hint's target
        else classes.push(asTo ? "fits" : "mine");
        grid.append(el("button", {
          type: "button", class: classes.join(" "), "data-pick": "cell", "data-cell": cell,
          "data-field": field, "data-value": JSON.stringify(cell),
          "aria-label": cellName(ctx, cell, piece), "aria-pressed": String(chosen),
          onclick: () => picker.choose(field, cell),
        }, content));
      } else if (piece !== "." && view.private) {
        // Another colour's piece: a tap says why it does not move.
        grid.append(el("button", {
          type: "button", class: classes.join(" "), "data-pick": "cell", "data-cell": cell,
          "aria-label": cellName(ctx, cell, piece), "aria-disabled": "true",
          onclick: () => ctx.explain(whyNotPiece(ctx, piece)),
        }, content));
      } else {
        const name = cellName(ctx, cell, piece);
        grid.append(el("span", { class: classes.join(" "), "data-cell": cell, role: "img", "aria-label": name, title: name }, content));
      }
    });
  });
  return grid;
}

function trumps(ctx) {
  const { el, view, picker } = ctx;
  const p = view.public;
  const mine = view.private;
  return [
    mine ? el("section", { class: "private s5-trumps", "data-bar-after": "" },
      el("h2", {}, ctx.t("swap5.your_colours", { colours: mine.colours.map((c) => colourName(ctx, c)).join(ctx.t("list.separator")) })),
      el("div", { class: "hand" }, mine.hand.map((card) => picker && picker.possible("card", card)
        ? el("button", { type: "button", class: `trump ${picker.isChosen("card", card) ? "chosen" : ""}`, "data-pick": "card", "data-card": card,
          "aria-pressed": String(picker.isChosen("card", card)), "data-field": "card", "data-value": JSON.stringify(card), onclick: () => picker.choose("card", card) }, trumpName(ctx, card))
        : el("button", { type: "button", class: "trump idle", "data-pick": "card", "data-card": card, "aria-disabled": "true",
          onclick: () => ctx.explain(view.actions.length ? ctx.t("swap5.why.trump") : ctx.t("why.not_your_turn")) },
        trumpName(ctx, card))))) : null,
    // The action bar (prompt, Hint) goes here, above the trump cards played, which grow all game:
    // at 360 x 640 they pushed it off the first screen.
    el("div", { "data-actions-slot": "" }),
    p.trumps_played.length ? el("p", { class: "s5-played", "data-testid": "trumps-played" }, ctx.t("swap5.played"), " ",
      p.trumps_played.map((entry) => `${trumpName(ctx, entry.card)} (${ctx.seatName(entry.seat)})`).join(ctx.t("list.separator"))) : null,
  ];
}

export default {
  render(ctx) {
    return [board(ctx), trumps(ctx)];
  },

  status(ctx) {
    const p = ctx.view.public;
    const parts = [this.stepLabel(ctx, p.step)];
    if (ctx.view.options.board === "back") parts.push(ctx.t("swap5.back_board"));
    if (p.final_lap) parts.push(ctx.t("swap5.final_lap"));
    return parts.join(" · ");
  },

  seatInfo(ctx, seat) {
    const p = ctx.view.public;
    const colours = (p.colours[String(seat)] || []).map((c) => `${c}`).join("");
    const bits = [colours, ctx.t("swap5.score", { n: p.scores[String(seat)] }),
      ctx.t("swap5.trumps", { n: p.trumps_in_hand[String(seat)] ?? p.trumps_in_hand[seat] })];
    return ctx.el("span", { class: "seat-info" }, bits.join(" · "));
  },

  /** Pieces, targets and trump cards are tapped on the drawing; the target decides
   * between swap and move, so the type is never a button. */
  drawnFields(ctx, field) {
    return field === "type" || field === "from" || field === "to" || field === "card";
  },

  prompt(ctx, field) {
    if (field === "to" || (field === "type" && "from" in ctx.picker.chosen)) return ctx.t("swap5.prompt.to");
    if (field === "type" || field === "from") return ctx.t("swap5.prompt.from");
    if (field === "card") return ctx.t("swap5.prompt.card");
    return undefined;
  },

  label(ctx, field, value) {
    if (field === "card") return trumpName(ctx, value);
    return undefined;
  },

  /** A trump card moves a whole row or column: it asks to confirm. */
  confirm(ctx, action) {
    return action.type === "trump";
  },

  describe(ctx, action) {
    if (action.type === "trump") return ctx.t("swap5.do.trump", { card: trumpName(ctx, action.card) });
    return ctx.t(`swap5.do.${action.type}`, { from: action.from, to: action.to });
  },
};
