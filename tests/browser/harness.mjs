// Shared harness for the browser tests: a static server for dist/ (optionally under a
// sub-path) and Debian's Chromium driven by playwright-core. Nothing is downloaded.
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));
export const root = path.resolve(here, '..', '..');
export const dist = path.join(root, 'dist');
export const screenshots = path.join(here, 'screenshots');

const types = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.wasm': 'application/wasm',
  '.css': 'text/css', '.png': 'image/png', '.svg': 'image/svg+xml', '.json': 'application/json',
};

/** Serve dist/ at http://127.0.0.1:<port><prefix>/ ; resolves to { url, close }. With
 * `{ gzip: true }` the text and wasm files go gzipped (level 9) to a browser that accepts
 * it, as a static host serves them: what the transfer figures count. `pages` adds HTML
 * pages by path (`{ '/host.html': '<!doctype html>…' }`: a course page framing the
 * playground); `from` serves another build than dist/. */
export function serve(prefix = '', { gzip = false, pages = {}, from = dist } = {}) {
  const zipped = new Map();
  const server = http.createServer((req, res) => {
    const u = new URL(req.url, 'http://x');
    let p = decodeURIComponent(u.pathname);
    if (!p.startsWith(prefix + '/')) { res.writeHead(404); res.end('not found'); return; }
    p = p.slice(prefix.length);
    if (pages[p] !== undefined) { res.writeHead(200, { 'content-type': types['.html'] }); res.end(pages[p]); return; }
    if (p.endsWith('/')) p += 'index.html';
    const file = path.join(from, path.normalize(p));
    if (!file.startsWith(from) || !fs.existsSync(file)) { res.writeHead(404); res.end('not found'); return; }
    const type = types[path.extname(file)] ?? 'application/octet-stream';
    if (gzip && /\bgzip\b/.test(req.headers['accept-encoding'] ?? '') && /\.(html|js|css|wasm|svg|json)$/.test(file)) {
      if (!zipped.has(file)) zipped.set(file, zlib.gzipSync(fs.readFileSync(file), { level: 9 }));
      const body = zipped.get(file);
      res.writeHead(200, { 'content-type': type, 'content-encoding': 'gzip', 'content-length': body.length });
      res.end(body);
      return;
    }
    res.writeHead(200, { 'content-type': type });
    fs.createReadStream(file).pipe(res);
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      resolve({ url: `http://127.0.0.1:${port}${prefix}/`, close: () => new Promise((r) => server.close(r)) });
    });
  });
}

/** Launch headless Chromium (Debian's) with the flags this machine needs. */
export async function launch() {
  const executablePath = process.env.CHROMIUM ?? '/usr/bin/chromium';
  return chromium.launch({
    executablePath,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
}

/** A page that records console errors and page errors (a wasm panic shows up here). */
export async function openPage(browser, url, viewport = { width: 1280, height: 900 }) {
  const page = await browser.newPage({ viewport });
  const errors = [];
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(url);
  return { page, errors };
}

export function shot(name) {
  fs.mkdirSync(screenshots, { recursive: true });
  return path.join(screenshots, name);
}

// Type `text` into the page's console and press Enter.
export async function type(page, text) {
  const input = page.getByTestId('console-input');
  await input.fill(text);
  await input.press('Enter');
}

/// Pauses the running clock with a Pod in `status` on the page. A status that alternates
/// (ErrImagePull and ImagePullBackOff, or Running and CrashLoopBackOff) may have moved on
/// between the wait and the pause click, so the clock is stepped event by event until a Pod
/// shows it again. Returns the locator of the Pods in that status.
export async function pauseWithPodIn(page, status) {
  const pods = page.locator(`[data-testid=pod][data-status=${status}]`);
  await pods.first().waitFor({ timeout: 20_000 });
  await page.getByTestId('play').click();
  for (let i = 0; i < 100 && (await pods.count()) === 0; i++) {
    await page.getByTestId('step').click();
  }
  return pods;
}

/** Open a view (timeline, events…) from the page's Views menu, as a learner does. */
export async function openView(page, name) {
  const menu = page.getByTestId('views-menu');
  if (!(await menu.evaluate((d) => d.open))) await menu.locator('summary').click();
  const box = page.getByTestId(`view-${name}`);
  if (!(await box.isChecked())) await box.check();
  await menu.locator('summary').click();
}

/**
 * Run lesson step `i` as a learner does, by its Run button, and wait until the lesson
 * marks it run. A click the page never saw (the machine too loaded for the button to
 * answer) is said on stderr and given once more, so the test fails on what the page
 * did, not on a click lost on the way.
 */
export async function runStep(page, i) {
  const item = page.getByTestId(`step-item-${i}`);
  const ran = () => item.evaluate((e) => e.classList.contains('ran'));
  await page.getByTestId(`step-${i}`).click();
  for (let tries = 0; tries < 2; tries++) {
    try {
      await page.waitForFunction((n) => document.querySelector(`[data-testid="step-item-${n}"]`)?.classList.contains('ran'), i, { timeout: 15_000 });
      return;
    } catch {
      if (await ran()) return;
      if (tries === 0) {
        console.error(`step ${i}: not marked run 15 s after its click; clicking again`);
        await page.getByTestId(`step-${i}`).click();
      }
    }
  }
  throw new Error(`step ${i} was not marked run after two clicks`);
}

/**
 * Wait for the lesson's goals line to read `text`. On a timeout, the error says where
 * the lesson was: the clock, the steps run, each goal and the console's last lines.
 */
export async function waitForGoals(page, text, timeout) {
  try {
    await page.getByTestId('goals').getByText(text).waitFor({ timeout });
  } catch (e) {
    const where = await page.evaluate(() => {
      const q = (s) => document.querySelector(s)?.innerText ?? '(none)';
      const ran = [...document.querySelectorAll('[data-testid^="step-item-"]')]
        .map((e) => `${e.dataset.testid}${e.classList.contains('ran') ? ' ran' : ''}`);
      return [`clock ${q('[data-testid="clock"]')}`, `steps: ${ran.join(', ')}`,
        `goals: ${q('[data-testid="goals"]')}`,
        `console: ${q('[data-testid="console-output"]').split('\n').slice(-15).join('\n')}`].join('\n');
    }).catch((err) => `(the page did not answer: ${err})`);
    e.message += `\nwhere the lesson was:\n${where}`;
    throw e;
  }
}
