// The reader's run sets: a list (newest first) with Show, Export JSON and Delete for each, and
// Import, which reads a file exported here (exchange.js checks it) and adds it as a new set. A
// refused file leaves every kept set as it was and says what is wrong.
import { h } from '../kit/dom.js';
import { ImportError, exportSet, importSet } from './exchange.js';

function save(text, filename) {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
  const a = h('a', { href: url, download: filename });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}

/** callbacks: show(set), remove(set), imported(set) (each may be async). */
export function runsPanel(m, { show, remove, imported }) {
  const note = h('p', { class: 'train-runs-note' });
  const list = h('ul', { class: 'train-run-list' });
  const empty = h('p', { class: 'train-runs-empty' }, m.t('train.runsEmpty'));
  const message = h('p', { class: 'train-import-message', role: 'status' });
  const file = h('input', { type: 'file', accept: 'application/json,.json', class: 'train-import-file', hidden: true, name: 'import' });
  const importButton = h('button', { type: 'button', class: 'button small', 'data-action': 'import', onClick: () => file.click() }, m.t('train.import'));
  const el = h('section', { class: 'train-runs', 'aria-labelledby': 'train-runs-title' },
    h('h3', { id: 'train-runs-title' }, m.t('train.runsTitle')), note, empty, list,
    h('div', { class: 'train-import' }, importButton, file), message);

  file.addEventListener('change', async () => {
    const picked = file.files?.[0];
    file.value = '';
    if (!picked) return;
    try {
      const set = importSet(await picked.text());
      await imported(set);
      message.classList.remove('error');
      message.textContent = m.t('train.importDone', { runs: set.runs.length, task: m.t(`train.task.${set.task}`) });
    } catch (e) {
      message.classList.add('error');
      message.textContent = e instanceof ImportError ? m.t(`train.import.${e.key}`, e.vars) : m.t('train.import.failed', { message: e.message });
    }
  });

  let whenFormat = null;  // one formatter for every line and every redraw (making one costs more than using it)
  const when = (iso) => {
    whenFormat ??= new Intl.DateTimeFormat(m.lang, { dateStyle: 'medium', timeStyle: 'short' });
    return whenFormat.format(new Date(iso));
  };

  return {
    el,
    /** persistent: whether the sets survive a reload (IndexedDB) or live in memory only. */
    setPersistent(persistent) {
      note.textContent = m.t(persistent ? 'train.runsKept' : 'train.runsMemory');
    },
    /** The sets, newest first; `current` is the id of the one on screen. */
    draw(sets, current) {
      empty.hidden = sets.length > 0;
      list.replaceChildren(...sets.map((set) => {
        const label = m.t('train.runsItem', {
          task: m.t(`train.task.${set.task}`), from: Math.min(...set.config.trainLengths), to: Math.max(...set.config.trainLengths),
          size: set.size ? m.t(`train.size.${set.size}`) : '—', steps: m.fixed(set.config.steps, 0),
          seeds: set.seeds.length, runs: set.runs.length, date: when(set.created),
        });
        const on = set.id === current;
        return h('li', { class: `train-run${on ? ' current' : ''}`, 'data-set': set.id },
          h('span', { class: 'train-run-label' }, label, on ? ` ${m.t('train.runsShown')}` : '',
            set.status === 'running' ? ` ${m.t('train.runsRunning')}` : set.status === 'interrupted' ? ` ${m.t('train.runsInterrupted')}` : ''),
          h('span', { class: 'train-run-actions' },
            h('button', { type: 'button', class: 'button small', 'data-action': 'show', 'aria-pressed': String(on), onClick: () => show(set) }, m.t('train.runsShow')),
            h('button', { type: 'button', class: 'button small', 'data-action': 'export', onClick: () => save(exportSet(set), `posenc-train-${set.task}-${set.created.slice(0, 19).replace(/[:T]/g, '-')}.json`) }, m.t('train.runsExport')),
            h('button', { type: 'button', class: 'button small', 'data-action': 'delete', disabled: set.status === 'running', onClick: () => remove(set) }, m.t('train.runsDelete'))));
      }));
    },
  };
}
