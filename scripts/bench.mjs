#!/usr/bin/env node
// Performance figures, native and in the browser, side by side.
//
//   node scripts/bench.mjs [--sizes 100:30:100,1000:300:100,5000:1500:100] [--skip-native] [--skip-wasm] [--skip-ui]
//                          [--ui-envelope 5000:1500:100] [--ui-envelope-seconds 60]
//                          [--daemonset-sizes 15000:300:100] [--skip-first-screen] [--only-first-screen]
//                          [--dist DIR] [--compare REV [--compare-runs 2]] [--only-controller]
//
// Each size is nodes:deployments:replicas (--daemonset-sizes: plus a DaemonSet with a
// Pod on every node, scheduler_perf's largest case at 15000:300:100). For each: the native example
// (cargo run --release -p kubeplay-engine --example envelope) and the same run in
// headless Chromium (dist/?bench=envelope), with the wasm ÷ native ratio of the
// converge time; then the UI figures (frame times while 1,000 Pods converge, input to
// paint, first interactive), with --ui-envelope the page itself at the envelope (input
// to paint and frame times while the console's Deployments converge in the aggregated
// view), first interactive again over a throttled network (1.6 Mbps down, 750 kbps up,
// 150 ms round trip; files served gzipped, the cache off), and the bundle sizes. Needs dist/ built (scripts/test.sh or
// trunk build --release). Prints `name: value unit` lines.
//
// The first screen (--only-first-screen: nothing else): time to first visible content
// (first contentful paint) and to first interactive (a Pod card on the page and the main
// thread free to answer a click), on localhost and throttled; the Tabs from "Skip to the
// cluster" to the first Pod; and an embedded lesson in a 700 px column of a 1366×768
// course page, in English and Chinese: the frame's height, where its first Run button
// and its goals end. `--dist DIR` measures another build (an older dist/, to compare).
//
// --compare REV: the native envelope of commit REV beside today's, on the same machine in
// one run: both built first (REV in a scratch worktree under target/, its own target
// directory), then run alternately, REV first, --compare-runs times each per size. Prints
// each figure of each run and the ratio of the medians (today ÷ REV), so that a claim
// about speed is a ratio from one run, not two runs on two days. Only the native figures
// run with it.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { serve, launch, root, dist as builtDist } from '../tests/browser/harness.mjs';
import { tabsFromSkipToFirstPod, hostPage, embedFigures, LOAD_PROBE, loadTimes } from '../tests/browser/measure.mjs';

const argv = process.argv.slice(2);
const opt = (k, d) => { const i = argv.indexOf(k); return i >= 0 ? argv[i + 1] : d; };
const sizes = opt('--sizes', '100:30:100,1000:300:100').split(',').map((s) => s.split(':').map(Number));
const has = (k) => argv.includes(k);
const dist = path.resolve(opt('--dist', builtDist));
const onlyFirst = has('--only-first-screen');

const parse = (text) => Object.fromEntries(text.split('\n').filter((l) => l.includes(': '))
  .map((l) => { const [k, v] = l.split(': '); const [num, ...unit] = v.split(' '); return [k, { v: Number(num), unit: unit.join(' ') }]; }));

// The envelope example's arguments for one size.
const envelopeArgs = ([n, d, r, ds]) => ['--nodes', String(n), '--deployments', String(d), '--replicas', String(r), ...(ds ? ['--daemonset'] : [])];

function native(size) {
  const out = execFileSync('cargo', ['run', '--quiet', '--release', '-p', 'kubeplay-engine', '--example', 'envelope', '--', ...envelopeArgs(size)],
    { cwd: root, encoding: 'utf8', maxBuffer: 1 << 24 });
  return parse(out);
}

