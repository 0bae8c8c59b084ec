// The service worker: the pages, scripts and the reads they made keep working offline.
// Served by recorder/web/__init__.py with the list of static files and their digest.
// Strategy: network first for every same-origin GET (so an online page is always
// current), the cached copy when the network fails or is too slow. Writes (POST) and
// live streams (…/live) are never touched: the page queues writes itself (offline.js).
// The rules' runtime (/web-runtime/…: Pyodide and the rules' zip, ~13 MB, their addresses
// naming their version) is served cache first: kept once, never fetched again. Only a
// page that records asks for it (rules.js), so a spectator's phone never downloads it.
// Nothing is kept under a token or with one: see cacheKey below; nor who a token is.
// An answer meant for one reader (asked with a token, or marked private or Vary:
// Authorization) is kept only for that reader, in a cache named after a digest of the
// token (readerCache), and served to no one else; signing out deletes them all (api.js).
// What it says offline is in every language (offline_words in recorder/web/__init__.py):
// it answers in the reader's, chosen as the service chooses (docs/i18n.md).
const VERSION = {{ version|tojson }};
const ASSETS = {{ assets|tojson }};
const OFFLINE_WORDS = {{ offline|tojson }};
const DEFAULT_LANGUAGE = {{ default_language|tojson }};
const STATIC_CACHE = `recorder-static-${VERSION}`;
const PAGE_CACHE = "recorder-pages"; // the reads of the pages, also filled by the page (site.js)
const RUNTIME_CACHE = "recorder-runtime"; // also filled by the page once the rules have loaded (rules.js)
const READER_CACHES = "recorder-private-"; // + the reader: one reader's answers, also filled by the page (site.js)
const NETWORK_TIMEOUT_MS = 4000; // a hall's weak network: fall back to the copy rather than wait

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(STATIC_CACHE).then((cache) => cache.addAll(ASSETS)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys()
    .then((names) => Promise.all(names.filter((n) => n.startsWith("recorder-static-") && n !== STATIC_CACHE).map((n) => caches.delete(n))))
    .then(() => self.clients.claim()));
});

// A page the claim above missed asks to be taken (site.js).
self.addEventListener("message", (event) => {
  if (event.data === "claim") event.waitUntil(self.clients.claim());
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  // Who a token is (/api/tokens/self) is asked of the service each time, never kept: a
  // kept answer would speak for whichever token asked last.
  if (url.pathname.endsWith("/live") || url.pathname === "/sw.js" || url.pathname === "/api/tokens/self") return;
  event.respondWith(url.pathname.startsWith("/web-runtime/") ? cacheFirst(request) : networkFirst(request, url));
});

async function cacheFirst(request) {
  const cached = await caches.match(request.url);
  if (cached) return cached;
  const response = await fetch(request);
  if (response.ok && response.type === "basic") {
    const copy = response.clone();
    caches.open(RUNTIME_CACHE).then((cache) => cache.put(request.url, copy));
  }
  return response;
}

async function networkFirst(request, url) {
  const reader = await readerCache(request.headers.get("Authorization"));
  try {
    const response = await withTimeout(fetch(request), NETWORK_TIMEOUT_MS);
    const cacheName = cacheFor(url, request, response, reader);
    // A reader's cache is opened by the reader's pages (site.js) and deleted at sign-out:
    // an answer that comes back after the reader signed out finds none, and is not kept.
    if (response.ok && response.type === "basic" && !notToKeep(response) && (cacheName !== reader || await caches.has(reader))) {
      const copy = await kept(response);
      caches.open(cacheName).then((cache) => cache.put(cacheKey(url), copy));
    }
    return response;
  } catch (error) {
    const cached = await keptCopy(cacheKey(url), reader);
    if (cached) return cached;
    const lang = await readersLanguage(url);
    const words = OFFLINE_WORDS[lang];
    if (request.mode === "navigate") return offlinePage(lang, words);
    return new Response(JSON.stringify({ title: words.title, status: 503, detail: words.detail }),
      { status: 503, headers: { "Content-Type": "application/problem+json" } });
  }
}

// Where an answer is kept: the scripts and styles with the static files; an answer meant
// for one reader in that reader's cache; every other answer with the pages' reads.
function cacheFor(url, request, response, reader) {
  if (url.pathname.startsWith("/web-static/")) return STATIC_CACHE;
  return request.headers.has("Authorization") || forOneReader(response) ? reader : PAGE_CACHE;
}

function forOneReader(response) {
  const vary = (response.headers.get("Vary") || "").toLowerCase().split(",").map((name) => name.trim());
  return /(^|[\s,])private\b/i.test(response.headers.get("Cache-Control") || "") || vary.includes("authorization") || vary.includes("*");
}

function notToKeep(response) {
  return /(^|[\s,])no-store\b/i.test(response.headers.get("Cache-Control") || "");
}

// The copy kept for this reader, else one kept for anyone; never another reader's.
async function keptCopy(key, reader) {
  for (const cacheName of [reader, STATIC_CACHE, PAGE_CACHE]) {
    const cached = await caches.match(key, { cacheName });
    if (cached) return cached;
  }
  return undefined;
}

// The cache of one reader's answers: named after a digest of the Authorization it sends
// (never the token itself), or "anonymous". site.js names it the same way.
async function readerCache(authorization) {
  if (!authorization) return `${READER_CACHES}anonymous`;
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(authorization));
  return READER_CACHES + Array.from(new Uint8Array(digest).slice(0, 16), (b) => b.toString(16).padStart(2, "0")).join("");
}

// Nothing kept may hold a token. The sign-in address carries one (/?token=…): it is kept
// as the address without it, under a fresh request that carries none of the page's
// headers (its Authorization), and as a fresh response that does not remember its address.
function cacheKey(url) {
  const key = new URL(url.href);
  key.searchParams.delete("token");
  return new Request(key.href);
}

async function kept(response) {
  if (!new URL(response.url).searchParams.has("token")) return response.clone();
  const { status, statusText, headers } = response;
  return new Response(await response.clone().blob(), { status, statusText, headers });
}

function withTimeout(promise, ms) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("timeout")), ms);
    promise.then((value) => { clearTimeout(timer); resolve(value); }, (error) => { clearTimeout(timer); reject(error); });
  });
}

// The reader's language, as the service would choose it (recorder/web/i18n.py): the
// address's ?lang=, else the lang cookie the chooser set, else the browser's languages
// (what it sends as Accept-Language), else English.
async function readersLanguage(url) {
  const chosen = [url.searchParams.get("lang"), await cookieLanguage()];
  const preferred = (self.navigator.languages || []).map((tag) => tag.toLowerCase().split("-")[0]);
  return [...chosen, ...preferred].find((code) => code && Object.hasOwn(OFFLINE_WORDS, code)) || DEFAULT_LANGUAGE;
}

// A worker reads no document.cookie; the Cookie Store API, where the browser has it.
async function cookieLanguage() {
  try {
    return self.cookieStore ? (await self.cookieStore.get("lang"))?.value : null;
  } catch {
    return null;
  }
}

function escaped(text) {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function offlinePage(lang, words) {
  const body = `<!doctype html><html lang="${escaped(lang)}" dir="${escaped(words.dir)}"><meta charset=utf-8>`
    + "<meta name=viewport content='width=device-width'>"
    + `<title>${escaped(words.title)}</title>`
    + `<p style='font:1.2rem system-ui, "Abyssinica SIL", sans-serif;padding:1rem'>${escaped(words.page)}</p>`;
  return new Response(body, { status: 503, headers: { "Content-Type": "text/html; charset=utf-8" } });
}
