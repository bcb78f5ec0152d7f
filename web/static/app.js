// Shared helpers of every page: texts, DOM building, the JSON API, live updates.
//
// No build step and no dependencies: this file is loaded as an ES module by the pages.
// Data never goes through innerHTML: every text from the server (player names, log lines)
// is put in the page with textContent, so a name like "<b>" shows as typed.

const page = JSON.parse(document.getElementById("page-data").textContent);

/** The page's language ("en" or "ja") and its texts, chosen by the server. */
export const lang = page.lang;
const texts = page.texts;

/**
 * The text for `key` in the page's language, with `{name}` parameters filled in.
 * A missing key shows as the key itself, so a forgotten translation is visible, not blank.
 */
export function t(key, params = {}) {
  // "1 point", not "1 points": a text counting n has its singular under `<key>.one`.
  const text = (params.n === 1 ? texts[`${key}.one`] : undefined) ?? texts[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

/** A game's or option's `{en, ja}` text in the page's language. */
export function pick(pair) {
  if (pair == null) return "";
  if (typeof pair === "string") return pair;
  return pair[lang] ?? pair.en ?? "";
}

/** A seat's name as shown: the player's name, else "Seat 3". */
export function seatName(names, seat) {
  return (names && names[seat]) || t("seat.number", { n: seat + 1 });
}

/** Replace the engines' "{s2}" seat placeholders by names. The result is plain text: insert it with textContent. */
export function renderText(text, names) {
  return String(text).replace(/\{s(\d+)\}/g, (whole, n) => seatName(names, Number(n)));
}

/**
 * Build an element: `el("button", {class: "big", onclick: fn}, "text", child)`.
 * Strings become text nodes (never HTML); null/false children are skipped.
 */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value == null || value === false) continue;
    if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (key === "dataset") Object.assign(node.dataset, value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  append(node, children);
  return node;
}

function append(node, children) {
  for (const child of children.flat(Infinity)) {
    if (child == null || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** Replace everything inside `node` by `children`. */
export function fill(node, ...children) {
  node.replaceChildren();
  append(node, children);
  return node;
}

/** An error from the API, carrying its HTTP status and the server's words. */
export class ApiError extends Error {
  constructor(status, message, reason = null) {
    super(message);
    this.status = status;
    this.reason = reason; // the server's machine-readable reason, e.g. "seat_freed"
  }
}

/**
 * Call the JSON API. POSTs carry the `X-Requested-With: companion` header the server
 * demands against cross-site requests. Errors become ApiError with the server's message
 * in the page's language when it gave one.
 */
export async function api(path, { method = "GET", body } = {}) {
  const options = { method, headers: { Accept: "application/json" }, credentials: "same-origin" };
  if (method !== "GET") {
    options.headers["X-Requested-With"] = "companion";
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body ?? {});
  }
  let response;
  try {
    response = await fetch(path, options);
  } catch {
    throw new ApiError(0, t("error.network"));
  }
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) {
    const message = (data && ((lang === "ja" && data.error_ja) || data.error)) || t("error.http", { status: response.status });
    throw new ApiError(response.status, message, (data && data.reason) || null);
  }
  return data;
}

/** Show a message in the page's status line (role=status, read out by screen readers). */
export function say(message, kind = "info") {
  const line = document.getElementById("status");
  if (!line) return;
  line.textContent = message || "";
  line.dataset.kind = kind;
}

/**
 * Follow the table: call `refresh()` now, then whenever the server announces a new
 * version on /api/events. Phones drop event streams silently while their screen is
 * locked, so the stream is reopened, and the page refreshed, whenever the page becomes
 * visible again (`visibilitychange`, `pageshow` after a back/forward or a wake-up).
 * Refreshes never overlap: a version announced during one triggers one more after it.
 * `stop()` closes the stream for good (e.g. once the phone's seat is gone).
 */
export function follow(refresh) {
  let source = null;
  let running = false;
  let again = false;
  let stopped = false;

  async function run() {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = true;
    try {
      do {
        again = false;
        await refresh();
      } while (again && !stopped);
    } catch (error) {
      say(error.message, "error");
    } finally {
      running = false;
    }
  }

  function open() {
    if (source) source.close();
    source = new EventSource("/api/events");
    source.addEventListener("message", run);
    // EventSource retries by itself after a network error; nothing to do here.
  }

  function wake() {
    if (stopped || document.visibilityState !== "visible") return;
    open();
    run();
  }

  document.addEventListener("visibilitychange", wake);
  window.addEventListener("pageshow", (event) => {
    if (event.persisted) wake();
  });
  function stop() {
    stopped = true;
    if (source) source.close();
  }

  open();
  run();
  return { refresh: run, stop };
}

/**
 * Show or hide the banner saying that nothing can be saved (a full or read-only SD card),
 * from the `problem` of /api/table or /api/view: it comes at the first failed save and
 * goes at the first one that works again, and every page learns it with the new version.
 */
export function showProblem(problem) {
  const banner = document.getElementById("problem");
  if (!banner) return;
  document.getElementById("problem-text").textContent = problem || "";
  banner.hidden = !problem;
}

/** Buzz the phone to say it has become this player's turn. Browsers refuse (with a console
 * error) to vibrate before the first tap on the page, so it is not even asked until then. */
export function buzz() {
  if (navigator.vibrate && navigator.userActivation?.hasBeenActive) navigator.vibrate([120, 60, 120]);
}

/** Data the server put in the page (seat, join URL, ...). */
export const pageData = page;
