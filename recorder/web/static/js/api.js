// The JSON API as the pages use it: reads, and writes that carry the version the page
// last saw (If-Match), an Idempotency-Key per action and the bearer token.
// Every request goes through `request`, so a header every call needs is added in one place.

import { _ } from "./i18n.js";

const TOKEN_KEY = "recorder.token";

export class Conflict extends Error {
  constructor(problem) {
    super(problem.detail || _("the game changed on another device"));
    this.problem = problem;
  }
}

// The network is down or the service unreachable: nothing reached the server (or its
// answer was lost), so the same request may be sent again with the same Idempotency-Key.
export class Offline extends Error {}

export class Problem extends Error {
  constructor(status, problem) {
    super(problem.detail || problem.title || `HTTP ${status}`);
    this.status = status;
    this.problem = problem;
  }
}

export function token() {
  try { return localStorage.getItem(TOKEN_KEY) || ""; } catch { return ""; }
}

export function saveToken(value) {
  const changed = value !== token();
  try {
    localStorage.removeItem("recorder.principal"); // learnt again with the new token
    if (value) localStorage.setItem(TOKEN_KEY, value);
    else localStorage.removeItem(TOKEN_KEY);
  } catch { /* private mode: the token lasts this page only */ }
  if (changed) forgetReadersAnswers();
}

// The answers the service worker and the pages kept for one reader (templates/sw.js,
// readerCache): all of them go when the device signs out or takes another token, so no
// one after the reader is served them offline.
const READER_CACHES = "recorder-private-";

export async function forgetReadersAnswers() {
  if (!("caches" in self)) return;
  try {
    const names = (await caches.keys()).filter((name) => name.startsWith(READER_CACHES));
    await Promise.all(names.map((name) => caches.delete(name)));
  } catch { /* storage refused (private mode): nothing was kept */ }
}

// The cache of the answers meant for the reader who sends `authorization`, named as the
// service worker names it (templates/sw.js, readerCache): a digest, never the token.
export async function readerCache(authorization) {
  if (!authorization) return `${READER_CACHES}anonymous`;
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(authorization));
  return READER_CACHES + Array.from(new Uint8Array(digest).slice(0, 16), (b) => b.toString(16).padStart(2, "0")).join("");
}

// The sign-in address `recorder serve` prints (http://HOST:PORT/?token=…): take the token
// out of the address bar at once (and so out of history and bookmarks), then keep it only
// if the service knows it. A link whose token is unknown or revoked is refused on arrival
// and nothing is stored; so is one that cannot be checked (the service is unreachable).
export const REFUSED_LINK = _("This sign-in link is not valid any more; ask the chief arbiter for a new one.");
export const UNCHECKED_LINK = _("This sign-in link could not be checked: the service cannot be reached. Open it again when the network is back.");

const ASK_TIMEOUT_MS = 5000;

function tokenFromAddress() {
  try {
    const url = new URL(window.location.href);
    const given = url.searchParams.get("token");
    if (given === null) return null;
    url.searchParams.delete("token");
    window.history.replaceState(window.history.state, "", url.pathname + url.search + url.hash);
    return given.trim();
  } catch { return null; } // not a page (a worker or a test): nothing to adopt
}

// What the token names ({kind, holder, tournament_id, may_write, refusal}), asked of the
// service with the token itself: {principal} on 200, {refused: true} on 401, {offline: true}
// when the service cannot be reached.
async function askAbout(value, query = "") {
  const headers = { Accept: "application/json", ...(value ? { Authorization: `Bearer ${value}` } : {}) };
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), ASK_TIMEOUT_MS); // a hall's weak network: do not wait on it
  let response;
  try { // fetch, not request(): the token asked about is not always the one kept
    response = await fetch(`/api/tokens/self${query}`, { headers, cache: "no-store", signal: abort.signal });
  } catch {
    return { offline: true };
  } finally {
    clearTimeout(timer);
  }
  if (response.status === 401) return { refused: true };
  if (!response.ok) return { offline: true, problem: new Problem(response.status, await problemOf(response)) };
  return { principal: await response.json() };
}

async function adoptTokenFromAddress() {
  const given = tokenFromAddress();
  if (given === null) return null;
  const answer = given ? await askAbout(given) : { refused: true };
  if (answer.principal) {
    saveToken(given);
    return { accepted: answer.principal };
  }
  return { message: answer.refused ? REFUSED_LINK : UNCHECKED_LINK };
}

// Settled once the sign-in address (if any) is judged: every page waits for it before
// asking who it is, so that an accepted link's token is the one asked about.
export const addressSignIn = adoptTokenFromAddress();

