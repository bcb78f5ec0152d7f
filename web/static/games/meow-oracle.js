// Meow Oracle: every player's 3 × 3 area (face-down cards are hidden from everyone,
// the owner too), the revealed cards to hand out and the cards each player must place.
// Views and actions: docs/rules/meow-oracle.md.
//
// Taps: on your turn, a face-down cell of your area reveals it; a revealed card, then a
// player, hands it out; a card you received, then a cell of your area, places it.

const COLOUR_MARK = { red: "R", blue: "B", green: "G", wild: "★" };

function cardName(ctx, card) {
  const key = `meow-oracle.colour.${card.color}`;
  return `${ctx.t(key) === key ? card.color : ctx.t(key)} ${card.n}`;
}

/** A face-up card: its colour (as a colour and as a letter) and its number; a screen reader
 * reads its full name ("Red 3"), and a tappable one whether it is the one chosen. */
function cardFace(ctx, card, attrs = {}, tag = "span") {
  const spoken = tag === "span" ? { role: "img" } : { "aria-pressed": String(ctx.picker.isChosen("card", card.id)) };
  return ctx.el(tag, { class: `card mo-${card.color}`, title: cardName(ctx, card), "aria-label": cardName(ctx, card), ...spoken, ...attrs },
    ctx.el("span", { class: "mark" }, COLOUR_MARK[card.color] ?? card.color.slice(0, 1).toUpperCase()),
    ctx.el("span", { class: "number" }, String(card.n)));
}

function tapButton(ctx, field, value, content, extra = {}) {
  const { picker } = ctx;
  return ctx.el("button", {
    type: "button",
    class: ["tap", picker.consistent(field, value) ? "fits" : "", picker.isChosen(field, value) ? "chosen" : "", extra.class || ""].join(" "),
    "data-pick": field,
    "aria-pressed": String(picker.isChosen(field, value)),
    "data-field": field,
    "data-value": JSON.stringify(value),
    onclick: () => picker.choose(field, value),
    ...Object.fromEntries(Object.entries(extra).filter(([k]) => k !== "class")),
  }, content);
}

/** A seat's area; on your own, the cells you may reveal or fill are buttons. */
function area(ctx, seat) {
  const { el, view, picker } = ctx;
  const own = seat === ctx.seat;
  const cells = [];
  view.public.areas[seat].forEach((row, r) => row.forEach((cell, c) => {
    const at = [r, c];
    const tappable = own && picker && picker.possible("cell", at);
    let content;
    if (cell === null) content = el("span", { class: "card empty" }, "");
    else if (cell.face === "down") content = el("span", { class: "card down" }, "?");
    else content = cardFace(ctx, cell);
    // ✦ marks a card revealed or placed since this phone's own last move (the others' last moves).
    const before = ctx.since && ctx.since.areas?.[seat]?.[r]?.[c];
    const fresh = ctx.since && cell !== null && JSON.stringify(before ?? null) !== JSON.stringify(cell);
    const classes = fresh ? "cell last" : "cell";
    // Read aloud as what lies there and where: "Face-down card, row 1, column 2".
    const spoken = ctx.t("meow-oracle.cell", { position: ctx.t("cell.row_column", { row: r + 1, column: c + 1 }),
      what: cell === null ? ctx.t("meow-oracle.empty_cell") : cell.face === "down" ? ctx.t("meow-oracle.face_down") : cardName(ctx, cell) });
    cells.push(tappable
      ? tapButton(ctx, "cell", at, content, { class: classes, "data-cell": JSON.stringify(at), "aria-label": spoken })
      : el("span", { class: classes, role: "img", "aria-label": spoken, "data-testid": fresh ? "last-move" : null }, content));
  }));
  return el("figure", { class: own ? "mo-area own" : "mo-area", "data-seat": seat, "data-bar-after": "" },
    el("figcaption", {}, own ? ctx.t("meow-oracle.your_area") : ctx.seatName(seat),
      " · ", ctx.t("meow-oracle.aside", { n: view.public.aside[seat] }),
      " · ", ctx.t("meow-oracle.wins", { n: view.public.wins[seat] })),
    el("div", { class: "mo-grid" }, cells));
}

/** The cards revealed this turn (the turn's player hands them out). */
function moving(ctx) {
  const { el, view, picker } = ctx;
  const p = view.public;
  const parts = [];
  if (p.revealed.length) {
    parts.push(el("section", { class: "mo-revealed", "data-bar-after": "" },
      el("h2", {}, ctx.t("meow-oracle.revealed", { name: ctx.seatName(p.turn) })),
      el("div", { class: "hand" }, p.revealed.map((card) => picker && picker.possible("card", card.id)
        ? cardFace(ctx, card, { "data-card": card.id, class: `card mo-${card.color} tap ${picker.isChosen("card", card.id) ? "chosen" : ""}`,
          "data-pick": "card", "data-field": "card", "data-value": JSON.stringify(card.id),
          onclick: () => picker.choose("card", card.id), type: "button" }, "button")
        : cardFace(ctx, card)))));
  }
  return parts;
}

/** The cards each seat received and has not placed yet: `own` true, this phone's (drawn
 * above the areas, next to the cells they go to); false, the other seats' (below them). */
