// The renderer every game starts from, and the whole UI of a game that has no renderer
// of its own: the public and private views as plain lists, and one button per choice.
// A game's module (games/<game-id>.js) overrides only what it draws better.

const SEAT_FIELDS = new Set(["to", "seat", "player", "target", "recipient", "from_seat"]);

/** A JSON value as short plain text: [1, 2] -> "1, 2"; objects as "key: value" pairs. */
export function plain(value) {
  if (value === null || value === undefined) return "—";
  if (Array.isArray(value)) return value.map(plain).join(", ");
  if (typeof value === "object") return Object.entries(value).map(([k, v]) => `${k}: ${plain(v)}`).join("; ");
  if (typeof value === "boolean") return value ? "✓" : "✗";
  return String(value);
}

/** A key of a view as a label: "reveal_left" -> "reveal left". */
const keyLabel = (key) => key.replace(/_/g, " ");

function table(ctx, data) {
  const { el } = ctx;
  if (data == null || typeof data !== "object" || Array.isArray(data)) return el("p", {}, plain(data));
  return el("dl", { class: "plain-view" }, Object.entries(data).map(([key, value]) => [
    el("dt", {}, keyLabel(key)),
    el("dd", {}, perSeat(ctx, value) ? perSeat(ctx, value) : plain(value)),
  ]));
}

/** A list with one entry per seat, shown with the seats' names. */
function perSeat(ctx, value) {
  if (!Array.isArray(value) || value.length !== ctx.view.players || value.some((v) => typeof v === "object" && v !== null)) return null;
  return value.map((v, seat) => `${ctx.seatName(seat)}: ${plain(v)}`).join(" · ");
}

export default {
  /** The public view (and this seat's private one) as readable lists. */
  render(ctx) {
    const { el, t, view } = ctx;
    return [
      table(ctx, view.public),
      view.private && Object.keys(view.private).length
        ? el("section", { class: "private" }, el("h2", {}, t("board.private")), table(ctx, view.private))
        : null,
    ];
  },

  /** One line under the title (round, step...); empty by default. */
  status(ctx) {
    const p = ctx.view.public || {};
    const parts = [];
    if (p.round != null) parts.push(ctx.t("status.round", { round: p.round }));
    if (p.step) parts.push(this.stepLabel(ctx, p.step));
    return parts.join(" · ");
  },

  stepLabel(ctx, step) {
    const key = `step.${ctx.view.game}.${step}`;
    const text = ctx.t(key);
    return text === key ? keyLabel(step) : text;
  },

  /** Something public to show beside a seat's name (a score, a card count); none by default. */
  seatInfo() {
    return null;
  },

  /** Whether the renderer's drawing lets the player pick `field` (then no buttons are drawn for it). */
  drawnFields() {
    return false;
  },

  /** What to tell the player when `field` is to be chosen. */
  prompt(ctx, field) {
    const key = `prompt.${field}`;
    const text = ctx.t(key);
    return text === key ? ctx.t("actions.choose_field", { field: this.fieldLabel(ctx, field) }) : text;
  },

  typeLabel(ctx, type) {
    const key = `action.${type}`;
    const text = ctx.t(key);
    return text === key ? keyLabel(type) : text;
  },

  fieldLabel(ctx, field) {
    const key = `field.${field}`;
    const text = ctx.t(key);
    return text === key ? keyLabel(field) : text;
  },

  /** A shape of action ("take|row": a take naming a row) as a button label. */
  shapeLabel(ctx, shape) {
    const [type, ...fields] = shape.split("|");
    return [this.typeLabel(ctx, type), ...fields.map((f) => this.fieldLabel(ctx, f))].join(" · ");
  },

  /** Whether a fully chosen action waits for a confirm tap (true) or goes at once (false).
   * An action that needs no choice at all (the only one) always shows a button: one tap
   * sends it, or, when it is to be confirmed, selects it for a second tap to send. */
  confirm() {
    return false;
  },

  /** What stays chosen once `action` is sent (the score pad's player, for their next step); nothing by default. */
  keepAfter() {
    return null;
  },

  /** A value of a field as a button label. */
  label(ctx, field, value) {
    if (SEAT_FIELDS.has(field) && Number.isInteger(value)) return ctx.seatName(value);
    if (field === "cell" && Array.isArray(value)) return ctx.t("cell.row_column", { row: value[0] + 1, column: value[1] + 1 });
    if (field === "row" && Number.isInteger(value)) return ctx.t("field.row_n", { n: value + 1 });
    if ((field === "column" || field === "col") && Number.isInteger(value)) return ctx.t("field.column_n", { n: value + 1 });
    return plain(value);
  },

  /** The confirm button's text for a fully chosen action. */
  describe(ctx, action) {
    const fields = Object.keys(action).filter((f) => f !== "type");
    const parts = fields.map((f) => `${this.fieldLabel(ctx, f)}: ${this.label(ctx, f, action[f])}`);
    return [this.typeLabel(ctx, action.type), ...parts].join(" · ");
  },
};
