// Score pad: the score sheet of any game played with its own box (docs/trackers.md).
// On top the game's name, who wins (the status line), the round numbers and "Next player"
// (one tap: it only moves the turn marker); then the pad: a row per player with the open
// round's points and the total.
// Tap a row to choose the player (it only selects), then a step (+1, +5, +10, −1, −5, −10)
// to count it (the second tap sends). The round numbers open an earlier round to correct it;
// every correction there is kept and listed (old → new, who, during which round).
// "Next round" and "Finish" ask to confirm. Every button is one of the engine's listed
// actions, put through the picker.

/** The listed actions of `type`, in the engine's order. */
const listed = (ctx, type) => ctx.view.actions.filter((action) => action.type === type);

const signed = (n) => (n > 0 ? `+${n}` : String(n).replace("-", "−"));

/** The player chosen on the pad (the picker's seat), or null. */
const chosenSeat = (ctx) => (ctx.picker && Number.isInteger(ctx.picker.chosen.seat) ? ctx.picker.chosen.seat : null);

/** The round numbers (the open one marked in words and a symbol, not only colour; a tap
 * opens another) and, beside them, the turn marker's button (whose turn it is: the turn line
 * above, ▶ in the pad). Who wins is said in the status line under the game's name. */
function head(ctx) {
  const { el, t, view } = ctx;
  const p = view.public;
  const pass = listed(ctx, "pass")[0];
  return el("div", { class: "sp-head" },
    p.step === "scoring" ? roundStrip(ctx) : null,
    pass ? el("button", { type: "button", class: "sp-pass", "data-testid": "pass", "data-action": JSON.stringify(pass),
      "aria-label": t("score-pad.pass_after", { name: ctx.seatName(p.turn) }),
      onclick: () => ctx.picker.chooseAll(pass) }, t("score-pad.pass")) : null);
}

/** The round numbers: the open one marked (in words and a symbol, not only colour); a tap opens another. */
function roundStrip(ctx) {
  const { el, t, view } = ctx;
  const p = view.public;
  const newest = p.rounds.length - 1;
  return el("div", { class: "sp-rounds", role: "group", "aria-label": t("score-pad.rounds") },
    el("span", { class: "sp-rounds-label" }, t("score-pad.rounds")),
    p.rounds.map((_, round) => {
      const open = listed(ctx, "open").find((action) => action.round === round);
      const label = round === newest ? t("score-pad.round_now", { round: round + 1 }) : String(round + 1);
      if (round === p.open) {
        return el("span", { class: "sp-round open", "aria-current": "true", "data-testid": `round-${round}` }, `✎ ${label}`);
      }
      return el("button", { type: "button", class: "sp-round", "data-testid": `round-${round}`,
        "data-action": open ? JSON.stringify(open) : null, disabled: !open,
        "aria-label": round === newest ? t("score-pad.back_to", { round: round + 1 }) : t("score-pad.correct_round", { round: round + 1 }),
        onclick: () => open && ctx.picker.chooseAll(open) }, label);
    }));
}

/** While an earlier round is open: say so, and the way back to the round in play. */
function correctingNote(ctx) {
  const { el, t, view } = ctx;
  const newest = listed(ctx, "open").find((action) => action.round === view.public.rounds.length - 1);
  return el("p", { class: "sp-correcting", "data-testid": "correcting" },
    t("score-pad.correcting_note", { round: view.public.open + 1 }),
    newest ? [" ", el("button", { type: "button", "data-testid": "back-to-newest", "data-action": JSON.stringify(newest),
      onclick: () => ctx.picker.chooseAll(newest) }, t("score-pad.back_to", { round: newest.round + 1 }))] : null);
}

