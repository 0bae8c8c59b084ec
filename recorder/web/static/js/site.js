// Every page: who the device is signed in as (and so what the page can do), the sign-in
// form in the header, the notice banner, the service worker that serves the pages
// offline, and live updates (Server-Sent Events).
import { addressSignIn, authHeaders, forgetReadersAnswers, getJSON, readerCache, request, saveToken, signInWith, token, whoAmI } from "./api.js";
import { bothNames, bothNamesText, crossMark, element, PLAYER, visible } from "./dom.js";
import { _ } from "./i18n.js";

const PAGE_CACHE = "recorder-pages"; // the service worker's runtime cache (recorder/web/templates/sw.js)
const RECONNECT_MS = 5000;
const INSTALL_RETRY_MS = 15000;

// Service workers need a secure context (https, or localhost); elsewhere the pages work online only.
if ("serviceWorker" in navigator && window.isSecureContext) registerWorker();
// The cache of this reader's answers (templates/sw.js keeps them only in one that exists).
if ("caches" in window) readerCache(authHeaders().Authorization).then((name) => caches.open(name)).catch(() => {});

// Two ways a page can be left without the worker, and so without its offline copy:
// - the worker's claim() at activation misses a page whose navigation was still under way
//   (or a forced reload went past it): once a worker is active, the page asks to be taken;
// - an install fails when one asset cannot be fetched on a weak network: it is tried again.
async function registerWorker() {
  try {
    const registration = await navigator.serviceWorker.register("/sw.js");
    const installing = registration.installing;
    installing?.addEventListener("statechange", () => {
      if (installing.state === "redundant" && !registration.active) setTimeout(registerWorker, INSTALL_RETRY_MS);
    });
    const ready = await navigator.serviceWorker.ready;
    if (!navigator.serviceWorker.controller) ready.active?.postMessage("claim");
  } catch {
    setTimeout(registerWorker, INSTALL_RETRY_MS);
  }
}

// -- Signed in, or viewing only ----------------------------------------------------------

// The question this page asks about its token: may it write this game, this tournament?
function accessQuery() {
  const game = document.getElementById("game-page");
  if (game) return `?game=${encodeURIComponent(game.dataset.gameId)}`;
  const tournament = document.getElementById("tournament-page") || document.querySelector("#console-page[data-tournament-id]");
  if (tournament) return `?tournament=${encodeURIComponent(tournament.dataset.tournamentId)}`;
  return "";
}

export const VIEWING_ONLY = _("Viewing only — sign in to record");
export const REVOKED_TOKEN = _("The token kept on this device is not valid any more; ask the chief arbiter for a new sign-in link.");

// Settles to whoAmI's answer for this page; the game page records only if it says so.
export const pageAccess = whoAmI(accessQuery()).catch(() => ({ offline: true, principal: null }));

async function scopeText(principal) {
  if (principal.kind === "admin") return _("Signed in as the admin: may record everything");
  if (principal.kind === "unchecked") return _("Signed in with the token kept on this device");
  if (principal.kind === "anonymous") return _("Open mode: anyone may record games outside tournaments");
  if (principal.kind === "recorder") return _("Signed in: %(holder)s, recorder of the games this token creates", { holder: visible(principal.holder) });
  const id = principal.tournament_id;
  const name = await getJSON(`/api/tournaments/${encodeURIComponent(id)}`).then(({ data }) => data.name, () => id);
  if (principal.kind === "player") { // a player's badge: his check-in and his own games' confirmations
    return _("Signed in: %(holder)s of %(tournament)s, to check in and to confirm or dispute that player's games only", { holder: visible(principal.holder), tournament: visible(name) });
  }
  if (principal.kind === "captain") { // a captain's card: his team's line-ups, the team in the id (cpt-t2-…)
    const team = /^cpt-t(\d+)-/.exec(principal.id || "")?.[1] || "";
    return _("Signed in: the captain of team %(team)s of %(tournament)s, to hand in its line-ups only", { team, tournament: visible(name) });
  }
  if (principal.kind === "signin") { // a board sign-in (a card's QR code): one board's game
    return _("Signed in: %(holder)s of %(tournament)s, to record that board's game only", { holder: visible(principal.holder), tournament: visible(name) });
  }
  return _("Signed in: %(holder)s, arbiter of %(tournament)s", { holder: visible(principal.holder), tournament: visible(name) });
}

