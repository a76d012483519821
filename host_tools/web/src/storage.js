// The device's flash in the browser's IndexedDB: the sectors the device wrote, one
// record each ([board, sector index] -> 4 KB), so a reload or a closed tab boots the
// same flash, hence the same game.  The firmware's own sectors come from the UF2 at
// every boot and are never stored.
'use strict';

const DATABASE = 'coinche-scoreboard';
const STORE = 'flash';

function request(req) {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

function done(transaction) {
  return new Promise((resolve, reject) => {
    transaction.oncomplete = () => resolve();
    transaction.onerror = () => reject(transaction.error);
    transaction.onabort = () => reject(transaction.error);
  });
}

class FlashStore {
  constructor() {
    this.opening = null;
  }

  open() {
    if (!this.opening) {
      const req = indexedDB.open(DATABASE, 1);
      req.onupgradeneeded = () => req.result.createObjectStore(STORE);
      this.opening = request(req);
    }
    return this.opening;
  }

  /** [[sector index, Uint8Array]] stored for the board. */
  async load(board) {
    const db = await this.open();
    const transaction = db.transaction(STORE, 'readonly');
    const range = IDBKeyRange.bound([board, 0], [board, Infinity]);
    const store = transaction.objectStore(STORE);
    const [keys, values] = await Promise.all([request(store.getAllKeys(range)), request(store.getAll(range))]);
    return keys.map((key, i) => [key[1], new Uint8Array(values[i])]);
  }

  async save(board, sectors) {
    const db = await this.open();
    const transaction = db.transaction(STORE, 'readwrite');
    const store = transaction.objectStore(STORE);
    for (const [index, bytes] of sectors) store.put(bytes, [board, index]);
    return done(transaction);
  }

  async forget(board) {
    const db = await this.open();
    const transaction = db.transaction(STORE, 'readwrite');
    transaction.objectStore(STORE).delete(IDBKeyRange.bound([board, 0], [board, Infinity]));
    return done(transaction);
  }
}

module.exports = { FlashStore };
