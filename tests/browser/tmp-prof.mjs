import { serve, launch } from './harness.mjs';
import { LOAD_PROBE, loadTimes } from './measure.mjs';
import fs from 'node:fs';
const server = await serve('', { from: '/tmp/pdist' });
const browser = await launch();
const page = await browser.newPage({ viewport: { width: 1366, height: 768 } });
await page.addInitScript(LOAD_PROBE);
const cdp = await page.context().newCDPSession(page);
await cdp.send('Profiler.enable');
await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
await cdp.send('Profiler.start');
await page.goto(server.url);
const l = await loadTimes(page);
await page.waitForTimeout(300);
const { profile } = await cdp.send('Profiler.stop');
console.log(JSON.stringify(l));
// self time per function
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const self = new Map();
const dt = profile.timeDeltas; 
for (let i = 0; i < profile.samples.length; i++) {
  const n = byId.get(profile.samples[i]); const name = n.callFrame.functionName || '(anon) ' + n.callFrame.url.split('/').pop();
  self.set(name, (self.get(name) || 0) + (dt[i] || 0) / 1000);
}
const top = [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, 40);
for (const [k, v] of top) console.log(v.toFixed(1).padStart(7), k.slice(0, 150));
// inclusive time for frames matching prefixes
const parent = new Map(); for (const n of profile.nodes) for (const c of n.children || []) parent.set(c, n.id);
const incl = new Map();
for (let i = 0; i < profile.samples.length; i++) {
  const seen = new Set(); let id = profile.samples[i];
  while (id !== undefined) { const n = byId.get(id); const name = n.callFrame.functionName; if (!seen.has(name)) { seen.add(name); incl.set(name, (incl.get(name) || 0) + (dt[i] || 0) / 1000); } id = parent.get(id); }
}
console.log('--- inclusive');
for (const [k, v] of [...incl.entries()].sort((a, b) => b[1] - a[1]).slice(0, 60)) console.log(v.toFixed(1).padStart(7), k.slice(0, 150));
await browser.close(); await server.close();
