// The phone page (/play) and the shared screen (/table): one view of the game, redrawn
// whenever the table changes.
//
// The page asks /api/view for what this phone may see (the server decides by the seat
// cookie; the shared screen gets the public view). The game's own renderer in
// /static/games/<game-id>.js draws the cards and boards; this file draws what every game
// shares: whose turn it is, the step's hint, the result, the action bar, the players,
// the log, and the host's and player's table controls (play again, leave my seat).
//
// Nothing on the page is fixed or sticky: on a small phone a pinned bar covers the hand.

import { api, buzz, clockWords, el, fill, follow, lang, pageData, pick, renderText, say, seatName, setTurnAlert, showProblem, softTone, t, turnAlertOn, ApiError } from "./app.js";
import { Picker } from "./picker.js";
import { rendererFor } from "./renderer.js";
import generic, { plain } from "./games/generic.js";

const root = document.getElementById("game");
const mode = pageData.mode; // "play": a phone; "table": the shared screen

let view = null; // the last view drawn
let picker = null;
let renderer = generic;
let wasWaitedFor = false;
let sending = false;
let sentPicker = null; // the picker whose choice was sent: no later view keeps that selection
let keptChoice = null; // what the renderer keeps chosen after a move it sent (renderer.keepAfter)
let hinting = false; // a hint has been asked for and not answered yet
let note = ""; // why a greyed-out choice cannot be taken now; cleared by the next choice
let isHost = Boolean(pageData.host); // host rights follow the view's is_host (a hand-over needs no reload)
let redrawNext = false; // after a refused or lost move: draw the next view even if its version is the same
let seenUndos = null; // the undo entries of the log already seen (null before the first view)
let hostSeat; // the host's seat in the last view (undefined before the first one)

/**
 * After each choice. A tap on a card, piece or cell only selects: an action it completes
 * waits for a second, deliberate tap (a target, or the confirm button that names it).
 * A choice that completes an action after an earlier one (the cell after the card), or a
 * button whose label is the move, sends it at once, unless the game wants that kind of
 * move confirmed. Otherwise: redraw with the narrowed choices.
 */
function chosen(how) {
  note = "";
  const action = picker.action();
  const deliberate = how === "button" || Object.keys(picker.chosen).length >= 2;
  if (action && deliberate && !renderer.confirm(context(), action)) send(action);
  else draw();
}

/** The seats whose input the step still needs (older servers: those who may act). */
const waitingFor = (someView) => someView.waiting_for ?? someView.to_act;

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
  let next;
  try {
    next = await fetchView();
  } catch (error) {
    // The seat's token opens nothing any more (the seat was freed): say so, stop following.
    if (error instanceof ApiError && error.status === 401 && mode === "play") return seatFreed(error);
    throw error;
  }
  if (!next) {
    view = null;
    fill(root, el("p", { class: "waiting" }, t("game.none")));
    return;
  }
  // An answer older than the view on screen (a move's answer can overtake an event's fetch) is dropped.
  if (view && next.version < view.version) return;
  showProblem(next.problem);
  if (!redrawNext && view && next.version === view.version && next.game_version === view.game_version) return;
  redrawNext = false;
  await accept(next);
}

/** Take `next` as the view on screen and draw it. */
async function accept(next) {
  await take(next);
  draw();
}

/** Take `next` as the view (not drawn yet): keep the selection while the choices stay the
 * same, unless it is the one just sent. */
async function take(next) {
  if (view && next.version < view.version) return; // a newer view came by the event stream first
  renderer = await rendererFor(next.game);
  const sameChoices = view && picker && picker !== sentPicker && JSON.stringify(view.actions) === JSON.stringify(next.actions);
  noticeUndos(next);
  noticeFirstPlayer(next);
  followHosting(next);
  // A new game (Play again, or one the host started) replaces the deal on screen: every screen says so.
  if (view && next.play_id !== view.play_id) say(t("game.new_started", { title: pick(next.title) }), "notice");
  view = next;
  clockRead = performance.now();
  if (!sameChoices) {
    picker = new Picker(view.actions, chosen);
    if (keptChoice && picker.matching(keptChoice).length) picker.chosen = { ...keptChoice };
    note = "";
  }
  keptChoice = null;
  const waited = view.seat !== null && waitingFor(view).includes(view.seat);
  // The table as this phone left it: taken at its own move (and at the first view of a game).
  if (!since || since.play !== view.play_id || (wasWaitedFor && !waited)) since = snapshot(view);
  if (waited && !wasWaitedFor) buzz();
  wasWaitedFor = waited;
  if (mode === "play" && view.over) await learnPlay(view.play_id);
  else finishedPlay = null; // taken back past its end: when it ends again, its result is asked anew
}

