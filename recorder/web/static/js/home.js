// The home page: start a new game (variant, options, players, first player) and find
// games and tournaments. The list is the API's (newest first); the search box filters
// it on this device as you type.
import { describeProblem, getJSON, getOptional, post } from "./api.js";
import { _, date } from "./i18n.js";
import { bothNames, element, pageAccess, VIEWING_ONLY } from "./site.js";

const DEFAULT_MARK = _(" (default)");

const byId = (id) => document.getElementById(id);
const state = { variants: [], games: [], tournaments: null };

// -- New game ------------------------------------------------------------------------

// Each option in words (/api/variants' label and choice_labels); the value sent is the choice itself.
function optionControl(name, option) {
  const select = element("select", { name: `option:${name}`, "data-option": name });
  option.choices.forEach((choice, index) => {
    const words = (option.choice_labels && option.choice_labels[index]) || String(choice);
    const label = `${words}${choice === option.default ? DEFAULT_MARK : ""}`;
    select.append(element("option", { value: JSON.stringify(choice), text: label, selected: choice === option.default }));
  });
  return element("label", {}, `${option.label || name.replaceAll("_", " ")} `, select,
    element("span", { class: "hint", text: ` ${option.description} (${option.rules})` }));
}

function showVariant() {
  const variant = state.variants.find((v) => v.name === byId("variant").value);
  if (!variant) return;
  byId("variant-summary").textContent = variant.summary || "";
  const options = byId("options");
  // A div, not a fieldset: Chromium leaves a fieldset refilled inside a closed <details> undrawn.
  options.replaceChildren(...Object.entries(variant.options).map(([name, option]) => optionControl(name, option)));
  options.hidden = Object.keys(variant.options).length === 0;
  summariseOptions();
  byId("first-player").hidden = !variant.needs_first_player;
  byId("first-player-race").hidden = variant.needs_first_player;
}

function summariseOptions() {
  const changed = [...byId("options").querySelectorAll("[data-option]")].filter((select) => !select.selectedOptions[0].text.endsWith(DEFAULT_MARK));
  const count = byId("options").querySelectorAll("[data-option]").length;
  byId("options-summary").textContent = !count ? _("(none for this game)") : changed.length ? _("(%(count)s changed)", { count: changed.length }) : _("(%(count)s, defaults chosen)", { count });
}

function newGameBody(form) {
  const variant = state.variants.find((v) => v.name === form.elements.variant.value);
  const body = { variant: variant.name, options: {}, south: form.elements.south.value.trim(), north: form.elements.north.value.trim() };
  for (const select of form.querySelectorAll("[data-option]")) body.options[select.dataset.option] = JSON.parse(select.value);
  if (variant.needs_first_player) body.first_player = form.querySelector('input[name="first_player"]:checked').value;
  for (const field of ["event", "site", "date", "round"]) {
    const value = form.elements[field].value.trim();
    if (value) body[field] = value;
  }
  return body;
}

async function startGame(event) {
  event.preventDefault();
  const error = byId("new-game-error");
  error.hidden = true;
  try {
    const { data } = await post("/api/games", newGameBody(event.target));
    window.location.assign(`/games/${encodeURIComponent(data.id)}`);
  } catch (problem) {
    error.textContent = describeProblem(problem);
    error.hidden = false;
  }
}

// Without a token nothing can be started here: the form says so rather than failing on submit.
async function showWhetherGamesCanStart() {
  const { principal } = await pageAccess;
  const viewing = !principal;
  byId("new-game-viewing").hidden = !viewing;
  byId("new-game-viewing").textContent = viewing ? _("%(viewing)s: starting a game needs a token.", { viewing: VIEWING_ONLY }) : "";
  byId("new-game").querySelector("button[type=submit]").disabled = viewing;
}

// -- Lists and search ----------------------------------------------------------------

