// Where the train step gets its heavy parts, each loaded once and only when asked for: the
// reference run's data (web/data/train-reference.json), the trainer module for the page's own
// thread (inspections, table analysis, training where Workers cannot start), and what a Worker
// needs (its script and the folder of the trainer modules). The hosted page fetches them beside
// app.js; the single file hands over what it has inlined (modules, data) and no worker script.

/**
 * @param {{trainerBase?: URL, workerUrl?: URL|null, dataUrl?: URL, modules?: object, data?: object}} options
 */
export function trainPlatform({ trainerBase, workerUrl = null, dataUrl, modules, data } = {}) {
  let reference = null;
  let trainer = null;
  return {
    workerUrl,
    trainerBase,
    /** The reference run's JSON. */
    reference() {
      reference ??= data
        ? Promise.resolve(data)
        : fetch(dataUrl).then((res) => {
          if (!res.ok) throw new Error(`${dataUrl} failed to load (${res.status})`);
          return res.json();
        });
      return reference;
    },
    /** The trainer API (wasm/train.js) on this thread. */
    trainer() {
      trainer ??= import('../../wasm/train.js').then(({ loadTrainer }) => loadTrainer(modules ? { modules } : { baseUrl: trainerBase }));
      return trainer;
    },
  };
}
