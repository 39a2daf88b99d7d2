// The download controls of a step: a "Save PNG" button under every figure and a "Save CSV"
// button for every table the step's core calls produced (mount() returns them as tables()).
// The figures are those the step's kit components registered while it mounted (kit/figures.js).
import { savePng, saveCsv } from './kit/export.js';
import { h } from './kit/dom.js';

/**
 * The step's figures in document order (the order of their file numbers): those registered
 * while it mounted that are in its section; a figure inside another figure is a part of it, not
 * a figure of its own.
 */
function stepFigures(section, registered) {
  const known = new Map();
  for (const f of registered) if (section.contains(f.element) && !known.has(f.element)) known.set(f.element, f);
  const all = [...known.values()];
  all.sort((a, b) => (a.element.compareDocumentPosition(b.element) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1));
  return all.filter((f) => !all.some((g) => g !== f && g.element.contains(f.element)));
}

/**
 * Adds the step's Save PNG and Save CSV buttons.
 * @param {{element: Element, parts: Element[] | (() => Element[]), holder?: Element}[]} figures
 *   what kit/figures.js collected while the step mounted
 */
export function addDownloads(section, stepId, api, m, figures = []) {
  stepFigures(section, figures).forEach(({ element: figure, parts, holder: own }, i) => {
    const button = h('button', {
      type: 'button', class: 'button small figure-save', 'data-export': 'png',
      onClick: () => savePng(typeof parts === 'function' ? parts() : parts, `${stepId}-figure-${i + 1}.png`),
    }, m.t('page.savePng'));
    // Under the figure's own block (after its legend), or under a grid of small diagrams. A
    // <figure> block takes the button inside, at its end: beside it, the button would be one
    // more item of the grid that lays the figures out.
    // A heatmap's canvas sits in a box with its outlines (kit/heatmap.js): the tools go under the box.
    const holder = own ?? (figure instanceof HTMLCanvasElement ? (figure.closest('.heatmap-box') ?? figure) : figure.parentElement);
    const tools = h('div', { class: 'figure-tools' }, button);
    // Figures side by side in a .figure-row put their buttons together in the row's
    // .figure-row-tools, under all of them: keyboard focus then never jumps back up the page.
    const row = figure.closest('.figure-row')?.querySelector(':scope > .figure-row-tools');
    if (row) row.append(tools);
    else if (holder instanceof HTMLElement && holder.tagName === 'FIGURE') holder.append(tools);
    else holder.after(tools);
  });
  const tables = api?.tables?.() ?? [];
  if (!tables.length) return;
  // Where the step's frame put them (kit/step.js: under the figures, or at the end of its fold).
  section.querySelector('.downloads-slot')?.append(h('div', { class: 'downloads', role: 'group', 'aria-label': m.t('page.downloads') },
    tables.map((t) => h('button', {
      type: 'button', class: 'button small', 'data-export': 'csv', 'data-table': t.name,
      onClick: () => {
        const fresh = api.tables().find((x) => x.name === t.name);  // the state at the moment of the click
        saveCsv(fresh.header, fresh.rows, `${stepId}-${t.name}.csv`);
      },
    }, m.t('page.saveCsv', { name: t.label })))));
}
