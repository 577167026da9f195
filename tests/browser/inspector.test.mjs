// The inspector: a stuck Pod shows where it is stuck and why; a node is drained from
// its panel (keyboard only), and its Pods are replaced elsewhere.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch, openPage, shot } from './harness.mjs';

let server, browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

async function type(page, text) {
  const input = page.getByTestId('console-input');
  await input.fill(text);
  await input.press('Enter');
}

test('a Pod whose image cannot be pulled is shown stuck at the image stage with the evidence', async () => {
  const { page, errors } = await openPage(browser, server.url);
  await type(page, 'sim image-fail api:typo\nkubectl create deployment api --image=api:typo');
  await page.getByTestId('speed-30').click();
  await page.locator('[data-testid=pod][data-status=ImagePullBackOff]').waitFor({ timeout: 20_000 });
  await page.getByTestId('play').click();
  const name = await page.locator('[data-testid=pod][data-status=ImagePullBackOff]').getAttribute('aria-label');
  await page.getByRole('button', { name: `Inspect ${name}`, exact: true }).click();
  const panel = page.getByTestId('inspector');
  await panel.waitFor();
  assert.equal(await panel.getByTestId('stuck-at').innerText(), 'Stuck at: image pulled');
  assert.equal(await panel.getByTestId('stage-scheduled').getAttribute('data-state'), 'done');
  assert.equal(await panel.getByTestId('stage-image').getAttribute('data-state'), 'stuck');
  assert.match(await panel.getByTestId('stage-image').innerText(), /ImagePullBackOff: Back-off pulling image "api:typo"/);
  assert.match(await panel.innerText(), /\(chosen\)/);
  await page.screenshot({ path: shot('inspector-pod.png'), fullPage: true });
  assert.deepEqual(errors, []);
  await page.close();
});

test('a node is drained from the inspector with the keyboard and its Pod is replaced elsewhere', async () => {
  const { page, errors } = await openPage(browser, server.url);
  await page.getByTestId('ready-web').waitFor();
  const inspect = page.getByRole('button', { name: 'Inspect Node node-2', exact: true });
  await inspect.focus();
  await page.keyboard.press('Enter');
  const drain = page.getByTestId('inspector').getByTestId('action-drain');
  await drain.focus();
  await page.keyboard.press('Enter');
  await page.getByTestId('speed-30').click();
  const entry = page.locator('[data-testid=console-output] .entry').filter({ hasText: 'kubectl drain node-2' });
  await entry.locator('.res').filter({ hasText: 'node/node-2 drained' }).waitFor({ timeout: 20_000 });
  const out = await entry.locator('.res').innerText();
  assert.match(out, /^node\/node-2 cordoned\nevicting pod default\/web-/);
  await page.locator('[data-testid=node][data-status="Ready,SchedulingDisabled"]').waitFor();
  await page.getByText('ready 3/3').waitFor({ timeout: 20_000 });
  const nodes = await page.getByTestId('pod').evaluateAll((els) => els.map((e) => e.innerText));
  assert.ok(nodes.every((t) => !t.includes('node node-2')), nodes.join('\n'));
  await page.screenshot({ path: shot('inspector-node-drained.png'), fullPage: true });
  assert.deepEqual(errors, []);
  await page.close();
});
