// Which renderer draws a game: its own module in /static/games/<game-id>.js when the server
// has one (pageData.renderers), over the generic one. Shared by the game page (play.js) and
// the replay page (replay.js), so both draw a game the same way.

import { pageData } from "./app.js";
import generic from "./games/generic.js";

/**
 * The renderer of a game. A game's `label` and `prompt` may answer undefined for what they
 * leave to the generic ones.
 */
export async function rendererFor(gameId) {
  if (!pageData.renderers.includes(gameId)) return generic;
  const custom = (await import(`./games/${gameId}.js`)).default;
  const merged = { ...generic, ...custom };
  for (const name of ["label", "prompt"]) {
    if (custom[name]) merged[name] = function fallback(...args) {
      return custom[name].apply(this, args) ?? generic[name].apply(this, args);
    };
  }
  return merged;
}
