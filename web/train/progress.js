// Progress of a set while it trains: a bar over every job's steps, steps per second and the time
// left, one chip per job (waiting, training n %, scoring, done, cancelled, diverged, failed), and
// a line for where training runs (Workers, or this page's thread and why). Numbers change on
// every slice and are not a live region; a visually hidden polite line speaks only milestones:
// the start, each quarter, a pause, a resume and the end.
import { h } from '../kit/dom.js';
import { readout } from '../kit/readout.js';
import { familyClass, familyName } from './families.js';

export function progressPanel(m) {
  const bar = h('progress', { class: 'train-bar', max: 1, value: 0, 'aria-label': m.t('train.progressLabel') });
  const out = {
    done: readout('progress', m.t('train.progressDone')),
    rate: readout('rate', m.t('train.progressRate')),
    left: readout('left', m.t('train.progressLeft')),
  };
  const mode = h('p', { class: 'train-mode' });
  const jobs = h('ul', { class: 'train-jobs', 'aria-label': m.t('train.jobsLabel') });
  const spoken = h('p', { class: 'sr-only train-announce', 'aria-live': 'polite' });
  const el = h('div', { class: 'train-progress' }, mode, bar,
    h('div', { class: 'train-progress-numbers' }, out.done.el, out.rate.el, out.left.el), jobs, spoken);
  let quarter = 0;
  const chips = new Map();

  const time = (s) => (s >= 90
    ? m.t('train.minutes', { min: m.fixed(Math.floor(s / 60), 0), s: m.fixed(Math.round(s % 60), 0) })
    : m.t('train.seconds', { s: m.fixed(Math.round(s), 0) }));

  return {
    el,
    /** Shows the panel for these jobs ({ id, family, seed }), all waiting. */
    start(list) {
      el.hidden = false;
      quarter = 0;
      bar.value = 0;
      chips.clear();
      jobs.replaceChildren(...list.map((job) => {
        const state = h('span', { class: 'train-job-state' }, m.t('train.jobWaiting'));
        const chip = h('li', { class: `train-job ${familyClass(job.family)}`, 'data-job': job.id, 'data-state': 'waiting' },
          h('span', { class: 'swatch', 'aria-hidden': 'true' }),
          h('span', { class: 'train-job-name' }, m.t('train.jobName', { family: familyName(m, job.family), seed: job.seed })), ' ', state);
        chips.set(job.id, { chip, state });
        return chip;
      }));
      out.done.set(m.fixed(0, 0), 0);
      out.rate.set('—');
      out.left.set('—');
      spoken.textContent = m.t('train.announceStart', { count: list.length });
    },
    /** Where the jobs run: 'workers' with a count, or 'main' with a reason. */
    mode(kind, { workers = 0, reason = '' } = {}) {
      mode.textContent = kind === 'workers' ? m.t('train.modeWorkers', { workers })
        : kind === 'main' ? m.t('train.modeMain', { reason })
        : m.t('train.modeNone');
      mode.classList.toggle('main', kind !== 'workers');
    },
    /** One job's state: 'training' (with its share), 'scoring', or a final status. */
    job(id, state, share = 0) {
      const c = chips.get(id);
      if (!c) return;
      c.chip.dataset.state = state;
      c.state.textContent = state === 'training'
        ? m.t('train.jobTraining', { percent: m.fixed(100 * share, 0) })
        : m.t(`train.job.${state}`);
    },
    /** The totals: steps done of all steps, steps per second over the running jobs, time left. */
    totals({ done, total, rate, left }) {
      const share = total ? done / total : 0;
      bar.value = share;
      out.done.set(m.fixed(100 * share, 0), 100 * share);
      if (rate > 0) out.rate.set(m.fixed(rate, 0), rate);
      if (Number.isFinite(left)) out.left.set(time(left), left);
      const q = Math.floor(share * 4);
      if (q > quarter && q < 4) {
        quarter = q;
        spoken.textContent = m.t('train.announceQuarter', { percent: q * 25 });
      }
    },
    say(key, vars) { spoken.textContent = m.t(key, vars); },
  };
}