let since = null; // {play, public, seq}: the table as it was right after this phone's own last move

function snapshot(someView) {
  const seqs = (someView.log || []).map((entry) => entry.seq ?? 0);
  return { play: someView.play_id, public: someView.public, seq: seqs.length ? Math.max(...seqs) : 0 };
}

/** What the others did since this phone's last move, as the log says it (moves taken back
 * left out). Engines open a move's line with its player ("{s2} takes the top row"), so a
 * line opening with this seat is its own. */
function othersSince() {
  if (!since || view.seat === null) return [];
  const mine = `{s${view.seat}}`;
  return (view.log || []).filter((entry) => (entry.seq ?? 0) > since.seq && !entry.undone && !entry.kind
    && !String(entry.text?.en ?? entry.text).startsWith(mine));
}

let finishedPlay = null; // the finished game's play in the records: {id, bgstats_url}

/** The records' play of the game that just ended (the view's play_id), for the result's
 * links; asked once per end of a game. Without it the result shows no links. Only its
 * result is asked, not its moves, so the host can still take the last move back. */
async function learnPlay(playId) {
  if (playId == null || finishedPlay?.id === playId) return;
  try {
    const { id, bgstats_url } = await api(`/api/plays/${playId}/result`);
    // Kept only while the game is still over: taken back meanwhile, its next end asks again.
    finishedPlay = view.over && view.play_id === id ? { id, bgstats_url } : null;
  } catch {
    finishedPlay = null; // a record that cannot be read now: no links, asked again next time
  }
}

/** Every phone says so, briefly, when a move of the current game was taken back. */
function noticeUndos(next) {
  const undos = (next.log || []).filter((entry) => entry.kind === "undo").map((entry) => JSON.stringify(entry));
  const fresh = seenUndos ? undos.filter((entry) => !seenUndos.has(entry)) : [];
  seenUndos = new Set(undos);
  if (fresh.length) {
    const entry = JSON.parse(fresh[fresh.length - 1]);
    say(t("undo.notice", { move: renderText(pick(entry.text), next.names, next.bots) }), "notice");
  }
}

/**
 * Hosting moves without a reload (a hand-over, the host gone or leaving their seat): every
 * screen says who hosts now; the new host gets the tools. While no host is here, a seated
 * person's phone offers to take hosting in one tap.
 */
function followHosting(next) {
  if (!next.host) return; // an older server
  const newHost = next.host.seat;
  if (hostSeat !== undefined && newHost !== hostSeat && newHost !== null && newHost !== next.seat) {
    say(t("host.now_name", { name: seatName(next.names, newHost, next.bots) }), "notice");
  }
  hostSeat = newHost;
  if (mode !== "play") return;
  const take = document.getElementById("take-host");
  if (take) take.hidden = next.seat === null || Boolean(next.is_host) || next.host.present !== false;
  if (!("is_host" in next) || next.is_host === isHost) return;
  isHost = next.is_host;
  if (isHost) say(t("host.now_you"), "notice");
  const link = document.getElementById("host-link");
  if (link) link.hidden = !isHost;
}

/** No host is here: this seated person takes hosting (POST /api/host/claim). */
document.getElementById("take-host")?.addEventListener("click", async () => {
  try {
    await api("/api/host/claim", { method: "POST", body: {} });
  } catch (error) {
    say(error.message, "error");
  }
  live.refresh();
});

let live = null;

