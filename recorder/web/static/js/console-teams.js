// A team event (a team round robin or a team Swiss) on its console: the registry's teams found by name (GET /api/teams?q=,
// matched as the player search matches) and entered (POST …/teams), each with its players
// in board order, and the team standings (GET …/team-standings). Its rounds are paired, and its boards'
// results entered, in the console's round and results sections, as every tournament's.
// No rule is decided here: who may enter, how the teams meet, what a match scores — the API says.
import { getJSON, post } from "./api.js";
import { _, ngettext } from "./i18n.js";
import { isTeamEvent } from "./console-lineups.js";
import { bothNames, bothNamesText, element } from "./site.js";

const byId = (name) => document.getElementById(name);

export function enterTeam(teamId, base) {
  return post(`${base}/teams`, { team_id: teamId });
}

// The registry's teams of a name (or of an id), each with the button that enters it.
export async function findTeams(q, enter) {
  const { data } = await getJSON(`/api/teams?q=${encodeURIComponent(q)}&limit=20`);
  if (!data.teams.length) return [element("li", { class: "hint", text: _("No registered team has this name.") })];
  return data.teams.map((team) => {
    const more = [team.federation, team.club,
      ngettext("%(count)s player", "%(count)s players", team.players + team.reserves)].filter(Boolean).join(" · ");
    return element("li", { "data-team-id": team.id },
      element("span", {}, element("strong", {}, bothNames(team.name, team.name_geez)), element("span", { class: "hint", text: ` ${more}` })),
      element("button", { type: "button", class: "primary", "data-action": "enter-team", "data-team-id": team.id,
        text: _("Enter the team"), onclick: () => enter(team.id) }));
  });
}

// The team standings, read only for a team event.
export async function readTeamStandings(t, base) {
  if (!isTeamEvent(t)) return null;
  return (await getJSON(`${base}/team-standings`)).data;
}

function teamItem(t, team) {
  const names = new Map(t.players.map((p) => [p.number, bothNamesText(p.name, p.name_geez)]));
  const boards = team.players.map((n, k) => _("board %(board)s: %(name)s", { board: k + 1, name: names.get(n) || n }));
  return element("li", { "data-team": team.number, "data-team-id": team.id },
    element("strong", {}, bothNames(team.name, team.name_geez)),
    element("span", { class: "hint", text: ` ${boards.join(" · ")}` }));
}

function standingsTable(standings) {
  const head = element("tr", {}, ...[_("Rank"), _("Team"), _("Match points"), _("Game points"), _("Matches played")]
    .map((text) => element("th", { scope: "col", text })));
  const rows = standings.standings.map((s) => element("tr", { "data-team": s.team.number },
    element("td", { text: String(s.rank) }), element("td", {}, bothNames(s.team.name, s.team.name_geez)),
    element("td", { class: "points", text: String(s.match_points) }),
    element("td", { class: "points", text: String(s.game_points) }), element("td", { text: String(s.played) })));
  return [element("thead", {}, head), element("tbody", {}, ...rows)];
}

// The team event's part of the console: players enter with their team, never alone,
// and a team match's boards follow its board order (no swap by hand).
export function renderTeams(t, standings) {
  const team = isTeamEvent(t);
  byId("teams-section").hidden = !team;
  byId("teams-nav").hidden = !team;
  byId("single-entry").hidden = team;
  if (!team) return;
  byId("teams-boards").textContent = ngettext("%(count)s board a match", "%(count)s boards a match", t.team_boards);
  byId("team-form").hidden = t.rounds.length > 0;
  byId("team-results").hidden = t.rounds.length > 0;
  byId("teams-entered").replaceChildren(...t.teams.map((entered) => teamItem(t, entered)));
  byId("team-standings").replaceChildren(...standingsTable(standings));
}
