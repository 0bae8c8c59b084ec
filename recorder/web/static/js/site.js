// Every page: the arbiter-token form in the header and the notice banner.
import { saveToken, token } from "./api.js";

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

export const PLAYER = { south: "South", north: "North" };
