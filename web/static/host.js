// Host tools: undo, free a seat, hand hosting over, start a new game.

import { api, el, fill, follow, pageData, say, showProblem, t } from "./app.js";
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

document.getElementById("undo").addEventListener("click", () => post("/api/undo", {}, t("host.undone")));

const live = follow(async () => {
  info = await api("/api/table");
  showProblem(info.problem);
  fill(document.getElementById("game-line"), gameLine(info));
  drawSeats(document.getElementById("seats"), info, (seat) => seat.taken ? [
    el("button", { type: "button", onclick: () => window.confirm(t("host.free_confirm", { name: seat.name }))
      && post(`/api/seats/${seat.seat}/free`, {}, t("host.freed")) }, t("host.free")),
    info.host.seat === seat.seat ? null : el("button", { type: "button",
      onclick: () => window.confirm(t("host.hand_over_confirm", { name: seat.name }))
        && post("/api/host/hand-over", { seat: seat.seat }, t("host.handed_over")) }, t("host.hand_over")),
  ] : null);
  const form = document.getElementById("start-form");
  if (!form.dataset.built) {
    form.dataset.built = "yes";
    startForm(form, info.offered_games, () => Boolean(info.game && !info.game.over), (answer, players) => {
      const seated = pageData.seat !== null && pageData.seat < players;
      window.location.href = seated ? "/play" : pageData.join_path;
    });
  }
});
