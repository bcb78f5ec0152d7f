// Meow Oracle scorer: the score sheet of a Meow Oracle game played with the real cards.
// First someone names the start player; at each round end every player enters their own
// 3 × 3 area card by card (tap a colour, then a number: the card fills the next cell in
// reading order; tap a filled cell to clear it) or types their total. Everybody's entries
// are public (every card lies face up on the table). Views and actions: docs/trackers.md.
//
// Every button is one of the engine's listed actions, chosen through the picker: a page
// can never send anything else (a card someone already entered is not offered). Only the
// entry that completes the table, and naming the start player, ask to confirm.

const COLOURS = ["red", "blue", "green", "wild"];
const COLOUR_MARK = { red: "R", blue: "B", green: "G", wild: "★" };

/** The listed actions of `type`, in the engine's order. */
const listed = (ctx, type) => ctx.view.actions.filter((action) => action.type === type);

const pending = (ctx, action) => JSON.stringify(ctx.picker.action()) === JSON.stringify(action);

function colourName(ctx, colour) {
  return ctx.t(`meow-oracle.colour.${colour}`);
}

/** A card face: its colour as a colour AND as a letter (★ for the grey wild cards), and its number. */
function cardFace(ctx, card) {
  return ctx.el("span", { class: `card mo-${card.color}`, title: `${colourName(ctx, card.color)} ${card.n}` },
    ctx.el("span", { class: "mark" }, COLOUR_MARK[card.color]),
    ctx.el("span", { class: "number" }, String(card.n)));
}

/** A seat's area as entered; on your own, a filled cell you may clear is a button, and the
 * cell the next card fills is marked. */
function area(ctx, seat, big) {
  const { el, view } = ctx;
  const p = view.public;
  const next = p.next_cell[seat];
  const cells = [];
  p.areas[seat].forEach((row, r) => row.forEach((card, c) => {
    const clear = big ? listed(ctx, "clear").find((a) => a.row === r && a.col === c) : null;
    const isNext = next && next[0] === r && next[1] === c && p.typed[seat] === null;
    const content = card ? cardFace(ctx, card) : el("span", { class: isNext ? "card empty tr-next" : "card empty" }, isNext ? "▸" : "");
    const label = ctx.t("cell.row_column", { row: r + 1, column: c + 1 });
    cells.push(clear
      ? el("button", { type: "button", class: pending(ctx, clear) ? "tap cell chosen" : "tap cell", "data-cell": JSON.stringify([r, c]),
        "data-action": JSON.stringify(clear), "aria-label": ctx.t("meow-oracle-scorer.clear_cell", { cell: label }), onclick: () => ctx.picker.chooseAll(clear) }, content)
      : el("span", { class: "cell", "data-cell": JSON.stringify([r, c]), "aria-label": label }, content));
  }));
  const typed = p.typed[seat];
  return el("figure", { class: big ? "mo-area own" : "mo-area", "data-seat": seat },
    el("figcaption", {}, seat === ctx.seat ? ctx.t("meow-oracle.your_area") : ctx.seatName(seat),
      p.step === "entering" ? [" · ", p.entered[seat] ? ctx.t("meow-oracle-scorer.has_entered") : ctx.t("meow-oracle-scorer.has_not_entered")] : null),
    typed !== null
      ? el("p", { class: big ? "tr-big" : "tr-typed", "data-testid": big ? "typed-total" : null }, ctx.t("meow-oracle-scorer.typed", { total: typed }))
      : el("div", { class: "mo-grid" }, cells));
}

