// The player page: names, affiliation, the rating per game with its history as a small
// chart, and every tournament and game with results, linked. Read-only: all of it comes
// from GET /api/players/{id} (a merged id answers with the survivor's record).
import { describeProblem, getJSON } from "./api.js";
import { _, date } from "./i18n.js";
import { element, PLAYER } from "./site.js";

const titles = new Map(); // a game's name to its title in the page's language

const page = document.getElementById("player-page");
const id = page.dataset.playerId;
const byId = (name) => document.getElementById(name);
const SVG = "http://www.w3.org/2000/svg";
const RESULTS = { south_wins: "1–0", north_wins: "0–1", draw: "½–½" };
const SCORES = { 1: _("won"), 0.5: _("drew"), 0: _("lost") };

function svg(tag, attributes = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, String(value));
  node.append(...children);
  return node;
}

// The rating month by month as a line (deviation as a band): drawn to the box's width.
function chart(history) {
  const width = 320, height = 90, pad = 6;
  const low = Math.min(...history.map((h) => h.rating - h.rd));
  const high = Math.max(...history.map((h) => h.rating + h.rd));
  const x = (i) => pad + (history.length === 1 ? (width - 2 * pad) / 2 : (i * (width - 2 * pad)) / (history.length - 1));
  const y = (value) => height - pad - ((value - low) / Math.max(high - low, 1)) * (height - 2 * pad);
  const line = history.map((h, i) => `${x(i).toFixed(1)},${y(h.rating).toFixed(1)}`).join(" ");
  const band = [...history.map((h, i) => `${x(i).toFixed(1)},${y(h.rating + h.rd).toFixed(1)}`),
    ...history.slice().reverse().map((h, i) => `${x(history.length - 1 - i).toFixed(1)},${y(h.rating - h.rd).toFixed(1)}`)].join(" ");
  const title = svg("title");
  title.textContent = history.map((h) => `${h.period}: ${h.rating.toFixed(0)} ± ${h.rd.toFixed(0)}`).join("; ");
  // One month: its deviation as a bar (a band needs two months to have a width).
  const spread = history.length === 1
    ? svg("rect", { x: x(0) - 6, y: y(history[0].rating + history[0].rd), width: 12,
      height: y(history[0].rating - history[0].rd) - y(history[0].rating + history[0].rd), class: "band" })
    : svg("polygon", { points: band, class: "band" });
  return svg("svg", { class: "rating-chart", viewBox: `0 0 ${width} ${height}`, role: "img",
    "aria-label": _("rating history, %(count)s months", { count: history.length }) }, title,
    spread, svg("polyline", { points: line, class: "line" }),
    ...history.map((h, i) => svg("circle", { cx: x(i).toFixed(1), cy: y(h.rating).toFixed(1), r: 2.5 })));
}

function renderHeader(p) {
  byId("player-name").textContent = p.name;
  document.title = `${p.name} · ` + _("Mancala records");
  byId("player-geez").textContent = p.name_geez || "";
  const sex = { w: _("woman"), m: _("man") }[p.sex];
  byId("player-meta").textContent = [p.federation, p.club, sex, p.birth_year && _("born %(year)s", { year: p.birth_year }),
    p.external_id && _("federation number %(number)s", { number: p.external_id }), p.id].filter(Boolean).join(" · ");
  const merged = byId("player-merged");
  if (p.survivor) {
    merged.hidden = false;
    merged.replaceChildren(_("This record was merged into "),
      element("a", { href: `/players/${encodeURIComponent(p.merged_into)}`, text: p.survivor.name }),
      _("; what follows is that record's."));
  }
}

