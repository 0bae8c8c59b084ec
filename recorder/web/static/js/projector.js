// The projector view for the hall: every board of one round (?round=N, else the latest
// paired) on one screen, in large type, redrawn within a second of each recorded move
// from the tournament's live stream (GET /api/tournaments/{id}/live). Read-only.
import { describeProblem, getJSON, Problem } from "./api.js";
import { renderBoard } from "./board.js";
import { statusText } from "./record.js";
import { element, listen } from "./site.js";

const page = document.getElementById("projector-page");
const id = page.dataset.tournamentId;
const base = `/api/tournaments/${encodeURIComponent(id)}`;
const byId = (name) => document.getElementById(name);
const RESULTS = { south_wins: "1–0", north_wins: "0–1", draw: "½–½", double_forfeit: "0–0" };
const chosenRound = Number(new URLSearchParams(location.search).get("round")) || null;

const shown = { round: null, variants: new Map(), cards: new Map() };

function boardCard(pairing) {
  const card = element("section", { class: "projector-card", "data-board": pairing.board, "data-game": pairing.game_id || "" },
    element("h2", {}, element("span", { class: "board-number", text: `Board ${pairing.board}` }), " ",
      element("span", { class: "pairing", text: `${pairing.south.name} – ${pairing.north.name}` })),
    element("p", { class: "projector-status" }),
    element("div", { class: "projector-board" }));
  shown.cards.set(pairing.game_id, { card, pairing });
  return card;
}

async function drawGame(gameId) {
  const entry = shown.cards.get(gameId);
  if (!entry) return;
  const { card, pairing } = entry;
  let game;
  try {
    game = (await getJSON(`/api/games/${encodeURIComponent(gameId)}`)).data;
  } catch (error) {
    if (error instanceof Problem && error.status === 404) {
      card.querySelector(".projector-status").textContent = pairing.result ? RESULTS[pairing.result] : "not started";
      return;
    }
    throw error;
  }
  const names = { south: game.south, north: game.north };
  renderBoard(card.querySelector(".projector-board"), shown.variants.get(game.variant), game.state,
    { sowable: new Set(), names, at: game.version, version: game.version });
  card.querySelector(".projector-status").textContent = statusText(game.state, names);
  card.dataset.version = String(game.version);
}

async function load() {
  const [{ data: t }, { data: variants }] = await Promise.all([getJSON(base), getJSON("/api/variants")]);
  for (const variant of variants.variants) shown.variants.set(variant.name, variant);
  byId("projector-title").textContent = t.name;
  document.title = `${t.name} · boards`;
  const round = chosenRound ? t.rounds.find((r) => r.round === chosenRound) : t.rounds[t.rounds.length - 1];
  if (!round) {
    byId("projector-round").textContent = chosenRound ? `Round ${chosenRound} is not paired.` : "No round is paired yet.";
    byId("boards").replaceChildren();
    return;
  }
  shown.round = round.round;
  byId("projector-round").textContent = `Round ${round.round}${round.complete ? " (complete)" : ""}`;
  shown.cards.clear();
  byId("boards").replaceChildren(...round.boards.map(boardCard));
  await Promise.all(round.boards.map((b) => drawGame(b.game_id)));
}

function onBoard(board) {
  if (board.round === shown.round && shown.cards.has(board.game_id)) drawGame(board.game_id).catch(() => {});
}

load()
  .then(() => {
    listen(`${base}/live`, { board: onBoard, tournament: () => load().catch(() => {}) });
    page.dataset.ready = "true";
  })
  .catch((error) => {
    byId("projector-title").textContent = "The tournament could not be loaded";
    byId("projector-round").textContent = describeProblem(error);
    page.dataset.ready = "error";
  });
