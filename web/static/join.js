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

const live = follow(async () => {
  const info = await api("/api/table");
  showProblem(info.problem);
  fill(document.getElementById("game-line"), info.game ? gameLine(info) : t("join.waiting"));
  drawSeats(document.getElementById("seats"), info, (seat) => seat.taken
    ? el("button", { class: "big", type: "button", disabled: true }, t("join.taken"))
    : el("button", { class: "big sit", type: "button", "data-testid": `sit-${seat.seat}`, onclick: () => sit(seat.seat) },
      t("join.sit")));
});

document.getElementById("join-form").addEventListener("submit", (event) => event.preventDefault());
