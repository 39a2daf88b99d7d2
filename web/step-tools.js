// A step's tools for keeping or passing on what it shows: its figures' Save PNG buttons, the
// Embed button and its panel, the Lab link. A student reading on a phone needs none of them to
// learn, and under every figure they took room and read as part of the lesson ("Embed" as an
// embedding). So they share one disclosure at the foot of the card, named plainly: closed on a
// phone, where the Save PNG buttons of the figures above move into it; open on a wider screen,
// where those buttons stay under their figures. The buttons in the Go deeper fold stay there:
// its figures are drawn only while it is open.
import { h } from './kit/dom.js';

/** The width the page's styles treat as a phone (web/styles.css). */
const PHONE = '(max-width: 560px)';

/**
 * The disclosure for `section`'s tools: `embed` is embedPanel()'s { button, panel }, `lab` the
 * Lab link or null. Call it once the section's Save PNG buttons exist (web/downloads.js).
 */
export function stepTools(section, m, { embed, lab }) {
  const figures = h('div', { class: 'step-tools-figures' });
  const fold = h('details', { class: 'step-tools' },
    h('summary', {}, m.t('page.tools')),
    h('div', { class: 'step-tools-body' }, figures, h('div', { class: 'step-tools-share' }, embed.button, lab), embed.panel));
  // Each figure's tools with a marker where they belong, to move them back on a wider screen.
  const moved = [...section.querySelectorAll('.figure-tools')]
    .filter((tools) => !tools.closest('details.deeper'))
    .map((tools, i) => ({ tools, home: document.createComment('figure-tools'), n: i + 1 }));
  for (const { tools, home } of moved) tools.before(home);
  const phone = globalThis.matchMedia?.(PHONE);
  const place = () => {
    const small = !!phone?.matches;
    fold.open = !small;
    for (const { tools, home, n } of moved) {
      const button = tools.querySelector('button');
      if (small) figures.append(tools);
      else home.after(tools);
      if (button) button.textContent = m.t(small ? 'page.savePngN' : 'page.savePng', { n });
    }
    figures.hidden = !small || !moved.length;
  };
  phone?.addEventListener?.('change', place);
  place();
  return fold;
}
