// The home page: who sits where, and (for the host or on an idle table) starting a game.

import { api, fill, follow, pageData, showProblem } from "./app.js";
import { drawSeats, gameLine, startForm } from "./forms.js";

const form = document.getElementById("start-form");
let info = null;

follow(async () => {
  info = await api("/api/table");
  showProblem(info.problem);
  fill(document.getElementById("game-line"), gameLine(info));
  drawSeats(document.getElementById("seats"), info);
  if (form && !form.dataset.built) {
    form.dataset.built = "yes";
    startForm(form, info.offered_games, () => Boolean(info.game && !info.game.over), (answer, players) => {
      // Seats below the new player count stay held: a seated host goes on to play.
      const seated = pageData.seat !== null && pageData.seat < players;
      window.location.href = seated ? "/play" : pageData.join_path;
    });
  }
});
