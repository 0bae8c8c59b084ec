// The game page's side panels that only draw what they are given: the round table
// (state.rounds: one row per round of a match) with the result, and the move list's scrolling.
import { _ } from "./i18n.js";
import { resultText } from "./record.js";
import { element, PLAYER } from "./site.js";

const byId = (id) => document.getElementById(id);

export function renderRounds(state) {
  const table = byId("rounds");
  const rows = (state.rounds || []).map((r) => element("tr", { "data-round": r.round },
    element("td", { text: String(r.round) }),
    element("td", { text: r.first_player ? PLAYER[r.first_player] : _("race") }),
    element("td", { text: `${r.holes.south}–${r.holes.north}` }),
    element("td", { text: r.takings ? `${r.takings.south}–${r.takings.north}` : "" }),
    element("td", { text: r.lot_winner ? PLAYER[r.lot_winner] : "" })));
  const head = element("tr", {}, ...[_("Round"), _("First"), _("Holes S–N"), _("Takings S–N"), _("Lot")].map((t) => element("th", { scope: "col", text: t })));
  table.replaceChildren(element("thead", {}, head), element("tbody", {}, ...rows));
  table.hidden = rows.length === 0;
  byId("result").textContent = state.game_over ? _("Result: %(result)s", { result: resultText(state) }) : "";
  byId("rounds-panel").hidden = rows.length === 0 && !state.game_over;
}

// Scroll the move list only, never the page (scrollIntoView would scroll the window too).
export function keepInView(list, item) {
  if (!item) return;
  const top = item.offsetTop - list.offsetTop;
  if (top < list.scrollTop) list.scrollTop = top;
  else if (top + item.offsetHeight > list.scrollTop + list.clientHeight) list.scrollTop = top + item.offsetHeight - list.clientHeight;
}
