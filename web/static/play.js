// The phone page (/play) and the shared screen (/table): one view of the game, redrawn
// whenever the table changes.
//
// The page asks /api/view for what this phone may see (the server decides by the seat
// cookie; the shared screen gets the public view). The game's own renderer in
// /static/games/<game-id>.js draws the cards and boards; this file draws what every game
// shares: whose turn it is, the players, the action bar, the log and the result.

import { api, buzz, el, fill, follow, lang, pageData, pick, renderText, say, seatName, showProblem, t, ApiError } from "./app.js";
import { Picker } from "./picker.js";
import generic from "./games/generic.js";

const root = document.getElementById("game");
const mode = pageData.mode; // "play": a phone; "table": the shared screen

let view = null; // the last view drawn
let picker = null;
let renderer = generic;
let hadActions = false;
let sending = false;

/**
 * The renderer of a game: its module when the server has one, over the generic one.
 * A game's `label` and `prompt` may answer undefined for what they leave to the generic ones.
 */
async function rendererFor(gameId) {
  if (!pageData.renderers.includes(gameId)) return generic;
  const custom = (await import(`./games/${gameId}.js`)).default;
  const merged = { ...generic, ...custom };
  for (const name of ["label", "prompt"]) {
    if (custom[name]) merged[name] = function fallback(...args) {
      return custom[name].apply(this, args) ?? generic[name].apply(this, args);
    };
  }
  return merged;
}

/**
 * After each choice: a choice that completes an action sends it at once, unless the
 * game wants that kind of move confirmed; otherwise redraw with the narrowed choices.
 */
function chosen() {
  const action = picker.action();
  if (action && !renderer.confirm(context(), action)) send(action);
  else draw();
}

/**
 * The view to draw: the seat's own on a phone; on the shared screen always the public one,
 * even in a browser that holds a seat (the host's laptop on a TV must not show its hand).
 * Null while no game has been started.
 */
