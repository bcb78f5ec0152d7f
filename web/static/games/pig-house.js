// Pig House: the tracker of a Pig House game played on the real board. The phone shows
// the phase, whose turn and which step, the die (the rolled face big), the pots, the
// wolves on their track, the wolf cards on the attack schedule, the happenings, and the
// controls of the step: roll or key in the die, pig actions (or pass), the pot, the wolf
// movement (drawn by the companion or keyed in from the real cards), "happenings done",
// and during an attack, for every player, "I lost a pig" and the one invincibility per
// game (even off-turn). At the end, tied players key in their tie-break counts.
// Views and actions: docs/rules/pig-house.md.
//
// Every button is one of the engine's listed actions, chosen through the picker: a page
// can never send anything else. What cannot be taken back without the host's undo (a pig
// lost, the invincibility, the end of an attack, a keyed-in die face or count) asks to confirm.

/** The listed actions of `type`, in the engine's order. */
const listed = (ctx, type) => ctx.view.actions.filter((action) => action.type === type);

const pending = (ctx, action) => JSON.stringify(ctx.picker.action()) === JSON.stringify(action);

/** A big button for one listed action; a screen reader hears whether it is the one chosen. */
function actionButton(ctx, action, label, extra = "") {
  return ctx.el("button", {
    type: "button",
    class: ["big", "choice", extra, pending(ctx, action) ? "chosen" : ""].join(" ").replace(/\s+/g, " ").trim(),
    "aria-pressed": String(pending(ctx, action)),
    "data-action": JSON.stringify(action),
    onclick: () => ctx.picker.chooseAll(action),
  }, label);
}

/** A die face in words: "2 pig actions + pot". */
function faceText(ctx, face) {
  const pigs = ctx.t("pig-house.face_pigs", { n: face.pigs });
  return face.pot ? `${pigs} + ${ctx.t("pig-house.pot")}` : pigs;
}

function dieFace(ctx, face, big) {
  const { el } = ctx;
  return el("span", { class: big ? "ph-die big-die" : "ph-die", title: faceText(ctx, face), "data-testid": big ? "die" : null },
    // The pips draw what the words say: a screen reader reads the words only.
    el("span", { class: "ph-pips", "aria-hidden": "true" }, "●".repeat(face.pigs), face.pot ? el("span", { class: "ph-pot" }, "⚱") : null),
    el("span", { class: "ph-die-text" }, faceText(ctx, face)));
}

/** A wolf as people at the table tell it: by the square it stands on (its id is for the engine). */
function wolfText(ctx, id) {
  const wolf = ctx.view.public.wolves.find((w) => w.id === id);
  return wolf ? ctx.t("pig-house.wolf_on", { square: wolf.square }) : ctx.t("pig-house.wolf");
}

/**
 * "The wolf on square 7 fell in a pot": the wolf pieces carry no numbers, so a wolf is named by
 * its square; wolves sharing one (a happening can add one where another stands) are numbered
 * in the order they came out, so each button still differs. The action keeps the engine's id.
 */
function pottedText(ctx, action) {
  const { wolves } = ctx.view.public;
  const { square } = wolves.find((wolf) => wolf.id === action.wolf);
  const sharing = wolves.filter((wolf) => wolf.square === square).map((wolf) => wolf.id);
  if (sharing.length === 1) return ctx.t("pig-house.do.potted", { square });
  return ctx.t("pig-house.do.potted_sharing", { square, n: sharing.indexOf(action.wolf) + 1, count: sharing.length });
}

/** A wolf card as known to everyone: its number, and (virtual deck) its name, kind and mark. */
function cardText(ctx, card) {
  if (!card) return ctx.t("pig-house.chip_empty");
  const bits = [ctx.t("pig-house.card_number", { n: card.number })];
  if (card.name) bits.push(ctx.pick(card.name));
  if (card.kind) bits.push(ctx.t(`pig-house.kind.${card.kind}`));
  if (card.mark != null) bits.push(ctx.t("pig-house.dig_mark", { square: card.mark }));
  return bits.join(" · ");
}

