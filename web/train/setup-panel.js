// The train step's setup: task, training lengths, model size, fix, seeds and steps, the Train, Pause
// and Cancel buttons, and the note under them (how many runs Train starts, or why it cannot).
import { TRAIN_FAMILIES, TRAIN_TASKS } from '../../wasm/train.js';
import { choice, paramSlider } from '../kit/controls.js';
import { h } from '../kit/dom.js';
import { FIX_NAMES } from './fixes.js';

/** Training lengths 1..L; the trainer tests 1..4L (its default test lengths). */
export const LENGTHS = { '1-4': 4, '1-8': 8, '1-16': 16 };
export const STEP_GRID = 10;  // the steps' grid (the step's params table): a URL value is rounded onto it

/**
 * @param {{m:object, t:(key:string, vars?:object)=>string, values:object, set:(patch:object)=>void,
 *   params:object, wasm:boolean, onTask:(task:string)=>void,
 *   onTrain:()=>void, onPause:()=>void, onCancel:()=>void}} o
 *   params: the step's parameter table (web/kit/params.js), whose ranges and grid the sliders take.
 *   onTask: a task picked here (the step forgets the reader's set it was showing, then sets it).
 */
export function setupPanel({ m, t, values, set, params, wasm, onTask, onTrain, onPause, onCancel }) {
  const controls = {
    task: choice({
      name: 'task', label: t('taskLabel'), value: values.task, onChange: onTask,
      options: TRAIN_TASKS.map((v) => ({ value: v, label: t(`task.${v}`) })),
    }),
    lengths: choice({
      name: 'lengths', label: t('lengthsLabel'), value: values.lengths,
      options: Object.entries(LENGTHS).map(([v, n]) => ({ value: v, label: t('lengthsOption', { to: n }) })),
      onChange: (v) => set({ lengths: v }),
    }),
    size: choice({
      name: 'size', label: t('sizeLabel'), value: values.size,
      options: ['tiny', 'small'].map((v) => ({ value: v, label: t(`size.${v}`) })), onChange: (v) => set({ size: v }),
    }),
    // Steps are unknown (null) until the reference run's file says how many it took: the slider
    // starts at its minimum and shows "…" meanwhile.
    steps: paramSlider(params, 'steps', {
      label: t('stepsLabel'), values: { ...values, steps: values.steps ?? params.steps.min },
      format: (v) => (values.steps === null ? '…' : m.fixed(v, 0)), onInput: (v) => set({ steps: v }),
    }),
    seeds: paramSlider(params, 'seeds', { label: t('seedsLabel'), values, onInput: (v) => set({ seeds: v }) }),
    fix: choice({
      name: 'fix', label: t('fixLabel'), value: values.fix,
      options: FIX_NAMES.map((v) => ({ value: v, label: t(`fix.${v}`) })), onChange: (v) => set({ fix: v }),
    }),
  };
  const buttons = {
    train: h('button', { type: 'button', class: 'button primary', name: 'train', onClick: onTrain }, t('trainButton')),
    pause: h('button', { type: 'button', class: 'button', name: 'pause', disabled: true, onClick: onPause }, t('pauseButton')),
    cancel: h('button', { type: 'button', class: 'button', name: 'cancel', disabled: true, onClick: onCancel }, t('cancelButton')),
  };
  const note = h('p', { class: 'train-setup-note' });
  return {
    /** The task: on the step's first screen, above the figure (it picks the reference run's task too). */
    task: controls.task.el,
    /** The setup itself: in the step's Go deeper fold. */
    els: [controls.lengths.el, controls.size.el, controls.fix.el, controls.seeds.el, controls.steps.el],
    /** Train, Pause, Cancel and the note saying what Train starts: on the step's first screen. */
    run: [h('div', { class: 'train-buttons' }, buttons.train, buttons.pause, buttons.cancel), note],
    buttons,
    /** The line under the buttons; training writes its failures there. */
    note,
    /** The controls as the values have them; the buttons as `training` (the set training, or null) allows. */
    sync(training) {
      for (const name of ['task', 'lengths', 'size', 'seeds', 'fix']) controls[name].set(values[name]);
      if (values.steps !== null) controls.steps.set(values.steps);
      const running = Boolean(training);
      buttons.train.disabled = running || !wasm || values.steps === null;
      buttons.pause.disabled = !running;
      buttons.cancel.disabled = !running;
      // Out of the way until there is something to pause or cancel.
      buttons.pause.hidden = buttons.cancel.hidden = !running;
      buttons.pause.textContent = t(training?.runner.paused ? 'resumeButton' : 'pauseButton');
      const L = LENGTHS[values.lengths];
      note.textContent = !wasm ? t('noWasm')
        : t('setupNote', {
          runs: TRAIN_FAMILIES.length * values.seeds, from: 1, to: L, test: 4 * L, task: t(`task.${values.task}`),
          steps: m.fixed(values.steps ?? 0, 0), fix: t(`fix.${values.fix}`),
        });
    },
  };
}