/** The card form: a colour, then one of the numbers still free in it. */
function cardForm(ctx) {
  const { el, t, picker } = ctx;
  const cards = listed(ctx, "card");
  if (!cards.length) return null;
  const colour = picker.chosen.type === "card" ? picker.chosen.color : null;
  return el("section", { class: "tr-form", "data-testid": "card-form" },
    el("h3", {}, t("meow-oracle-scorer.card_title")),
    el("p", { class: "tr-hint" }, t("meow-oracle-scorer.card_explain")),
    el("div", { class: "tr-colours", role: "group", "aria-label": t("field.color") }, COLOURS.map((c) => {
      const has = cards.some((a) => a.color === c);
      return el("button", {
        type: "button", class: `card mo-${c} tap ${colour === c ? "chosen" : ""}`, "data-color": c, disabled: !has,
        "data-action": JSON.stringify({ type: "card", color: c }), // a part of the card's action: its colour
        onclick: () => ctx.picker.chooseAll({ type: "card", color: c }),
      }, el("span", { class: "mark" }, COLOUR_MARK[c]), el("span", { class: "name" }, colourName(ctx, c)));
    })),
    colour ? el("div", { class: "tr-numbers", role: "group", "aria-label": t("field.n") },
      cards.filter((a) => a.color === colour).map((action) => el("button", {
        type: "button", class: `tr-number mo-${colour} ${pending(ctx, action) ? "chosen" : ""}`, "data-action": JSON.stringify(action),
        onclick: () => ctx.picker.chooseAll(action),
      }, `${COLOUR_MARK[colour]} ${action.n}`))) : null);
}

/** The typed way: a number picker of every listed total, and the way back to the cards. */
function totalForm(ctx) {
  const { el, t } = ctx;
  const clear = listed(ctx, "clear-total")[0];
  const typed = ctx.view.public.typed[ctx.seat];
  return el("details", { class: "tr-form", open: typed !== null, "data-testid": "total-form" },
    el("summary", {}, t("meow-oracle-scorer.total_title")),
    el("div", { class: "tr-numbers" }, listed(ctx, "total").map((action) => el("button", {
      type: "button", class: ["tr-number", action.total === typed ? "current" : "", pending(ctx, action) ? "chosen" : ""].join(" ").trim(),
      "data-action": JSON.stringify(action), onclick: () => ctx.picker.chooseAll(action),
    }, String(action.total)))),
    clear ? el("button", { type: "button", class: "tr-clear", "data-action": JSON.stringify(clear), onclick: () => ctx.picker.chooseAll(clear) },
      t("meow-oracle-scorer.clear_total")) : null);
}

/** The start-player step: one button per seat. */
function startForm(ctx) {
  const { el, t } = ctx;
  return el("section", { class: "tr-form", "data-testid": "start-form" },
    el("h3", {}, t("meow-oracle-scorer.who_starts")),
    el("div", { class: "choices" }, listed(ctx, "start-player").map((action) => el("button", {
      type: "button", class: `big choice ${pending(ctx, action) ? "chosen" : ""}`, "data-action": JSON.stringify(action),
      onclick: () => ctx.picker.chooseAll(action),
    }, ctx.seatName(action.seat)))));
}

/** Every scored round: each player's total (and how: run and lines, or typed) and wins. */
function results(ctx) {
  const { el, t, view } = ctx;
  return view.public.results.map((record) => el("section", { class: "tr-results", "data-round": record.round },
    el("h2", {}, t("meow-oracle-scorer.round_results", { round: record.round })),
    el("table", { class: "tr-table" },
      el("thead", {}, el("tr", {}, el("th", {}, t("tracker.player")), el("th", {}, t("meow-oracle-scorer.run")), el("th", {}, t("meow-oracle-scorer.lines")),
        el("th", {}, t("meow-oracle-scorer.total")), el("th", {}, t("meow-oracle-scorer.round_wins")))),
      el("tbody", {}, record.totals.map((total, seat) => el("tr", {},
        el("th", {}, ctx.seatName(seat)),
        el("td", {}, record.runs[seat] ?? t("meow-oracle-scorer.typed_short")),
        el("td", {}, record.lines[seat] ?? t("meow-oracle-scorer.typed_short")),
        el("td", {}, String(total)),
        el("td", {}, String(record.wins[seat])))))),
    record.next_start_player != null
      ? el("p", { class: "tr-hint" }, t("meow-oracle-scorer.next_start", { name: ctx.seatName(record.next_start_player) }))
      : null));
}

/** The final ranking: place, wins over both rounds, last round's total. */
function ranking(ctx) {
  const { el, t, view } = ctx;
  return el("section", { class: "tr-reveal", "data-testid": "ranking" },
    el("h2", {}, t("tracker.ranking")),
    el("table", { class: "tr-table" },
      el("thead", {}, el("tr", {}, el("th", {}, t("tracker.place")), el("th", {}, t("tracker.player")),
        el("th", {}, t("meow-oracle-scorer.wins")), el("th", {}, t("meow-oracle-scorer.last_total")))),
      el("tbody", {}, view.public.ranking.map((row) => el("tr", { class: row.place === 1 ? "winner" : "" },
        el("td", {}, String(row.place)), el("th", {}, ctx.seatName(row.seat)),
        el("td", {}, String(row.wins)), el("td", {}, String(row.last_total)))))));
}

