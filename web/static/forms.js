// Pieces shared by the home, join and host pages: the line about the current game, the
// list of seats, and the form that starts a game (built from the table's offered games
// and their options, so a new game or option needs no change here).

import { api, el, fill, pick, say, t } from "./app.js";

/** "Lion Square · 4 players" or "No game yet". */
export function gameLine(info) {
  if (!info.game) return t("game.none");
  const over = info.game.over ? ` · ${t("game.over")}` : "";
  return `${pick(info.game.title)} · ${t("game.players", { n: info.game.players })}${over}`;
}

/**
 * Fill `list` with one item per seat: its number, its player's name (as text, never
 * HTML) or "free", and whatever `extra(seat)` adds (buttons).
 */
export function drawSeats(list, info, extra = () => null) {
  fill(list, info.seats.map((seat) =>
    el("li", { class: seat.taken ? "seat taken" : "seat free", "data-seat": seat.seat },
      el("span", { class: "seat-number" }, t("seat.number", { n: seat.seat + 1 })),
      " ",
      el("span", { class: "seat-name" }, seat.taken ? seat.name : t("seat.free")),
      info.host.seat === seat.seat ? el("span", { class: "badge" }, t("seat.host")) : null,
      extra(seat))));
}

/** The value of an option field: its choice's JSON, or typed text read as JSON when it is JSON. */
function optionValue(input) {
  if (input.dataset.json === "choice") return JSON.parse(input.value);
  try {
    return JSON.parse(input.value);
  } catch {
    return input.value;
  }
}

/**
 * Build the start-a-game form in `form` from `offered` (the table's offered_games),
 * set to the `current` game (the table's `game`, or null) and its player count.
 * `running` says whether an unfinished game would be abandoned (then it asks first).
 * `started(answer, players)` runs after the server started the game.
 */
export function startForm(form, offered, current, running, started) {
  const gameSelect = el("select", { id: "start-game", name: "game" },
    offered.map((game) => el("option", { value: game.id, selected: current && current.id === game.id }, pick(game.title))));
  const playersSelect = el("select", { id: "start-players", name: "players" });
  const optionsBox = el("div", { class: "options" });
  const seedInput = el("input", { id: "start-seed", name: "seed", type: "number", min: "0", step: "1", inputmode: "numeric" });

  function drawGame() {
    const game = offered.find((g) => g.id === gameSelect.value);
    const players = [];
    players.push(...game.player_counts);
    const same = current && current.id === game.id;
    fill(playersSelect, players.map((n) => el("option", { value: n, selected: same && current.players === n }, t("game.players", { n }))));
    fill(optionsBox, game.options.map((option) => {
      const id = `option-${option.name}`;
      const input = option.choices
        ? el("select", { id, name: option.name, "data-json": "choice" }, option.choices.map((choice) =>
          el("option", { value: JSON.stringify(choice), selected: JSON.stringify(choice) === JSON.stringify(option.default) },
            t(`option.${game.id}.${option.name}.${choice}`) === `option.${game.id}.${option.name}.${choice}`
              ? String(choice) : t(`option.${game.id}.${option.name}.${choice}`))))
        : el("input", { id, name: option.name, value: typeof option.default === "string" ? option.default : JSON.stringify(option.default) });
      return el("p", { class: "option" },
        el("label", { for: id }, pick(option.label)), input,
        pick(option.help) ? el("small", {}, pick(option.help)) : null);
    }));
  }

  gameSelect.addEventListener("change", drawGame);
  fill(form,
    el("p", {}, el("label", { for: "start-game" }, t("start.game")), gameSelect),
    el("p", {}, el("label", { for: "start-players" }, t("start.players")), playersSelect),
    optionsBox,
    el("details", {}, el("summary", {}, t("start.advanced")),
      el("p", {}, el("label", { for: "start-seed" }, t("start.seed")), seedInput)),
    el("button", { class: "big", type: "submit", "data-testid": "start" }, t("start.button")));
  drawGame();

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    if (running() && !window.confirm(t("start.confirm_abandon"))) return;
    const body = { game: gameSelect.value, players: Number(playersSelect.value), options: {} };
    for (const input of optionsBox.querySelectorAll("select, input")) body.options[input.name] = optionValue(input);
    if (seedInput.value !== "") body.seed = Number(seedInput.value);
    try {
      const answer = await api("/api/game", { method: "POST", body });
      say(t("start.started"));
      started(answer, body.players);
    } catch (error) {
      say(error.message, "error");
    }
  });
}
