// The reader's finished runs, kept in IndexedDB so they survive a reload: one record per run set
// (what was asked for) and one per run (records.js's run, parameters included). Where IndexedDB
// is missing or refuses (some browsers from file://, private modes), the same interface keeps
// them in memory for the page's lifetime and says so (persistent: false).
const DB = 'posenc-train';
const VERSION = 1;

const request = (r) => new Promise((resolve, reject) => {
  r.onsuccess = () => resolve(r.result);
  r.onerror = () => reject(r.error);
});
const done = (tx) => new Promise((resolve, reject) => {
  tx.oncomplete = () => resolve();
  tx.onerror = () => reject(tx.error);
  tx.onabort = () => reject(tx.error ?? new Error('transaction aborted'));
});

function openDb() {
  const r = indexedDB.open(DB, VERSION);
  r.onupgradeneeded = () => {
    const db = r.result;
    db.createObjectStore('sets', { keyPath: 'id' });
    db.createObjectStore('runs', { keyPath: 'key' }).createIndex('set', 'set');
  };
  return request(r);
}

const runKey = (setId, run) => `${setId}|${run.family}|${run.seed}`;

/** Sets with their runs, newest first. */
function assemble(sets, runs) {
  return sets
    .map((set) => ({ ...set, runs: runs.filter((r) => r.set === set.id).map(({ key, set: _, ...run }) => run) }))
    .sort((a, b) => (a.created < b.created ? 1 : a.created > b.created ? -1 : 0));
}

function memoryStore(reason) {
  const sets = new Map();
  const runs = new Map();
  return {
    persistent: false,
    reason,
    async saveSet(set) { const { runs: _, ...meta } = set; sets.set(set.id, structuredClone(meta)); },
    async saveRun(setId, run) { runs.set(runKey(setId, run), { ...structuredClone(run), key: runKey(setId, run), set: setId }); },
    async list() { return assemble([...sets.values()], [...runs.values()]); },
    async remove(setId) {
      sets.delete(setId);
      for (const [k, r] of runs) if (r.set === setId) runs.delete(k);
    },
  };
}

/** The store: { persistent, reason, saveSet(set), saveRun(setId, run), list(), remove(setId) }. */
export async function openStore() {
  let db;
  try {
    if (typeof indexedDB !== 'object' || !indexedDB) return memoryStore('no IndexedDB');
    db = await openDb();
  } catch (e) {
    return memoryStore(String(e?.message ?? e));
  }
  return {
    persistent: true,
    reason: '',
    /** Adds or replaces a set's own record (its runs are saved one by one). */
    async saveSet(set) {
      const { runs: _, ...meta } = set;
      const tx = db.transaction('sets', 'readwrite');
      tx.objectStore('sets').put(meta);
      await done(tx);
    },
    async saveRun(setId, run) {
      const tx = db.transaction('runs', 'readwrite');
      tx.objectStore('runs').put({ ...run, key: runKey(setId, run), set: setId });
      await done(tx);
    },
    async list() {
      const tx = db.transaction(['sets', 'runs'], 'readonly');
      const [sets, runs] = await Promise.all([request(tx.objectStore('sets').getAll()), request(tx.objectStore('runs').getAll())]);
      return assemble(sets, runs);
    },
    async remove(setId) {
      const tx = db.transaction(['sets', 'runs'], 'readwrite');
      tx.objectStore('sets').delete(setId);
      const runs = tx.objectStore('runs');
      for (const key of await request(runs.index('set').getAllKeys(setId))) runs.delete(key);
      await done(tx);
    },
  };
}
