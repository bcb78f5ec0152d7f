// Pieces shared by the home, join and host pages: the line about the current game, the
// list of seats, and the form that starts a game (built from the table's offered games
// and their options, so a new game or option needs no change here; in the games with bots
// it also asks, per seat, whether a person or a bot plays it).

import { api, el, fill, lang, pageData, pick, say, seatEntryName, t } from "./app.js";

const BOT_LEVELS = ["easy", "normal", "strong"];

/** "Lion Square · 4 players" or "No game yet". */
export function gameLine(info) {
  if (!info.game) return t("game.none");
  const over = info.game.over ? ` · ${t("game.over")}` : "";
  return `${pick(info.game.title)} · ${t("game.players", { n: info.game.players })}${over}`;
}

/**
 * Fill `list` with one item per seat: its number, its player's name (as text, never
 * HTML) or "free", the words "you" on this phone's own seat and "host" on the host's, and
 * whatever `extra(seat)` adds (buttons).
 */
export function drawSeats(list, info, extra = () => null) {
  fill(list, info.seats.map((seat) =>
    el("li", { class: seat.taken ? "seat taken" : "seat free", "data-seat": seat.seat },
      el("span", { class: "seat-number" }, t("seat.number", { n: seat.seat + 1 })),
      " ",
      el("span", { class: "seat-name" }, seat.taken ? seatEntryName(seat) : t("seat.free")),
      seat.taken && pageData.seat === seat.seat ? el("span", { class: "you", "data-testid": "own-seat" }, t("seat.you")) : null,
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
 * `seatsNow()` gives the table's seats now (who keeps a seat into the new game).
 * `started(answer, players)` runs after the server started the game.
 */
export function startForm(form, offered, current, running, started, seatsNow = () => []) {
  const gameSelect = el("select", { id: "start-game", name: "game" },
    offered.map((game) => el("option", { value: game.id, selected: current && current.id === game.id }, pick(game.title))));
  const playersSelect = el("select", { id: "start-players", name: "players" });
  const optionsBox = el("div", { class: "options" });
  const askedBox = el("div", { class: "options asked" }); // the options a game asks at its start (Option.asked)
  let usedBefore = { options: {} }; // values typed before, offered as one tap each (GET /api/used-before)
  const typed = {}; // option name -> the text typed or tapped, kept when the form is drawn again
  // Text, not a number: seeds have 63 bits and a JavaScript number keeps 53, so the digits go as typed (the server checks them).
  const seedInput = el("input", { id: "start-seed", name: "seed", type: "text", inputmode: "numeric", autocomplete: "off", spellcheck: "false" });
  const seatsBox = el("div", { class: "seat-choices" });
  // Drawn with the start, so a bot on the drawn seat moves only once everyone can see the draw.
  const whoStarts = el("select", { id: "start-first-player", name: "first_player" },
    el("option", { value: "" }, t("start.first_seat")),
    el("option", { value: "draw" }, t("start.first_draw")));

  /** {seat: level} of the seats given to a bot so far. */
  function chosenBots() {
    const chosen = {};
    for (const input of seatsBox.querySelectorAll("input:checked")) if (input.value) chosen[input.dataset.seat] = input.value;
    return chosen;
  }

  /**
   * Per seat of the new game, in the games with bots: a person (the default) or a bot of a
   * level, one tap each. A seat someone keeps (seats below the new player count stay held)
   * names who; the choices made survive a change of the player count.
   */
  function drawSeatChoices() {
    if (!(pageData.bot_games || []).includes(gameSelect.value)) return fill(seatsBox);
    const before = chosenBots();
    const held = seatsNow();
    const players = Number(playersSelect.value);
    const levelName = (level) => (level ? t(`bots.level.${level}`) : t("start.person"));
    // A table: one row per seat, one column per choice, named once above the columns (each
    // radio keeps its own name for screen readers), so four seats fit a 360 x 640 screen.
    fill(seatsBox, el("p", { class: "seat-choices-title" }, t("start.who_plays")),
      el("div", { class: "seat-choice-heads", "aria-hidden": "true" }, el("span", {}),
        ["", ...BOT_LEVELS].map((level) => el("span", {}, levelName(level)))),
      Array.from({ length: players }, (_, seat) => {
        const keeper = held[seat] && held[seat].taken ? seatEntryName(held[seat]) : null;
        return el("fieldset", { class: "seat-choice", "data-testid": `start-seat-${seat}` },
          el("legend", {}, t("seat.number", { n: seat + 1 })),
          keeper ? el("span", { class: "keeps" }, t("start.keeps_seat", { name: keeper }))
            : ["", ...BOT_LEVELS].map((level) => el("label", {},
              el("input", { type: "radio", name: `start-seat-${seat}`, value: level, "data-seat": seat,
                checked: (before[seat] ?? "") === level }),
              el("span", { class: "visually-hidden" }, levelName(level)))));
      }));
  }

  function drawGame() {
    const game = offered.find((g) => g.id === gameSelect.value);
    const players = [];
    players.push(...game.player_counts);
    const same = current && current.id === game.id;
    fill(playersSelect, players.map((n) => el("option", { value: n, selected: same && current.players === n }, t("game.players", { n }))));
    const field = (option) => {
      const id = `option-${option.name}`;
      const input = option.choices
        ? el("select", { id, name: option.name, "data-json": "choice" }, option.choices.map((choice) =>
          el("option", { value: JSON.stringify(choice), selected: JSON.stringify(choice) === JSON.stringify(option.default) },
            t(`option.${game.id}.${option.name}.${choice}`) === `option.${game.id}.${option.name}.${choice}`
              ? String(choice) : t(`option.${game.id}.${option.name}.${choice}`))))
        : typeof option.default === "string"
          ? el("input", { id, name: option.name, value: option.default, "data-text": "", autocomplete: "off",
            oninput: (event) => { typed[option.name] = event.target.value; markChips(); } })
          : el("input", { id, name: option.name, value: JSON.stringify(option.default) });
      return el("p", { class: "option" },
        el("label", { for: id }, pick(option.label)), input,
        option.choices ? null : el("span", { class: "used-before", role: "group", "data-option": option.name, "aria-label": t("start.used_before") }),
        pick(option.help) ? el("small", {}, pick(option.help)) : null);
    };
    fill(askedBox, game.options.filter((option) => option.asked).map(field));
    fill(optionsBox, game.options.filter((option) => !option.asked).map(field));
    for (const [name, value] of Object.entries(typed)) {
      const input = askedBox.querySelector(`input[name="${CSS.escape(name)}"]`);
      if (input) input.value = value;
    }
    drawUsedBefore();
    drawSeatChoices();
  }

  /** A text typed before (a score pad's game), one tap each: it fills the field. The list may arrive after the form. */
  function drawUsedBefore() {
    const before = usedBefore.options[gameSelect.value] || {};
    for (const box of form.querySelectorAll(".used-before")) {
      const input = box.closest(".option").querySelector("input");
      const values = before[box.dataset.option] || [];
      fill(box, values.length ? el("span", {}, t("start.used_before")) : null, values.map((value) =>
        el("button", { type: "button", class: "chip", "data-testid": `used-${box.dataset.option}`,
          "aria-pressed": String(input.value === value),
          onclick: () => { input.value = value; typed[box.dataset.option] = value; markChips(); } }, value)));
    }
  }

  function markChips() {
    for (const chip of form.querySelectorAll(".used-before .chip")) {
      chip.setAttribute("aria-pressed", String(chip.closest(".option").querySelector("input").value === chip.textContent));
    }
  }

  gameSelect.addEventListener("change", drawGame);
  playersSelect.addEventListener("change", drawSeatChoices);
  fill(form,
    el("p", {}, el("label", { for: "start-game" }, t("start.game")), gameSelect),
    el("p", {}, el("label", { for: "start-players" }, t("start.players")), playersSelect),
    askedBox,
    seatsBox,
    // The game's options keep their defaults unless someone opens them, so the start button
    // stays on a 360 x 640 phone's first screen.
    el("details", { class: "start-more" }, el("summary", {}, t("start.advanced")),
      el("p", { class: "option" }, el("label", { for: "start-first-player" }, t("start.who_starts")), whoStarts),
      optionsBox,
      el("p", {}, el("label", { for: "start-seed" }, t("start.seed")), seedInput)),
    el("button", { class: "big", type: "submit", "data-testid": "start" }, t("start.button")));
  drawGame();
  api("/api/used-before").then((answer) => {
    usedBefore = answer;
    drawUsedBefore();
  }).catch(() => {}); // without the records' names the fields are typed, as the first time

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    if (running() && !window.confirm(t("start.confirm_abandon"))) return;
    const body = { game: gameSelect.value, players: Number(playersSelect.value), options: {} };
    for (const input of [...askedBox.querySelectorAll("select, input"), ...optionsBox.querySelectorAll("select, input")]) {
      body.options[input.name] = input.dataset.text === undefined ? optionValue(input) : input.value.trim(); // a text stays text ("2048")
    }
    if (seedInput.value.trim() !== "") body.seed = seedInput.value.trim();
    if (whoStarts.value) body.first_player = whoStarts.value;
    const bots = Object.entries(chosenBots()).map(([seat, level]) => ({ seat: Number(seat), level }));
    if (bots.length) body.bots = bots;
    try {
      const answer = await api("/api/game", { method: "POST", body });
      // The game has started; a bot that could not sit (a phone took its seat meanwhile) is said,
      // and the page stays, so the words are read (the seats below show the seat free).
      const unseated = (answer.bots_not_seated || []).map((refusal) => lang === "ja" ? refusal.error_ja : refusal.error);
      if (unseated.length) return say(unseated.join(" "), "error");
      say(t("start.started"));
      started(answer, body.players);
    } catch (error) {
      say(error.message, "error");
    }
  });
}
