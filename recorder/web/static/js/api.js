// The JSON API as the pages use it: reads, and writes that carry the version the page
// last saw (If-Match), an Idempotency-Key per action and the bearer token.
// Every request goes through `request`, so a header every call needs is added in one place.

const TOKEN_KEY = "recorder.token";

export class Conflict extends Error {
  constructor(problem) {
    super(problem.detail || "the game changed on another device");
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
  try {
    if (value) localStorage.setItem(TOKEN_KEY, value);
    else localStorage.removeItem(TOKEN_KEY);
  } catch { /* private mode: the token lasts this page only */ }
}

// The sign-in address `recorder serve` prints (http://HOST:PORT/?token=…): keep the token,
// then take it out of the address bar (and so out of history and bookmarks).
function adoptTokenFromAddress() {
  try {
    const url = new URL(window.location.href);
    const given = url.searchParams.get("token");
    if (given === null) return;
    saveToken(given.trim());
    url.searchParams.delete("token");
    window.history.replaceState(window.history.state, "", url.pathname + url.search + url.hash);
  } catch { /* not a page (a worker or a test): nothing to adopt */ }
}
adoptTokenFromAddress();

function authHeaders() {
  const value = token();
  return value ? { Authorization: `Bearer ${value}` } : {};
}

// The one place the pages call fetch: the token on every request, and a failed
// connection reported as Offline rather than as a TypeError.
export async function request(url, init = {}) {
  const headers = { ...authHeaders(), ...(init.headers || {}) };
  try {
    return await fetch(url, { ...init, headers });
  } catch (error) {
    throw new Offline(error.message || "the service cannot be reached");
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

// A problem's details as one readable line: the detail and the fields at fault.
export function describeProblem(error) {
  const problem = error.problem || {};
  const parts = [problem.detail || error.message];
  if (problem.errors) {
    for (const [field, messages] of Object.entries(problem.errors)) {
      parts.push(`${field}: ${[].concat(messages).join(" ")}`);
    }
  }
  return parts.filter(Boolean).join(" — ");
}
