// Moves made while the network is down, kept on this device (IndexedDB) until the server
// has them. Each entry is one command with the Idempotency-Key it will be sent with and
// the version it expects the game to be at (the previous entry's + 1), so a reload, a
// crash or a closed tab loses nothing, and a retry is stored once.
//   { id, gameId, command, key, expected, queuedAt, rejected? }

const DB_NAME = "recorder-offline";
const STORE = "pending";

let opened = null;

function database() {
  if (!opened) {
    opened = new Promise((resolve, reject) => {
      const open = indexedDB.open(DB_NAME, 1);
      open.onupgradeneeded = () => {
        const store = open.result.createObjectStore(STORE, { keyPath: "id", autoIncrement: true });
        store.createIndex("game", "gameId");
      };
      open.onsuccess = () => resolve(open.result);
      open.onerror = () => reject(open.error);
    });
  }
  return opened;
}

// One transaction; resolves when it has committed (so the entry is on disk), with `work`'s result.
async function transact(mode, work) {
  const db = await database();
  return new Promise((resolve, reject) => {
    const tx = db.transaction(STORE, mode);
    let result;
    const request = work(tx.objectStore(STORE));
    if (request) request.onsuccess = () => { result = request.result; };
    tx.oncomplete = () => resolve(result);
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error);
  });
}

// This game's queued commands, oldest first.
export async function queued(gameId) {
  const entries = await transact("readonly", (store) => store.index("game").getAll(gameId));
  return (entries || []).sort((a, b) => a.id - b.id);
}

export async function enqueue(entry) {
  const id = await transact("readwrite", (store) => store.add({ ...entry, queuedAt: new Date().toISOString() }));
  return { ...entry, id };
}

export function save(entry) {
  return transact("readwrite", (store) => store.put(entry));
}

export function remove(id) {
  return transact("readwrite", (store) => store.delete(id));
}

export async function removeAll(entries) {
  for (const entry of entries) await remove(entry.id);
}
