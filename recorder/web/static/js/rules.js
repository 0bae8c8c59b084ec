// The rules on this device (rules-worker.js): folds the moves queued offline onto the last
// recorded position with the service's own Python rules, so the page can show the
// position after them, offer only their legal holes and ask for the decision due.
// Online, the page only keeps the runtime's files (prepare: a download, once per device);
// Pyodide starts when it is needed: the network drops, a move is queued, or the page
// opens offline or with a queue. So an online arbiter's tablet spends no CPU or memory
// on it. `state` is "none" (the service has no runtime, or this browser cannot run it),
// "standby", "loading", "ready" or "failed"; until "ready", the page records offline as
// before and says so.

const RUNTIME_CACHE = "recorder-runtime"; // templates/sw.js serves /web-runtime/ from it

export class DeviceRules {
  constructor(page, changed) {
    this.runtime = page.dataset.rulesRuntime;
    this.rules = page.dataset.rules;
    this.page = page;
    this.changed = changed;
    this.state = "none";
    this.asked = new Map();
    this.next = 0;
    this.worker = null;
  }

  get ready() {
    return this.state === "ready";
  }

  get usable() {
    return Boolean(this.runtime && this.rules && "Worker" in window && "WebAssembly" in window);
  }

  prepare() {
    if (!this.usable) return this.set("none");
    this.set("standby");
    window.addEventListener("offline", () => this.start());
    window.addEventListener("online", () => this.again());
    return this.keep();
  }

  // Failed (say, the network dropped before this device had kept every file): back on
  // the network, keep the files and stand by again.
  again() {
    if (this.state !== "failed") return;
    if (this.worker) this.worker.terminate();
    this.worker = null;
    this.set("standby");
    this.keep();
  }

  start() {
    if (this.state !== "standby") return undefined; // started already, or nothing to start
    this.set("loading");
    this.started = performance.now();
    try {
      this.worker = new Worker(new URL("./rules-worker.js", import.meta.url), { type: "module" });
    } catch {
      return this.set("failed");
    }
    this.worker.onmessage = ({ data }) => this.heard(data);
    this.worker.onerror = () => this.fail("the rules worker stopped");
    this.worker.postMessage({ start: { runtime: this.runtime, rules: this.rules } });
    return undefined;
  }

  heard(data) {
    if ("ready" in data) {
      this.page.dataset.rulesLoadMs = String(Math.round(performance.now() - this.started));
      if (data.ready) this.set("ready");
      else this.fail(data.failed);
      return;
    }
    const waiting = this.asked.get(data.id);
    if (!waiting) return;
    this.asked.delete(data.id);
    if (data.failed) waiting.reject(new Error(data.failed));
    else waiting.resolve(data.answer);
  }

  // The runtime's files into the cache the service worker serves them from, whether or not
  // the worker saw them being read (a first visit may load them before it controls the page).
  keep() {
    if (!("caches" in window)) return;
    const urls = JSON.parse(this.page.dataset.rulesFiles || "[]");
    caches.open(RUNTIME_CACHE).then(async (cache) => {
      for (const url of urls) if (!(await cache.match(url))) await cache.add(url);
      this.page.dataset.rulesKept = "true";
    }).catch(() => { /* no room, or offline: the next visit tries again */ });
  }

  fail(why) {
    console.warn("the rules could not run on this device:", why);
    for (const waiting of this.asked.values()) waiting.reject(new Error(why));
    this.asked.clear();
    this.set("failed");
  }

  set(state) {
    this.state = state;
    this.page.dataset.rulesState = state;
    this.changed();
  }

  // An appeal dossier file (its bytes in base64), checked by the rules on this device:
  // each part's finding ({ part, ok, detail }). The rules start for it if they stand by.
  // A reader's device, which records nothing, has not prepared them: it does for the check.
  async checkDossier(file) {
    if (this.state === "none" && this.usable) this.prepare();
    this.start();
    while (this.state === "loading") await new Promise((resolve) => setTimeout(resolve, 100));
    return this.ask({ dossier: file });
  }

  // The events recorded (GET …/events) and the commands queued: the state after each
  // command, or where the rules refuse one ({ states, refused: { index, title, detail } }).
  fold(events, commands) {
    return this.ask({ events: events.map(({ type, payload }) => ({ type, payload })), commands });
  }

  ask(question) {
    if (!this.ready) return Promise.reject(new Error("the rules are not loaded"));
    const id = (this.next += 1);
    return new Promise((resolve, reject) => {
      this.asked.set(id, { resolve, reject });
      this.worker.postMessage({ id, ...question });
    });
  }
}
