// Rolling out a new image by clicking: the old ReplicaSet drains while the new one
// fills, the history lists both revisions, and Roll back brings the old template back.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch, openPage, shot } from './harness.mjs';

let server, browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

const rsDesired = (page) => page.locator('[data-testid^=replicaset-]').evaluateAll((els) =>
  els.map((e) => ({ name: e.dataset.testid.slice('replicaset-'.length), text: e.innerText })));

test('set image rolls out a new ReplicaSet while the old one drains, and roll back restores it', async () => {
  const { page, errors } = await openPage(browser, `${server.url}?views=deployments`);
  await page.getByTestId('ready-web').waitFor();
  const [old] = await rsDesired(page);
  assert.equal(await page.getByTestId('image-web').inputValue(), 'nginx:1.28');
  await page.getByTestId('set-image-web').click();
  const entry = page.locator('[data-testid=console-output] .entry').last();
  assert.equal(await entry.locator('.cmd').innerText(), '$ kubectl set image deployment/web nginx=nginx:1.28');
  // Mid-rollout both ReplicaSets are on the chain side by side.
  await page.locator('[data-testid^=replicaset-]').nth(1).waitFor({ timeout: 10_000 });
  await page.screenshot({ path: shot('rollout-midway.png'), fullPage: true });
  await page.getByTestId('speed-30').click();
  await page.getByTestId(`replicaset-${old.name}`).filter({ hasText: 'desired 0' }).waitFor({ timeout: 20_000 });
  await page.getByText('ready 3/3').waitFor({ timeout: 20_000 });
  const revs = await page.getByTestId('revision').allInnerTexts();
  assert.equal(revs.length, 2);
  assert.match(revs[0], /^2 \(current\)\s+web-\w+\s+nginx:1\.28\s+3\/3/);
  await page.getByTestId('undo-web').click();
  await page.getByTestId(`replicaset-${old.name}`).filter({ hasText: 'desired 3' }).waitFor({ timeout: 20_000 });
  const after = await page.getByTestId('revision').allInnerTexts();
  assert.match(after[0], /^3 \(current\)\s+web-\w+\s+nginx:1\.27/);
  await page.screenshot({ path: shot('rollout-rolled-back.png'), fullPage: true });
  assert.deepEqual(errors, []);
  await page.close();
});

test('a broken image gets stuck after one new Pod while the old Pods keep serving', async () => {
  const { page, errors } = await openPage(browser, `${server.url}?views=deployments`);
  await page.getByTestId('ready-web').waitFor();
  await page.getByTestId('speed-30').click();
  await page.getByTestId('broken-image-web').click();
  await page.locator('[data-testid=pod][data-status=ImagePullBackOff]').waitFor({ timeout: 20_000 });
  assert.equal(await page.getByTestId('ready-web').innerText(), 'ready 3/3');
  await page.screenshot({ path: shot('rollout-stuck.png'), fullPage: true });
  assert.deepEqual(errors, []);
  await page.close();
});
