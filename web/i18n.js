// Message catalogs: every user-visible string comes from web/i18n/<lang>.json. Text is always
// set with textContent, so a catalog or a URL can never inject markup.
const SUPPORTED = ['en'];

export async function loadMessages(lang) {
  const code = SUPPORTED.includes(lang) ? lang : 'en';
  const res = await fetch(new URL(`./i18n/${code}.json`, import.meta.url));
  if (!res.ok) throw new Error(`catalog ${code} failed to load (${res.status})`);
  const messages = await res.json();
  const number = new Intl.NumberFormat(code, { maximumFractionDigits: 5 });
  return {
    lang: code,
    /** The message for key with {name} placeholders filled from vars. */
    t(key, vars = {}) {
      const text = messages[key];
      if (text === undefined) throw new Error(`missing message ${key}`);
      return text.replace(/\{(\w+)\}/g, (_, name) => String(vars[name] ?? `{${name}}`));
    },
    /** A number in the locale's format with a fixed count of fraction digits. */
    fixed(value, digits) {
      return new Intl.NumberFormat(code, {
        minimumFractionDigits: digits,
        maximumFractionDigits: digits,
      }).format(value);
    },
    number: (value) => number.format(value),
  };
}

/** Fills every [data-i18n] element's text from the catalog. */
export function applyMessages(root, m) {
  for (const el of root.querySelectorAll('[data-i18n]')) el.textContent = m.t(el.dataset.i18n);
}
