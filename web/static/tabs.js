// Tabs for the trackers' entry forms (issue 24): one question at a time, so that a form, what
// it fills in and the action bar fit a 360 × 640 screen. Each tab is a button (role "tab")
// naming its question and the answer standing now; only the selected tab's panel shows.
// Switching tabs is the page's own business: nothing is sent and nothing is redrawn.

/** form name -> { id, key }: the tab the player opened, while the form's answers stay `key`. */
const opened = new Map();

/**
 * A tab list and its panels. `items`: [{ id, label, answer, panel }] (answer: shown under the
 * label, e.g. the number given; null: none). The tab shown is the one the player opened, as
 * long as the answers (`key`) have not changed since; else `fallback` (the next question).
 */
export function tabs(ctx, name, items, fallback, key) {
  const { el } = ctx;
  const kept = opened.get(name);
  const open = kept && kept.key === key && items.some((item) => item.id === kept.id) ? kept.id : fallback;
  const tabId = (item) => `tab-${name}-${item.id}`;
  const panelId = (item) => `panel-${name}-${item.id}`;
  const buttons = items.map((item) => el("button", {
    type: "button", role: "tab", class: "tr-tab", id: tabId(item), "aria-controls": panelId(item),
    "aria-selected": String(item.id === open), "data-tab": item.id, onclick: () => select(item.id),
  }, el("span", { class: "tr-tab-label" }, item.label), item.answer == null ? null : el("span", { class: "tr-tab-answer" }, item.answer)));
  const panels = items.map((item) => el("div", {
    role: "tabpanel", class: "tr-panel", id: panelId(item), "aria-labelledby": tabId(item), hidden: item.id !== open,
  }, item.panel));
  function select(id) {
    opened.set(name, { id, key });
    buttons.forEach((button, i) => button.setAttribute("aria-selected", String(items[i].id === id)));
    panels.forEach((panel, i) => { panel.hidden = items[i].id !== id; });
  }
  return el("div", { class: "tr-tabs", "data-testid": `tabs-${name}` },
    el("div", { role: "tablist", class: "tr-tablist" }, buttons), panels);
}
