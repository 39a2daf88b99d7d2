// A small labelled matrix as an HTML table: a header row and a header column of labels, one
// cell per value, each cell tinted on the diverging palette and showing its number as text.
// The number sits in a [data-readout="<prefix>-<row>-<col>"] span (data-value = exact value);
// an optional second line per cell (a caption such as "Dog·man") helps follow a value around.
import { h } from './dom.js';
import { divergingRgb } from './palette.js';

/** WCAG relative luminance of an sRGB colour given as 0..255 channels. */
function luminance([r, g, b]) {
  const lin = (c) => { const x = c / 255; return x <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4; };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

export class MatrixTable {
  /**
   * @param {HTMLElement} container
   * @param {{label:string, prefix:string, corner?:string}} options
   *   label: the table's accessible name; prefix: readout names are `${prefix}-${row}-${col}`;
   *   corner: text of the top-left header cell (e.g. "query ↓ key →").
   */
  constructor(container, { label, prefix, corner = '' }) {
    this.prefix = prefix;
    this.corner = corner;
    this.table = h('table', { class: 'matrix matrix-table', 'aria-label': label });
    container.append(this.table);
  }

  /** Replaces the accessible name. */
  setLabel(label) {
    this.table.setAttribute('aria-label', label);
  }

  /**
   * @param {{rows:string[], cols:string[], values:ArrayLike<number>, limit:number,
   *   text:(v:number)=>string, captions?:(r:number, c:number)=>string,
   *   describe?:(r:number, c:number, v:number)=>string}} d
   *   values are row-major (rows.length × cols.length); text formats a value for display;
   *   captions gives an optional small second line; describe an optional title/tooltip.
   */
  draw({ rows, cols, values, limit, text, captions = null, describe = null }) {
    if (values.length !== rows.length * cols.length) {
      throw new RangeError(`matrix needs rows*cols = ${rows.length * cols.length} values, got ${values.length}`);
    }
    // The table keeps its rows and cells from one draw to the next: a change of shape adds or
    // removes only the rows and columns that changed (the NoPE step's length slider grows and
    // shrinks the table, up to 16 × 16), and a redraw rewrites only the numbers, tints, titles
    // and captions that changed. Only the first draw, or switching captions on or off, builds
    // the table anew.
    if (this.captioned !== !!captions || !this.body) {
      this.captioned = !!captions;
      this.headRow = h('tr', {}, h('th', { scope: 'col', class: 'matrix-corner' }, this.corner));
      this.body = h('tbody', {});
      this.grid = [];  // per row: { tr, th, cells }
      this.table.replaceChildren(h('thead', {}, this.headRow), this.body);
    }
    const heads = this.headRow.children;
    while (heads.length > cols.length + 1) this.headRow.lastChild.remove();
    cols.forEach((c, j) => {
      const th = heads[j + 1] ?? this.headRow.appendChild(h('th', { scope: 'col' }));
      if (th.textContent !== c) th.textContent = c;
    });
    while (this.grid.length > rows.length) this.grid.pop().tr.remove();
    rows.forEach((r, i) => {
      let row = this.grid[i];
      if (!row) {
        const th = h('th', { scope: 'row' });
        row = { tr: h('tr', {}, th), th, cells: [] };
        this.grid.push(row);
        this.body.append(row.tr);
      }
      if (row.th.textContent !== r) row.th.textContent = r;
      while (row.cells.length > cols.length) row.cells.pop().td.remove();
      for (let j = row.cells.length; j < cols.length; j++) {
        const value = h('span', { class: 'matrix-value', 'data-readout': `${this.prefix}-${i}-${j}` });
        const caption = captions ? h('span', { class: 'matrix-caption' }) : null;
        const td = h('td', {}, value, caption);
        row.cells.push({ td, value, caption, drawn: {} });
        row.tr.append(td);
      }
    });
    this.cells = this.grid.flatMap((row) => row.cells);
    const rgb = [0, 0, 0];
    this.cells.forEach((cell, k) => {
      const i = Math.floor(k / cols.length);
      const j = k % cols.length;
      const v = values[k];
      divergingRgb(v, limit, rgb, 0);
      const want = {
        value: String(v), text: text(v), title: describe ? describe(i, j, v) : null,
        caption: captions ? captions(i, j) : null, colour: `rgb(${rgb.map(Math.round).join(' ')})`,
        // Black or white text, whichever contrasts more with the tint (the two are equal at a
        // luminance of 0.179; either way the text gets at least 4.58:1).
        dark: luminance(rgb) < 0.179,
      };
      const was = cell.drawn;
      if (was.value !== want.value) cell.value.dataset.value = want.value;
      if (was.text !== want.text) cell.value.textContent = want.text;
      if (was.title !== want.title) {
        if (want.title === null) cell.td.removeAttribute('title');
        else cell.td.title = want.title;
      }
      if (cell.caption && was.caption !== want.caption) cell.caption.textContent = want.caption;
      if (was.colour !== want.colour) cell.td.style.backgroundColor = want.colour;
      if (was.dark !== want.dark) cell.td.classList.toggle('on-dark', want.dark);
      cell.drawn = want;
    });
  }
}