function toPlace(ctx, own) {
  const { el, view, picker } = ctx;
  const parts = [];
  view.public.to_place.forEach((cards, seat) => {
    if (!cards.length || (seat === ctx.seat) !== own) return;
    parts.push(el("section", { class: "mo-to-place", "data-bar-after": "" },
      el("h2", {}, own ? ctx.t("meow-oracle.to_place_you") : ctx.t("meow-oracle.to_place", { name: ctx.seatName(seat) })),
      el("div", { class: "hand" }, cards.map((card) => own && picker && picker.possible("card", card.id)
        ? cardFace(ctx, card, { "data-card": card.id, class: `card mo-${card.color} tap ${picker.isChosen("card", card.id) ? "chosen" : ""}`,
          "data-pick": "card", "data-field": "card", "data-value": JSON.stringify(card.id),
          onclick: () => picker.choose("card", card.id), type: "button" }, "button")
        : cardFace(ctx, card)))));
  });
  return parts;
}

function history(ctx) {
  const { el, view } = ctx;
  return view.public.history.map((record) => el("details", { class: "mo-history" },
    el("summary", {}, ctx.t("meow-oracle.round_points", { round: record.round })),
    el("ul", {}, record.points.map((points, seat) =>
      el("li", {}, `${ctx.seatName(seat)}: ${points.total ?? JSON.stringify(points)}`)))));
}

export default {
  render(ctx) {
    const seats = [...Array(ctx.view.players).keys()];
    const order = ctx.seat === null ? seats : [ctx.seat, ...seats.filter((s) => s !== ctx.seat)];
    // What this phone acts on comes first (the revealed cards, its own cards to place, its own
    // area): on a 360 x 640 phone it all fits the first screen with the action bar.
    return [moving(ctx), toPlace(ctx, true), ctx.el("div", { class: "mo-areas" }, order.map((seat) =>
      (seat === ctx.seat ? [area(ctx, seat), ctx.el("div", { "data-actions-slot": "" })] : area(ctx, seat)))),
      toPlace(ctx, false), history(ctx)];
  },

  status(ctx) {
    const p = ctx.view.public;
    const parts = [ctx.t("status.round_of", { round: p.round, rounds: p.rounds }), this.stepLabel(ctx, p.step)];
    if (p.step === "reveal") parts.push(ctx.t("meow-oracle.reveal_left", { n: p.reveal_left }));
    return parts.join(" · ");
  },

  seatInfo(ctx, seat) {
    const p = ctx.view.public;
    const bits = [ctx.t("meow-oracle.wins", { n: p.wins[seat] })];
    if (p.turn === seat && p.step !== "over") bits.push(ctx.t("meow-oracle.their_turn"));
    if (p.step === "place") bits.push(p.to_place[seat].length ? ctx.t("seat.choosing") : ctx.t("seat.chosen"));
    return ctx.el("span", { class: "seat-info" }, bits.join(" · "));
  },

  drawnFields(ctx, field) {
    return field === "card" || field === "cell";
  },

  prompt(ctx, field) {
    const step = ctx.view.public.step;
    if (field === "cell") return ctx.t(step === "reveal" ? "meow-oracle.prompt.reveal" : "meow-oracle.prompt.place");
    if (field === "card") return ctx.t(step === "give" ? "meow-oracle.prompt.give_card" : "meow-oracle.prompt.place_card");
    if (field === "to") return ctx.t("meow-oracle.prompt.to");
    if (field === "shape") return ctx.t("meow-oracle.prompt.reveal");
    return undefined;
  },

  shapeLabel(ctx, shape) {
    if (shape === "reveal|from") return ctx.t("meow-oracle.from_aside", { n: ctx.view.public.aside[ctx.seat] });
    if (shape === "reveal|cell") return ctx.t("meow-oracle.from_area");
    return this.typeLabel(ctx, shape.split("|")[0]);
  },

  /** A player to hand the card to; the button names the card too, as its label is the move. */
  label(ctx, field, value) {
    if (field !== "to") return undefined;
    const who = value === ctx.seat ? ctx.t("meow-oracle.to_yourself") : ctx.seatName(value);
    const cards = new Set(ctx.picker.matching({ ...ctx.picker.chosen, to: value }).map((a) => a.card));
    const card = cards.size === 1 ? ctx.view.public.revealed.find((c) => c.id === [...cards][0]) : null;
    return card ? ctx.t("meow-oracle.give_to", { card: cardName(ctx, card), name: who }) : who;
  },

  /** The confirm button names the move: which card, to whom, where. */
  describe(ctx, action) {
    const p = ctx.view.public;
    const card = [...p.revealed, ...p.to_place.flat()].find((c) => c.id === action.card);
    const cell = action.cell ? ctx.t("cell.row_column", { row: action.cell[0] + 1, column: action.cell[1] + 1 }) : "";
    if (action.type === "reveal" && action.from === "aside") return ctx.t("meow-oracle.from_aside", { n: p.aside[ctx.seat] });
    if (action.type === "reveal") return ctx.t("meow-oracle.do.reveal", { cell });
    if (action.type === "give" && card) return this.label(ctx, "to", action.to);
    if (action.type === "place" && card) return ctx.t("meow-oracle.do.place", { card: cardName(ctx, card), cell });
    return this.typeLabel(ctx, action.type);
  },
};
