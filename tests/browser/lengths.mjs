// Measures how long each step's card is on a phone (a tool for people, not a test):
//   node tests/browser/lengths.mjs [--langs en,id,sv,ru] [--steps order,rope] [--width 375] [--height 700] [--json]
// For each step and language, at that viewport with every fold closed (as the page opens):
//   screens  the card's height / the viewport's height
//   figure   how far below the card's top its first figure starts (px): the first visible svg,
//            canvas or table of the step at least 60 px high (phone-checks.js cardMeasure)
//   above    how far down the page the card starts (the masthead and the navigation)
// --json prints the rows as JSON instead of a table, for a later comparison.
import { startBrowser } from './browser.js';
import { cardMeasure as measure } from './phone-checks.js';
import { ALL_STEP_IDS } from './step-ids.js';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : fallback;
};
const langs = option('langs', 'en,id,sv,ru').split(',');
const steps = option('steps', ALL_STEP_IDS.join(',')).split(',');
for (const s of steps) if (!ALL_STEP_IDS.includes(s)) throw new RangeError(`--steps: no step "${s}"`);
const width = Number(option('width', 375));
const height = Number(option('height', 700));
const json = args.includes('--json');

const b = await startBrowser();
const rows = [];
try {
  const page = await b.newPage({ viewport: { width, height } });
  for (const lang of langs) {
    for (const id of steps) {
      await page.goto(`${b.url}?step=${id}&lang=${lang}`);
      await page.waitForSelector(`#${id}[data-shown=true]:not([hidden]):not([data-busy])`);
      const r = await page.evaluate(measure, id);
      rows.push({ step: id, lang, screens: r.height / height, height: Math.round(r.height),
        figure: r.figure === null ? null : Math.round(r.figure), above: Math.round(r.above) });
    }
  }
  await page.close();
} finally {
  await b.close();
}

if (json) {
  console.log(JSON.stringify(rows, null, 1));
} else {
  console.log(`card length at ${width} × ${height} px: screens (first figure's top in the card, px)`);
  console.log(['step', ...langs].map((s) => s.padEnd(24)).join(''));
  for (const id of steps) {
    const cells = langs.map((lang) => {
      const r = rows.find((x) => x.step === id && x.lang === lang);
      return `${r.screens.toFixed(1)} (${r.figure ?? '–'})`.padEnd(24);
    });
    console.log([id.padEnd(24), ...cells].join(''));
  }
  const above = rows.map((r) => r.above);
  console.log(`card starts ${Math.min(...above)}–${Math.max(...above)} px down the page`);
}
