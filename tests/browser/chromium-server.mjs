// One headless Chromium for the node:test phase of npm test (tests/run.sh starts it, and stops
// it with SIGTERM): each browser test file then opens a context in it (tests/browser/browser.js,
// when POSENC_CHROMIUM_WS names this server) instead of starting a Chromium of its own, which
// cost ~2.5 s of CPU per file on this 2-core machine. Prints the server's WebSocket address as
// its only line of output.
import { chromium } from 'playwright-core';
import { ARGS, CHROMIUM } from './browser.js';

const server = await chromium.launchServer({ executablePath: CHROMIUM, args: ARGS, headless: true });
console.log(server.wsEndpoint());
const stop = async () => {
  await server.close();
  process.exit(0);
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