function seatFreed(error) {
  live.stop();
  view = null;
  fill(root, el("section", { class: "freed", "data-testid": "seat-freed" },
    el("h1", {}, t("freed.title")),
    el("p", {}, error.reason === "seat_freed" || !error.message ? t("freed.explain") : error.message),
    el("a", { class: "big button", href: pageData.join_path, "data-testid": "join-again" }, t("freed.join_again"))));
  document.getElementById("leave")?.remove();
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
    seatName: (seat) => seatName(view.names, seat, view.bots),
    /** The public view as it was right after this phone's own last move (null on the table
     * screen): renderers mark what changed since, the last moves of every other seat. */
    since: mode === "play" && view.seat !== null && since ? since.public : null,
    text: (pair) => renderText(pick(pair), view.names, view.bots),
    /** Say why a greyed-out choice cannot be taken now (shown by the action bar). */
    explain: (why) => {
      note = why;
      draw();
    },
  };
}

function draw() {
  const ctx = context();
  document.title = `${pick(view.title)} · ${t("app.name")}`;
  root.dataset.version = view.version; // which table version is on screen (tests wait on it)
  // Busy from the tap that sends a move until its answer is drawn: screen readers wait, and
  // so do tests (the event stream may draw the new version first, the answer draws it again).
  root.setAttribute("aria-busy", String(sending));
  const seated = mode === "play" && view.seat !== null;
  const board = el("section", { class: "board", "aria-label": t("board.public") }, renderer.render(ctx));
  const bar = seated ? actionBar(ctx) : null;
  fill(
    root,
    headline(ctx),
    firstPlayer(ctx),
    view.over ? null : emptySeats(ctx),
    view.over ? result(ctx) : null,
    board,
    bar,
    mode === "play" && view.seat === null ? el("p", { class: "no-seat" }, t("play.no_seat"), " ",
      el("a", { href: pageData.join_path }, t("play.join_link"))) : null,
    seats(ctx),
    view.over ? null : clockTarget(),
    logList(ctx),
    // Said on every phone, under the game so it never pushes the turn's controls down.
    view.seed_chosen ? el("p", { class: "seed-chosen", "data-testid": "seed-chosen" }, t("play.seed_chosen")) : null,
  );
  if (bar) placeBar(board, bar);
}

/**
 * Put the action bar on the first screen, beside what it acts on (issue 24: no control below
 * the fold): right after the part of the drawing (`data-bar-after`) that holds the last thing
 * chosen, else in the renderer's `data-actions-slot` (e.g. above Pig House's track), else
 * where it is, under the drawing.
 */
function placeBar(board, bar) {
  const chosen = [...board.querySelectorAll(".chosen")].pop();
  const part = chosen && chosen.closest("[data-bar-after]");
  if (part) return part.after(bar);
  const slot = board.querySelector("[data-actions-slot]");
  if (slot) slot.replaceWith(bar);
}

function headline(ctx) {
  const waiting = waitingFor(view);
  const yours = view.seat !== null && waiting.includes(view.seat);
  let line;
  if (view.over) line = t("turn.over");
  else if (yours) line = t("turn.yours");
  else if (waiting.length) line = t("turn.waiting", { names: waiting.map(ctx.seatName).join(t("list.separator")) });
  else line = "";
  const status = renderer.status(ctx);
  const hintKey = `hint.${view.game}.${(view.public || {}).step}`;
  const hint = !view.over && t(hintKey) !== hintKey ? t(hintKey) : "";
  return el("header", { class: "headline" },
    el("div", { class: "title-line" },
      el("h1", {}, pick(view.title)),
      el("a", { class: "rules-link", href: `/rules/${view.game}`, "data-testid": "rules-link" }, t("play.rules"))),
    status ? el("p", { class: "game-status" }, status) : null,
    // Whose turn it is and its time share one row (it wraps only when they do not fit): a
    // row of its own pushed a ledger's loss entry below the fold at 360x640.
    el("div", { class: "turn-row" },
      line ? el("p", { class: yours ? "turn mine" : "turn", "data-testid": "turn" }, line) : null,
      turnClock(ctx)),
    // A bot that cannot move says why, and that it tries again (the table keeps the words).
    Object.entries(view.troubles || {}).map(([seat, words]) =>
      el("p", { class: "bot-trouble", role: "status", "data-testid": "bot-trouble" },
        t("bot.trouble", { name: ctx.seatName(Number(seat)), why: pick(words) }))),
    botsHoldStill() ? el("p", { class: "step-hint", role: "status", "data-testid": "bots-paused" }, t("bots.paused")) : null,
    yours ? sinceLine(ctx) : null,
    hint ? el("p", { class: "step-hint", "data-testid": "hint" }, hint) : null);
}

