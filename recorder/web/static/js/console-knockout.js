// A knock-out on its console: its settings, the link to its bracket page, the hand-over
// that seeds it from a finished stage (…/knockout/seeding), and its matches, each with its
// score and, once level after its play-offs, the lot's winner recorded (…/knockout/lots).
// The games of the matches are the rounds' boards: paired, started and given their results
// in the console's round and results sections, as every tournament's. No rule is decided
// here: when a match is level, who may be handed over, what a lot may decide — the API says.
import { getJSON, post } from "./api.js";
import { typedNumber } from "./console-common.js";
import { _, ngettext } from "./i18n.js";
import { MATCH_STATES, stageName } from "./knockout-words.js";
import { bothNamesText, element } from "./site.js";

const byId = (name) => document.getElementById(name);
const half = (points) => (points % 1 ? `${Math.floor(points) || ""}½` : String(points));

// The stages a knock-out may be seeded from, listed once: the API's tournaments but this
// one and the knock-outs (the API refuses a hand-over from one, and from a stage unfinished).
let sourcesListed = false;
async function listSources(tournamentId) {
  if (sourcesListed) return;
  sourcesListed = true;
  const { data } = await getJSON("/api/tournaments?limit=100");
  const stages = data.tournaments.filter((t) => t.id !== tournamentId && t.format !== "knockout");
  byId("handover-source").replaceChildren(...stages.map((t) => element("option", { value: t.id, text: t.name })));
}

export function seedFromStage(form, base) {
  const qualifiers = typedNumber(form, "qualifiers");
  const body = { source: form.elements.source.value, ...(qualifiers === undefined ? {} : { qualifiers }) };
  return post(`${base}/knockout/seeding`, body);
}

function clockText(clock) {
  const stage = clock && clock.stages && clock.stages[0];
  if (!stage) return null;
  return _("the play-off's clock: %(minutes)s minutes each, %(seconds)s seconds added per move",
    { minutes: stage.base_ms / 60000, seconds: stage.increment_ms / 1000 });
}

function settingsText(bracket) {
  return [
    ngettext("%(count)s game a match", "%(count)s games a match", bracket.match_games),
    ngettext("%(count)s play-off game, then a lot", "%(count)s play-off games, then a lot", bracket.playoff_games),
    clockText(bracket.playoff_time_control),
  ].filter(Boolean).join(" · ");
}

function side(match, index) {
  const player = match.players[index];
  if (!player) return match.stage === 1 ? _("Bye") : "…";
  return `${player.seed}. ${bothNamesText(player.name, player.name_geez)}`;
}

// A match level after its play-offs: one button per player, the lot's winner.
function lotButtons(match, drawLot) {
  if (match.state !== "lot") return [];
  return match.players.filter(Boolean).map((player) => element("button", {
    type: "button", "data-action": "record-lot", "data-winner": player.number,
    text: _("%(name)s wins the lot", { name: bothNamesText(player.name, player.name_geez) }),
    onclick: () => drawLot(match, player.number) }));
}

function matchItem(match, drawLot) {
  const score = match.games.some((g) => g.result) ? `${half(match.score[0])}–${half(match.score[1])}` : "";
  const playoff = match.games.some((g) => g.playoff && g.result)
    ? _("play-off %(score)s", { score: `${half(match.playoff_score[0])}–${half(match.playoff_score[1])}` }) : "";
  const notes = [MATCH_STATES[match.state] || match.state, match.lot ? _("Won by lot") : ""].filter(Boolean);
  return element("li", { class: "board-item match-item", "data-stage": match.stage, "data-match": match.match, "data-state": match.state },
    element("span", { class: "board-number", text: String(match.match) }),
    element("span", { class: "board-players" }, element("span", { text: side(match, 0) }),
      element("span", { class: "hint", text: " – " }), element("span", { text: side(match, 1) })),
    element("span", { class: "board-state", text: [score, playoff].filter(Boolean).join(" · ") }),
    element("span", { class: "hint match-state", text: notes.join(" · ") }),
    element("span", { class: "buttons" }, ...lotButtons(match, drawLot)));
}

// A stage's matches under its name (the final, the semi-finals, a round of 16 …).
function stagePart(stage, drawLot) {
  return element("div", { class: "knockout-stage", "data-stage": stage.stage },
    element("h3", { text: stageName(stage) }),
    element("ol", { class: "boards-list" }, ...stage.matches.map((match) => matchItem(match, drawLot))));
}

// The knock-out's part of the console; `drawLot(match, winner)` records a lot's winner.
export async function renderKnockout(id, t, bracket, drawLot) {
  const knockout = t.format === "knockout";
  byId("knockout-section").hidden = !knockout;
  byId("knockout-nav").hidden = !knockout;
  if (!knockout) return;
  byId("knockout-settings").textContent = settingsText(bracket);
  byId("bracket-link").href = `/tournaments/${encodeURIComponent(id)}/bracket`;
  // Seeded from a stage only while nobody has entered and nothing is seeded.
  byId("handover-details").hidden = Boolean(bracket.seeding) || t.players.length > 0;
  if (!byId("handover-details").hidden) await listSources(id);
  const stages = bracket.stages.map((stage) => stagePart(stage, drawLot));
  byId("matches").replaceChildren(...(stages.length ? stages
    : [element("p", { class: "hint", text: _("The bracket is seeded when the first round is paired.") })]));
  const champion = bracket.champion;
  byId("champion").hidden = !champion;
  byId("champion").textContent = champion ? _("Champion: %(name)s", { name: bothNamesText(champion.name, champion.name_geez) }) : "";
}
