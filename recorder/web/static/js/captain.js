// A team captain's page (/tournaments/<id>/teams/<n>/captain#token=…), which his card's QR
// code opens: the token comes in the address's fragment, which no browser sends to a server,
// so it reaches no log; the page takes it out of the address bar at once and keeps it as
// every page keeps a token (api.js). It offers his team's line-up for the next round, board
// by board, and hands it in (POST …/rounds/{r}/lineups). Whether it is taken (the board
// order, the deadline: the round paired) is the API's to say, in the reader's language.
// The API keeps a line-up from everyone but the arbiter until its round is paired, so the
// phone remembers the one it handed in, to show it when the page is opened again.
import { REFUSED_LINK, UNCHECKED_LINK, describeProblem, getJSON, signInWith } from "./api.js";
import { clearProblem, showProblem } from "./console-common.js";
import { bothNamesText } from "./dom.js";
import { _ } from "./i18n.js";
import { chosenPlayers, handIn, lineupForm } from "./lineup-form.js";

const page = document.getElementById("captain-page");
const { tournamentId, team } = page.dataset;
const base = `/api/tournaments/${encodeURIComponent(tournamentId)}`;
const status = document.getElementById("captain-status");

function tokenFromFragment() {
  const given = new URLSearchParams(window.location.hash.slice(1)).get("token");
  if (given !== null) window.history.replaceState(window.history.state, "", window.location.pathname);
  return given === null ? null : given.trim();
}

function keptKey(round) {
  return `recorder.lineup.${tournamentId}.${team}.${round}`;
}

// The line-up this phone handed in for the round, or null (none, or private mode).
function kept(round, boards) {
  try {
    const players = JSON.parse(localStorage.getItem(keptKey(round)) || "null");
    return Array.isArray(players) && players.length === boards ? players : null;
  } catch { return null; }
}

function keep(round, players) {
  try { localStorage.setItem(keptKey(round), JSON.stringify(players)); } catch { /* private mode */ }
}

// A card's token, once the service knows it, is kept and the page opened again without it,
// so that every part of the page (its header too) reads as the captain signed in.
async function signIn() {
  const given = tokenFromFragment();
  if (given === null) return true; // the token this device kept, if any: the API judges it
  const answer = await signInWith(given);
  if (!answer.principal) {
    status.textContent = answer.refused ? REFUSED_LINK : UNCHECKED_LINK;
    return false;
  }
  window.location.replace(window.location.pathname);
  return new Promise(() => {}); // the page is opened again
}

// After a refusal the event is read again: a round paired meanwhile is said in words.
async function afterRefusal(form) {
  const { data: t } = await getJSON(base);
  if (t.rounds.length >= Number(form.dataset.round)) {
    status.textContent = _("Round %(n)s is paired: its line-ups are closed. Open this page again for the next round.", { n: form.dataset.round });
  }
}

async function submit(event) {
  event.preventDefault();
  const form = event.currentTarget;
  clearProblem(form);
  status.textContent = "";
  page.dataset.busy = "true";
  try {
    const { data } = await handIn(base, form);
    keep(data.round, data.players);
    page.dataset.handedIn = JSON.stringify(data.players);
    status.textContent = _("Your line-up for round %(n)s is handed in.", { n: data.round });
  } catch (error) {
    showProblem(form, error);
    await afterRefusal(form).catch(() => {});
  } finally {
    page.dataset.busy = "false";
  }
}

function draw(t) {
  const entered = t.teams.find((e) => String(e.number) === team);
  if (!entered) {
    status.textContent = _("This event has no team %(team)s.", { team });
    return;
  }
  const round = t.rounds.length + 1;
  document.getElementById("captain-meta").textContent = `${t.name} · ${bothNamesText(entered.name, entered.name_geez)}`;
  const handedIn = kept(round, t.team_boards);
  const chosen = handedIn || Array.from({ length: t.team_boards }, (unused, i) => entered.players[i] ?? null);
  if (handedIn) status.textContent = _("The boards show the line-up this phone handed in for round %(n)s.", { n: round });
  const form = lineupForm(t, entered, round, chosen, _("Line-up for round %(n)s", { n: round }));
  form.addEventListener("submit", submit);
  document.getElementById("captain-lineup").replaceChildren(form);
  page.dataset.round = String(round);
  page.dataset.chosen = JSON.stringify(chosenPlayers(form));
}

async function load() {
  if (!(await signIn())) return;
  const { data: t } = await getJSON(base);
  if (t.status === "finished" || (t.rounds_planned && t.rounds.length >= t.rounds_planned)) {
    status.textContent = _("Every round of this event is paired: it takes no line-up any more.");
    return;
  }
  draw(t);
}

load()
  .then(() => { page.dataset.ready = "true"; })
  .catch((error) => {
    status.textContent = describeProblem(error);
    page.dataset.ready = "error";
  });
