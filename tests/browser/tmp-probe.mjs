import { serve, launch } from './harness.mjs';
import { LOAD_PROBE, loadTimes } from './measure.mjs';
const server = await serve('', { from: process.argv[2] || 'dist' });
const browser = await launch();
for (let i = 0; i < 5; i++) {
  const page = await browser.newPage({ viewport: { width: 1366, height: 768 } });
  await page.addInitScript(LOAD_PROBE);
  await page.addInitScript(() => {
    const orig = WebAssembly.instantiateStreaming;
    WebAssembly.instantiateStreaming = async (...a) => { window.__load.instStart = performance.now(); const r = await orig(...a); window.__load.instEnd = performance.now(); return r; };
    const o2 = WebAssembly.instantiate;
    WebAssembly.instantiate = async (...a) => { window.__load.inst2Start = performance.now(); const r = await o2(...a); window.__load.inst2End = performance.now(); return r; };
  });
  await page.goto(server.url);
  const l = await loadTimes(page);
  const res = await page.evaluate(() => performance.getEntriesByType('resource').map((e) => [e.name.split('/').pop().slice(0, 30), Math.round(e.startTime), Math.round(e.responseEnd)]));
  console.log(JSON.stringify(l), JSON.stringify(res));
  await page.close();
}
await browser.close(); await server.close();