// The envelope example of `rev`, built in a scratch worktree with its own target
// directory (so today's build is not thrown away), and today's: the two binaries.
function buildBoth(rev) {
  const tree = path.join(root, 'target', 'compare', 'tree');
  const target = path.join(root, 'target', 'compare', 'target');
  try { execFileSync('git', ['worktree', 'remove', '--force', tree], { cwd: root, stdio: 'ignore' }); } catch { /* none yet */ }
  fs.rmSync(tree, { recursive: true, force: true });
  execFileSync('git', ['worktree', 'prune'], { cwd: root });
  execFileSync('git', ['worktree', 'add', '--detach', tree, rev], { cwd: root, stdio: 'inherit' });
  const build = (cwd, env) => execFileSync('cargo', ['build', '--quiet', '--release', '--locked', '-p', 'kubeplay-engine', '--example', 'envelope'],
    { cwd, stdio: 'inherit', env: { ...process.env, ...env } });
  build(tree, { CARGO_TARGET_DIR: target });
  build(root, {});
  const short = execFileSync('git', ['rev-parse', '--short', rev], { cwd: root, encoding: 'utf8' }).trim();
  return { short, tree, old: path.join(target, 'release', 'examples', 'envelope'), today: path.join(root, 'target', 'release', 'examples', 'envelope') };
}

function runEnvelope(bin, size) {
  const out = execFileSync(bin, envelopeArgs(size), { encoding: 'utf8', maxBuffer: 1 << 24 });
  return parse(out);
}

function compare(rev, sizes, runs) {
  const b = buildBoth(rev);
  try {
    for (const size of sizes) {
      const [n, d, r, ds] = size;
      console.log(`== ${n} nodes / ${d * r + (ds ? n : 0)} pods: ${b.short} beside today, alternately, ${runs} runs each`);
      const got = { old: [], today: [] };
      for (let i = 0; i < runs; i++) {
        got.old.push(runEnvelope(b.old, size));
        got.today.push(runEnvelope(b.today, size));
      }
      const keys = Object.keys(got.today[0]).filter((k) => k in got.old[0]);
      const med = (xs) => { const v = [...xs].sort((a, b) => a - b), m = v.length >> 1; return v.length % 2 ? v[m] : (v[m - 1] + v[m]) / 2; };
      for (const k of keys) {
        const o = got.old.map((f) => f[k].v), t = got.today.map((f) => f[k].v);
        const ratio = med(o) ? (med(t) / med(o)).toFixed(2) : '-';
        console.log(`${k}: ${b.short} ${o.join(' / ')} | today ${t.join(' / ')} ${got.today[0][k].unit} | today/${b.short} ${ratio}`);
      }
    }
  } finally {
    execFileSync('git', ['worktree', 'remove', '--force', b.tree], { cwd: root });
  }
}

async function wasm(browser, server, [n, d, r, ds]) {
  const page = await browser.newPage();
  await page.goto(`${server.url}?bench=envelope&nodes=${n}&deployments=${d}&replicas=${r}${ds ? '&daemonset=1' : ''}`);
  const pre = page.getByTestId('bench');
  await pre.filter({ hasText: /done/ }).waitFor({ timeout: 60 * 60_000 });
  const figs = parse(await pre.innerText());
  await page.close();
  return figs;
}

// Input to paint measured from the input event's own timestamp (when the browser
// received the click, so the wait behind a running tick counts) to the second
// animation frame after it.
const INSTALL_INPUT_PROBE = () => {
  window.__inputToPaint = [];
  document.addEventListener('click', (e) => {
    const t0 = e.timeStamp;
    requestAnimationFrame(() => requestAnimationFrame(() => window.__inputToPaint.push(performance.now() - t0)));
  }, true);
};

const FRAME_PROBE = (ms) => new Promise((res) => {
  const d = []; let last = performance.now(); const end = last + ms;
  const f = (t) => { d.push(t - last); last = t; if (t < end) requestAnimationFrame(f); else res(d); };
  requestAnimationFrame(f);
});

const quantile = (xs, p) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor(p * s.length))]; };