/** The track as a strip of squares: the forest, "!" squares, corners, and the wolves on it. */
function track(ctx) {
  const { el, t, view } = ctx;
  const p = view.public;
  const squares = [];
  // Each mark is read by its name, not its symbol.
  const mark = (cls, name, symbol) => el("span", { class: cls, title: name, role: "img", "aria-label": name }, symbol);
  for (let square = 0; square < p.track.length; square += 1) {
    const wolves = p.wolves.filter((wolf) => wolf.square === square);
    const corner = Object.entries(p.track.corners).find(([, at]) => at === square);
    const marks = [];
    if (square === 0) marks.push(mark("ph-forest", t("pig-house.forest"), "♣"));
    if (p.track.events.includes(square)) marks.push(mark("ph-event", t("pig-house.event_square"), "!"));
    if (corner) marks.push(mark("ph-corner", t(`pig-house.corner.${corner[0]}`), p.corners_flipped[corner[0]] ? "☑" : "▣"));
    squares.push(el("li", { class: wolves.length ? "ph-square wolf" : "ph-square", "data-square": square },
      el("span", { class: "ph-square-n" }, String(square)), marks,
      wolves.map((wolf) => mark(wolf.leader ? "ph-wolf leader" : "ph-wolf", t(wolf.leader ? "pig-house.leading_wolf" : "pig-house.wolf"),
        wolf.leader ? "W★" : "W"))));
  }
  return el("section", { class: "ph-track-box" },
    el("h2", {}, t("pig-house.track")),
    el("ol", { class: "ph-track", start: 0 }, squares),
    el("p", { class: "tr-hint" }, t("pig-house.track_legend")),
    p.phase === "scouting" ? el("p", {}, t("pig-house.scouting_progress", { distance: p.scout_distance, length: p.track.length })) : null,
    p.last_move ? el("p", {}, t("pig-house.last_move", { a: p.last_move.numbers[0], b: p.last_move.numbers[1], distance: p.last_move.distance })) : null);
}

/** The attack schedule: the chips from the action chip up, the card beside the deck, the deck. */
function schedule(ctx) {
  const { el, t, view } = ctx;
  const p = view.public;
  const deck = p.wolf_deck;
  return el("section", { class: "ph-schedule" },
    el("h2", {}, t("pig-house.schedule")),
    el("ol", { class: "ph-chips" }, p.schedule.map((chip) => el("li", { class: chip.action ? "ph-chip action" : "ph-chip", "data-chip": chip.chip },
      el("span", { class: "ph-chip-n" }, chip.action ? t("pig-house.action_chip") : t("pig-house.chip", { n: chip.chip })),
      " ", cardText(ctx, chip.card)))),
    p.placed_number != null ? el("p", {}, t("pig-house.placed", { n: p.placed_number })) : null,
    el("p", { class: "tr-hint" }, deck.source === "virtual"
      ? t("pig-house.deck_virtual", { left: deck.left, top: deck.top_number ?? "—", discard: deck.discard })
      : t("pig-house.deck_physical", { left: deck.left })));
}

/** Turn, die, pigs left this turn, pots: the turn at a glance. */
function turnBox(ctx) {
  const { el, t, view } = ctx;
  const p = view.public;
  return el("section", { class: "ph-turn" },
    p.seat !== null ? el("p", { class: "ph-whose" }, t("pig-house.turn_of", { turn: p.turn, name: ctx.seatName(p.seat) })) : null,
    p.die && p.phase === "building" ? dieFace(ctx, p.die, true) : null,
    p.step === "pigs" ? el("p", { "data-testid": "pig-actions-left" }, t("pig-house.actions_left", { n: p.pig_actions_left }),
      p.pot_pending ? [" · ", t("pig-house.pot_pending")] : null) : null,
    el("p", {}, t("pig-house.pots", { n: p.pots, max: p.max_pots }), " ", el("span", { "aria-hidden": "true" }, "⚱".repeat(p.pots))));
}

/** The controls of the step for this phone, drawn from its listed actions. With one
 * action only, the action bar's big button is the control. */
