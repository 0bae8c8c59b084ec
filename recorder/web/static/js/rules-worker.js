// The rules in a worker: Pyodide (CPython in WebAssembly, served by the service from the
// npm registry's `pyodide` package) runs the service's own recorder.rules / recorder.core,
// unzipped from /web-runtime/rules-<digest>.zip, off the page's thread. One question:
// { id, events, commands } -> { id, answer } with recorder.core.queued.fold_queue's answer
// (the state after each queued command, or the first one the rules refuse), or
// { id, failed } when the runtime could not start. Nothing else is loaded: no packages.
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
  return pyodide.pyimport("recorder.core.queued").fold_queue_json;
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
    const fold = await folding;
    const answer = JSON.parse(fold(JSON.stringify({ events: data.events, commands: data.commands })));
    self.postMessage({ id: data.id, answer });
  } catch (error) {
    self.postMessage({ id: data.id, failed: String(error && error.message || error) });
  }
};
