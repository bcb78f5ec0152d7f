// Choosing one of the legal actions, a field at a time.
//
// The engine lists every legal action in full (e.g. {"type": "play", "card": "lion-3",
// "cell": [0, 1]}). The picker never builds an action itself: it narrows that list down
// as the player taps things (a card, then a cell), so the page can only ever send an
// action the engine listed. Fields are compared by their JSON text, so [0, 1] matches [0, 1].

const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

/** The field names of an action, "type" excluded, in the engine's order. */
export const fieldsOf = (action) => Object.keys(action).filter((key) => key !== "type");

/** The shape of an action: its type and which fields it has (a take of a row vs a column). */
export const shapeOf = (action) => [action.type, ...fieldsOf(action)].join("|");

export class Picker {
  /**
   * @param {object[]} actions the legal actions of the view
   * @param {function} onChange called after every choice (the page redraws)
   */
  constructor(actions, onChange) {
    this.actions = actions;
    this.chosen = {}; // field name -> chosen value; "type" and the pseudo-field "shape" too
    this.suggested = null; // the hint's action while it is chosen as suggested
    this.onChange = onChange; // called with "pick" (a card, piece or cell) or "button" (a labelled move)
  }

  /** The actions that agree with `choice` (default: what has been chosen so far). */
  matching(choice = this.chosen) {
    return this.actions.filter((action) =>
      Object.entries(choice).every(([field, value]) =>
        field === "shape" ? shapeOf(action) === value : field in action && same(action[field], value)));
  }

  /** Whether some legal action has `field` = `value` (tapping it would do something). */
  possible(field, value) {
    return this.matching({ [field]: value }).length > 0;
  }

  /** Whether `field` = `value` fits with what is already chosen (draw it highlighted). */
  consistent(field, value) {
    return this.matching({ ...this.chosen, [field]: value }).length > 0;
  }

  /** Whether `field` = `value` is the current choice. */
  isChosen(field, value) {
    return field in this.chosen && same(this.chosen[field], value);
  }

  /**
   * Choose `field` = `value`. Choices that no longer fit with it are dropped (tapping
   * another card after a cell starts over from that card). Choosing the current value
   * again un-chooses it. `how` says what was tapped: "pick" (a card, piece or cell: it only
   * selects) or "button" (a button whose label names the choice).
   */
  choose(field, value, how = "pick") {
    const suggested = this.suggested;
    this.suggested = null;
    const fields = suggested ? fieldsOf(suggested) : [];
    if (fields.length >= 2 && field === fields[fields.length - 1] && same(suggested[field], value)) {
      // The hint's target tapped: the second, deliberate tap that completes the move, as without a hint.
      this.onChange(how);
      return;
    }
    if (this.isChosen(field, value)) {
      delete this.chosen[field];
    } else if (this.consistent(field, value)) {
      this.chosen = { ...this.chosen, [field]: value };
    } else if (this.possible(field, value)) {
      this.chosen = { [field]: value };
    } else {
      return; // not a legal choice: nothing happens
    }
    this.onChange(how);
  }

  /**
   * Choose several fields at once, e.g. a whole listed action behind one button. Nothing
   * happens unless some listed action agrees with all of them.
   */
  chooseAll(choice) {
    if (!this.matching(choice).length) return;
    this.suggested = null;
    this.chosen = { ...choice };
    this.onChange("button");
  }

  /** Choose a whole listed action without sending it (a hint): the page shows it chosen.
   * A tap on its target (the last of two or more fields) then takes it; see `choose`. */
  suggest(action) {
    if (!this.matching(action).length) return;
    this.chosen = { ...action };
    this.suggested = action;
  }

  clear() {
    this.suggested = null;
    this.chosen = {};
    this.onChange("clear");
  }

  /**
   * What the player must decide next: `{field, values}` with the distinct values left
   * for it, or null once the choices name exactly one action (see `action()`).
   * The order: the type, then the shape (row or column?), then the fields in the order
   * the engine wrote them.
   */
  next() {
    const left = this.matching();
    if (left.length === 0 || this.action()) return null;
    const types = distinct(left.map((action) => action.type));
    if (types.length > 1) return { field: "type", values: types };
    const shapes = distinct(left.map(shapeOf));
    if (shapes.length > 1) return { field: "shape", values: shapes };
    for (const field of fieldsOf(left[0])) {
      const values = distinct(left.map((action) => action[field]));
      if (values.length > 1) return { field, values };
    }
    return null;
  }

  /** The one action the choices name, or null while several are left. */
  action() {
    const left = this.matching();
    if (left.length === 0) return null;
    return left.every((action) => same(action, left[0])) ? left[0] : null;
  }
}

/** The distinct values of a list, compared by JSON text, in first-seen order. */
export function distinct(values) {
  const seen = new Map();
  for (const value of values) {
    const key = JSON.stringify(value);
    if (!seen.has(key)) seen.set(key, value);
  }
  return [...seen.values()];
}
