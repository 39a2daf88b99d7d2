// A table too wide for a phone, read there as one card per row instead of through a box that
// scrolls sideways (which hides the columns past its edge until the reader thinks of swiping).
// Each cell gets its column's head (data-head, which the phone's CSS writes above the cell), and
// every part its table role, so screen readers keep reading a table when the CSS lays its rows
// out as blocks (styles.css, .stack-table).

/** Marks `table` (with a <thead> row of column heads) to stack on a phone; returns it. */
export function stackOnPhone(table) {
  table.classList.add('stack-table');
  table.setAttribute('role', 'table');
  const heads = [...table.querySelectorAll(':scope > thead > tr > th')].map((th) => th.textContent.trim());
  for (const group of table.querySelectorAll(':scope > thead, :scope > tbody')) group.setAttribute('role', 'rowgroup');
  for (const tr of table.querySelectorAll(':scope > thead > tr, :scope > tbody > tr')) {
    tr.setAttribute('role', 'row');
    [...tr.children].forEach((cell, n) => {
      if (cell.tagName === 'TD') {
        cell.setAttribute('role', 'cell');
        if (heads[n]) cell.dataset.head = heads[n];
      } else {
        cell.setAttribute('role', cell.closest('thead') ? 'columnheader' : 'rowheader');
      }
    });
  }
  return table;
}