async function uiEnvelope(browser, server, [n, d, r], seconds) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(server.url);
  await page.getByTestId('ready-web').waitFor();
  await page.evaluate(INSTALL_INPUT_PROBE);
  const input = page.getByTestId('console-input');
  await input.fill(`sim reset --nodes ${n} --zones 3 --cpu 32 --memory 128Gi --pods 110`);
  await input.press('Enter');
  await page.getByTestId('speed-5').click();
  const lines = [];
  for (let i = 0; i < d; i++) lines.push(`kubectl create deployment app-${String(i).padStart(4, '0')} --image=registry.local/app:1.0 --replicas=${r}`);
  await input.fill(lines.join('\n'));
  const t0 = Date.now();
  await input.press('Enter');
  const frames = page.evaluate(FRAME_PROBE, seconds * 1000);
  await page.evaluate(() => { window.__inputToPaint = []; });
  // A click every two seconds while it runs: the speed buttons (5× and 30× in turn).
  const clicks = [];
  while (Date.now() - t0 < seconds * 1000 - 2000) {
    await page.waitForTimeout(2000);
    const t = Date.now();
    await page.getByTestId(clicks.length % 2 ? 'speed-5' : 'speed-30').click({ timeout: 60_000 });
    clicks.push(Date.now() - t);
  }
  const deltas = await frames;
  await page.waitForTimeout(500);
  const itp = await page.evaluate(() => window.__inputToPaint);
  const clock = await page.getByTestId('clock').innerText();
  const ready = await page.evaluate(() => [...document.querySelectorAll('[data-testid^="ready-"]')].length);
  const lagging = await page.getByTestId('lagging').count();
  await page.screenshot({ path: path.join(root, 'target', 'ui-envelope.png') });
  await page.close();
  return {
    frames: deltas.length, p50: quantile(deltas, 0.5), p95: quantile(deltas, 0.95), max: Math.max(...deltas),
    itpMedian: quantile(itp, 0.5), itpMax: Math.max(...itp), clicks: itp.length, clock, ready, lagging,
  };
}

async function ui(browser, server) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const t0 = Date.now();
  await page.goto(server.url);
  await page.getByTestId('ready-web').waitFor();
  const firstInteractive = Date.now() - t0;
  const input = page.getByTestId('console-input');
  await input.fill('sim reset --nodes 12 --pods 110');
  await input.press('Enter');
  await page.getByTestId('speed-5').click();
  await input.fill('kubectl create deployment big --image=nginx:1.27 --replicas=1000');
  // Frame deltas from requestAnimationFrame while the 1,000 Pods converge (10 s).
  const frames = page.evaluate(() => new Promise((res) => {
    const d = []; let last = performance.now(); const end = last + 10_000;
    const f = (t) => { d.push(t - last); last = t; if (t < end) requestAnimationFrame(f); else res(d); };
    requestAnimationFrame(f);
  }));
  await input.press('Enter');
  const deltas = (await frames).sort((a, b) => a - b);
  const pct = (p) => deltas[Math.min(deltas.length - 1, Math.floor(p * deltas.length))];
  // Input to paint while it runs: real clicks on the speed buttons.
  await page.evaluate(INSTALL_INPUT_PROBE);
  for (let i = 0; i < 5; i++) {
    await page.getByTestId('speed-1').click();
    await page.getByTestId('speed-30').click();
  }
  await page.waitForTimeout(200);
  const itp = await page.evaluate(() => window.__inputToPaint);
  await page.close();
  return { firstInteractive, frames: deltas.length, p50: pct(0.5), p95: pct(0.95), max: deltas.at(-1), inputToPaint: quantile(itp, 0.5) };
}

// First interactive (the default world drawn, its Deployment ready) over a slow
// network, with Chromium's own throttling: every byte of the page crosses it.
async function throttled(browser, server) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false, latency: 150, downloadThroughput: 1.6e6 / 8, uploadThroughput: 750e3 / 8,
  });
  let bytes = 0;
  cdp.on('Network.loadingFinished', (e) => { bytes += e.encodedDataLength; });
  const t0 = Date.now();
  await page.goto(server.url, { timeout: 120_000 });
  await page.getByTestId('ready-web').waitFor({ timeout: 120_000 });
  const ms = Date.now() - t0;
  await page.close();
  return { ms, bytes };
}