function controls(ctx) {
  const { el, t, view } = ctx;
  const p = view.public;
  if (view.actions.length < 2) return null;
  const parts = [];
  const faces = listed(ctx, "die_face");
  if (faces.length) {
    parts.push(el("p", {}, t("pig-house.key_die")), el("div", { class: "choices ph-faces" }, faces.map((action) =>
      actionButton(ctx, action, dieFace(ctx, p.die_faces[action.face], false)))));
  }
  const pigActions = listed(ctx, "pig_action");
  if (pigActions.length) {
    parts.push(el("div", { class: "choices" }, pigActions.map((action) => actionButton(ctx, action, t(`pig-house.do.${action.kind}`)))));
  }
  const pots = listed(ctx, "pot");
  if (pots.length) {
    parts.push(el("p", {}, t("pig-house.pot_explain")), el("div", { class: "choices" }, pots.map((action) => actionButton(ctx, action, t(`pig-house.do.pot.${action.action}`)))));
  }
  const cards = listed(ctx, "wolf_card");
  if (cards.length) {
    parts.push(el("p", {}, t(`pig-house.keying.${cards[0].card}`)), el("div", { class: "tr-numbers" }, cards.map((action) =>
      actionButton(ctx, action, String(action.number), "tr-number"))));
  }
  const lost = listed(ctx, "pig_lost")[0];
  const invincible = listed(ctx, "invincible")[0];
  if (lost || invincible) {
    parts.push(el("div", { class: "choices" },
      lost ? actionButton(ctx, lost, t("action.pig_lost"), "ph-lost") : null,
      invincible ? actionButton(ctx, invincible, t("action.invincible"), "ph-invincible") : null));
  }
  const potted = listed(ctx, "wolf_potted");
  if (potted.length) {
    parts.push(el("div", { class: "choices" }, potted.map((action) => actionButton(ctx, action, pottedText(ctx, action)))));
  }
  const done = listed(ctx, "attack_done")[0];
  if (done) parts.push(el("div", { class: "choices" }, actionButton(ctx, done, t("action.attack_done"), "ph-done")));
  for (const type of ["ground_pigs", "outer_pigs"]) {
    const counts = listed(ctx, type);
    if (counts.length) {
      parts.push(el("p", {}, t(`pig-house.ask.${type}`)), el("div", { class: "tr-numbers" }, counts.map((action) =>
        actionButton(ctx, action, String(action.count), "tr-number"))));
    }
  }
  return el("section", { class: "tr-form ph-controls", "data-testid": "controls", "data-bar-after": "" }, parts);
}

/** The attack being resolved: the card, the wolves attacking, who is invincible, pigs lost. */
function attackBox(ctx) {
  const { el, t, view } = ctx;
  const attack = view.public.attack;
  if (!attack || view.public.step !== "attack") return null;
  const lost = Object.entries(attack.lost).map(([seat, n]) => t("pig-house.lost_by", { name: ctx.seatName(Number(seat)), n }));
  return el("section", { class: "ph-attack", "data-testid": "attack" },
    el("h2", {}, t("pig-house.attack_title")),
    el("p", { class: "ph-attack-card" }, cardText(ctx, attack.card)),
    el("p", {}, t("pig-house.attackers", { wolves: attack.attackers.map((id) => wolfText(ctx, id)).join(t("list.separator")) })),
    attack.invincible.length ? el("p", {}, t("pig-house.invincible_now", { names: attack.invincible.map(ctx.seatName).join(t("list.separator")) })) : null,
    el("p", {}, lost.length ? lost.join(t("list.separator")) : t("pig-house.no_loss_yet")));
}

function happenings(ctx) {
  const { el, t, view } = ctx;
  const p = view.public;
  return el("section", { class: "ph-happenings" },
    p.happenings.length ? [el("h2", {}, t("pig-house.happenings")),
      el("ul", {}, p.happenings.map((card) => el("li", { "data-happening": card.id },
        el("strong", {}, ctx.pick(card.name)), " — ", ctx.pick(card.text))))] : null,
    el("p", { class: "tr-hint" }, t("pig-house.happening_deck", { left: p.happening_deck.left, discard: p.happening_deck.discard }),
      " · ", t("pig-house.corners", {
        top_right: t(p.corners_flipped.top_right ? "pig-house.corner_flipped" : "pig-house.corner_down"),
        bottom_left: t(p.corners_flipped.bottom_left ? "pig-house.corner_flipped" : "pig-house.corner_down"),
      })));
}