async function showAccess() {
  const shown = document.getElementById("signed-in");
  if (!shown) return;
  const answer = await pageAccess;
  const { principal } = answer;
  shown.dataset.state = principal ? "signed-in" : "viewing";
  shown.dataset.kind = principal ? principal.kind : "";
  shown.dataset.scope = principal?.tournament_id || "";
  let text = principal ? await scopeText(principal) : VIEWING_ONLY;
  if (answer.offline && principal) text += _(" (offline: not checked)");
  shown.textContent = text;
  document.getElementById("sign-in-summary").textContent = principal && principal.kind !== "anonymous" ? _("Change") : _("Sign in");
  document.getElementById("sign-out").hidden = !token();
  if (answer.why === "revoked") notify(REVOKED_TOKEN, "error");
}

async function signIn(event) {
  event.preventDefault();
  const value = document.getElementById("token-input").value.trim();
  const error = document.getElementById("token-error");
  const answer = await signInWith(value);
  if (answer.principal) {
    window.location.reload(); // the page learns again what it can do
    return;
  }
  error.textContent = answer.refused
    ? _("This token is not valid (unknown or revoked); ask the chief arbiter for a new sign-in link.")
    : _("The token could not be checked: the service cannot be reached. Try again when the network is back.");
  error.hidden = false;
}

const form = document.getElementById("token-form");
if (form) {
  form.addEventListener("submit", signIn);
  document.getElementById("sign-out").addEventListener("click", async () => {
    saveToken("");
    await forgetReadersAnswers(); // gone before the page reloads, offline included
    window.location.reload();
  });
  for (const link of document.querySelectorAll('a[href="#sign-in"]')) {
    link.addEventListener("click", (event) => {
      event.preventDefault();
      form.closest("details").open = true;
      document.getElementById("token-input").focus();
    });
  }
  addressSignIn.then((outcome) => {
    if (outcome && outcome.message) notify(outcome.message, "error");
  });
  showAccess();
}

// The reader's language, kept in the browser (a cookie the server reads): the page is
// asked for again in it.
const language = document.getElementById("language");
language?.addEventListener("change", () => {
  document.cookie = `lang=${encodeURIComponent(language.value)}; path=/; max-age=31536000; SameSite=Lax`;
  const address = new URL(window.location.href);
  address.searchParams.delete("lang"); // a ?lang= in the address would win over the choice
  window.location.replace(address.href);
});

export function notify(text, kind = "info") {
  const notice = document.getElementById("notice");
  notice.textContent = text;
  notice.dataset.kind = kind;
  notice.hidden = false;
}

export function clearNotice() {
  document.getElementById("notice").hidden = true;
}

export { bothNames, bothNamesText, crossMark, element, PLAYER, visible };

// Keep fresh copies of these reads for an offline reload (the first visit is not yet
// served through the service worker, and a write makes the cached log stale). As the
// worker keeps them (templates/sw.js, cacheFor): a read asked with a token, or marked
// for one reader, only in that reader's cache; nothing marked no-store. A page is the
// same for every reader: it is asked without the token, as a navigation is, and kept for all.
export function keepForOffline(urls) {
  if (!("caches" in window)) return;
  Promise.all(urls.map(async (url) => {
    const withoutToken = !url.startsWith("/api/");
    const authorization = withoutToken ? undefined : authHeaders().Authorization;
    const response = await request(url, { withoutToken });
    if (!response.ok || /(^|[\s,])no-store\b/i.test(response.headers.get("Cache-Control") || "")) return;
    const name = authorization || forOneReader(response) ? await readerCache(authorization) : PAGE_CACHE;
    await (await caches.open(name)).put(url, response);
  })).catch(() => { /* offline: the cache keeps what it had */ });
}

function forOneReader(response) {
  const vary = (response.headers.get("Vary") || "").toLowerCase().split(",").map((name) => name.trim());
  return /(^|[\s,])private\b/i.test(response.headers.get("Cache-Control") || "") || vary.includes("authorization") || vary.includes("*");
}

// Listen to a live stream; `handlers` maps an event name to a function of its data.
// EventSource reconnects by itself with Last-Event-ID; a refused stream (503) or a
// closed one is opened again after a pause, resuming from the last id seen.
// Resolves once the stream is first open, so a page can say it is live only when no
// event can slip past it any more.
export function listen(url, handlers) {
  if (!("EventSource" in window)) return Promise.resolve();
  let lastId = "";
  let opened;
  const firstOpen = new Promise((resolve) => { opened = resolve; });
  const open = () => {
    const source = new EventSource(lastId ? `${url}?last_event_id=${encodeURIComponent(lastId)}` : url);
    source.onopen = () => opened();
    for (const [name, handle] of Object.entries(handlers)) {
      source.addEventListener(name, (event) => {
        if (event.lastEventId) lastId = event.lastEventId;
        handle(JSON.parse(event.data));
      });
    }
    source.onerror = () => {
      if (source.readyState === EventSource.CLOSED) setTimeout(open, RECONNECT_MS);
    };
  };
  open();
  return firstOpen;
}