// Load times, localhost or throttled (1.6 Mbps down, 750 kbps up, 150 ms; gzipped files,
// the cache off): the median of `runs` loads.
async function loadFigures(browser, server, throttle, runs = 3) {
  const got = [];
  for (let i = 0; i < runs; i++) {
    const page = await browser.newPage({ viewport: { width: 1366, height: 768 } });
    await page.addInitScript(LOAD_PROBE);
    if (throttle) {
      const cdp = await page.context().newCDPSession(page);
      await cdp.send('Network.enable');
      await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
      await cdp.send('Network.emulateNetworkConditions', {
        offline: false, latency: 150, downloadThroughput: 1.6e6 / 8, uploadThroughput: 750e3 / 8,
      });
    }
    await page.goto(server.url, { timeout: 120_000 });
    got.push(await loadTimes(page));
    await page.close();
  }
  const med = (k) => quantile(got.map((g) => g[k]), 0.5);
  return { content: med('content'), pod: med('pod'), interactive: med('interactive') };
}

async function firstScreen(browser) {
  const pages = {};
  for (const lang of ['en', 'zh']) pages[`/host-${lang}.html`] = hostPage(`embed=1&scenario=gateway-delete-pod&lang=${lang}`);
  const server = await serve('', { from: dist, pages });
  const zipped = await serve('', { gzip: true, from: dist });
  console.log('== first screen');
  const local = await loadFigures(browser, server, false);
  console.log(`first_visible_content: ${local.content.toFixed(0)} ms`);
  console.log(`first_pod_on_page: ${local.pod.toFixed(0)} ms`);
  console.log(`first_interactive: ${local.interactive.toFixed(0)} ms`);
  const slow = await loadFigures(browser, zipped, true, 1);
  console.log(`first_visible_content_throttled_1_6mbps_150ms: ${slow.content.toFixed(0)} ms`);
  console.log(`first_interactive_throttled_1_6mbps_150ms: ${slow.interactive.toFixed(0)} ms`);
  const page = await browser.newPage({ viewport: { width: 1366, height: 768 } });
  await page.goto(server.url);
  const { tabs } = await tabsFromSkipToFirstPod(page);
  console.log(`tabs_from_skip_link_to_first_pod: ${tabs ?? 'none within 60'}`);
  await page.close();
  for (const lang of ['en', 'zh']) {
    const host = await browser.newPage({ viewport: { width: 1366, height: 768 } });
    await host.goto(`${server.url}host-${lang}.html`);
    const f = await embedFigures(host);
    console.log(`embed_700_${lang}_frame_height: ${f.height} px`);
    console.log(`embed_700_${lang}_first_run_button_y: ${f.runTop ?? 'none'} px`);
    console.log(`embed_700_${lang}_goals_bottom_y: ${f.goalsBottom ?? 'none'} px`);
    await host.close();
  }
  await server.close();
  await zipped.close();
}

