// Hints that name what the reader's hand does: "point at" a cell with a mouse, "tap" it with a
// finger. A screen whose main pointer cannot hover (a phone, a tablet) gets the catalog's
// <key>Touch text where there is one.

/** Whether the main pointer can hover (a mouse, a trackpad); not on a touch screen. */
export function canHover() {
  return globalThis.matchMedia?.('(hover: hover)').matches ?? true;
}

/** The hint of catalog `key` for this screen: `${key}Touch` where hovering is not possible. */
export function pointerHint(m, key, vars) {
  return !canHover() && m.has(`${key}Touch`) ? m.t(`${key}Touch`, vars) : m.t(key, vars);
}