/**
 * Who starts (docs/phone.md, "Who starts"): before the first move, a seated player or the
 * host draws one of the game's seats at random (a free seat takes part for whoever sits
 * there next). Two taps: the first only opens the offer, the
 * second draws (which cannot be taken back). Once drawn, every screen names them until the
 * first move; the log keeps it.
 */
function firstPlayer(ctx) {
  if (view.over || view.game_version !== 0) return null;
  const drawn = view.options?.first_player;
  if (drawn !== undefined) {
    return el("p", { class: "first-player", role: "status", "data-testid": "first-player" },
      t("first.drawn", { name: ctx.seatName(drawn) }));
  }
  if (mode !== "play" || (view.seat === null && !isHost)) return null;
  return el("details", { class: "first-player-offer", "data-testid": "first-player-offer" },
    el("summary", {}, t("first.offer")),
    el("p", {}, t("first.explain", { n: view.names.length })),  // the game's seats, taken or free
    el("button", { class: "big", type: "button", "data-testid": "first-player-draw", onclick: drawFirstPlayer },
      t("first.draw")));
}

/** Draw who starts (POST /api/first-player); the answer is this phone's view, naming them. */
async function drawFirstPlayer() {
  try {
    await accept(await api("/api/first-player", { method: "POST", body: {} }));
  } catch (error) {
    say(error.message, "error");
    live.refresh();
  }
}

/** Every phone says so when who starts has just been drawn (the log's first-player entry). */
function noticeFirstPlayer(next) {
  if (!view || view.play_id !== next.play_id || view.options?.first_player !== undefined) return;
  const entry = (next.log || []).find((line) => line.kind === "first-player");
  if (entry) say(renderText(pick(entry.text), next.names, next.bots), "notice");
}

/** Right after an undo, while a bot is awaited: the bots hold still a moment (docs/bots.md),
 * so the move taken back does not come straight back; say so, or the table looks stuck. */
function botsHoldStill() {
  const last = view.log[view.log.length - 1];
  return !view.over && last && last.kind === "undo" && waitingFor(view).some((seat) => view.bots && view.bots[seat]);
}

/** On my turn: what the others did since my last move. One line, the newest move, so the
 * step's controls stay on the first screen; the earlier ones one tap away (newest last). */
function sinceLine(ctx) {
  const entries = othersSince().slice(-SINCE_SHOWN);
  if (!entries.length) return null;
  const texts = entries.map((entry) => ctx.text(entry.text));
  const newest = el("span", { class: "since-newest" }, el("span", { class: "mark-legend" }, "✦ "),
    el("span", { class: "since-title" }, t("since.title"), " "),
    texts[texts.length - 1]);
  // Folded, so on a small phone the line is cut to one (style.css): one tap shows them all in full.
  return el("details", { class: "since", "data-testid": "since" },
    el("summary", {}, newest, texts.length > 1 ? el("span", { class: "since-more" }, t("since.more", { n: texts.length - 1 })) : null),
    el("ol", {}, texts.map((text) => el("li", {}, text))));
}

const SINCE_SHOWN = 4; // the last moves of three other seats, and one more

/** The join code, from the join path the page was given ("/J/ABCD"). */
const joinCode = () => pageData.join_path.split("/").pop();

/**
 * A free seat the step waits for stalls the game: say so on every screen in one compact line
 * with the join code, so the step's own controls stay on the first screen. The host of a game
 * with bots also gets "Add a bot…" on that line: a deliberate second step (it opens the
 * seats' level buttons), never the page's main button.
 */