export default {
  render(ctx) {
    const { el, t, view } = ctx;
    const p = view.public;
    const seats = [...Array(view.players).keys()];
    const mine = ctx.seat !== null && p.step === "entering";
    const others = mine ? seats.filter((s) => s !== ctx.seat) : seats;
    return [
      p.step === "over" ? ranking(ctx) : null,
      p.start_player !== null && p.step !== "over"
        ? el("p", { class: "tr-hint" }, t("meow-oracle-scorer.start_player", { round: p.round, name: ctx.seatName(p.start_player) })) : null,
      p.step === "start-player" && view.actions.length ? startForm(ctx) : null,
      p.step === "entering" && p.waiting.length
        ? el("p", { class: "tr-waiting", "data-testid": "waiting" },
          t("tracker.still_to_enter", { names: p.waiting.map(ctx.seatName).join(t("list.separator")) })) : null,
      mine ? el("section", { class: "tr-entry-form" }, area(ctx, ctx.seat, true), cardForm(ctx), totalForm(ctx)) : null,
      p.step === "entering" ? el("div", { class: "mo-areas" }, others.map((seat) => area(ctx, seat, false))) : null,
      [...results(ctx)].reverse(),
    ];
  },

  status(ctx) {
    const p = ctx.view.public;
    return [ctx.t("status.round_of", { round: p.round, rounds: p.rounds }), this.stepLabel(ctx, p.step)].join(" · ");
  },

  seatInfo(ctx, seat) {
    const p = ctx.view.public;
    const bits = [ctx.t("meow-oracle.wins", { n: p.wins[seat] })];
    if (p.step === "entering") bits.push(p.entered[seat] ? ctx.t("meow-oracle-scorer.has_entered") : ctx.t("meow-oracle-scorer.has_not_entered"));
    // Between the rounds the chip moves to whoever starts round 2 (the round-1 starter is past).
    const next = p.step === "round-end" ? p.results[p.results.length - 1]?.next_start_player : undefined;
    if (next === seat) bits.push(ctx.t("meow-oracle-scorer.starts_next"));
    else if (p.start_player === seat && !["over", "round-end"].includes(p.step)) bits.push(ctx.t("meow-oracle-scorer.starts"));
    return ctx.el("span", { class: "seat-info" }, bits.join(" · "));
  },

  /** The forms draw every choice. */
  drawnFields() {
    return true;
  },

  prompt(ctx) {
    const step = ctx.view.public.step;
    if (step === "entering") return "color" in ctx.picker.chosen ? ctx.t("meow-oracle-scorer.prompt.number") : ctx.t("meow-oracle-scorer.prompt.entering");
    if (step === "start-player") return ctx.t("meow-oracle-scorer.who_starts");
    return undefined;
  },

  /** Naming the start player, and the entry that completes the table (it scores the round
   * at once), ask to confirm; every other entry can still be changed. */
  confirm(ctx, action) {
    if (action.type === "start-player") return true;
    return endsRound(ctx, action);
  },

  describe(ctx, action) {
    const last = endsRound(ctx, action) ? ctx.t("meow-oracle-scorer.ends_round") : "";
    if (action.type === "start-player") return ctx.t("meow-oracle-scorer.do.start", { name: ctx.seatName(action.seat) });
    if (action.type === "card") return ctx.t("meow-oracle-scorer.do.card", { card: `${colourName(ctx, action.color)} ${action.n}` }) + last;
    if (action.type === "total") return ctx.t("meow-oracle-scorer.do.total", { total: action.total }) + last;
    return this.typeLabel(ctx, action.type);
  },
};

/** Whether `action` completes this seat's entry while it is the last one to enter. */
function endsRound(ctx, action) {
  const p = ctx.view.public;
  if (p.step !== "entering" || p.waiting.length !== 1 || p.waiting[0] !== ctx.seat) return false;
  if (action.type === "total") return true;
  if (action.type !== "card") return false;
  const empty = p.areas[ctx.seat].flat().filter((cell) => cell === null).length;
  return empty === 1;
}
