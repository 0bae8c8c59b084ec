// The rules in a worker: Pyodide (CPython in WebAssembly, served by the service from the
// npm registry's `pyodide` package) runs the service's own recorder.rules / recorder.core,
// unzipped from /web-runtime/rules-<digest>.zip, off the page's thread. One question:
// { id, events, commands } -> { id, answer } with recorder.core.queued.fold_queue's answer
// (the state after each queued command, or the first one the rules refuse), or
// { id, failed } when the runtime could not start; and { id, dossier } (a dossier file in
// base64) -> { id, answer } with each part's finding. Nothing else is loaded: no packages.
let folding = null;

// Pyodide reads its files in parallel; when one cannot be read (offline before this
// device kept them all) the others' failures are left unhandled inside it. The failure
// that counts is the one start() reports; the rest is noise, not the page's error.
self.addEventListener("unhandledrejection", (event) => event.preventDefault());

async function start(runtimeUrl, rulesUrl) {
  const { loadPyodide } = await import(runtimeUrl);
  const indexURL = new URL(".", new URL(runtimeUrl, self.location.href)).href;
  const [pyodide, rules] = await Promise.all([
    loadPyodide({ indexURL, packages: [] }),
    fetch(rulesUrl).then((response) => {
      if (!response.ok) throw new Error(`the rules could not be read (${response.status})`);
      return response.arrayBuffer();
    }),
  ]);
  pyodide.unpackArchive(rules, "zip", { extractDir: "/recorder-rules" });
  // The pure modules: there is no compiled engine here (recorder/engine/__init__.py).
  pyodide.runPython("import os, sys\nos.environ['RECORDER_ENGINE'] = 'python'\nsys.path.insert(0, '/recorder-rules')");
  return {
    fold: pyodide.pyimport("recorder.core.queued").fold_queue_json,
    // The appeal dossier's check (recorder/audit/dossier_check.py), as `recorder verify --dossier`.
    dossier: pyodide.pyimport("recorder.audit.dossier_check").check_json,
  };
}

const bytesOf = (base64) => Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));

// One Ed25519 check by the browser (Pyodide has no crypto package): false when it fails,
// and when this browser cannot check (no WebCrypto Ed25519, or not a secure context).
async function ed25519([publicKey, signature, message]) {
  try {
    const key = await crypto.subtle.importKey("raw", bytesOf(publicKey), { name: "Ed25519" }, false, ["verify"]);
    return await crypto.subtle.verify({ name: "Ed25519" }, key, bytesOf(signature), bytesOf(message));
  } catch {
    return false;
  }
}

// The check's two rounds: the signatures it needs, checked here, then every part's finding.
async function checkDossier(check, file) {
  const asked = JSON.parse(check(JSON.stringify({ file }))).verify;
  const verified = await Promise.all(asked.map(ed25519));
  return JSON.parse(check(JSON.stringify({ file, verified }))).findings;
}

self.onmessage = async ({ data }) => {
  if (data.start) {
    folding = start(data.start.runtime, data.start.rules);
    try {
      await folding;
      self.postMessage({ ready: true });
    } catch (error) {
      self.postMessage({ ready: false, failed: String(error && error.message || error) });
    }
    return;
  }
  try {
    const { fold, dossier } = await folding;
    const answer = data.dossier !== undefined ? await checkDossier(dossier, data.dossier)
      : JSON.parse(fold(JSON.stringify({ events: data.events, commands: data.commands })));
    self.postMessage({ id: data.id, answer });
  } catch (error) {
    self.postMessage({ id: data.id, failed: String(error && error.message || error) });
  }
};