function emptySeats(ctx) {
  const empty = waitingFor(view).filter((seat) => !view.names[seat]);
  if (!empty.length) return null;
  const bots = (pageData.bot_games || []).includes(view.game);
  const hostTools = mode === "play" && isHost && bots;
  const key = `empty.${empty.length > 1 ? "seats" : "seat"}${bots && !hostTools ? "_bots" : ""}`;
  const line = el("p", { class: "empty-line" },
    el("span", { class: "empty-mark", "aria-hidden": "true" }, "○ "),
    t(key, { seat: ctx.seatName(empty[0]), numbers: empty.map((seat) => seat + 1).join(t("list.separator")),
      code: joinCode() }));
  const addBot = hostTools ? el("details", { class: "add-bot", "data-testid": "add-bot" },
    el("summary", {}, t("empty.add_bot")),
    empty.map((seat) => el("div", { class: "add-bot-seat", "data-seat": seat },
      el("span", { class: "add-bot-name" }, ctx.seatName(seat)),
      ["easy", "normal", "strong"].map((level) =>
        el("button", { type: "button", "data-testid": `empty-bot-${level}`, onclick: () => seatBot(seat, level) },
          t(`bots.level.${level}`)))))) : null;
  return el("section", { class: "empty-seats", "data-testid": "empty-seats" }, line, addBot);
}

/** The host seats a bot on a free seat from the phone (POST /api/seats/<n>/bot). */
async function seatBot(seat, level) {
  try {
    await api(`/api/seats/${seat}/bot`, { method: "POST", body: { level } });
    say(t("bots.seated"));
  } catch (error) {
    say(error.message, "error");
  }
  live.refresh();
}

/** The players, who is to act, and (from the renderer) what is public about each. */
function seats(ctx) {
  const waiting = waitingFor(view);
  const clock = view.clock;
  return el("ol", { class: "seats" }, view.names.map((name, seat) => {
    const toAct = waiting.includes(seat);
    const timed = clock && clock.seats[seat];
    return el("li", { class: ["seat", toAct ? "to-act" : "", seat === view.seat ? "me" : ""].join(" ").trim() },
      el("span", { class: "seat-name" }, ctx.seatName(seat)),
      seat === view.seat ? el("span", { class: "you" }, t("seat.you")) : null,
      toAct ? el("span", { class: "marker", title: t("seat.to_act") }, "▶ ", t("seat.to_act")) : null,
      // Each player's time in all this game (its turns in force), ticking during its turn.
      timed ? el("span", { class: "seat-time", "data-clock-total": seat, "data-testid": "seat-time",
        title: t("clock.total") }, clockText(timed, "total")) : null,
      renderer.seatInfo(ctx, seat));
  }));
}

// ---------------------------------------------------------------- the turn clock (docs/phone.md)

let clockRead = 0; // performance.now() when the view's clock was read: running times count on from it
const toneRung = new Set(); // "play:seat:turn start" of the turns whose target already sounded
const CLOCK_TARGETS = [30, 60, 90, 120, 180, 300, 600]; // as companion/clock.py offers them

/** A seat's turn or total seconds as of now: the view's, plus the time since it was read while it runs. */
function clockSeconds(timed, which) {
  const base = timed[which];
  if (base == null) return null;
  return base + (timed.running ? (performance.now() - clockRead) / 1000 : 0);
}

function clockText(timed, which) {
  const seconds = clockSeconds(timed, which);
  return seconds == null ? "" : `⏱ ${clockWords(seconds)}`;
}

/** Past the target: marked by colour AND symbol AND words, never more (the turn goes on). */
function overTarget(timed) {
  const turn = clockSeconds(timed, "turn");
  return view.clock.target != null && turn != null && turn >= view.clock.target;
}

/** The seats waited for, each with its turn's time; why the clock stands still; one tap to
 * pause or resume (anyone seated, or the host). The shared screen shows it without the button. */
