// Host tools: undo (asks first, naming the move), free a seat or all seats, hand hosting
// over, seat a bot on a free seat (games with bots), start a new game.

import { api, el, fill, follow, pageData, pick, renderText, say, seatEntryName, showProblem, t } from "./app.js";
import { drawSeats, gameLine, startForm } from "./forms.js";

let info = null;

async function post(path, body, done) {
  try {
    await api(path, { method: "POST", body });
    say(done);
  } catch (error) {
    say(error.message, "error");
  }
  live.refresh();
}

/** The question before an undo, naming what it takes back as the table says (`undo`: the
 * last person's move, with the bots' replies after it). */
function undoQuestion() {
  const undo = info && info.undo;
  // Without its full stop: the question adds its own "?" ("…places a tile?", not "tile.?").
  const move = undo && undo.move ? renderText(pick(undo.move), info.view.names, info.view.bots).replace(/[.。]$/, "") : null;
  if (!move) return t("host.undo_confirm_plain");
  const replies = undo.moves - 1;
  if (!replies) return t("host.undo_confirm", { move });
  return t(replies === 1 ? "host.undo_confirm_reply" : "host.undo_confirm_replies", { move, n: replies });
}

/** Hold the turn clock while the question is open (the table waits for nobody meanwhile);
 * a question that cannot say so is still asked. */
async function holdTheClock(open) {
  try {
    await api("/api/clock/question", { method: "POST", body: { open } });
  } catch {
    // the clock keeps running: the undo itself matters more
  }
}

document.getElementById("undo").addEventListener("click", async () => {
  const holding = holdTheClock(true); // sent at once: the question does not wait for its answer
  const yes = window.confirm(undoQuestion());
  await holding; // let go only after holding (an instant answer must not overtake it)
  await holdTheClock(false);
  if (yes) post("/api/undo", {}, t("host.undone"));
});

document.getElementById("free-all").addEventListener("click", () => {
  if (window.confirm(t("host.free_all_confirm"))) post("/api/seats/free-all", {}, t("host.freed_all"));
});

/** On a free seat of a game with bots: one button per level that seats a bot there. */
function botButtons(seat) {
  if (!info.game || info.game.over || !(pageData.bot_games || []).includes(info.game.id)) return null;
  return ["easy", "normal", "strong"].map((level) => el("button", { type: "button", "data-testid": `bot-${level}`,
    onclick: () => post(`/api/seats/${seat.seat}/bot`, { level }, t("bots.seated")) }, t(`bots.level.${level}`)));
}

const live = follow(async () => {
  info = await api("/api/table");
  showProblem(info.problem);
  fill(document.getElementById("game-line"), gameLine(info));
  drawSeats(document.getElementById("seats"), info, (seat) => seat.taken ? [
    el("button", { type: "button", onclick: () => window.confirm(t("host.free_confirm", { name: seatEntryName(seat) }))
      && post(`/api/seats/${seat.seat}/free`, {}, t("host.freed")) }, t("host.free")),
    // No "Make host" beside the host's own seat (a host device's seat token differs from its host
    // token), nor beside a bot: a bot never hosts (the table refuses it).
    seat.bot || info.host.seat === seat.seat || pageData.seat === seat.seat ? null : el("button", { type: "button",
      onclick: () => window.confirm(t("host.hand_over_confirm", { name: seatEntryName(seat) }))
        && post("/api/host/hand-over", { seat: seat.seat }, t("host.handed_over")) }, t("host.hand_over")),
  ] : botButtons(seat));
  const form = document.getElementById("start-form");
  if (!form.dataset.built) {
    form.dataset.built = "yes";
    startForm(form, info.offered_games, info.game, () => Boolean(info.game && !info.game.over), (answer, players) => {
      const seated = pageData.seat !== null && pageData.seat < players;
      window.location.href = seated ? "/play" : pageData.join_path;
    }, () => info.seats);
  }
});