/** A row per player: name (the turn marked ▶), the open round's points, the total; a tap chooses the player. */
function pad(ctx) {
  const { el, t, view } = ctx;
  const p = view.public;
  const chosen = chosenSeat(ctx);
  const correcting = p.open !== p.rounds.length - 1;
  const steps = listed(ctx, "add");
  const best = p.step === "over" ? null : Math[p.lowest_wins ? "min" : "max"](...p.totals);
  return el("table", { class: "sp-pad", "data-testid": "pad" },
    el("thead", {}, el("tr", {},
      el("th", {}, t("tracker.player")),
      el("th", {}, t(correcting ? "score-pad.correcting_round" : "score-pad.round_n", { round: p.open + 1 })),
      el("th", {}, t("score-pad.total")))),
    el("tbody", {}, p.totals.map((total, seat) => {
      const mine = steps.filter((action) => action.seat === seat);
      const name = [seat === p.turn && p.step === "scoring" ? "▶ " : "", ctx.seatName(seat)].join("");
      const row = el("tr", { class: seat === chosen ? "chosen" : "", "data-testid": `pad-row-${seat}` },
        el("th", {}, mine.length
          ? el("button", { type: "button", class: "sp-player", "data-pick": "", "aria-pressed": seat === chosen ? "true" : "false",
            "data-testid": `pad-player-${seat}`, onclick: () => ctx.picker.choose("seat", seat) }, name)
          : name),
        el("td", { class: "sp-points", "data-testid": `pad-points-${seat}` }, String(p.rounds[p.open][seat])),
        el("td", { class: "sp-total", "data-testid": `pad-total-${seat}` }, String(total),
          total === best && p.totals.length > 1 ? el("span", { class: "sp-lead" }, ` ★ ${t("score-pad.leads")}`) : null));
      return row;
    })));
}

/** The steps for the chosen player: each tap counts at once (a wrong one is undone by its
 * opposite). None before a player is chosen: the action bar's prompt says to choose one. */
function stepBar(ctx) {
  const { el, t, view } = ctx;
  const seat = chosenSeat(ctx);
  if (seat === null) return null;
  const correcting = view.public.open !== view.public.rounds.length - 1;
  // Whose steps these are is said to a screen reader; the eye sees the chosen row outlined.
  return el("div", { class: "sp-steps", role: "group", "data-testid": "steps",
    "aria-label": t(correcting ? "score-pad.steps_correct" : "score-pad.steps_for", { name: ctx.seatName(seat), round: view.public.open + 1 }) },
    listed(ctx, "add").filter((action) => action.seat === seat).map((action) =>
      el("button", { type: "button", class: action.points > 0 ? "sp-step up" : "sp-step down", "data-action": JSON.stringify(action),
        "data-testid": `step-${action.points}`, "aria-label": t("score-pad.step_label", { points: signed(action.points), name: ctx.seatName(seat) }),
        onclick: () => ctx.picker.chooseAll(action) }, signed(action.points))));
}

/** The pad's own moves on: the next round, the end (both ask to confirm in the action bar). */
function moveOn(ctx) {
  const { el, t } = ctx;
  return el("div", { class: "sp-move-on" },
    ["next-round", "finish"].map((type) => listed(ctx, type).map((action) =>
      el("button", { type: "button", class: "sp-next", "data-testid": type, "data-action": JSON.stringify(action),
        onclick: () => ctx.picker.chooseAll(action) }, t(`score-pad.${type}`)))));
}

/** Every round of every player, and every correction kept. */
function sheet(ctx) {
  const { el, t, view } = ctx;
  const p = view.public;
  const rows = p.corrections.map((c) => el("li", {}, t("score-pad.correction", {
    round: c.round + 1, name: ctx.seatName(c.seat), old: c.old, new: c.new, by: ctx.seatName(c.by), during: c.during + 1 })));
  return el("section", { class: "sp-sheet" },
    el("h2", {}, t("score-pad.sheet")),
    el("div", { class: "sp-scroll" }, el("table", { class: "tr-table", "data-testid": "sheet" },
      el("thead", {}, el("tr", {}, el("th", {}, t("tracker.player")),
        p.rounds.map((_, r) => el("th", {}, String(r + 1))), el("th", {}, t("score-pad.total")))),
      el("tbody", {}, p.totals.map((total, seat) => el("tr", { class: (view.result?.winners ?? []).includes(seat) ? "winner" : "" },
        el("th", {}, ctx.seatName(seat)),
        p.rounds.map((column) => el("td", {}, String(column[seat]))),
        el("td", {}, String(total))))))),
    el("h3", {}, t("score-pad.corrections")),
    rows.length ? el("ul", { class: "sp-corrections", "data-testid": "corrections" }, rows)
      : el("p", { "data-testid": "corrections" }, t("score-pad.no_corrections")));
}

