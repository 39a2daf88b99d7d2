// Placeholder while the step is written.
import { stepFrame } from '../kit/step.js';

export const id = 'frequencies';
export const params = {};

export function mount(root, { m, index, total }) {
  stepFrame(root, m, { id, index, total });
}