// Why the latest month's rating is what it is: each game with the opponent's rating and
// deviation before the month, the expected score and the actual one (as `recorder ratings explain`).
function explain(entry, names) {
  const games = entry.explanation.games;
  const before = entry.explanation.before;
  const summary = element("summary", { text: _("Why %(rating)s in %(month)s", { rating: entry.rating.toFixed(0), month: date(entry.period) }) });
  const start = element("p", { text: _("Before the month: %(rating)s ± %(rd)s.", { rating: before.rating.toFixed(0), rd: before.rd.toFixed(0) }) });
  if (!games.length) return element("details", { class: "why" }, summary, start,
    element("p", { text: _("No game this month: only the deviation grew.") }));
  const head = element("tr", {}, ...[_("Opponent"), _("His rating"), _("Expected"), _("Scored")].map((text) => element("th", { scope: "col", text })));
  const rows = games.map((g) => element("tr", { "data-game": g.game_id },
    element("td", {}, element("a", { href: `/players/${encodeURIComponent(g.opponent)}`, text: names.get(g.opponent) || g.opponent })),
    element("td", { text: `${g.opponent_rating.toFixed(0)} ± ${g.opponent_rd.toFixed(0)}` }),
    element("td", { text: g.expected.toFixed(2) }),
    element("td", { text: String(g.score) })));
  return element("details", { class: "why" }, summary, start,
    element("div", { class: "scroll" }, element("table", { class: "table" }, element("thead", {}, head), element("tbody", {}, ...rows))));
}

function renderRatings(ratings, variants, names) {
  const titles = Object.fromEntries(variants.map((v) => [v.name, v.title]));
  const blocks = Object.entries(ratings).map(([variant, history]) => {
    const last = history[history.length - 1];
    return element("div", { class: "rating-block", "data-variant": variant },
      element("h3", {}, element("a", { href: `/ratings/${variant}`, text: titles[variant] || variant })),
      element("p", { class: "rating-now", text: `${last.rating.toFixed(0)} ± ${last.rd.toFixed(0)}`
        + (last.provisional ? _(" (provisional)") : "") + " · " + _("rank %(rank)s in %(month)s", { rank: last.rank, month: date(last.period) }) }),
      chart(history), explain(last, names));
  });
  byId("player-ratings").replaceChildren(...(blocks.length ? blocks
    : [element("p", { class: "hint", text: _("No rated game yet.") })]));
}

function renderTournaments(tournaments) {
  byId("player-tournaments").replaceChildren(...(tournaments.length ? tournaments.map((t) => element("li", {},
    element("a", { href: `/tournaments/${encodeURIComponent(t.id)}`, text: t.name }),
    ` · ${titles.get(t.variant) || t.variant}` + (t.rated ? _(" · rated") : "")))
    : [element("li", { class: "hint", text: _("No tournament yet.") })]));
}

function renderGames(games) {
  const head = element("tr", {}, ...[_("Game"), _("Side"), _("Opponent"), _("Result"), ""].map((text) => element("th", { scope: "col", text })));
  const rows = games.map((g) => element("tr", { "data-game": g.game_id },
    element("td", {}, element("a", { href: `/games/${encodeURIComponent(g.game_id)}`, text: titles.get(g.variant) || g.variant })),
    element("td", { text: PLAYER[g.side] || g.side }),
    element("td", {}, g.opponent_id ? element("a", { href: `/players/${encodeURIComponent(g.opponent_id)}`, text: g.opponent })
      : g.opponent),
    element("td", { text: g.result ? RESULTS[g.result] : _("in progress") }),
    element("td", { class: "points", text: g.score === null ? "" : SCORES[g.score] })));
  byId("player-games").replaceChildren(element("thead", {}, head), element("tbody", {}, ...rows));
}

async function init() {
  const [{ data: p }, { data: variants }] = await Promise.all([
    getJSON(`/api/players/${encodeURIComponent(id)}`), getJSON("/api/variants")]);
  for (const variant of variants.variants) titles.set(variant.name, variant.title);
  renderHeader(p);
  const names = new Map(p.games.filter((g) => g.opponent_id).map((g) => [g.opponent_id, g.opponent]));
  renderRatings(p.ratings, variants.variants, names);
  renderTournaments(p.tournaments);
  renderGames(p.games);
  page.dataset.ready = "true";
}

init().catch((error) => {
  byId("player-name").textContent = error.status === 404 ? _("There is no player %(id)s", { id }) : _("The player could not be loaded");
  byId("player-meta").replaceChildren(element("span", { class: "error", text: describeProblem(error) }));
  page.dataset.ready = "error";
});
