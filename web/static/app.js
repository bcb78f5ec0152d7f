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

/**
 * A seat's name as shown: a bot's in the page's language ("Bot 2 (normal)", from its level in
 * the view's `bots`), else the player's name, else "Seat 3".
 */
export function seatName(names, seat, bots) {
  const level = bots && bots[seat];
  if (level) return t(`bot.name.${level}`, { n: seat + 1 });
  return (names && names[seat]) || t("seat.number", { n: seat + 1 });
}

/** The name of an entry of the public table's `seats` (`{seat, name, bot}`), as seatName gives it. */
export function seatEntryName(entry) {
  return entry.bot ? t(`bot.name.${entry.bot}`, { n: entry.seat + 1 }) : entry.name;
}

/** Replace the engines' "{s2}" seat placeholders by names. The result is plain text: insert it with textContent. */
export function renderText(text, names, bots) {
  return String(text).replace(/\{s(\d+)\}/g, (whole, n) => seatName(names, Number(n), bots));
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

let requests = new AbortController(); // every API call's signal, until the table is lost

/** End every API call still waiting: on a network that dropped silently none ends by itself. */
function abortRequests() {
  requests.abort();
  requests = new AbortController();
}

/**
 * Call the JSON API. POSTs carry the `X-Requested-With: companion` header the server
 * demands against cross-site requests. Errors become ApiError with the server's message
 * in the page's language when it gave one.
 */
export async function api(path, { method = "GET", body } = {}) {
  const options = { method, headers: { Accept: "application/json" }, credentials: "same-origin", signal: requests.signal };
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

/** The waits between attempts to reach the table again, in seconds (then the last one, again and
 * again): short, so that a phone is current within about a second of its network's return. */
const RETRY_SECONDS = [0.5, 1];

/** How often the server promises a heartbeat until its stream says (web/events.py). */
const FIRST_HEARTBEAT_SECONDS = 2;

/** A stream silent for two heartbeats and this much more is taken for dead (2 s heartbeats: 5 s). */
const SILENCE_MARGIN_SECONDS = 1;

/**
 * The banner of a page that cannot reach the table: what happened, that it tries again by
 * itself, and a "Try again" button for now. Made on first use, after the status line.
 */
function connectionBanner(retry) {
  let banner = document.getElementById("connection");
  if (!banner) {
    banner = document.createElement("div");
    banner.id = "connection";
    banner.className = "connection";
    banner.setAttribute("role", "alert");
    banner.dataset.testid = "connection";
    const text = document.createElement("p");
    text.className = "connection-text";
    const button = document.createElement("button");
    button.type = "button";
    button.className = "big";
    button.dataset.testid = "try-again";
    button.textContent = t("connection.try_again");
    banner.append(text, button);
    (document.getElementById("status") || document.body.firstChild).after(banner);
  }
  banner.querySelector("button").onclick = retry;
  return banner;
}

/**
 * Follow the table: call `refresh()` now, then whenever the server announces a new
 * version on /api/events. Phones drop event streams silently while their screen is
 * locked, so the stream is reopened, and the page refreshed, whenever the page becomes
 * visible again (`visibilitychange`, `pageshow` after a back/forward or a wake-up).
 * Refreshes never overlap: a version announced during one triggers one more after it.
 *
 * Nothing missed stays missed, and a drop is said:
 * - a refresh that fails (the server restarting, an error) is tried again after half a
 *   second, then every second, with a banner and a "Try again" button meanwhile;
 * - the stream's heartbeats (web/events.py) tell a network gone silent, which the browser
 *   may never notice (no `offline` event, requests hanging): after two heartbeats missed the
 *   banner says so (`data-state="silent"`), every request still waiting is ended, and the
 *   stream is reopened and the view fetched every second until the stream speaks again;
 * - a stream that comes back (the browser reconnects it by itself, or one of ours opens),
 *   the browser coming back online, and a stream the browser gave up on (reopened after a
 *   second) each fetch the view at once, since an event may have been lost while it was down.
 * `stop()` closes the stream for good (e.g. once the phone's seat is gone).
 */
export function follow(refresh) {
  let source = null;
  let running = false;
  let again = false;
  let stopped = false;
  let failures = 0; // refreshes failed in a row
  let lastError = null; // the last one's error
  let silent = false; // the stream has said nothing for too long: the table is lost
  let heartbeat = FIRST_HEARTBEAT_SECONDS; // how often the server promised a word
  let retryTimer = null;
  let reopenTimer = null;
  let watchTimer = null;

  const delay = (attempt) => RETRY_SECONDS[Math.min(attempt - 1, RETRY_SECONDS.length - 1)];
  const silenceLimit = () => 2 * heartbeat + SILENCE_MARGIN_SECONDS;

  /** The banner says what is wrong now, or goes (one banner, one message). */
  function showConnection() {
    let banner = document.getElementById("connection");
    if (!silent && !failures) {
      if (banner) banner.hidden = true;
      return;
    }
    banner = connectionBanner(retryNow);
    let parts;
    if (silent) {
      parts = [t("connection.silent", { seconds: Math.round(silenceLimit()) }), t("connection.reconnecting")];
    } else {
      const reason = lastError.status === 0 ? t("connection.lost") : lastError.message;
      parts = [reason, t("connection.retrying", { seconds: delay(failures) })];
    }
    // Sentences: English puts a space between them, Japanese none.
    banner.querySelector(".connection-text").textContent = parts.join(lang === "ja" ? "" : " ");
    banner.dataset.state = silent ? "silent" : "failing";
    banner.hidden = false;
  }

  function failed(error) {
    failures += 1;
    lastError = error;
    showConnection();
    clearTimeout(retryTimer);
    // While the table is lost, the watch tries again every second anyway.
    if (!silent) retryTimer = setTimeout(run, delay(failures) * 1000);
  }

  function recovered() {
    if (!failures) return;
    failures = 0;
    clearTimeout(retryTimer);
    showConnection();
  }

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
      recovered();
    } catch (error) {
      if (!stopped) failed(error);
    } finally {
      running = false;
    }
  }

  /** "Try again": the view, and a stream that is silent or that the browser gave up on. */
  function retryNow() {
    if (silent || !source || source.readyState === EventSource.CLOSED) open();
    run();
  }

  /** The stream spoke (opened, an event, a heartbeat): it is alive for another silence limit. */
  function heard(event) {
    if (event.type === "heartbeat") {
      const every = Number(JSON.parse(event.data).every);
      if (every > 0) heartbeat = every;
    }
    watch(silenceLimit());
    if (silent) {
      silent = false;
      showConnection();
      run(); // back after a drop: events sent meanwhile are lost, so the view is fetched at once
    }
  }

  function watch(seconds) {
    clearTimeout(watchTimer);
    watchTimer = setTimeout(silence, seconds * 1000);
  }

  /** Nothing heard for too long: say so, end what hangs, reconnect; again every second until heard. */
  function silence() {
    // A hidden page's streams are dropped on purpose (a locked screen): it reconnects when shown.
    if (stopped || document.visibilityState !== "visible") return;
    silent = true;
    showConnection();
    abortRequests();
    open();
    setTimeout(run, 0); // after the ended requests have failed, so that this one starts afresh
    watch(delay(RETRY_SECONDS.length));
  }

  function open() {
    clearTimeout(reopenTimer);
    if (source) source.close();
    const stream = new EventSource("/api/events");
    source = stream;
    let opened = false;
    stream.addEventListener("heartbeat", heard);
    stream.addEventListener("message", (event) => {
      heard(event);
      run();
    });
    stream.addEventListener("open", (event) => {
      heard(event);
      // Back after a drop: events sent meanwhile are lost, so the view is fetched again.
      if (opened) run();
      opened = true;
    });
    stream.addEventListener("error", () => {
      // A network error: the browser reconnects by itself (and "open" fetches the view).
      // An answer it will not retry (e.g. an error status) closes the stream: reopen it soon.
      if (stream === source && stream.readyState === EventSource.CLOSED && !stopped) {
        reopenTimer = setTimeout(open, delay(RETRY_SECONDS.length) * 1000);
        run();
      }
    });
  }

  function wake() {
    if (stopped || document.visibilityState !== "visible") return;
    open();
    run();
    watch(silenceLimit());
  }

  document.addEventListener("visibilitychange", wake);
  window.addEventListener("pageshow", (event) => {
    if (event.persisted) wake();
  });
  window.addEventListener("online", wake);
  function stop() {
    stopped = true;
    clearTimeout(retryTimer);
    clearTimeout(reopenTimer);
    clearTimeout(watchTimer);
    if (source) source.close();
  }

  open();
  run();
  watch(silenceLimit());
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

const TURN_ALERT_KEY = "companion.turn-alert"; // "on" when this phone asked for a sound and a buzz
let audio = null; // the page's AudioContext, made at the player's own tap (browsers refuse sound before one)

/** Whether this phone asked to be told by a sound and a buzz when its turn starts (off unless asked). */
export function turnAlertOn() {
  try {
    return localStorage.getItem(TURN_ALERT_KEY) === "on";
  } catch {
    return false; // storage refused (a private window): never on
  }
}

/** A short two-note chime (0.3 s), where the browser lets the page make sound. */
function chime() {
  if (!audio) return;
  if (audio.state === "suspended") audio.resume().catch(() => {});
  const now = audio.currentTime;
  [880, 1175].forEach((frequency, index) => {
    const tone = audio.createOscillator();
    const volume = audio.createGain();
    tone.frequency.value = frequency;
    volume.gain.setValueAtTime(0.2, now + index * 0.15);
    volume.gain.exponentialRampToValueAtTime(0.001, now + index * 0.15 + 0.14);
    tone.connect(volume).connect(audio.destination);
    tone.start(now + index * 0.15);
    tone.stop(now + index * 0.15 + 0.15);
  });
}

/** Make the sound possible: only ever called from the player's own tap. */
function wakeAudio() {
  const Context = window.AudioContext || window.webkitAudioContext;
  if (!audio && Context) audio = new Context();
}

/** Switch this phone's turn alert on or off (called from the player's tap, so the sound can start). */
export function setTurnAlert(on) {
  try {
    localStorage.setItem(TURN_ALERT_KEY, on ? "on" : "off");
  } catch {
    // storage refused: the choice holds for this page only
  }
  if (on) {
    wakeAudio();
    chime(); // what it will sound like
  }
}

/** A soft low tone (0.6 s, quieter than the chime): a turn went past the table's target.
 * Only on a phone that asked for sound, after a tap on this page (as for the turn alert). */
export function softTone() {
  if (!turnAlertOn() || !tappedHere) return;
  wakeAudio();
  if (!audio) return;
  if (audio.state === "suspended") audio.resume().catch(() => {});
  const now = audio.currentTime;
  const tone = audio.createOscillator();
  const volume = audio.createGain();
  tone.type = "sine";
  tone.frequency.value = 440;
  volume.gain.setValueAtTime(0.0001, now);
  volume.gain.exponentialRampToValueAtTime(0.06, now + 0.1);
  volume.gain.exponentialRampToValueAtTime(0.0001, now + 0.6);
  tone.connect(volume).connect(audio.destination);
  tone.start(now);
  tone.stop(now + 0.65);
}

/* Whether this page (not an earlier one: Chromium may keep its activation across a reload)
 * has been tapped or typed on. */
let tappedHere = false;
for (const kind of ["pointerdown", "keydown"]) {
  addEventListener(kind, () => { tappedHere = true; }, { capture: true, once: true });
}

/** Tell the player their turn has started, if this phone asked for it: a buzz and a chime.
 * Nothing before this page's first tap (browsers refuse both before one, with a console error;
 * and a page reloaded in a pocket should stay quiet). */
export function buzz() {
  if (!turnAlertOn() || !tappedHere) return;
  if (navigator.vibrate) navigator.vibrate([120, 60, 120]);
  wakeAudio();
  chime();
}

/** Seconds as people read a clock (the turn clock, the replay's turn times): 0:42, 12:05, 1:02:09. */
export function clockWords(seconds) {
  const whole = Math.floor(seconds);
  const hours = Math.floor(whole / 3600);
  const minutes = Math.floor((whole % 3600) / 60);
  const rest = String(whole % 60).padStart(2, "0");
  return hours ? `${hours}:${String(minutes).padStart(2, "0")}:${rest}` : `${minutes}:${rest}`;
}

/** Data the server put in the page (seat, join URL, ...). */
export const pageData = page;