// A shared link replaying a week of simulated time: how long a language click takes to
// show (in all, and in the page) and how long Stop takes; a day-long link's replay to its
// end. (The browser tests assert that the clicks are answered during the replay.)
async function replayFigures(browser, server) {
  const { default: LZString } = await import('lz-string');
  const link = (session, q = '') => `${server.url}${q}#s=${LZString.compressToEncodedURIComponent(JSON.stringify(session))}`;
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(link({ v: 1, scenario: { id: 'gateway-delete-pod' }, journal: [[0, { r: 'kubectl get pods' }]], now: 7 * 24 * 3_600_000 }));
  await page.getByTestId('replay').waitFor({ timeout: 30_000 });
  let t0 = Date.now();
  const inPage = await page.evaluate(() => new Promise((resolve) => {
    const t = performance.now();
    const done = () => document.querySelector('[data-testid=replay]')?.innerText.includes('正在回放分享的会话');
    const obs = new MutationObserver(() => { if (done()) { obs.disconnect(); resolve(performance.now() - t); } });
    obs.observe(document.body, { subtree: true, childList: true, characterData: true });
    document.querySelector('[data-testid=lang-zh]').click();
  }));
  const lang = Date.now() - t0;
  t0 = Date.now();
  await page.getByTestId('replay-cancel').dispatchEvent('click');
  await page.getByTestId('replay-note').waitFor();
  const stop = Date.now() - t0;
  await page.close();
  const day = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  t0 = Date.now();
  await day.goto(link({ v: 1, scenario: { id: 'gateway-delete-pod' }, now: 24 * 3_600_000 }, '?autoplay=0'));
  await day.getByTestId('replay').waitFor({ timeout: 30_000 });
  await day.getByTestId('replay').waitFor({ state: 'detached', timeout: 600_000 });
  const dayMs = Date.now() - t0;
  await day.close();
  return { lang, inPage, stop, dayMs };
}

function bundle() {
  let raw = 0, gz = 0;
  for (const f of fs.readdirSync(dist)) {
    if (!/\.(wasm|js|css)$/.test(f) || f === 'embed.js') continue;
    const b = fs.readFileSync(path.join(dist, f));
    raw += b.length; gz += zlib.gzipSync(b, { level: 9 }).length;
  }
  return { raw, gz };
}

const compareRev = opt('--compare', null);
if (compareRev) {
  compare(compareRev, sizes, Number(opt('--compare-runs', '2')));
  process.exit(0);
}

