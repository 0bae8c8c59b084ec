// The game page's check of an appeal dossier file (docs/auditing.md): the file is read on
// the device and checked by the rules already on it (rules.js, Pyodide), with the same
// Python as `recorder verify --dossier`; its signatures by the browser's own Ed25519. Each
// part is shown passed or failed in the reader's language, with the checker's own words.
import { _ } from "./i18n.js";
import { element } from "./site.js";

const PART_WORDS = {
  form: _("The file's form"),
  signature: _("Signature"),
  chain: _("Hash chain"),
  replay: _("Replay by the rules"),
  final: _("Final position and result"),
  clocks: _("Clock readings"),
  traces: _("Traces of the disputed moves"),
  what_ifs: _("What-if replays"),
  claims: _("Position claims"),
  signoffs: _("Confirmations, disputes and decisions"),
  checkpoint: _("Signed checkpoint"),
};

function base64Of(buffer) {
  const bytes = new Uint8Array(buffer);
  let text = "";
  for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(text);
}

function findingItem({ part, ok, detail }) {
  const verdict = ok ? _("%(part)s: holds", { part: PART_WORDS[part] || part })
    : _("%(part)s: FAILED", { part: PART_WORDS[part] || part });
  return element("li", { "data-part": part, "data-ok": String(ok) },
    element("strong", { text: verdict }), " ", element("span", { class: "hint", lang: "en", translate: "no", text: detail }));
}

export function wireDossierCheck(deviceRules) {
  const input = document.getElementById("dossier-input");
  const verdict = document.getElementById("dossier-verdict");
  const list = document.getElementById("dossier-findings");
  const section = document.getElementById("dossier-check");
  input.addEventListener("change", async () => {
    const file = input.files[0];
    if (!file) return;
    list.replaceChildren();
    section.dataset.result = "checking";
    if (!deviceRules.usable) {
      verdict.textContent = _("The rules cannot run on this device: the dossier cannot be checked here.");
      section.dataset.result = "unavailable";
      return;
    }
    verdict.textContent = _("Checking the dossier with the rules on this device…");
    try {
      const findings = await deviceRules.checkDossier(base64Of(await file.arrayBuffer()));
      const holds = findings.every((finding) => finding.ok);
      verdict.textContent = holds ? _("Every part of the dossier holds.") : _("The dossier FAILED: a part does not hold.");
      list.replaceChildren(...findings.map(findingItem));
      section.dataset.result = holds ? "passed" : "failed";
    } catch {
      verdict.textContent = _("The rules cannot run on this device: the dossier cannot be checked here.");
      section.dataset.result = "unavailable";
    }
  });
}