/** The end: the ranking, places shared by ties. */
function ranking(ctx) {
  const { el, t, view } = ctx;
  return el("ol", { class: "sp-ranking", "data-testid": "ranking" }, view.public.ranking.map((entry) =>
    el("li", { class: entry.place === 1 ? "winner" : "" },
      t("score-pad.place", { place: entry.place, name: ctx.seatName(entry.seat), total: entry.total }),
      entry.place === 1 ? ` ★ ${t("score-pad.wins")}` : "")));
}

export default {
  render(ctx) {
    const p = ctx.view.public;
    const acting = ctx.view.actions.length > 0;
    return [
      head(ctx),
      p.step === "over" ? ranking(ctx) : null,
      p.step === "scoring" && p.open !== p.rounds.length - 1 ? correctingNote(ctx) : null,
      p.step === "scoring" ? pad(ctx) : null,
      acting ? stepBar(ctx) : null,
      acting ? moveOn(ctx) : null,
      // The action bar (what to tap next, a confirm) under the pad's own buttons (play.js): so
      // with six players Next round and Finish still fit a 360x640 screen beside the steps.
      ctx.el("div", { "data-actions-slot": "" }),
      sheet(ctx),
    ];
  },

  status(ctx) {
    const p = ctx.view.public;
    const rule = ctx.t(p.lowest_wins ? "score-pad.lowest_wins" : "score-pad.highest_wins");
    return [ctx.t("score-pad.unnamed"), ctx.t("status.round", { round: p.rounds.length }),
      p.step === "over" ? this.stepLabel(ctx, p.step) : rule].join(" · ");
  },

  seatInfo(ctx, seat) {
    return ctx.el("span", { class: "seat-info" }, ctx.t("score-pad.points", { n: ctx.view.public.totals[seat] }));
  },

  /** The pad draws every choice. */
  drawnFields() {
    return true;
  },

  /** What to tap next, said once, right under the pad (or its steps). */
  prompt(ctx, field) {
    return field === "points" ? ctx.t("score-pad.prompt_points") : ctx.t("score-pad.prompt");
  },

  /** A new round and the end ask first; a step, a turn passed or a round opened go at once. */
  confirm(ctx, action) {
    return ["next-round", "finish"].includes(action.type);
  },

  /** The player stays chosen after a step, so their next step is one tap. */
  keepAfter(ctx, action) {
    return action.type === "add" ? { seat: action.seat } : null;
  },

  describe(ctx, action) {
    if (action.type === "finish") {
      const p = ctx.view.public;
      const best = Math[p.lowest_wins ? "min" : "max"](...p.totals);
      const leaders = p.totals.map((total, seat) => (total === best ? ctx.seatName(seat) : null)).filter(Boolean);
      return ctx.t("score-pad.do.finish", { names: leaders.join(ctx.t("list.separator")) });
    }
    if (action.type === "next-round") return ctx.t("score-pad.do.next-round", { round: ctx.view.public.rounds.length + 1 });
    if (action.type === "add") return ctx.t("score-pad.step_label", { points: signed(action.points), name: ctx.seatName(action.seat) });
    if (action.type === "open") return ctx.t("score-pad.correct_round", { round: action.round + 1 });
    if (action.type === "pass") return ctx.t("score-pad.pass");
    return this.typeLabel(ctx, action.type);
  },
};
