// A strip of tabs over one panel (the WAI-ARIA tabs pattern): buttons with role=tab in a
// tablist, the panel a tabpanel labelled by the chosen tab. Only the chosen tab is in the Tab
// order; Left/Right (wrapping), Home and End choose and focus another at once.
import { h } from './dom.js';

/**
 * @param {{names:string[], panel:HTMLElement, label:string, idPrefix:string, className?:string,
 *   tabClass?:string, dataKey?:string, content:(name:string)=>any, onSelect:(name:string)=>void}} o
 *   panel must have an id; a tab's id is `${idPrefix}-${name}` and its data-<dataKey> its name.
 *   onSelect is called for a click or a key; the caller calls select() when it shows the tab.
 */
export function tabStrip({ names, panel, label, idPrefix, className = 'tabs', tabClass = 'tab', dataKey = 'tab', content, onSelect }) {
  if (!panel.id) throw new TypeError('tabStrip: the panel needs an id (aria-controls)');
  panel.setAttribute('role', 'tabpanel');
  let current = null;
  const tabs = new Map(names.map((name) => [name, h('button', {
    type: 'button', role: 'tab', id: `${idPrefix}-${name}`, class: tabClass, dataset: { [dataKey]: name },
    'aria-controls': panel.id, onClick: () => onSelect(name),
  }, content(name))]));
  const el = h('div', { role: 'tablist', class: className, 'aria-label': label }, [...tabs.values()]);
  el.addEventListener('keydown', (e) => {
    const at = names.indexOf(current);
    const to = { ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: names.length - 1 }[e.key];
    if (to === undefined || e.altKey || e.ctrlKey || e.metaKey) return;
    e.preventDefault();
    const name = names[(to + names.length) % names.length];
    onSelect(name);
    tabs.get(name).focus();
  });
  return {
    el,
    tabs,
    /** Marks `name` as the chosen tab: aria-selected, the Tab order, the panel's label. */
    select(name) {
      current = name;
      for (const [n, tab] of tabs) {
        const on = n === name;
        tab.setAttribute('aria-selected', String(on));
        tab.tabIndex = on ? 0 : -1;
      }
      panel.setAttribute('aria-labelledby', tabs.get(name).id);
    },
  };
}