/** The final ranking, from the result: place, pigs, and the tie-break counts asked for. */
function ranking(ctx) {
  const { el, t, view } = ctx;
  const rows = (view.result && view.result.ranking) || [];
  return el("section", { class: "tr-reveal", "data-testid": "ranking" },
    el("h2", {}, t("tracker.ranking")),
    el("p", {}, t(`pig-house.ending.${view.result.ending}`)),
    el("table", { class: "tr-table" },
      el("thead", {}, el("tr", {}, el("th", {}, t("tracker.place")), el("th", {}, t("tracker.player")), el("th", {}, t("pig-house.pigs")),
        el("th", {}, t("pig-house.ground")), el("th", {}, t("pig-house.outer")))),
      el("tbody", {}, rows.map((row) => el("tr", { class: row.place === 1 ? "winner" : "" },
        el("td", {}, String(row.place)), el("th", {}, ctx.seatName(row.seat)), el("td", {}, String(row.pigs)),
        el("td", {}, row.ground ?? "—"), el("td", {}, row.outer ?? "—"))))));
}

export default {
  render(ctx) {
    const { el, t, view } = ctx;
    const p = view.public;
    const mine = view.private && view.private.pigs !== undefined ? view.private : null;
    // This turn's happenings go above the track; otherwise the decks' counts go last.
    const early = p.step === "happening" || p.happenings.length > 0;
    const attack = p.step === "attack";
    // The action bar's place (play.js); how to resolve an attack goes under its buttons.
    const acting = [attackBox(ctx), controls(ctx), el("div", { "data-actions-slot": "" }),
      attack ? el("p", { class: "tr-hint ph-attack-explain" }, t("pig-house.attack_explain")) : null];
    return [
      view.over ? ranking(ctx) : null,
      // What the step acts on and its controls come first, so they fit a 360 x 640 screen:
      // during an attack the attack itself, otherwise the turn's die; my pigs come after.
      attack ? acting : [view.over ? null : turnBox(ctx), acting],
      mine ? el("section", { class: "private ph-mine" },
        el("p", { class: "tr-big", "data-testid": "my-pigs" }, t("pig-house.my_pigs", { n: mine.pigs }), " ", el("span", { "aria-hidden": "true" }, "●".repeat(mine.pigs))),
        el("p", {}, t(mine.invincibility_used ? "pig-house.invincibility_used" : "pig-house.invincibility_ready"))) : null,
      attack && !view.over ? turnBox(ctx) : null,
      early ? happenings(ctx) : null,
      track(ctx),
      schedule(ctx),
      early ? null : happenings(ctx),
    ];
  },

  status(ctx) {
    const p = ctx.view.public;
    return [ctx.t(`pig-house.phase.${p.phase}`), ctx.t("pig-house.turn_n", { turn: p.turn }), this.stepLabel(ctx, p.step)].join(" · ");
  },

  seatInfo(ctx, seat) {
    const p = ctx.view.public;
    const bits = [ctx.t("pig-house.pigs_n", { n: p.pigs[seat] }), ctx.t(p.invincibility_used[seat] ? "pig-house.shield_used" : "pig-house.shield_ready")];
    if (p.seat === seat) bits.push(ctx.t("pig-house.their_turn"));
    if (p.attack && p.step === "attack" && p.attack.invincible.includes(seat)) bits.push(ctx.t("pig-house.invincible"));
    return ctx.el("span", { class: "seat-info" }, bits.join(" · "));
  },

  /** The controls draw every choice. */
  drawnFields() {
    return true;
  },

  prompt(ctx) {
    const step = ctx.view.public.step;
    const key = `pig-house.prompt.${step}`;
    return ctx.t(key) === key ? undefined : ctx.t(key);
  },

  /** What only the host's undo could take back asks to confirm (see the top of this file). */
  confirm(ctx, action) {
    return ["pig_lost", "invincible", "attack_done", "die_face", "wolf_card", "ground_pigs", "outer_pigs", "wolf_potted"].includes(action.type);
  },

  describe(ctx, action) {
    const { t } = ctx;
    switch (action.type) {
      case "die_face": return t("pig-house.do.die_face", { face: faceText(ctx, ctx.view.public.die_faces[action.face]) });
      case "pig_action": return t(`pig-house.do.${action.kind}`);
      case "pot": return t(`pig-house.do.pot.${action.action}`);
      case "wolf_card": return t("pig-house.do.wolf_card", { n: action.number });
      case "wolf_potted": return pottedText(ctx, action);
      case "ground_pigs": case "outer_pigs": return t(`pig-house.do.${action.type}`, { n: action.count });
      case "pig_lost": return t("pig-house.do.pig_lost", { n: ctx.view.public.pigs[ctx.seat] - 1 });
      default: return this.typeLabel(ctx, action.type);
    }
  },
};
