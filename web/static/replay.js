// The replay page (/replay/<id>): a finished or abandoned play, one step at a time.
//
// The server drew what never changes (title, date, players, result) and the stepper. This
// file fetches the play's worded moves once (/api/plays/<id>) and each step's views from
// /api/plays/<id>/replay?step=k (kept: a step is fetched at most once), and draws a step as
// the table screen draws the game (the game's own renderer, public view, no choices), then
// every seat's hand: the part of the renderer's drawing a seat's private view makes
// (`section.private`), under that seat's name.
//
// The step is in the address (?step=k, or #k for a hand-written link), so a link shows a
// moment. Buttons, the slider and the ← → keys step.

import { api, clockWords, el, fill, lang, pick, renderText, say, seatName, t } from "./app.js";
import { Picker } from "./picker.js";
import { rendererFor } from "./renderer.js";

const page = document.getElementById("replay");
const playId = Number(page.dataset.play);
const slider = document.getElementById("step-slider");
const stepView = document.getElementById("step-view");
const handsBox = document.getElementById("hands");
const stepCount = document.querySelector('[data-testid="step-count"]');
const moveLine = document.querySelector('[data-testid="move"]');
const turnLine = el("p", { class: "step-move", "data-testid": "turn-time", hidden: true }); // how long that move's turn took
moveLine.after(turnLine);

const fetched = new Map(); // step -> the promise of its answer
let steps = Number(page.dataset.steps);
let wanted = 0; // the last step asked for (steps count from it); an older answer arriving late is not drawn
let movesInForce = []; // the play's moves not taken back, in order: move k led to step k
let renderer = null;

function fetchStep(step) {
  if (!fetched.has(step)) {
    const answer = api(`/api/plays/${playId}/replay?step=${step}`);
    fetched.set(step, answer);
    answer.catch(() => fetched.delete(step)); // a failed fetch is tried again next time
  }
  return fetched.get(step);
}

/** A context like the table screen's: the public view, nobody's seat, no choices. */
function context(answer, seat = null, texts = t) {
  const view = { ...answer.view, title: answer.title, names: answer.names, seat, actions: [],
    private: seat === null ? null : answer.hands[String(seat)] };
  return {
    view, names: view.names, seat, lang, t: texts, pick, el,
    picker: new Picker([], () => {}),
    seatName: (s) => seatName(view.names, s, answer.bots),
    text: (pair) => renderText(pick(pair), view.names, answer.bots),
    explain: () => {},
  };
}

/** The texts a hand is drawn with: "Your hand" becomes "Hand" under the seat's name
 * (`replay.as.<key>`), every other text as on the phone. */
function handTexts(key, params) {
  const other = `replay.as.${key}`;
  return t(t(other) === other ? key : other, params);
}

/** What led to step k: the worded move (the log's public lines), else who moved. */
function moveText(step) {
  if (step === 0) return t("replay.start");
  const move = movesInForce[step - 1];
  if (!move) return "";
  const words = move.text.map(pick).filter(Boolean);
  if (words.length) return words.join(" ");
  // A tracker's entries leave no log line: say what was entered (the play is over: nothing is secret).
  const name = move.name || t("seat.number", { n: move.seat + 1 });
  const did = `replay.did.${move.action.type}`;
  return t(did) === did ? t("replay.moved", { name }) : t(did, { ...move.action, name });
}

function seatsList(ctx, clock) {
  const waiting = ctx.view.waiting_for ?? ctx.view.to_act ?? [];
  return el("ol", { class: "seats" }, ctx.view.names.map((name, seat) =>
    el("li", { class: waiting.includes(seat) ? "seat to-act" : "seat" },
      el("span", { class: "seat-name" }, ctx.seatName(seat)),
      waiting.includes(seat) ? el("span", { class: "marker" }, "▶ ", t("seat.to_act")) : null,
      // Each player's time in the turns they ended by this step (plays kept with the turn clock).
      clock ? el("span", { class: "seat-time", "data-testid": "seat-time", title: t("clock.total") },
        `⏱ ${clockWords(clock.totals[seat] || 0)}`) : null,
      renderer.seatInfo(ctx, seat))));
}

/** The turn clock of a step, when the play kept turn times (null otherwise). */
function stepClock(answer) {
  const clock = answer.clock;
  return clock && (clock.totals.some((seconds) => seconds > 0) || clock.ended.length) ? clock : null;
}

