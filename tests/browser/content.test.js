// The closing content in Chromium: every FAQ entry in every language (the three newer ones:
// lost in the middle, time series and multimodal positions, dropping the encoding), and the
// references with the identifiers the steps cite, each link pointing at its own paper.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, test } from 'node:test';
import { startBrowser } from './browser.js';
import { openStep } from './steps.js';
import { FAQ_COUNT } from './content-counts.js';

let b;
before(async () => { b = await startBrowser(); });
after(async () => { await b?.close(); });

// What the steps cite: the arXiv identifier each reference must carry, checked against the
// papers by hand when they were added.
const ARXIV = {
  vaswani2017: '1706.03762', su2021: '2104.09864', shaw2018: '1803.02155', press2021: '2108.12409',
  chen2023: '2306.15595', dai2019: '1901.02860', raffel2020: '1910.10683', peng2023: '2309.00071',
  dubey2024: '2407.21783', dosovitskiy2020: '2010.11929', he2021: '2111.06377', heo2024: '2403.13298',
  haviv2022: '2203.16634', kazemnejad2023: '2305.19466', ruoss2023: '2305.16843', liu2023: '2307.03172', wang2024: '2409.12191',
  devlin2018: '1810.04805', scao2022: '2211.05100', gelberg2025: '2512.12167', irie2019: '1905.04226', dong2024: '2412.05496',
  roziere2023: '2308.12950', xiong2023: '2309.16039', men2024: '2405.14591', ding2024: '2402.13753',
  gemma2025: '2503.19786', black2022: '2204.06745', deepseek2024: '2405.04434', dao2023: '2307.08691',
  nakanishi2025: '2501.19399', xu2025: '2503.20215', li2023: '2310.04418',
};
// The works that are not on arXiv (reports, posts, code, model cards), cited as what they are.
const OTHER = {
  radford2019: 'https://cdn.openai.com/better-language-models/language_models_are_unsupervised_multitask_learners.pdf',
  'bloc97-2023': 'https://www.reddit.com/r/LocalLLaMA/comments/14lz7j5/ntkaware_scaled_rope_allows_llama_models_to_have/',
  emozilla2023: 'https://www.reddit.com/r/LocalLLaMA/comments/14mrgpr/dynamically_scaled_rope_further_increases/',
  'meta-llama-models-2024': 'https://github.com/meta-llama/llama-models/blob/main/models/llama3/model.py',
  'mistral-card-2023': 'https://huggingface.co/mistralai/Mistral-7B-Instruct-v0.2',
  'wang-gptj-2021': 'https://github.com/kingoflolz/mesh-transformer-jax',
  'hf-llama-convert-2023': 'https://github.com/huggingface/transformers/blob/main/src/transformers/models/llama/convert_llama_weights_to_hf.py',
  'meta-llama4-2025': 'https://ai.meta.com/blog/llama-4-multimodal-intelligence/',
  biderman2021: 'https://blog.eleuther.ai/rotary-embeddings/',
  'cohere-r7b-2024': 'https://huggingface.co/CohereLabs/c4ai-command-r7b-12-2024',
  'hf-smollm3-2025': 'https://huggingface.co/blog/smollm3',
  wang2021: 'https://openreview.net/forum?id=onxoVA9FxMw',  // an ICLR paper never posted to arXiv
};

const catalogs = {};
for (const lang of ['en', 'id', 'sv', 'ru']) {
  catalogs[lang] = JSON.parse(await readFile(new URL(`../../web/i18n/${lang}/content.json`, import.meta.url), 'utf8'));
}

test('seven FAQ entries in each language, the new ones about the middle of the context, multimodal positions and DroPE', async () => {
  for (const lang of ['en', 'ru']) {
    const page = await openStep(b, 'code', `lang=${lang}`);
    const items = await page.$$eval('#faq details', (ds) => ds.map((d) => ({
      q: d.querySelector('summary').textContent, paras: [...d.querySelectorAll('p')].map((p) => p.textContent),
    })));
    assert.equal(items.length, FAQ_COUNT, lang);
    items.forEach((item, k) => {
      assert.equal(item.q, catalogs[lang][`content.faq${k + 1}.q`]);
      assert.deepEqual(item.paras, catalogs[lang][`content.faq${k + 1}.a`]);
    });
    // Closed until opened; opening one by keyboard shows its text.
    const summary = page.locator('#faq summary').nth(5);
    await summary.focus();
    await page.keyboard.press('Enter');
    assert.equal(await page.locator('#faq details').nth(5).getAttribute('open'), '');
    assert.ok(await page.locator('#faq details').nth(5).locator('p').first().isVisible());
    assert.deepEqual(page.errors, []);
    await page.close();
  }
  const en = catalogs.en;
  assert.match(en['content.faq5.a'].join(' '), /Liu et al\. \(2023\).*lost in the middle/s);
  assert.match(en['content.faq6.a'].join(' '), /M-RoPE.*temporal.*height.*width/s);
  assert.match(en['content.faq7.a'].join(' '), /DroPE.*current research/s);
  // The same entries exist, translated, in every language.
  for (const lang of ['id', 'sv', 'ru']) {
    for (const n of [5, 6, 7]) {
      assert.notEqual(catalogs[lang][`content.faq${n}.q`], en[`content.faq${n}.q`], `${lang} faq${n}`);
      assert.equal(catalogs[lang][`content.faq${n}.a`].length, en[`content.faq${n}.a`].length);
    }
    assert.match(catalogs[lang]['content.faq6.a'].join(' '), /M-RoPE/);
    assert.match(catalogs[lang]['content.faq7.a'].join(' '), /DroPE/);
  }
});

test('the references: every cited work once, with its year, and a link to its own arXiv page (or report and post)', async () => {
  const page = await openStep(b, 'quiz');
  const refs = await page.$$eval('#references li', (lis) => lis.map((li) => ({
    id: li.id.replace(/^ref-/, ''), text: li.textContent, href: li.querySelector('a')?.href, rel: li.querySelector('a')?.rel,
  })));
  const ids = refs.map((r) => r.id);
  assert.equal(new Set(ids).size, ids.length, 'no reference twice');
  assert.deepEqual([...ids].sort(), [...Object.keys(ARXIV), ...Object.keys(OTHER)].sort());
  assert.match(refs[0].text, /Attention Is All You Need/);
  for (const r of refs) {
    assert.match(r.text, /\((19|20)\d\d\)\. /, r.id);
    assert.equal(r.rel, 'noopener');
    if (r.id in ARXIV) {
      assert.equal(r.href, `https://arxiv.org/abs/${ARXIV[r.id]}`, r.id);
      // The venue names the same identifier as the link.
      assert.ok(!/arXiv:/.test(r.text) || r.text.includes(`arXiv:${ARXIV[r.id]}`), `${r.id}: ${r.text}`);
    } else {
      assert.equal(r.href, OTHER[r.id], r.id);
    }
    // The year in the entry matches the year in its id.
    assert.ok(r.text.includes(`(${r.id.match(/(\d{4})$/)[1]})`), `${r.id}: ${r.text}`);
  }
  assert.match(refs.find((r) => r.id === 'bloc97-2023').text, /Reddit post, r\/LocalLLaMA/);
  assert.match(refs.find((r) => r.id === 'radford2019').text, /Language Models are Unsupervised Multitask Learners/);
  assert.deepEqual(page.errors, []);
  await page.close();
});
