// The board sign-in page (/sign-in#token=…&next=/games/ID), which a sign-in card's QR code
// opens. The token comes in the address's fragment, which no browser sends to a server, so
// it reaches no log; the page takes it out of the address bar at once, keeps it as every
// page keeps a token (api.js, saveToken) once the service knows it, starts the board's
// game when no one has yet, and goes on to the game.
import { Conflict, REFUSED_LINK, UNCHECKED_LINK, describeProblem, getOptional, post, signInWith } from "./api.js";
import { _ } from "./i18n.js";

const status = document.getElementById("sign-in-status");

function fromFragment() {
  const params = new URLSearchParams(window.location.hash.slice(1));
  window.history.replaceState(window.history.state, "", window.location.pathname);
  return { given: (params.get("token") || "").trim(), next: params.get("next") || "/" };
}

// A game's or a tournament's page of this site only, never another site ("//host",
// "https://…", "/\t/host", which a browser reads as "//host"): anything else opens home.
function onThisSite(path) {
  return /^\/(games|tournaments)\/[A-Za-z0-9_-]+$/.test(path) ? path : "/";
}

// A board sign-in's id names its round and board (sig-r2-b3-…): the game of that board is
// started here if it is not yet, so the tablet opens it ready to record.
async function startBoardGame(principal, target) {
  const game = /^\/games\/([^/?#]+)$/.exec(target);
  const board = /^sig-r(\d+)-b(\d+)-/.exec(principal.id || "");
  if (!game || !board || principal.kind !== "signin") return;
  if (await getOptional(`/api/games/${game[1]}`) !== null) return;
  const tournament = encodeURIComponent(principal.tournament_id);
  try {
    await post(`/api/tournaments/${tournament}/rounds/${board[1]}/boards/${board[2]}/game`, {});
  } catch (error) {
    if (!(error instanceof Conflict)) throw error; // started meanwhile by another device: go on
  }
}

async function signIn() {
  const { given, next } = fromFragment();
  const answer = await signInWith(given);
  if (!answer.principal) {
    status.textContent = answer.refused ? REFUSED_LINK : UNCHECKED_LINK;
    return;
  }
  status.textContent = _("Sign-in accepted: opening the board's game…");
  const target = onThisSite(next);
  try {
    await startBoardGame(answer.principal, target);
  } catch (error) {
    status.textContent = describeProblem(error);
    return;
  }
  window.location.replace(target);
}

signIn();
