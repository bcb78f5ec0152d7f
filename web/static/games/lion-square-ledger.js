// Lion Square ledger: the herd book of a Lion Square game played with the real cards.
// Each phone shows its own herd (secret) big, and at each round end a loss form: type the
// loss, or answer the helper's questions (the nearest number of each of your three lines,
// the cards you took, the gazelles left in your hand) and let the companion count.
// Views and actions: docs/trackers.md.
//
// Every button is one of the engine's listed actions, chosen through the picker: a page
// can never send anything else. An entry can be changed until everyone has entered; the
// entry that completes the table ends the round, so that one asks to confirm.

import { tabs } from "../tabs.js";

const LINES = ["left", "middle", "right"];

/** The listed actions of `type`, in the engine's order. */
const listed = (ctx, type) => ctx.view.actions.filter((action) => action.type === type);

/** A row of number buttons, one per listed action; the current answer is marked. */
function numberPicker(ctx, actions, valueOf, current, name) {
  const { el, picker } = ctx;
  return el("div", { class: "tr-numbers", role: "group", "aria-label": name }, actions.map((action) => {
    const value = valueOf(action);
    const pending = JSON.stringify(picker.action()) === JSON.stringify(action); // waiting for its confirm
    const classes = ["tr-number", value === current ? "current" : "", pending ? "chosen" : ""];
    return el("button", {
      type: "button",
      class: classes.join(" ").trim(),
      "data-action": JSON.stringify(action),
      "aria-pressed": value === current ? "true" : "false",
      onclick: () => ctx.picker.chooseAll(action),
    }, String(value));
  }));
}

/** Whether `action` would make this seat's entry complete (a loss known). */
function completesEntry(entry, action) {
  if (action.type === "loss") return true;
  if (!["nearest", "taken", "gazelles"].includes(action.type)) return false;
  const answers = { nearest: [...entry.nearest], taken: entry.taken, gazelles: entry.gazelles };
  if (action.type === "nearest") answers.nearest[action.line] = action.n;
  else answers[action.type] = action.count;
  return answers.nearest.every((n) => n !== null) && answers.taken !== null && answers.gazelles !== null;
}

/** Whether `action` is the entry that completes the table (and so ends the round at once). */
function endsRound(ctx, action) {
  const p = ctx.view.public;
  return p.step === "entering" && p.waiting.length === 1 && p.waiting[0] === ctx.seat
    && completesEntry(ctx.view.private.entry, action);
}

/** The herd card: the own herd big, and the own losses of the finished rounds. */
function herdCard(ctx) {
  const { el, t, view } = ctx;
  const mine = view.private;
  return el("section", { class: "private tr-herd" },
    el("h2", {}, t("lion-square-ledger.your_herd")),
    el("p", { class: "tr-big", "data-testid": "herd" }, String(mine.herd)),
    mine.losses.length
      ? el("p", {}, t("lion-square-ledger.your_losses", { losses: mine.losses.map((loss, i) => t("lion-square-ledger.round_loss", { round: i + 1, loss })).join(t("list.separator")) }))
      : null);
}

/** The typed way: a number picker of every listed loss, and the way back to the helper. */
function typedPanel(ctx, entry) {
  const { el, t } = ctx;
  const clear = listed(ctx, "clear-loss")[0];
  return [
    numberPicker(ctx, listed(ctx, "loss"), (a) => a.loss, entry.typed, t("lion-square-ledger.type_loss")),
    clear ? el("button", { type: "button", class: "tr-clear", "data-action": JSON.stringify(clear), onclick: () => ctx.picker.chooseAll(clear) },
      t("lion-square-ledger.clear_typed")) : null];
}

/** The helper's questions (the nearest number of each line, the cards taken, the gazelles),
 * each with the listed answers and the answer standing now. */
function questions(ctx, entry) {
  const lines = LINES.map((line, index) => ({
    id: line, line: true, label: ctx.t(`lion-square-ledger.tab.${line}`), answer: entry.nearest[index], question: `lion-square-ledger.nearest.${line}`,
    actions: listed(ctx, "nearest").filter((a) => a.line === index), valueOf: (a) => a.n,
  }));
  return [...lines,
    { id: "taken", label: ctx.t("lion-square-ledger.tab.taken"), answer: entry.taken, question: "lion-square-ledger.taken",
      actions: listed(ctx, "taken"), valueOf: (a) => a.count },
    { id: "gazelles", label: ctx.t("lion-square-ledger.tab.gazelles"), answer: entry.gazelles, question: "lion-square-ledger.gazelles",
      actions: listed(ctx, "gazelles"), valueOf: (a) => a.count }];
}

/**
 * The loss form of the entering step, with what stands now: one question at a time (tabs.js),
 * the helper's five, then typing the loss. The next unanswered question is open; a tab opens
 * another. A typed loss closes the helper until it is cleared.
 */
