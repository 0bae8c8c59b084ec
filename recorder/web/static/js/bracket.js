// A knock-out's bracket page: one column per stage, from the first round to the final,
// each match with its players (seed and name), score, play-off score, lot and the links to
// its games. Read-only, from GET /api/tournaments/{id}/bracket; it follows the tournament's
// live stream (GET …/live), so a result recorded on any board redraws it. It prints as shown.
import { describeProblem, getJSON } from "./api.js";
import { _, ngettext } from "./i18n.js";
import { MATCH_STATES as STATES, stageName } from "./knockout-words.js";
import { bothNames, bothNamesText, element, listen } from "./site.js";

const page = document.getElementById("bracket-page");
const id = page.dataset.tournamentId;
const base = `/api/tournaments/${encodeURIComponent(id)}`;
const byId = (name) => document.getElementById(name);
// Framed on another site (/embed/tournaments/{id}/bracket): every link opens a new tab.
const embedded = page.dataset.embed === "true";
const away = embedded ? { target: "_blank", rel: "noopener" } : {};

const RESULTS = { south_wins: "1–0", north_wins: "0–1", draw: "½–½", double_forfeit: "0–0" };
const half = (points) => (points % 1 ? `${Math.floor(points) || ""}½` : String(points));

function playerLine(match, index) {
  const player = match.players[index];
  const won = player && match.winner === player.number;
  // A score once a game of it has a result; the play-off's once a play-off game has one.
  const score = match.games.some((g) => !g.playoff && g.result) ? half(match.score[index]) : "";
  const playoff = match.games.some((g) => g.playoff && g.result) ? half(match.playoff_score[index]) : "";
  return element("li", { class: `bracket-player${won ? " winner" : ""}`, "data-player": player ? player.number : "" },
    element("span", { class: "seed", text: player ? String(player.seed) : "" }),
    // A registry player in both scripts, his Ge'ez name beside the Latin (dom.js, bothNames).
    player
      ? element("span", { class: "name" }, bothNames(player.name, player.name_geez))
      : element("span", { class: "name", text: match.stage === 1 ? _("Bye") : "…" }),
    element("span", { class: "score", text: score }),
    element("span", { class: "playoff-score", text: playoff }));
}

function gameLinks(match) {
  return element("ol", { class: "bracket-games" }, ...match.games.map((game) => {
    const name = game.playoff ? _("Play-off game %(n)s", { n: game.game }) : _("Game %(n)s", { n: game.game });
    const text = game.result ? `${name} ${RESULTS[game.result]}` : name;
    if (!game.game_id) return element("li", {}, element("span", { text }));  // paired, not yet started
    return element("li", {}, element("a", { href: `/games/${encodeURIComponent(game.game_id)}`, "data-game": game.game_id, text, ...away }));
  }));
}

function matchCard(match) {
  const notes = [STATES[match.state] || match.state];
  if (match.lot) notes.push(_("Won by lot"));
  return element("section", { class: "bracket-match", "data-stage": match.stage, "data-match": match.match, "data-state": match.state },
    element("ol", { class: "bracket-players" }, playerLine(match, 0), playerLine(match, 1)),
    element("p", { class: "hint match-state", text: notes.join(" · ") }),
    gameLinks(match));
}

function render(bracket) {
  byId("bracket-title").textContent = bracket.name;
  document.title = `${bracket.name} · ` + _("Bracket");
  byId("bracket-meta").textContent = [
    ngettext("%(count)s game a match", "%(count)s games a match", bracket.match_games),
    ngettext("%(count)s play-off game, then a lot", "%(count)s play-off games, then a lot", bracket.playoff_games),
  ].join(" · ");
  const champion = byId("bracket-champion");
  champion.hidden = !bracket.champion;
  const named = bracket.champion && bothNamesText(bracket.champion.name, bracket.champion.name_geez);
  champion.textContent = bracket.champion ? _("Champion: %(name)s", { name: named }) : "";
  const columns = bracket.stages.map((stage) => element("div", { class: "bracket-stage", "data-stage": stage.stage },
    element("h3", { text: stageName(stage) }), ...stage.matches.map(matchCard)));
  byId("bracket").replaceChildren(...(columns.length ? columns : [element("p", { class: "hint", text: _("The bracket is seeded when the first round is paired.") })]));
  byId("bracket-tournament-link").href = `/tournaments/${encodeURIComponent(id)}`;
}

// The stage this knock-out was seeded from (a Swiss or a round robin), by its name.
async function showSource(seeding) {
  const line = byId("bracket-source-line");
  line.hidden = !(seeding && seeding.source);
  if (line.hidden) return;
  const link = byId("bracket-source-link");
  link.href = `/tournaments/${encodeURIComponent(seeding.source)}`;
  link.textContent = (await getJSON(`/api/tournaments/${encodeURIComponent(seeding.source)}`)).data.name;
}

async function load() {
  const { data } = await getJSON(`${base}/bracket`);
  render(data);
  await showSource(data.seeding);
  page.dataset.ready = "true";
  page.dataset.updates = String(Number(page.dataset.updates || 0) + 1);
}

let refreshTimer = null;
function refresh() {
  clearTimeout(refreshTimer);
  refreshTimer = setTimeout(() => load().catch(() => {}), 30);
}

// data-live: the stream is open, so every result recorded from now on redraws the page.
load().then(() => listen(`${base}/live`, { board: refresh, tournament: refresh })).then(() => {
  page.dataset.live = "true";
}).catch((error) => {
  byId("bracket-title").textContent = _("The bracket could not be loaded");
  byId("bracket-meta").replaceChildren(element("span", { class: "error", text: describeProblem(error) }));
  page.dataset.ready = "error";
});
