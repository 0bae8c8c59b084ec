// The rating list of one game: rank, name, federation, rating, deviation, games and the
// provisional marker, for a month (this month until it is over), filtered by federation.
// Read-only, from GET /api/ratings/{game}?period=&federation= (and its .csv twin).
import { describeProblem, getJSON } from "./api.js";
import { geezNameLang } from "./dom.js";
import { _, date } from "./i18n.js";
import { element } from "./site.js";

const page = document.getElementById("ratings-page");
const variant = page.dataset.variant;
const byId = (name) => document.getElementById(name);
const params = new URLSearchParams(location.search);

function query() {
  const chosen = new URLSearchParams();
  if (params.get("period")) chosen.set("period", params.get("period"));
  if (params.get("federation")) chosen.set("federation", params.get("federation"));
  return chosen.toString();
}

function options(select, values, chosen, label = (v) => v) {
  const kept = select.querySelector("option[value='']");
  select.replaceChildren(...(kept ? [kept] : []), ...values.map((value) =>
    element("option", { value, text: label(value), selected: value === chosen })));
}

function render(list, title, federations) {
  byId("ratings-title").textContent = _("%(game)s rating list", { game: title });
  document.title = _("%(game)s rating list", { game: title }) + " · " + _("Mancala records");
  byId("ratings-meta").textContent = date(list.period) + (list.published ? _(" (published)") : _(" (this month so far, not yet published)"))
    + " · " + _("%(count)s players", { count: list.players.length });
  byId("ratings-threshold").textContent = String(list.provisional_above);
  const periods = [...new Set([...list.periods, list.period])].sort().reverse();
  options(byId("ratings-period"), periods, list.period, date);
  options(byId("ratings-federation"), federations, params.get("federation") || "");
  const csv = query();
  byId("ratings-csv").href = `/api/ratings/${encodeURIComponent(variant)}.csv${csv ? `?${csv}` : ""}`;
  const head = element("tr", {}, ...["#", _("Player"), _("Fed."), _("Rating"), _("RD"), _("Games"), ""].map((text) =>
    element("th", { scope: "col", text })));
  const rows = list.players.map((p) => element("tr", { "data-player": p.id, class: p.provisional ? "provisional" : null },
    element("td", { text: String(p.rank) }),
    element("td", {}, element("a", { href: `/players/${encodeURIComponent(p.id)}`, text: p.name || p.id }),
      p.name_geez ? element("span", { class: "geez", lang: geezNameLang(), text: ` ${p.name_geez}` }) : null),
    element("td", { text: p.federation || "" }),
    element("td", { class: "points", text: p.rating.toFixed(0) }),
    element("td", { text: p.rd.toFixed(0) }),
    element("td", { text: String(p.games) }),
    element("td", { class: "marker", title: p.provisional ? _("provisional") : "", text: p.provisional ? _("P") : "" })));
  byId("ratings-list").replaceChildren(element("thead", {}, head), element("tbody", {}, ...rows));
  const fixes = list.corrections || [];
  byId("ratings-corrections").hidden = fixes.length === 0;
  byId("ratings-corrections-list").replaceChildren(...fixes.map((c) => element("li", { "data-game": c.game_id },
    element("a", { href: `/games/${encodeURIComponent(c.game_id)}`, text: c.game_id }),
    ` (${date(c.period)}): ` + resultWords(c.before) + " → " + resultWords(c.after))));
}

// A game's result as the list states it, in words.
function resultWords(result) {
  const words = { south_wins: _("South won"), north_wins: _("North won"), draw: _("Draw") };
  return result ? words[result] || result : _("no result");
}

function navigate(name, value) {
  if (value) params.set(name, value);
  else params.delete(name);
  location.search = params.toString();
}

async function init() {
  const base = `/api/ratings/${encodeURIComponent(variant)}`;
  const period = params.get("period") ? `?period=${encodeURIComponent(params.get("period"))}` : "";
  const [{ data: list }, { data: all }, { data: variants }] = await Promise.all([
    getJSON(`${base}?${query()}`), getJSON(`${base}${period}`), getJSON("/api/variants")]);
  const found = variants.variants.find((v) => v.name === variant);
  const federations = [...new Set(all.players.map((p) => p.federation).filter(Boolean))].sort();
  render(list, found ? found.title : variant, federations);
  byId("ratings-period").addEventListener("change", (event) => navigate("period", event.target.value));
  byId("ratings-federation").addEventListener("change", (event) => navigate("federation", event.target.value));
  page.dataset.ready = "true";
}

init().catch((error) => {
  byId("ratings-title").textContent = error.status === 404 ? _("There is no rating list for %(game)s", { game: variant }) : _("The list could not be loaded");
  byId("ratings-meta").replaceChildren(element("span", { class: "error", text: describeProblem(error) }));
  page.dataset.ready = "error";
});
