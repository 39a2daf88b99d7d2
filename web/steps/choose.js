// Placeholder: being written. Shows the frame only.
import { stepFrame } from '../kit/step.js';

export const id = 'choose';
export const params = {};

export function mount(root, { m, index, total }) {
  stepFrame(root, m, { id, index, total });
  return { tables: () => [] };
}
