// The sinusoidal table figure: sliders for positions and d_model, a base picker, a heatmap of
// pe.sinusoidal() and a readout of the cell under the cursor.
import { Heatmap, legend } from '../kit/heatmap.js';

export function mountTable(root, core, state, m, onChange) {
  const inputs = {
    positions: root.querySelector('[name=positions]'),
    dmodel: root.querySelector('[name=dmodel]'),
    base: root.querySelector('[name=base]'),
  };
  const out = {
    positions: root.querySelector('[data-readout=positions]'),
    dmodel: root.querySelector('[data-readout=dmodel]'),
    cell: root.querySelector('[data-readout=cell]'),
  };
  const canvas = root.querySelector('canvas');
  const heatmap = new Heatmap(canvas, {
    limit: 1,
    onCell: (c) => {
      out.cell.textContent = c
        ? m.t('table.cell', { row: c.row, col: c.col, value: m.fixed(c.value, 5) })
        : m.t('table.cellHint');
      if (c) out.cell.dataset.value = String(c.value);
      else delete out.cell.dataset.value;
    },
  });
  legend(root.querySelector('.legend'), 1);

  // A base from the URL that is not among the options is added, so the control shows the truth.
  if (![...inputs.base.options].some((o) => Number(o.value) === state.base)) {
    inputs.base.add(new Option(String(state.base), String(state.base)));
  }

  function render() {
    const values = core.sinusoidal(state.positions, state.dmodel, { base: state.base });
    heatmap.draw(values, state.positions, state.dmodel);
    out.positions.textContent = String(state.positions);
    out.dmodel.textContent = String(state.dmodel);
    canvas.setAttribute('aria-label', m.t('table.alt', {
      positions: state.positions, dims: state.dmodel, base: state.base,
    }));
  }

  for (const [name, input] of Object.entries(inputs)) {
    input.value = String(state[name]);
    input.addEventListener('input', () => {
      state[name] = Number(input.value);
      render();
      onChange();
    });
  }
  render();
}