function lossForm(ctx) {
  const { el, view } = ctx;
  const entry = view.private.entry;
  const entered = view.public.entered[ctx.seat];
  const typed = entry.typed !== null;
  const asked = questions(ctx, entry);
  const items = asked.map((q) => ({
    id: q.id, label: q.label, answer: typed ? null : q.answer ?? "—",
    panel: typed || !q.actions.length
      ? el("p", {}, ctx.t("lion-square-ledger.helper_closed"))
      : [el("p", {}, ctx.t(q.question)), numberPicker(ctx, q.actions, q.valueOf, q.answer, ctx.t(q.question)),
        q.line ? el("p", { class: "tr-hint" }, ctx.t("lion-square-ledger.helper_explain")) : null],
  }));
  items.push({ id: "typed", label: ctx.t("lion-square-ledger.tab.typed"), answer: entry.typed ?? "—", panel: typedPanel(ctx, entry) });
  const next = typed ? "typed" : (asked.find((q) => q.answer === null) ?? asked[0]).id;
  return el("section", { class: "tr-entry-form", "data-testid": "loss-form" },
    el("div", { class: "tr-entry-head" },
      el("h2", {}, ctx.t("lion-square-ledger.loss_title", { round: view.public.round })),
      el("p", { class: entered ? "tr-entry done" : "tr-entry", "data-testid": "entry" },
        entered ? ctx.t("lion-square-ledger.entered", { loss: entry.loss }) : ctx.t("lion-square-ledger.not_entered"),
        entered && view.public.waiting.length ? [" ", ctx.t("lion-square-ledger.can_correct")] : null)),
    tabs(ctx, "ledger", items, next, JSON.stringify(entry)));
}

/** The end: every herd revealed, each seat's losses per round, and who won. */
function reveal(ctx) {
  const { el, t, view } = ctx;
  const p = view.public;
  const rounds = Math.max(...p.losses.map((losses) => losses.length));
  return el("section", { class: "tr-reveal", "data-testid": "reveal" },
    el("h2", {}, t("lion-square-ledger.reveal")),
    p.lions_win ? el("p", { class: "tr-big tr-lions" }, t("lion-square-ledger.lions_win")) : null,
    el("table", { class: "tr-table" },
      el("thead", {}, el("tr", {}, el("th", {}, t("tracker.player")),
        [...Array(rounds).keys()].map((r) => el("th", {}, t("lion-square-ledger.round_n", { round: r + 1 }))),
        el("th", {}, t("lion-square-ledger.herd")))),
      el("tbody", {}, p.herds.map((herd, seat) => el("tr", { class: (view.result?.winners ?? []).includes(seat) ? "winner" : "" },
        el("th", {}, ctx.seatName(seat)),
        [...Array(rounds).keys()].map((r) => el("td", {}, p.losses[seat][r] == null ? "—" : `−${p.losses[seat][r]}`)),
        el("td", {}, String(herd)))))));
}

export default {
  render(ctx) {
    const { el, t, view } = ctx;
    const p = view.public;
    // My herd and who is still to enter share a line when they fit (a 360 x 640 phone's form).
    return [
      el("div", { class: "tr-top" },
        view.private && view.private.herd !== undefined ? herdCard(ctx) : null,
        p.step === "entering" && p.waiting.length
          ? el("p", { class: "tr-waiting", "data-testid": "waiting" },
            t("tracker.still_to_enter", { names: p.waiting.map(ctx.seatName).join(t("list.separator")) }))
          : null),
      p.step === "entering" && view.actions.length > 1 ? lossForm(ctx) : null,
      el("div", { "data-actions-slot": "" }), // the action bar, right under the form (play.js)
      p.step === "round-end" ? el("p", { class: "tr-hint" }, t("lion-square-ledger.round_done", { round: p.round })) : null,
      p.step === "over" ? reveal(ctx) : null,
    ];
  },

  status(ctx) {
    const p = ctx.view.public;
    return [ctx.t("status.round_of", { round: p.round, rounds: p.rounds }), this.stepLabel(ctx, p.step)].join(" · ");
  },

  seatInfo(ctx, seat) {
    const p = ctx.view.public;
    if (p.step === "over") return ctx.el("span", { class: "seat-info" }, ctx.t("lion-square-ledger.herd_n", { n: p.herds[seat] }));
    if (p.step !== "entering") return null;
    return ctx.el("span", { class: "seat-info" }, p.entered[seat] ? ctx.t("lion-square-ledger.has_entered") : ctx.t("lion-square-ledger.has_not_entered"));
  },

  /** The loss form draws every choice. */
  drawnFields() {
    return true;
  },

  prompt(ctx) {
    if (ctx.view.public.step === "entering") return ctx.t("lion-square-ledger.prompt");
    return undefined;
  },

  /** Only the entry that ends the round asks to confirm: every other one can still be changed. */
  confirm(ctx, action) {
    return endsRound(ctx, action);
  },

  describe(ctx, action) {
    const last = endsRound(ctx, action) ? ctx.t("lion-square-ledger.ends_round") : "";
    if (action.type === "loss") return ctx.t("lion-square-ledger.do.loss", { loss: action.loss }) + last;
    if (action.type === "nearest") return ctx.t("lion-square-ledger.do.nearest", { line: ctx.t(`lion-square-ledger.line.${LINES[action.line]}`), n: action.n }) + last;
    if (action.type === "taken" || action.type === "gazelles") return ctx.t(`lion-square-ledger.do.${action.type}`, { n: action.count }) + last;
    if (action.type === "clear-loss") return ctx.t("lion-square-ledger.clear_typed");
    return this.typeLabel(ctx, action.type);
  },
};
