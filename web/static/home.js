// The home page: who sits where, and (for the host or on an idle table) starting a game.
// When every seat is taken, "Take a seat" steps back and watching the table is the main button.

import { api, fill, follow, pageData, showProblem } from "./app.js";
import { drawSeats, gameLine, startForm } from "./forms.js";

const form = document.getElementById("start-form");
let info = null;

follow(async () => {
  info = await api("/api/table");
  showProblem(info.problem);
  fill(document.getElementById("game-line"), gameLine(info));
  drawSeats(document.getElementById("seats"), info);
  const full = info.seats.length > 0 && info.seats.every((seat) => seat.taken);
  document.getElementById("join-link")?.classList.toggle("big", !full);
  document.getElementById("watch-link").classList.toggle("big", full && pageData.seat === null);
  if (form && !form.dataset.built) {
    form.dataset.built = "yes";
    startForm(form, info.offered_games, info.game, () => Boolean(info.game && !info.game.over), (answer, players) => {
      // Seats below the new player count stay held: a seated host goes on to play.
      const seated = pageData.seat !== null && pageData.seat < players;
      window.location.href = seated ? "/play" : pageData.join_path;
    }, () => info.seats);
  }
});