function turnClock(ctx) {
  const clock = view.clock;
  if (!clock || view.over || !clock.seats.some((timed) => timed.turn !== null)) return null;
  const canTap = mode === "play" && (view.seat !== null || isHost);
  const held = clock.paused || clock.why === "question"; // a tap resumes (and ends a question left open)
  return el("div", { class: `turn-clock ${clock.running ? "running" : "stopped"}`, "data-testid": "turn-clock",
    "data-why": clock.why ?? "running" },
    clock.seats.filter((timed) => timed.turn !== null).map((timed) => clockFace(ctx, timed)),
    clock.running ? null : el("span", { class: "clock-why", "data-testid": "clock-why" }, "⏸ ", t(`clock.why.${clock.why}`)),
    // A short word beside the time it acts on (the whole phrase is its spoken name): the long
    // one put the clock on a row of its own at 360 px.
    canTap ? el("button", { type: "button", class: "clock-toggle", "data-testid": "clock-toggle",
      "aria-pressed": String(held), "aria-label": t(held ? "clock.resume" : "clock.pause"),
      onclick: () => setClock({ paused: !held }) },
      held ? `▶ ${t("clock.resume_short")}` : `⏸ ${t("clock.pause_short")}`) : null);
}

function clockFace(ctx, timed) {
  const over = overTarget(timed);
  return el("span", { class: over ? "clock-face over-target" : "clock-face", "data-clock-turn": timed.seat,
    "data-testid": "clock-face" },
    `${ctx.seatName(timed.seat)} `, el("span", { class: "clock-time" }, clockFaceText(timed)));
}

function clockFaceText(timed) {
  const words = clockText(timed, "turn");
  return overTarget(timed) ? `${words.replace("⏱", "⌛")} ${t("clock.over_target")}` : words;
}

/** The per-turn target: a choice under the players (2 taps), shown wherever the clock is. */
function clockTarget() {
  const clock = view.clock;
  if (!clock || mode !== "play" || (view.seat === null && !isHost)) return null;
  const choice = el("select", { "data-testid": "clock-target", "aria-label": t("clock.target"),
    onchange: (event) => setClock({ target: event.target.value === "" ? null : Number(event.target.value) }) },
    el("option", { value: "" }, t("clock.target_none")),
    CLOCK_TARGETS.map((seconds) => el("option", { value: seconds }, clockWords(seconds))));
  choice.value = clock.target == null ? "" : String(clock.target);
  return el("label", { class: "clock-target" }, `⌛ ${t("clock.target")} `, choice);
}

async function setClock(body) {
  try {
    await api("/api/clock", { method: "POST", body });
  } catch (error) {
    say(error.message, "error");
  }
  live.refresh();
}

/** Every second: the running times on screen count on, a turn past the target is marked and,
 * once per turn, sounds softly on a phone that chose sound. Nothing is fetched. */
function tickClock() {
  const clock = view && view.clock;
  if (!clock || !clock.running) return;
  for (const timed of clock.seats) {
    if (!timed.running) continue;
    const face = root.querySelector(`[data-clock-turn="${timed.seat}"]`);
    if (face) {
      face.querySelector(".clock-time").textContent = clockFaceText(timed);
      face.classList.toggle("over-target", overTarget(timed));
    }
    const total = root.querySelector(`[data-clock-total="${timed.seat}"]`);
    if (total) total.textContent = clockText(timed, "total");
    // This turn: the seat's time before it, the same at every read of the view.
    const key = `${view.play_id}:${timed.seat}:${Math.round(timed.total - timed.turn)}`;
    if (overTarget(timed) && !toneRung.has(key)) {
      toneRung.add(key);
      softTone();
    }
  }
}
setInterval(tickClock, 1000);