// Who this device is signed in as, for this page (query "?game=ID" or "?tournament=ID"):
// {principal} (with may_write when a game or tournament is named), {principal: null, why}
// when no token reaches ("none", "revoked"), or {offline: true, principal} when the service
// cannot be asked (then the principal last seen with the token on this device, if any).
export async function whoAmI(query = "") {
  await addressSignIn;
  const value = token();
  const answer = await askAbout(value, query);
  if (answer.principal) {
    rememberPrincipal(value, answer.principal);
    return { principal: answer.principal };
  }
  if (answer.refused) {
    if (value) saveToken(""); // revoked: of no use to this device any more
    return { principal: null, why: value ? "revoked" : "none" };
  }
  return { offline: true, principal: value ? (rememberedPrincipal() || UNCHECKED_PRINCIPAL) : null };
}

// Check a pasted token before keeping it: the same words as for a refused sign-in link.
export async function signInWith(value) {
  const answer = value ? await askAbout(value) : { refused: true };
  if (answer.principal) saveToken(value);
  return answer;
}

const PRINCIPAL_KEY = "recorder.principal";
// Offline with a token never checked on this device: it records as before; the server judges.
const UNCHECKED_PRINCIPAL = { kind: "unchecked", holder: "", tournament_id: null };

function rememberPrincipal(value, principal) {
  try {
    if (!value) return;
    const { kind, holder, tournament_id: tournamentId } = principal;
    localStorage.setItem(PRINCIPAL_KEY, JSON.stringify({ kind, holder, tournament_id: tournamentId }));
  } catch { /* private mode */ }
}

function rememberedPrincipal() {
  try { return JSON.parse(localStorage.getItem(PRINCIPAL_KEY) || "null"); } catch { return null; }
}

export function authHeaders() {
  const value = token();
  return value ? { Authorization: `Bearer ${value}` } : {};
}

// The one place the pages call fetch: the token on every request (but one `withoutToken`:
// a page, the same for every reader), and a failed connection reported as Offline rather
// than as a TypeError.
export async function request(url, init = {}) {
  const { withoutToken, ...options } = init;
  const headers = { ...(withoutToken ? {} : authHeaders()), ...(options.headers || {}) };
  try {
    return await fetch(url, { ...options, headers });
  } catch (error) {
    throw new Offline(error.message || _("the service cannot be reached"));
  }
}

// crypto.randomUUID needs a secure context; a tablet on http://192.168… is not one.
export function idempotencyKey() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return "web-" + Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

async function problemOf(response) {
  try { return await response.json(); } catch { return { detail: response.statusText }; }
}

export async function getJSON(url) {
  const response = await request(url, { headers: { Accept: "application/json" } });
  if (!response.ok) throw new Problem(response.status, await problemOf(response));
  return { data: await response.json(), etag: response.headers.get("ETag") };
}

// The JSON body, or null when the endpoint does not exist (404) on this service.
export async function getOptional(url) {
  const response = await request(url, { headers: { Accept: "application/json" } });
  if (response.status === 404 || response.status === 405) return null;
  if (!response.ok) throw new Problem(response.status, await problemOf(response));
  return response.json();
}

export async function getText(url) {
  const response = await request(url);
  if (!response.ok) return null;
  return response.text();
}

export async function exists(url) {
  try {
    const response = await request(url, { method: "HEAD" });
    return response.ok;
  } catch {
    return false;
  }
}

// `key` is given when a queued command is sent again: the server stores it once.
export async function post(url, body, etag, key = idempotencyKey()) {
  const headers = { "Content-Type": "application/json", "Idempotency-Key": key };
  if (etag) headers["If-Match"] = etag;
  const response = await request(url, { method: "POST", headers, body: JSON.stringify(body) });
  if (response.status === 409) throw new Conflict(await problemOf(response));
  if (!response.ok) throw new Problem(response.status, await problemOf(response));
  return { data: await response.json(), etag: response.headers.get("ETag"), location: response.headers.get("Location") };
}

export function sendCommand(gameId, command, etag, key) {
  return post(`/api/games/${encodeURIComponent(gameId)}/commands`, command, etag, key);
}

// A problem's details as one readable line: its title (in the page's language: the API
// answers in it), the detail and the fields at fault.
export function describeProblem(error) {
  const problem = error.problem || {};
  const parts = [problem.title, problem.detail || error.message];
  if (problem.errors) {
    for (const [field, messages] of Object.entries(problem.errors)) {
      parts.push(`${field}: ${[].concat(messages).join(" ")}`);
    }
  }
  return parts.filter(Boolean).join(" — ");
}
