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

/** The last move in force, as the log tells it (undo entries and moves taken back skipped). */
function lastMove() {
  const view = info && info.view;
  const entries = (view && view.log || []).filter((entry) => !entry.undone && !entry.kind);
  const last = entries[entries.length - 1];
  // Without its full stop: the question adds its own "?" ("…places a tile?", not "tile.?").
  return last ? renderText(pick(last.text), view.names, view.bots).replace(/[.。]$/, "") : null;
}

document.getElementById("undo").addEventListener("click", () => {
  const move = lastMove();
  if (window.confirm(move ? t("host.undo_confirm", { move }) : t("host.undo_confirm_plain"))) post("/api/undo", {}, t("host.undone"));
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
