// Recording without the network. A command the server cannot be reached for is queued
// on this device (queue.js) and shown as pending beside the unchanged board: the page
// does not compute the next position itself (no second copy of the rules to keep in
// step with the server's fold). When the network returns the queue is sent in order,
// each command with its own Idempotency-Key and If-Match, so nothing is stored twice.
// If another device recorded first (409), the queued moves are shown beside the
// server's record and the arbiter chooses: discard them, or withdraw the other moves
// (one retraction) and record the queued ones after it.
import { Conflict, describeProblem, getJSON, Offline, sendCommand } from "./api.js";
import { _, ngettext } from "./i18n.js";
import * as queue from "./queue.js";
import { commandText, MOVE_TYPES, moveText } from "./record.js";
import { element, visible } from "./site.js";

const RETRY_MS = 4000;
const byId = (id) => document.getElementById(id);
const REPLACED = _("replaced by moves queued offline on another device");

export class OfflineRecorder {
  // hooks: version() the last recorded version the page knows; reload() read the game again;
  // changed() redraw what depends on the queue (the board's queued holes, the prompt).
  constructor(gameId, hooks) {
    this.gameId = gameId;
    this.hooks = hooks;
    this.pending = [];
    this.conflict = null;
    this.flushing = false;
  }

  async start() {
    this.pending = await queue.queued(this.gameId).catch(() => []);
    window.addEventListener("online", () => this.flush());
    window.addEventListener("offline", () => this.render());
    setInterval(() => this.flush(), RETRY_MS);
    this.wire();
    this.render();
    if (this.pending.length) {
      this.hooks.changed();
      this.flush();
    }
  }

  get holding() {
    return this.pending.length > 0;
  }

  // The holes the queue has sown, in order: the board rings them with their numbers.
  queuedHoles() {
    return this.pending.map((entry, index) => entry.command.type === "sow" ? [entry.command.hole, index + 1] : null).filter(Boolean);
  }

  async add(command, key) {
    const last = this.pending[this.pending.length - 1];
    const expected = last ? last.expected + 1 : this.hooks.version();
    this.pending.push(await queue.enqueue({ gameId: this.gameId, command, key, expected }));
    this.render();
  }

  // Send the queue in order; stop at the first that cannot be sent and say why.
  async flush() {
    if (this.flushing || !this.pending.length || this.conflict || this.pending[0].rejected) return;
    this.flushing = true;
    let sent = 0;
    try {
      while (this.pending.length && await this.sendFirst()) sent += 1;
    } catch (error) {
      if (!(error instanceof Offline)) console.warn("the queue could not be sent", error);
    } finally {
      this.flushing = false;
      this.render();
      if (sent || this.conflict) await this.hooks.reload();
    }
  }

  async sendFirst() {
    const entry = this.pending[0];
    let answer;
    try {
      answer = await sendCommand(this.gameId, entry.command, `"${entry.expected}"`, entry.key);
    } catch (error) {
      if (error instanceof Conflict) await this.readConflict(entry);
      else if (!(error instanceof Offline)) {
        entry.rejected = describeProblem(error);
        await queue.save(entry);
      }
      return false;
    }
    await queue.remove(entry.id);
    this.pending.shift();
    await this.rebase(answer.data.version);
    this.render();
    return true;
  }

  // The rest of the queue follows the server's version now (a command may store more than one event).
  async rebase(version) {
    for (const [index, entry] of this.pending.entries()) {
      entry.expected = version + index;
      await queue.save(entry);
    }
  }

  async readConflict(entry) {
    const { data } = await getJSON(`/api/games/${encodeURIComponent(this.gameId)}/events`);
    const theirs = data.events.filter((event) => event.seq > entry.expected);
    this.conflict = { base: entry.expected, theirs, version: data.events[data.events.length - 1].seq };
  }

  async discard(from = 0) {
    const dropped = this.pending.splice(from);
    await queue.removeAll(dropped);
    this.conflict = null;
    this.render();
    await this.hooks.reload();
  }

  // Withdraw the other device's moves with one retraction, then record the queue after it.
  async replaceTheirs() {
    const count = this.conflict.theirs.filter((event) => MOVE_TYPES.has(event.type)).length;
    let version = this.conflict.version;
    try {
      if (count) {
        const retract = { type: "retract", count, reason: REPLACED };
        version = (await sendCommand(this.gameId, retract, `"${version}"`)).data.version;
      }
    } catch (error) {
      byId("conflict-error").textContent = describeProblem(error);
      byId("conflict-error").hidden = false;
      return;
    }
    await this.rebase(version);
    this.conflict = null;
    await this.flush();
  }

  async retry() {
    for (const entry of this.pending) delete entry.rejected;
    if (this.pending[0]) await queue.save(this.pending[0]);
    await this.flush();
  }

  wire() {
    byId("discard-queued").addEventListener("click", () => this.discard());
    byId("replace-theirs").addEventListener("click", () => this.replaceTheirs());
    byId("retry-queued").addEventListener("click", () => this.retry());
    byId("discard-rejected").addEventListener("click", () => this.discard(0));
  }

  // -- Showing the queue --------------------------------------------------------------

  render() {
    const online = navigator.onLine;
    const connection = byId("connection");
    const moves = ngettext("%(count)s pending move", "%(count)s pending moves", this.pending.length);
    connection.dataset.state = !online ? "offline" : this.conflict ? "conflict" : this.holding ? "pending" : "online";
    connection.textContent = !online
      ? _("Offline: moves are kept on this device") + (this.holding ? ` (${moves})` : "")
      : this.conflict ? ngettext("Online: %(moves)s waits for your choice below", "Online: %(moves)s wait for your choice below", this.pending.length, { moves })
        : this.holding ? _("Online: sending %(moves)s…", { moves }) : _("Online: every move is recorded");
    byId("pending").hidden = !this.holding;
    byId("pending-count").textContent = String(this.pending.length);
    byId("pending-list").replaceChildren(...this.pending.map((entry, index) => element("li", {
      class: entry.rejected ? "rejected" : "queued", "data-key": entry.key, "data-expected": entry.expected,
    }, element("span", { class: "pending-mark", text: String(index + 1) }), ` ${commandText(entry.command)}`,
    entry.rejected ? element("span", { class: "error", text: _(" — refused: %(why)s", { why: entry.rejected }) }) : null)));
    const rejected = this.pending.length > 0 && Boolean(this.pending[0].rejected);
    byId("rejected-actions").hidden = !rejected;
    this.renderConflict();
  }

  renderConflict() {
    const conflict = this.conflict;
    byId("conflict").hidden = !conflict;
    if (!conflict) return;
    byId("conflict-error").hidden = true;
    byId("conflict-base").textContent = String(conflict.base);
    byId("conflict-theirs").replaceChildren(...conflict.theirs.map((event) =>
      element("li", { "data-seq": event.seq, text: `${moveText(event)}${event.recorded_by ? ` (${visible(event.recorded_by)})` : ""}` })));
    byId("conflict-mine").replaceChildren(...this.pending.map((entry) => element("li", { text: commandText(entry.command) })));
    const moves = conflict.theirs.filter((event) => MOVE_TYPES.has(event.type)).length;
    byId("replace-theirs").textContent = moves
      ? ngettext("Withdraw their %(count)s move and record mine", "Withdraw their %(count)s moves and record mine", moves)
      : _("Record mine after theirs");
  }
}
