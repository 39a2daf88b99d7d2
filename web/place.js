// Where a step stands in the explainer: the six steps that build the idea, then the rest of the
// field. The card's label ("Step 3 of 6"), the navigation's groups and its one-line summary on a
// phone all count from here, so a reader who is told "of 6" finds six steps in the list.

/** How many steps, from the front of the reading order, build the idea. */
export const IDEA_STEPS = 6;

/**
 * The group of the step at `index` (0-based) of `total` and its place in it:
 * { group: 'idea' | 'field', n: 1-based within the group, of: the group's size }.
 */
export function place(index, total) {
  return index < IDEA_STEPS
    ? { group: 'idea', n: index + 1, of: Math.min(IDEA_STEPS, total) }
    : { group: 'field', n: index - IDEA_STEPS + 1, of: total - IDEA_STEPS };
}