/** The result: the server's summary first (it names winners, ties and the lions' win), then the scores. */
function result(ctx) {
  const outcome = view.result || {};
  const winners = outcome.winners || [];
  const scores = outcome.scores || {};
  let first;
  if (outcome.summary) first = ctx.text(outcome.summary);
  else if (outcome.lions_win) first = t("result.lions_win");
  else if (winners.length) first = t(winners.length > 1 ? "result.winners_tied" : "result.winner", { names: winners.map(ctx.seatName).join(t("list.separator")) });
  else first = t("result.no_winner");
  return el("section", { class: "result", "data-testid": "result" },
    el("h2", {}, t("result.title")),
    el("p", { class: "summary", "data-testid": "summary" }, first),
    el("ul", {}, Object.entries(scores).map(([seat, score]) =>
      el("li", {}, ctx.seatName(Number(seat)), ": ", plain(score)))),
    mode === "play" ? playLinks() : null,
    mode === "play" && isHost ? el("button", { class: "big", type: "button", "data-testid": "rematch", onclick: rematch }, t("rematch.button")) : null);
}

/** The finished play's links: BG Stats (in the phone's own browser, over its own network) and the replay. */
function playLinks() {
  if (!finishedPlay || finishedPlay.id !== view.play_id) return null;
  return el("p", { class: "links" },
    finishedPlay.bgstats_url ? el("a", { class: "button", href: finishedPlay.bgstats_url, target: "_blank", rel: "noopener",
      "data-testid": "bgstats" }, t("result.bgstats")) : null,
    el("a", { class: "button", href: `/replay/${finishedPlay.id}`, "data-testid": "replay" }, t("result.replay")));
}

/** The host starts the same game again: same players on the same seats, a new deal. */
async function rematch() {
  try {
    await api("/api/rematch", { method: "POST", body: {} });
    say(t("rematch.started"));
  } catch (error) {
    say(error.message, "error");
  }
  live.refresh();
}

/** The action bar: the next thing to decide, the confirm button that names the move, cancel. */
function actionBar(ctx) {
  const bar = el("section", { class: "actions", "aria-label": t("actions.title") });
  if (note) bar.append(el("p", { class: "note", "data-testid": "note" }, note));
  if (!view.actions.length) return bar;
  const chosenAction = picker.action();
  const next = picker.next();
  if (next) {
    bar.dataset.next = next.field; // the field the picker asks for next (the whole-game tests follow it)
    const drawn = renderer.drawnFields(ctx, next.field);
    bar.append(el("p", { class: "prompt" }, renderer.prompt(ctx, next.field) || t("actions.choose")));
    if (!drawn) {
      bar.append(el("div", { class: "choices" }, next.values.map((value) =>
        el("button", {
          class: "big choice",
          type: "button",
          "data-field": next.field,
          "data-value": JSON.stringify(value),
          onclick: () => picker.choose(next.field, value, "button"),
        }, choiceLabel(ctx, next.field, value)))));
    }
  }
  if (chosenAction && !Object.keys(picker.chosen).length && renderer.confirm(ctx, chosenAction)) {
    // The only move left, and one the game asks to confirm (Pig House's "Attack done" while
    // others may still be entering their lost pigs): a first tap selects it, a second sends it.
    bar.append(el("button", {
      class: "big choice",
      type: "button",
      "data-action": JSON.stringify(chosenAction),
      "data-testid": "choose-only",
      onclick: () => picker.chooseAll(chosenAction),
    }, renderer.describe(ctx, chosenAction)));
  } else if (chosenAction) {
    bar.append(el("button", {
      class: "big confirm",
      type: "button",
      "data-testid": "confirm",
      disabled: sending,
      onclick: () => send(chosenAction),
    }, renderer.describe(ctx, chosenAction)));
  }
  if ((pageData.bot_games || []).includes(view.game)) {
    bar.append(el("button", { class: "clear", type: "button", "data-testid": "hint-button", disabled: hinting || sending,
      onclick: askHint }, hinting ? t("suggest.thinking") : t("suggest.button")));
  }
  if (Object.keys(picker.chosen).length) {
    bar.append(el("button", { class: "clear", type: "button", "data-testid": "cancel", onclick: () => picker.clear() }, t("actions.clear")));
  }
  return bar;
}

function choiceLabel(ctx, field, value) {
  if (field === "type") return renderer.typeLabel(ctx, value);
  if (field === "shape") return renderer.shapeLabel(ctx, value);
  return renderer.label(ctx, field, value);
}