/** How long the turns the step's move ended took: "Aki ⏱ 0:42". */
function turnTimes(answer, clock) {
  if (!clock) return "";
  return clock.ended.map((turn) => `${seatName(answer.names, turn.seat, answer.bots)} ⏱ ${clockWords(turn.seconds)}`)
    .join(t("list.separator"));
}

/** Each seat's hand as its renderer draws a private view, with the seat's name. */
function hands(answer) {
  const drawn = Object.keys(answer.hands).map(Number).sort((a, b) => a - b)
    .filter((seat) => Object.keys(answer.hands[String(seat)] || {}).length)
    .map((seat) => {
      const holder = el("div", {}, renderer.render(context(answer, seat, handTexts)));
      const parts = [...holder.querySelectorAll("section.private")];
      // The renderer's headings are the page's second level; here they sit under the seat's name.
      for (const heading of parts.flatMap((part) => [...part.querySelectorAll("h2")])) {
        heading.replaceWith(el("h4", {}, [...heading.childNodes]));
      }
      // Drawn from a player's page: the cards are buttons there. Here nothing is to be pressed.
      return el("section", { class: "hand-of", "data-seat": seat, inert: true },
        el("h3", {}, seatName(answer.names, seat, answer.bots)), parts);
    });
  return drawn.length ? drawn : el("p", { class: "no-hands" }, t("replay.no_hands"));
}

function draw(answer) {
  const ctx = context(answer);
  const status = renderer.status(ctx);
  fill(stepView,
    status ? el("p", { class: "game-status" }, status) : null,
    el("section", { class: "board", "aria-label": t("board.public") }, renderer.render(ctx)),
    seatsList(ctx, stepClock(answer)));
  fill(handsBox, hands(answer));
  stepCount.textContent = t("replay.step", { k: answer.step, n: answer.steps });
  moveLine.textContent = moveText(answer.step);
  turnLine.textContent = turnTimes(answer, stepClock(answer));
  turnLine.hidden = !turnLine.textContent;
  slider.value = String(answer.step);
  page.querySelector('[data-go="first"]').disabled = page.querySelector('[data-go="back"]').disabled = answer.step === 0;
  page.querySelector('[data-go="last"]').disabled = page.querySelector('[data-go="forward"]').disabled = answer.step === steps;
  page.dataset.step = String(answer.step); // which step is on screen (tests wait on it)
}

async function show(step) {
  wanted = step;
  slider.value = String(step);
  // Only the step: a link passed on opens in its reader's own language.
  history.replaceState(null, "", `?step=${step}`);
  // ...while the language switch keeps the step on screen.
  const languageSwitch = document.querySelector(".lang-switch");
  if (languageSwitch) languageSwitch.search = `?step=${step}&lang=${languageSwitch.hreflang}`;
  try {
    const answer = await fetchStep(step);
    if (step !== wanted) return;
    steps = answer.steps;
    renderer ??= await rendererFor(answer.game);
    draw(answer);
    say("");
  } catch (error) {
    say(error.message, "error");
  }
}

function go(where) {
  const to = { first: 0, back: wanted - 1, forward: wanted + 1, last: steps }[where];
  if (to >= 0 && to <= steps && to !== wanted) show(to);
}

/** The step the address asks for (?step=k or #k), and what to say when the play lacks it
 * (then the start is shown). */
function askedStep() {
  const text = new URL(window.location.href).searchParams.get("step") ?? window.location.hash.slice(1);
  if (!text) return [0, ""];
  if (/^[0-9]+$/.test(text) && Number(text) <= steps) return [Number(text), ""];
  return [0, t("replay.bad_step", { step: text, n: steps })];
}

for (const button of page.querySelectorAll("[data-go]")) button.addEventListener("click", () => go(button.dataset.go));
slider.addEventListener("input", () => show(Number(slider.value)));
document.addEventListener("keydown", (event) => {
  // On the slider the browser moves it by itself (its "input" event steps).
  if (event.target === slider || event.altKey || event.ctrlKey || event.metaKey) return;
  if (event.key === "ArrowLeft") go("back");
  else if (event.key === "ArrowRight") go("forward");
  else return;
  event.preventDefault();
});

(async () => {
  try {
    movesInForce = (await api(`/api/plays/${playId}`)).actions.filter((action) => !action.undone);
  } catch (error) {
    say(error.message, "error");
  }
  const [first, complaint] = askedStep();
  await show(first);
  if (complaint) say(complaint, "error");
})();
