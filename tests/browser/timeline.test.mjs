// Rewind: scrub back before a deletion and forward again to the same world; a command
// after a rewind forks the history.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch, openPage, shot } from './harness.mjs';

let server, browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

async function scrubTo(page, ms) {
  await page.getByTestId('scrub').evaluate((el, v) => {
    el.value = String(v);
    el.dispatchEvent(new Event('input', { bubbles: true }));
  }, ms);
}

const podNames = (page) => page.getByTestId('pod').evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')).sort());

test('scrubbing back shows the past and forward again reproduces the same state', async () => {
  const { page, errors } = await openPage(browser, server.url);
  await page.getByText('ready 3/3').waitFor({ timeout: 20_000 });
  const original = await podNames(page);
  const deleted = original[0].replace('Pod ', '');
  await page.getByRole('button', { name: original[0], exact: true }).click();
  const deletedAt = Number(await page.getByTestId('scrub').inputValue());
  await page.getByTestId('speed-30').click();
  await page.locator(`[data-testid=pod][aria-label="Pod ${deleted}"]`).waitFor({ state: 'detached', timeout: 60_000 });
  await page.getByText('ready 3/3').waitFor({ timeout: 20_000 });
  await page.getByTestId('play').click(); // pause
  // The latest moment may fall between two of the slider's 100 ms steps: its value is
  // the step before, which the page reads as the end.
  const end = Number(await page.getByTestId('scrub').inputValue());
  const endClock = await page.getByTestId('clock').innerText();
  const after = await podNames(page);
  assert.notDeepEqual(after, original);
  // Back to just before the click: the deleted Pod is there again, Running.
  await scrubTo(page, deletedAt - 100);
  await page.getByTestId('behind').waitFor();
  assert.deepEqual(await podNames(page), original);
  assert.equal(await page.getByTestId('play').getAttribute('aria-pressed'), 'false');
  await page.screenshot({ path: shot('timeline-rewound.png'), fullPage: false });
  // Forward to the end: exactly the world we left.
  await scrubTo(page, end);
  assert.deepEqual(await podNames(page), after);
  assert.equal(await page.getByTestId('clock').innerText(), endClock);
  assert.equal(await page.getByTestId('behind').count(), 0);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a command after a rewind forks the history and says so', async () => {
  const { page, errors } = await openPage(browser, server.url);
  await page.getByText('ready 3/3').waitFor({ timeout: 20_000 });
  await page.getByTestId('speed-30').click();
  await page.waitForFunction(() => document.querySelector('[data-testid=clock]').innerText >= '0:30.0');
  await page.getByTestId('play').click();
  await scrubTo(page, 10_000);
  await page.getByRole('button', { name: 'Scale up Deployment web', exact: true }).click();
  assert.match(await page.getByTestId('forked').innerText(), /^history forked at 0:10\.0$/);
  assert.equal(await page.getByTestId('behind').count(), 0);
  assert.match(await page.getByTestId('ready-web').innerText(), /\/4$/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the timeline shows a lane per component and a click on a mark goes back to it', async () => {
  const { page, errors } = await openPage(browser, `${server.url}?views=timeline`);
  await page.getByText('ready 3/3').waitFor({ timeout: 20_000 });
  const name = await page.getByTestId('pod').first().getAttribute('aria-label');
  await page.getByRole('button', { name, exact: true }).click();
  await page.getByTestId('speed-5').click();
  // The scheduler's lane: the opening binds (one group at 0:00.7), then the replacement's.
  await page.getByTestId('lane-default-scheduler').locator('.mark').nth(1).waitFor({ timeout: 20_000 });
  await page.getByTestId('play').click();
  const lanes = await page.locator('[data-testid^=lane-]').evaluateAll((els) => els.map((e) => e.dataset.testid.replace('lane-', '')));
  assert.equal(lanes[0], 'kubectl');
  for (const w of ['deployment-controller', 'replicaset-controller', 'default-scheduler']) assert.ok(lanes.includes(w), lanes.join(','));
  assert.ok(lanes.some((w) => w.startsWith('kubelet/')), lanes.join(','));
  const del = page.getByTestId('lane-kubectl').locator('.mark.DELETED, .mark.MODIFIED').first();
  const label = await del.getAttribute('title');
  assert.match(label, /^\d+:\d\d\.\d kubectl · delete pod\/web-/);
  await page.getByTestId('timeline').screenshot({ path: shot('timeline.png') });
  await del.click();
  await page.getByTestId('behind').waitFor();
  assert.equal(await page.getByTestId('clock').innerText(), label.split(' ')[0]);
  assert.deepEqual(errors, []);
  await page.close();
});

test('six hundred nodes are one heat map: a click on a cell inspects that node', async () => {
  const { page, errors } = await openPage(browser, `${server.url}?views=board`);
  await page.getByTestId('ready-web').waitFor();
  const input = page.getByTestId('console-input');
  await input.fill('sim reset --nodes 600 --zones 3');
  await input.press('Enter');
  const map = page.getByTestId('heatmap');
  await map.waitFor({ timeout: 30_000 });
  assert.match(await map.getAttribute('aria-label'), /^600 nodes, 0 not Ready: click a cell \(or use the arrow keys and Enter\)/);
  assert.equal(await page.locator('.cell').count(), 0, 'no button per node');
  // The board draws 48 cards and says so.
  assert.equal(await page.locator('.nodecard').count(), 48);
  assert.match(await page.getByTestId('board-note').innerText(), /^Showing 48 of 600 nodes/);
  // Cells are 9 px with a 2 px gap, 100 to a row, nodes in natural name order (node-1,
  // node-2, node-3, …): the third cell of the first row is node-3.
  const box = await map.boundingBox();
  const scale = box.width / 1100;
  await map.click({ position: { x: (2 * 11 + 4) * scale, y: 4 * scale } });
  await page.getByTestId('inspector').waitFor({ timeout: 20_000 });
  assert.match(await page.getByTestId('inspector').locator('h2').first().innerText(), /^Node node-3 · Ready/);
  // The keyboard reaches every node too: focus, arrows, Enter.
  await map.focus();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowDown');
  // Cell 101 (second row, second column) in natural name order: node-102.
  const names = Array.from({ length: 600 }, (_, i) => `node-${i + 1}`);
  // Each key press re-renders the focus line: wait for the second one's.
  await page.getByTestId('heatmap-focus').filter({ hasText: new RegExp(`^${names[101]}: Ready, 0 of 110 Pods`) }).waitFor({ timeout: 10_000 });
  await page.keyboard.press('Enter');
  await page.waitForFunction((n) => document.querySelector('[data-testid="inspector"] h2')?.innerText.startsWith(`Node ${n} `), names[101], { timeout: 20_000 });
  await page.screenshot({ path: shot('heatmap-600.png'), fullPage: false });
  assert.deepEqual(errors, []);
  await page.close();
});

test('two thousand Pods switch the chain to counts and the page keeps answering', async () => {
  const { page, errors } = await openPage(browser, server.url);
  await page.getByTestId('ready-web').waitFor();
  const input = page.getByTestId('console-input');
  await input.fill('sim reset --nodes 20 --pods 110\nkubectl create deployment web --image=nginx:1.27 --replicas=2000');
  await input.press('Enter');
  await page.getByTestId('speed-30').click();
  await page.getByTestId('aggregated').waitFor({ timeout: 30_000 });
  assert.match(await page.locator('.aggnote').innerText(), /^\d+ Pods: the chain shows counts/);
  // 20 nodes × 110 Pods: all 2,000 fit; wait for them to be ready.
  await page.getByTestId('ready-web').filter({ hasText: 'ready 2000/2000' }).waitFor({ timeout: 120_000 });
  assert.equal(await page.locator('.cell').count(), 20);
  // Still responsive: scale down by one from the aggregated row, and a node cell opens the inspector.
  await page.getByRole('button', { name: 'Scale down Deployment web', exact: true }).click();
  await page.getByTestId('ready-web').filter({ hasText: '/1999' }).waitFor({ timeout: 20_000 });
  await page.getByRole('button', { name: 'Inspect Node node-7', exact: true }).click();
  await page.getByTestId('inspector').waitFor({ timeout: 20_000 });
  assert.match(await page.getByTestId('inspector').locator('h2').first().innerText(), /^Node node-7 · Ready/);
  await page.screenshot({ path: shot('aggregated-2000.png'), fullPage: false });
  assert.deepEqual(errors, []);
  await page.close();
});
