// The OLED mirror: reload the frame when it changes, press mock buttons by click or key.
"use strict";

const frame = document.getElementById("frame");
const text = document.getElementById("text");
const LONG_PRESS_MS = 600;
const KEYS = { ArrowUp: "up", ArrowDown: "down", ArrowLeft: "left", ArrowRight: "right", Enter: "ok", Escape: "back" };
let shownTag = null;

async function refresh() {
  if (document.hidden) return;
  const response = await fetch("/api/display.png", { headers: shownTag ? { "If-None-Match": shownTag } : {} });
  if (response.status === 200) {
    shownTag = response.headers.get("ETag");
    const url = URL.createObjectURL(await response.blob());
    frame.onload = () => URL.revokeObjectURL(url);
    frame.src = url;
    text.textContent = await (await fetch("/api/display.txt")).text();
  }
}

async function press(name, kind) {
  const available = document.querySelector(`[data-button="${name}"]`);
  if (!available) return;
  const response = await fetch(`/api/buttons/${name}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-Requested-With": "companion" },
    body: JSON.stringify({ press: kind }),
  });
  if (!response.ok) text.textContent = (await response.json()).error;
  refresh();
}

for (const button of document.querySelectorAll("[data-button]")) {
  let downAt = 0;
  button.addEventListener("pointerdown", () => { downAt = Date.now(); });
  button.addEventListener("pointerup", () => press(button.dataset.button, Date.now() - downAt >= LONG_PRESS_MS ? "long" : "short"));
}

document.addEventListener("keydown", (event) => {
  const name = KEYS[event.key];
  if (!name) return;
  event.preventDefault();
  press(name, event.shiftKey ? "long" : "short");
});

setInterval(refresh, 250);
refresh();