async function fetchView() {
  if (mode === "table") return (await api("/api/table")).view;
  try {
    return await api("/api/view");
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}

async function refresh() {
  const next = await fetchView();
  if (!next) {
    view = null;
    fill(root, el("p", { class: "waiting" }, t("game.none")));
    return;
  }
  // An answer older than the view on screen (a move's answer can overtake an event's fetch) is dropped.
  if (view && next.version < view.version) return;
  showProblem(next.problem);
  if (view && next.version === view.version && next.game_version === view.game_version) return;
  renderer = await rendererFor(next.game);
  const sameChoices = view && JSON.stringify(view.actions) === JSON.stringify(next.actions);
  view = next;
  if (!sameChoices) picker = new Picker(view.actions, chosen);
  const mine = view.actions.length > 0;
  if (mine && !hadActions) buzz();
  hadActions = mine;
  draw();
}

/** Everything a renderer needs to draw: the view, names, texts, the picker. */
function context() {
  return {
    view,
    names: view.names,
    seat: view.seat,
    lang,
    t,
    pick,
    el,
    picker,
    seatName: (seat) => seatName(view.names, seat),
    text: (pair) => renderText(pick(pair), view.names),
  };
}

function draw() {
  const ctx = context();
  document.title = `${pick(view.title)} · ${t("app.name")}`;
  root.dataset.version = view.version; // which table version is on screen (tests wait on it)
  fill(
    root,
    headline(ctx),
    seats(ctx),
    view.over ? result(ctx) : null,
    el("section", { class: "board", "aria-label": t("board.public") }, renderer.render(ctx)),
    mode === "play" && view.seat !== null ? actionBar(ctx) : null,
    mode === "play" && view.seat === null ? el("p", { class: "no-seat" }, t("play.no_seat"), " ",
      el("a", { href: pageData.join_path }, t("play.join_link"))) : null,
    logList(ctx),
  );
}

function headline(ctx) {
  const waiting = view.to_act;
  let line;
  if (view.over) line = t("turn.over");
  else if (view.seat !== null && waiting.includes(view.seat)) line = t("turn.yours");
  else if (waiting.length) line = t("turn.waiting", { names: waiting.map(ctx.seatName).join(t("list.separator")) });
  else line = "";
  const status = renderer.status(ctx);
  return el("header", { class: "headline" },
    el("h1", {}, pick(view.title)),
    status ? el("p", { class: "game-status" }, status) : null,
    el("p", { class: view.actions.length ? "turn mine" : "turn", "data-testid": "turn" }, line));
}

/** The players, who is to act, and (from the renderer) what is public about each. */
function seats(ctx) {
  return el("ol", { class: "seats" }, view.names.map((name, seat) => {
    const toAct = view.to_act.includes(seat);
    return el("li", { class: ["seat", toAct ? "to-act" : "", seat === view.seat ? "me" : ""].join(" ").trim() },
      el("span", { class: "seat-name" }, ctx.seatName(seat)),
      seat === view.seat ? el("span", { class: "you" }, t("seat.you")) : null,
      toAct ? el("span", { class: "marker", title: t("seat.to_act") }, "▶ ", t("seat.to_act")) : null,
      renderer.seatInfo(ctx, seat));
  }));
}

function result(ctx) {
  const outcome = view.result || {};
  const winners = outcome.winners || [];
  const scores = outcome.scores || {};
  return el("section", { class: "result", "data-testid": "result" },
    el("h2", {}, t("result.title")),
    el("p", {}, winners.length
      ? t("result.winners", { names: winners.map(ctx.seatName).join(t("list.separator")) })
      : t("result.no_winner")),
    el("ul", {}, Object.entries(scores).map(([seat, score]) =>
      el("li", {}, ctx.seatName(Number(seat)), ": ", typeof score === "object" ? JSON.stringify(score) : String(score)))));
}

/** The action bar: the next thing to decide, as big buttons, then a confirm button. */
function actionBar(ctx) {
  const bar = el("section", { class: "actions", "aria-label": t("actions.title") });
  if (!view.actions.length) return bar;
  const chosen = picker.action();
  const next = picker.next();
  if (next) {
    const drawn = renderer.drawnFields(ctx, next.field);
    bar.append(el("p", { class: "prompt" }, renderer.prompt(ctx, next.field) || t("actions.choose")));
    if (!drawn) {
      bar.append(el("div", { class: "choices" }, next.values.map((value) =>
        el("button", {
          class: "big choice",
          type: "button",
          "data-field": next.field,
          "data-value": JSON.stringify(value),
          onclick: () => picker.choose(next.field, value),
        }, choiceLabel(ctx, next.field, value)))));
    }
  } else if (chosen) {
    bar.append(el("button", {
      class: "big confirm",
      type: "button",
      "data-testid": "confirm",
      disabled: sending,
      onclick: () => send(chosen),
    }, renderer.describe(ctx, chosen)));
  }
  if (Object.keys(picker.chosen).length) {
    bar.append(el("button", { class: "clear", type: "button", onclick: () => picker.clear() }, t("actions.clear")));
  }
  return bar;
}

function choiceLabel(ctx, field, value) {
  if (field === "type") return renderer.typeLabel(ctx, value);
  if (field === "shape") return renderer.shapeLabel(ctx, value);
  return renderer.label(ctx, field, value);
}

async function send(action) {
  if (sending) return;
  sending = true;
  draw();
  try {
    const next = await api("/api/actions", { method: "POST", body: { action, version: view.version } });
    say("");
    view = null; // the answer is the new view: draw it as such
    sending = false;
    await accept(next);
  } catch (error) {
    sending = false;
    say(error.message, "error");
    view = null;
    await refresh();
  }
}

async function accept(next) {
  if (view && next.version < view.version) return; // a newer view came by the event stream first
  renderer = await rendererFor(next.game);
  view = next;
  picker = new Picker(view.actions, chosen);
  hadActions = view.actions.length > 0;
  draw();
}

function logList(ctx) {
  const entries = [...view.log].reverse();
  return el("section", { class: "log", "aria-label": t("log.title") },
    el("h2", {}, t("log.title")),
    el("ol", {}, entries.map((entry) => el("li", {}, ctx.text(entry.text)))));
}

follow(refresh);