/** Ask the bot for a move (GET /api/hint) and show it chosen: the player confirms or cancels. */
async function askHint() {
  hinting = true;
  draw();
  const asked = view.version;
  try {
    const { action } = await api("/api/hint");
    if (view && view.version === asked) {
      picker.suggest(action);
      note = t("suggest.note", { move: renderer.describe(context(), action) });
    }
  } catch (error) {
    say(error.message, "error");
  }
  hinting = false;
  draw();
}

async function send(action) {
  if (sending) return;
  sending = true;
  sentPicker = picker;
  keptChoice = renderer.keepAfter(context(), action);
  draw();
  try {
    const next = await api("/api/actions", { method: "POST", body: { action, version: view.version } });
    say("");
    // The answer is the new view, but the event stream may have brought it (or a newer one)
    // first, and the player may already have chosen on it: that choice stays, now confirmable.
    await take(next);
    // Still sending until here, so that a view the stream draws meanwhile stays busy.
    sending = false;
    draw();
  } catch (error) {
    sending = false;
    root.setAttribute("aria-busy", "false"); // the redraw waits for the table's view, which may take an outage
    // Refused: say why. Lost on the way (was it applied?): the table's view says, and while
    // the table cannot be reached the connection banner says so: one message, not two.
    if (error.status === 0) say("");
    else say(error.message, "error");
    // A fetch that fails too is retried by follow() until it works.
    redrawNext = true;
    live.refresh();
  }
}

/** One log entry: its text; a move taken back struck through and marked; undo entries set apart. */
function logEntry(ctx, entry) {
  const classes = [entry.undone ? "undone" : "", entry.kind ? `kind-${entry.kind}` : ""].join(" ").trim();
  return el("li", { class: classes || null },
    el("span", { class: "log-text" }, ctx.text(entry.text)),
    entry.undone ? el("span", { class: "taken-back" }, ` (${t("log.taken_back")})`) : null);
}

let wholeLogOpen = false; // the whole log stays open (and is fetched again) across redraws

/** The last entries in play order (newest last), and on a phone the whole game's log one tap
 * away (not on the shared screen: /api/log answers by the browser's seat, which may hold one). */
function logList(ctx) {
  let details = null;
  if (mode === "play") {
    const whole = el("ul", { class: "log-entries", "data-testid": "full-log" });
    details = el("details", { class: "full-log", open: wholeLogOpen }, el("summary", {}, t("log.whole")), whole);
    details.addEventListener("toggle", async () => {
      wholeLogOpen = details.open;
      if (!details.open) return;
      fill(whole, el("li", {}, t("log.loading")));
      fill(whole, (await wholeLog()).map((entry) => logEntry(ctx, entry)));
    });
  }
  return el("section", { class: "log", "aria-label": t("log.title") },
    el("h2", {}, t("log.title")),
    el("ul", { class: "log-entries", "data-testid": "log" }, view.log.map((entry) => logEntry(ctx, entry))),
    details);
}

/** The whole game's log for this page (an older server without /api/log: the recent entries). */
async function wholeLog() {
  try {
    const answer = await api("/api/log");
    return Array.isArray(answer) ? answer : answer.log;
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return view.log;
    say(error.message, "error");
    return [];
  }
}

/** A player leaves the table: their seat is freed for someone else (asks first). */
document.getElementById("leave")?.addEventListener("click", async () => {
  if (!window.confirm(t("leave.confirm"))) return;
  try {
    await api(`/api/seats/${pageData.seat}/leave`, { method: "POST", body: {} });
    window.location.href = "/";
  } catch (error) {
    say(error.message, "error");
  }
});

/** The turn alert's switch (a sound and a buzz when my turn starts): off until this phone asks. */
const alertSwitch = document.getElementById("turn-alert");
function showAlertSwitch() {
  const on = turnAlertOn();
  alertSwitch.setAttribute("aria-pressed", String(on));
  alertSwitch.textContent = t(on ? "alert.on" : "alert.off");
}
if (alertSwitch) {
  showAlertSwitch();
  alertSwitch.addEventListener("click", () => {
    setTurnAlert(!turnAlertOn());
    showAlertSwitch();
  });
}

live = follow(refresh);
