// The first visual slice, clicked for real: delete a Pod and watch ready go 3 → 2 → 3;
// power a node off and watch it go NotReady; scale with the buttons.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch, openPage, shot, openView } from './harness.mjs';

let server, browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

const readyText = (page) => page.getByTestId('ready-web').innerText();

test('the page opens on three ready Pods spread over three Ready nodes', async () => {
  const { page, errors } = await openPage(browser, server.url);
  await page.getByTestId('ready-web').waitFor();
  assert.equal(await readyText(page), 'ready 3/3');
  assert.equal(await page.getByRole('button', { name: /^Pod web-/ }).count(), 3);
  const nodes = page.getByRole('button', { name: /^Node node-\d$/ });
  assert.equal(await nodes.count(), 3);
  for (const s of await page.getByTestId('node').evaluateAll((els) => els.map((e) => e.dataset.status))) {
    assert.equal(s, 'Ready');
  }
  await page.screenshot({ path: shot('foundation-start.png'), fullPage: true });
  assert.deepEqual(errors, []);
  await page.close();
});

test('deleting a Pod by clicking drops ready to 2 and a replacement with a new name brings it back to 3', async () => {
  const { page, errors } = await openPage(browser, server.url);
  await page.getByTestId('ready-web').waitFor();
  const before = await page.getByRole('button', { name: /^Pod web-/ }).evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')));
  const victim = before[0];
  await page.getByRole('button', { name: victim, exact: true }).click();
  await page.getByTestId('last-command').filter({ hasText: `kubectl delete pod ${victim.slice(4)}` }).waitFor();
  await page.getByText('ready 2/3').waitFor({ timeout: 10_000 });
  // The Terminating Pod points at the new Pod (new uid) that replaces it.
  const link = page.getByRole('button', { name: victim, exact: true }).getByTestId('replaced-by');
  await link.waitFor({ timeout: 10_000 });
  assert.match(await link.innerText(), /^→ (replaced by )?\S*-[a-z0-9]{5} \(uid [0-9a-f]{8}\)$/);
  assert.match(await link.getAttribute('title'), /^Replaced by web-\S+ \(uid [0-9a-f]{8}\): a new Pod, not this one restarted$/);
  await page.screenshot({ path: shot('foundation-ready-2.png'), fullPage: true });
  // The victim shows Terminating while its kubelet stops it.
  await page.getByTestId('speed-30').click();
  await page.getByText('ready 3/3').waitFor({ timeout: 20_000 });
  const afterNames = await page.getByRole('button', { name: /^Pod web-/ }).evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')));
  const fresh = afterNames.filter((n) => !before.includes(n));
  assert.equal(fresh.length, 1, `one replacement Pod: ${afterNames}`);
  // The story in Events: opened from the Views menu.
  await openView(page, 'events');
  await page.getByTestId('event').first().waitFor();
  const reasons = await page.getByTestId('event').evaluateAll((els) => els.map((e) => e.dataset.reason));
  for (const r of ['SuccessfulCreate', 'Scheduled', 'Started', 'Killing']) assert.ok(reasons.includes(r), `event ${r}`);
  await page.screenshot({ path: shot('foundation-ready-3.png'), fullPage: true });
  assert.deepEqual(errors, []);
  await page.close();
});

test('powering a node off by keyboard makes it NotReady after the grace period', async () => {
  const { page, errors } = await openPage(browser, server.url);
  await page.getByTestId('ready-web').waitFor();
  await page.getByTestId('speed-30').click();
  const node = page.getByRole('button', { name: 'Node node-2', exact: true });
  await node.focus();
  await page.keyboard.press('Enter');
  await page.getByTestId('last-command').filter({ hasText: 'sim node down node-2' }).waitFor();
  // 50 s of simulated grace at 30× is about 2 s of wall time.
  await page.locator('[data-testid=node][data-status=NotReady]').waitFor({ timeout: 15_000 });
  await page.getByText('ready 2/3').waitFor({ timeout: 10_000 });
  await page.screenshot({ path: shot('foundation-node-down.png'), fullPage: true });
  await node.click();
  await page.locator('[data-testid=node][data-status=NotReady]').waitFor({ state: 'detached', timeout: 15_000 });
  await page.getByText('ready 3/3').waitFor({ timeout: 15_000 });
  assert.deepEqual(errors, []);
  await page.close();
});

test('the scale buttons change spec.replicas and the status follows', async () => {
  const { page, errors } = await openPage(browser, server.url);
  await page.getByTestId('ready-web').waitFor();
  await page.getByTestId('speed-30').click();
  await page.getByRole('button', { name: 'Scale up Deployment web' }).click();
  await page.getByText('ready 4/4').waitFor({ timeout: 15_000 });
  await page.getByRole('button', { name: 'Scale down Deployment web' }).click();
  await page.getByRole('button', { name: 'Scale down Deployment web' }).click();
  await page.getByText('ready 2/2').waitFor({ timeout: 15_000 });
  assert.equal(await page.getByRole('button', { name: /^Pod web-/ }).count(), 2, 'terminated Pods are gone');
  assert.deepEqual(errors, []);
  await page.close();
});

test('the chain downloads as an SVG that contains its objects', async () => {
  const { page, errors } = await openPage(browser, server.url);
  await page.getByText('ready 3/3').waitFor({ timeout: 20_000 });
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByTestId('export-svg').click(),
  ]);
  assert.equal(download.suggestedFilename(), 'kubeplay-chain.svg');
  const file = await download.path();
  await download.saveAs(shot('chain.svg'));
  const svg = (await import('node:fs')).readFileSync(file, 'utf8');
  assert.match(svg, /^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
  assert.match(svg, />web</);
  assert.match(svg, /wants 3 · ready 3\/3/);
  const pods = await page.getByTestId('pod').evaluateAll((els) => els.map((e) => e.getAttribute('aria-label').replace('Pod ', '')));
  assert.equal(pods.length, 3);
  for (const p of pods) assert.ok(svg.includes(`>${p}<`), p);
  assert.match(svg, />node-1 · Ready</);
  assert.deepEqual(errors, []);
  await page.close();
});
