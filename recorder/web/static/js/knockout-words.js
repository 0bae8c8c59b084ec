// A knock-out's stages and matches' states as the API names them, in the reader's words:
// one list for the bracket page and the console.
import { _ } from "./i18n.js";

const STAGES = { final: _("Final"), semi_final: _("Semi-finals"), quarter_final: _("Quarter-finals") };

export const MATCH_STATES = {
  game: _("Playing its games"),
  playoff: _("Play-off"),
  lot: _("Level after the play-off: the lot decides"),
  won: _("Decided"),
  waiting: _("Waiting"),
};

export function stageName(stage) {
  if (STAGES[stage.name]) return STAGES[stage.name];
  return _("Round of %(count)s", { count: stage.name.replace("round_of_", "") });
}