const rows = [];
// --only-controller: the learner's controller. The sandbox's weight (fetched only when a
// controller runs), what one reconcile of the PodSet loop costs natively (the engine's
// whole reconcile: cache as JSON, a fresh QuickJS, the requests decoded) and in the
// page's sandbox (the JavaScript part alone, on the same input shape), and the frame
// times while an endless loop is stopped by its budget again and again.
async function controllerBench() {
  const wasmFile = path.join(dist, 'kubeplay-sandbox_bg.wasm');
  const jsFile = path.join(dist, 'kubeplay-sandbox.js');
  const gz = (f) => zlib.gzipSync(fs.readFileSync(f), { level: 9 }).length;
  console.log('== the learner\'s controller');
  console.log(`sandbox_wasm_raw: ${fs.statSync(wasmFile).size} B`);
  console.log(`sandbox_wasm_gzip: ${gz(wasmFile)} B`);
  console.log(`sandbox_js_gzip: ${gz(jsFile)} B`);
  for (const replicas of [3, 300]) {
    const out = execFileSync('cargo', ['run', '--quiet', '--release', '-p', 'kubeplay-engine', '--example', 'reconcile_cost', '--', '--replicas', String(replicas), '--rounds', replicas > 10 ? '50' : '200'],
      { cwd: root, encoding: 'utf8' });
    console.log(`reconcile_native_${replicas}_pods: ${parse(out).reconcile_native.v} us`);
  }
  const browser = await launch();
  const server = await serve('', { from: dist });
  const page = await browser.newPage();
  await page.goto(server.url);
  const source = fs.readFileSync(path.join(root, 'engine/controllers/desired-state-loop.js'), 'utf8');
  const library = fs.readFileSync(path.join(root, 'engine/src/controllers/script/client.js'), 'utf8');
  for (const replicas of [3, 300]) {
    const ms = await page.evaluate(async ({ source, library, replicas, url }) => {
      const m = await import(url);
      await m.default();
      const podset = { apiVersion: 'course.kubeplay.dev/v1', kind: 'PodSet', metadata: { name: 'web', namespace: 'default', uid: 'u-web', resourceVersion: '10' }, spec: { replicas, image: 'nginx', selector: { app: 'web' } }, status: { observed: replicas, lastAction: 'in-sync' } };
      const pod = (i) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: `web-${i}`, namespace: 'default', uid: `u-${i}`, resourceVersion: String(100 + i), creationTimestamp: '2025-01-01T00:00:01Z', labels: { app: 'web' }, ownerReferences: [{ apiVersion: 'course.kubeplay.dev/v1', kind: 'PodSet', name: 'web', uid: 'u-web', controller: true, blockOwnerDeletion: true }] }, spec: { containers: [{ name: 'app', image: 'nginx', resources: {}, terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File', imagePullPolicy: 'Always' }], restartPolicy: 'Always', terminationGracePeriodSeconds: 30, dnsPolicy: 'ClusterFirst', serviceAccountName: 'default', nodeName: `node-${i % 3}`, schedulerName: 'default-scheduler', tolerations: [{ key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 }, { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 }] }, status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }, { type: 'ContainersReady', status: 'True' }, { type: 'PodScheduled', status: 'True' }], hostIP: '10.0.0.1', podIP: `10.244.0.${i % 250}`, startTime: '2025-01-01T00:00:02Z', containerStatuses: [{ name: 'app', ready: true, restartCount: 0, image: 'nginx', imageID: 'docker.io/library/nginx@sha256:0', started: true, state: { running: { startedAt: '2025-01-01T00:00:03Z' } } }], qosClass: 'BestEffort' } });
      const input = JSON.stringify({ request: { namespace: 'default', name: 'web' }, kinds: [{ kind: 'PodSet', plural: 'podsets' }, { kind: 'Pod', plural: 'pods' }], cache: [podset, ...Array.from({ length: replicas }, (_, i) => pod(i))], maxWrites: 100 });
      const call = JSON.stringify({ source, library, input, now_ms: 1735689600000, seed: 1, budget_ticks: 100 });
      const runs = replicas > 10 ? 20 : 200;
      m.run_json(call);
      const t0 = performance.now();
      for (let i = 0; i < runs; i++) m.run_json(call);
      return (performance.now() - t0) / runs;
    }, { source, library, replicas, url: `${server.url}kubeplay-sandbox.js` });
    console.log(`reconcile_sandbox_page_${replicas}_pods: ${(ms * 1000).toFixed(0)} us`);
  }
  await page.close();
  // Frames while an endless loop fails, is backed off and retried.
  const p = await browser.newPage({ viewport: { width: 1366, height: 900 } });
  await p.goto(`${server.url}?views=controller`);
  await p.getByTestId('mc-example').click();
  await p.getByTestId('mc-editor').fill('function reconcile(request, client) {\n  while (true) {}\n}\n');
  await p.getByTestId('speed-30').click();
  await p.getByTestId('mc-run').click();
  await p.locator('[data-testid=mc-status][data-state=failing]').waitFor({ timeout: 60_000 });
  const frames = await p.evaluate(() => new Promise((done) => {
    const gaps = []; let last = performance.now(); const end = last + 5000;
    const tick = (t) => { gaps.push(t - last); last = t; if (t < end) requestAnimationFrame(tick); else done(gaps); };
    requestAnimationFrame(tick);
  }));
  const sorted = [...frames].sort((a, b) => a - b);
  const q = (f) => sorted[Math.min(sorted.length - 1, Math.floor(f * sorted.length))];
  console.log(`endless_loop_frames: ${frames.length} frames in 5 s`);
  console.log(`endless_loop_frame_p50: ${q(0.5).toFixed(1)} ms`);
  console.log(`endless_loop_frame_p95: ${q(0.95).toFixed(1)} ms`);
  console.log(`endless_loop_frame_max: ${sorted[sorted.length - 1].toFixed(1)} ms`);
  console.log(`endless_loop_budget_stop: ${await p.getByTestId('mc-calls').innerText()}`);
  await p.close();
  await browser.close();
  await server.close();
}
if (has('--only-controller')) {
  await controllerBench();
  process.exit(0);
}
const browser = (has('--skip-wasm') && has('--skip-ui') && has('--skip-first-screen') && !argv.includes('--ui-envelope')) ? null : await launch();
const server = browser ? await serve('', { from: dist }) : null;
if (!has('--skip-first-screen')) await firstScreen(browser);
if (onlyFirst) { await browser.close(); await server.close(); process.exit(0); }
const dsSizes = opt('--daemonset-sizes', '').split(',').filter(Boolean).map((s) => [...s.split(':').map(Number), 1]);
for (const size of [...sizes, ...dsSizes]) {
  const label = `${size[0]} nodes / ${size[1] * size[2] + (size[3] ? size[0] : 0)} pods${size[3] ? ' (a DaemonSet on every node)' : ''}`;
  console.log(`== ${label}`);
  const n = has('--skip-native') ? null : native(size);
  const w = has('--skip-wasm') ? null : await wasm(browser, server, size);
  const keys = Object.keys(n ?? w ?? {});
  for (const k of keys) {
    const a = n?.[k], b = w?.[k];
    const unit = (a ?? b).unit;
    console.log(`${k}: native ${a ? a.v : '-'} ${unit} | wasm ${b ? b.v : '-'} ${unit}`);
  }
  if (n && w) {
    const ratio = w.converge_wall.v / Math.max(1e-9, n.converge_wall.v);
    console.log(`wasm_over_native_converge: ${ratio.toFixed(2)} x`);
    rows.push({ label, ratio });
  }
}
if (!has('--skip-ui')) {
  const u = await ui(browser, server);
  console.log('== UI');
  console.log(`first_interactive: ${u.firstInteractive} ms`);
  console.log(`frames_while_1000_pods_converge: ${u.frames}`);
  console.log(`frame_p50: ${u.p50.toFixed(1)} ms`);
  console.log(`frame_p95: ${u.p95.toFixed(1)} ms`);
  console.log(`frame_max: ${u.max.toFixed(1)} ms`);
  console.log(`input_to_paint_median: ${u.inputToPaint.toFixed(1)} ms`);
  const zipped = await serve('', { gzip: true, from: dist });
  const t = await throttled(browser, zipped);
  await zipped.close();
  console.log(`first_interactive_throttled_1_6mbps_150ms: ${t.ms} ms`);
  console.log(`transferred_throttled: ${t.bytes} B`);
  const r = await replayFigures(browser, server);
  console.log('== replaying a shared link');
  console.log(`replay_week_language_click_to_redraw: ${r.lang} ms (${r.inPage.toFixed(0)} ms in the page)`);
  console.log(`replay_week_stop: ${r.stop} ms`);
  console.log(`replay_day_to_end: ${r.dayMs} ms`);
}
const envelopeUi = opt('--ui-envelope', null);
if (envelopeUi) {
  const size = envelopeUi.split(':').map(Number);
  const u = await uiEnvelope(browser, server, size, Number(opt('--ui-envelope-seconds', '60')));
  console.log(`== UI at ${size[0]} nodes / ${size[1] * size[2]} pods (aggregated view, 5×/30×, ${u.clicks} clicks)`);
  console.log(`envelope_input_to_paint_median: ${u.itpMedian.toFixed(1)} ms`);
  console.log(`envelope_input_to_paint_max: ${u.itpMax.toFixed(1)} ms`);
  console.log(`envelope_frame_p50: ${u.p50.toFixed(1)} ms`);
  console.log(`envelope_frame_p95: ${u.p95.toFixed(1)} ms`);
  console.log(`envelope_frame_max: ${u.max.toFixed(1)} ms`);
  console.log(`envelope_sim_clock_reached: ${u.clock}`);
  console.log(`envelope_lagging_shown: ${u.lagging}`);
}
const b = bundle();
console.log('== bundle');
console.log(`bundle_raw: ${b.raw} B`);
console.log(`bundle_gzip: ${b.gz} B (${(b.gz / 1024).toFixed(0)} KiB)`);
await browser?.close();
await server?.close();
