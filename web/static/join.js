// The join page (the QR code's target): pick a free seat under a name, then play.

import { api, el, fill, follow, say, showProblem, t } from "./app.js";
import { drawSeats, gameLine } from "./forms.js";

const nameInput = document.getElementById("name");
const nameMax = Number(nameInput.dataset.nameMax);

/**
 * A name's length as the server counts it (clean_name in companion/table.py): characters
 * (code points) after NFC, with every kind of space made plain and the ends trimmed. The
 * input's maxlength would count UTF-16 units instead, cutting an emoji name to half.
 */
const nameLength = (name) => [...name.normalize("NFC").replace(/\p{Zs}/gu, " ").trim()].length;

async function sit(seat) {
  const name = nameInput.value.trim();
  if (!name) {
    say(t("join.name_missing"), "error");
    nameInput.focus();
    return;
  }
  if (nameLength(name) > nameMax) {
    say(t("join.name_too_long", { max: nameMax, n: nameLength(name) }), "error");
    nameInput.focus();
    return;
  }
  try {
    await api(`/api/seats/${seat}/join`, { method: "POST", body: { name } });
    window.location.href = "/play";
  } catch (error) {
    say(error.message, "error");
    live.refresh();
  }
}

const usedNames = document.getElementById("used-names");
let usedBefore = null; // the people's names of the latest plays, most recent first (GET /api/used-before)

/** A name as the table compares names (NFKC, then case: "ＡＫＩ" is "aki"). */
const nameKey = (name) => name.normalize("NFKC").toLowerCase();

/** The names played under here before and not at the table now, one tap each: it fills the field. */
function drawUsedNames(info) {
  const seated = new Set(info.seats.filter((seat) => seat.taken).map((seat) => nameKey(seat.name)));
  const names = (usedBefore || []).filter((name) => !seated.has(nameKey(name))).slice(0, 12);
  fill(usedNames, names.length ? el("span", {}, t("join.used_before")) : null, names.map((name) =>
    el("button", { type: "button", class: "chip", "data-testid": "used-name", "aria-pressed": String(nameInput.value.trim() === name),
      onclick: () => { nameInput.value = name; drawUsedNames(info); } }, name)));
}

const live = follow(async () => {
  const info = await api("/api/table");
  if (usedBefore === null) usedBefore = (await api("/api/used-before").catch(() => ({ players: [] }))).players;
  drawUsedNames(info);
  showProblem(info.problem);
  fill(document.getElementById("game-line"), info.game ? gameLine(info) : t("join.waiting"));
  drawSeats(document.getElementById("seats"), info, (seat) => seat.taken
    ? el("button", { class: "big", type: "button", disabled: true }, t("join.taken"))
    : el("button", { class: "big sit", type: "button", "data-testid": `sit-${seat.seat}`, onclick: () => sit(seat.seat) },
      t("join.sit")));
});

document.getElementById("join-form").addEventListener("submit", (event) => event.preventDefault());
