// Every page: the arbiter-token form in the header, the notice banner, the service
// worker that serves the pages offline, and live updates (Server-Sent Events).
import { request, saveToken, token } from "./api.js";

const PAGE_CACHE = "recorder-pages"; // the service worker's runtime cache (recorder/web/templates/sw.js)
const RECONNECT_MS = 5000;
const INSTALL_RETRY_MS = 15000;

// Service workers need a secure context (https, or localhost); elsewhere the pages work online only.
if ("serviceWorker" in navigator && window.isSecureContext) registerWorker();

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

const form = document.getElementById("token-form");
const input = document.getElementById("token-input");
if (form && input) {
  input.value = token();
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    saveToken(input.value.trim());
    notify(input.value.trim() ? "Token saved on this device." : "Token removed.");
    form.closest("details").open = false;
  });
}

export function notify(text, kind = "info") {
  const notice = document.getElementById("notice");
  notice.textContent = text;
  notice.dataset.kind = kind;
  notice.hidden = false;
}

export function clearNotice() {
  document.getElementById("notice").hidden = true;
}

export function element(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === null || value === undefined || value === false) continue;
    if (name === "class") node.className = value;
    else if (name === "text") node.textContent = value;
    else if (name.startsWith("data-") || name.startsWith("aria-") || name === "role") node.setAttribute(name, value);
    else node[name] = value;
  }
  for (const child of children) {
    if (child !== null && child !== undefined) node.append(child);
  }
  return node;
}

// Who recorded an event, as a page may show it: a control, format (bidi, zero-width) or
// line-breaking character is shown as its code point, never acted on (docs/security.md).
export function visible(name) {
  return String(name).replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu,
    (c) => `<U+${c.codePointAt(0).toString(16).toUpperCase().padStart(4, "0")}>`);
}

export const PLAYER = { south: "South", north: "North" };

// Keep fresh copies of these reads for an offline reload (the first visit is not yet
// served through the service worker, and a write makes the cached log stale).
export function keepForOffline(urls) {
  if (!("caches" in window)) return;
  caches.open(PAGE_CACHE).then((cache) => Promise.all(urls.map((url) =>
    request(url).then((response) => (response.ok ? cache.put(url, response) : null)))))
    .catch(() => { /* offline: the cache keeps what it had */ });
}

// Listen to a live stream; `handlers` maps an event name to a function of its data.
// EventSource reconnects by itself with Last-Event-ID; a refused stream (503) or a
// closed one is opened again after a pause, resuming from the last id seen.
export function listen(url, handlers) {
  if (!("EventSource" in window)) return;
  let lastId = "";
  const open = () => {
    const source = new EventSource(lastId ? `${url}?last_event_id=${encodeURIComponent(lastId)}` : url);
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
}