function gameCard(game) {
  const meta = game.metadata || {};
  const title = state.variants.find((v) => v.name === game.variant)?.title || game.variant;
  const result = game.result ? { south_wins: _("South won"), north_wins: _("North won"), draw: _("Draw") }[game.result] : _("in progress");
  return element("li", { class: "card", "data-game": game.id },
    element("a", { href: `/games/${encodeURIComponent(game.id)}` },
      element("strong", {}, bothNames(game.south, game.south_geez), " – ", bothNames(game.north, game.north_geez)),
      element("span", { text: ` ${title} · ${result}` }),
      element("span", { class: "hint", text: [meta.event, meta.round && _("round %(round)s", { round: meta.round }), when(game)].filter(Boolean).join(" · ") })));
}

// The day the game was played, as recorded ("2026-11-22", "2026-11"); else the day its record began.
function when(game) {
  const played = game.metadata?.date;
  if (played) return date(played);
  return game.created_at ? _("recorded %(date)s", { date: date(game.created_at.slice(0, 10)) }) : "";
}

function tournamentCard(tournament) {
  const id = tournament.id || tournament.tournament_id;
  return element("li", { class: "card", "data-tournament": id },
    element("a", { href: `/tournaments/${encodeURIComponent(id)}` },
      element("strong", { text: tournament.name || id }),
      element("span", { class: "hint", text: [state.variants.find((v) => v.name === tournament.variant)?.title || tournament.variant, tournament.site, date(tournament.start_date) || tournament.dates]
        .filter((x) => x && typeof x === "string").join(" · ") })));
}

function matches(text, ...fields) {
  const haystack = fields.filter(Boolean).join(" ").toLowerCase();
  return text.split(/\s+/).filter(Boolean).every((word) => haystack.includes(word));
}

function renderLists() {
  const text = byId("search-text").value.trim().toLowerCase();
  const variant = byId("search-variant").value;
  const games = state.games.filter((g) => (!variant || g.variant === variant)
    && matches(text, g.id, g.south, g.north, g.south_geez, g.north_geez, g.variant, g.metadata?.event, g.metadata?.site, g.metadata?.round));
  byId("games").replaceChildren(...(games.length ? games.slice(0, 100).map(gameCard)
    : [element("li", { class: "hint", text: state.games.length ? _("No game matches.") : _("No games recorded yet.") })]));
  if (state.tournaments === null) {
    byId("tournaments").replaceChildren(element("li", { class: "hint", text: _("This service keeps no tournaments.") }));
    return;
  }
  const tournaments = state.tournaments.filter((t) => (!variant || t.variant === variant) && matches(text, t.id, t.name, t.site, t.variant));
  byId("tournaments").replaceChildren(...(tournaments.length ? tournaments.map(tournamentCard)
    : [element("li", { class: "hint", text: state.tournaments.length ? _("No tournament matches.") : _("No tournaments yet.") })]));
}

async function loadLists() {
  const [{ data: games }, tournaments] = await Promise.all([
    getJSON("/api/games?limit=1000"),
    getOptional("/api/tournaments").catch(() => null),
  ]);
  state.games = games.games;
  state.tournaments = tournaments ? (tournaments.tournaments || tournaments) : null;
  renderLists();
}

async function init() {
  const { data } = await getJSON("/api/variants");
  state.variants = data.variants;
  for (const variant of state.variants) {
    byId("variant").append(element("option", { value: variant.name, text: variant.title }));
    byId("search-variant").append(element("option", { value: variant.name, text: variant.title }));
  }
  showVariant();
  byId("variant").addEventListener("change", showVariant);
  byId("options").addEventListener("change", summariseOptions);
  byId("new-game").addEventListener("submit", startGame);
  byId("search-text").addEventListener("input", renderLists);
  byId("search").addEventListener("submit", (event) => { // Enter filters as typing does; the page stays
    event.preventDefault();
    renderLists();
  });
  byId("search-variant").addEventListener("change", renderLists);
  await Promise.all([loadLists(), showWhetherGamesCanStart()]);
  document.body.dataset.ready = "true";
}

init().catch((error) => {
  byId("games").replaceChildren(element("li", { class: "error", text: _("Could not load: %(problem)s", { problem: describeProblem(error) }) }));
});
