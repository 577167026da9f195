// The why-trace, keyboard-only deletion, the speed range, change cues and PNG export.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { serve, launch, openPage, shot, pauseWithPodIn } from './harness.mjs';

let server, browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

const podNames = (page) => page.getByRole('button', { name: /^Pod web-/ })
  .evaluateAll((els) => els.map((e) => e.getAttribute('aria-label').slice(4)));

test('a Pod deleted with the keyboard alone is replaced, and the replacement\'s Why tab traces it back to the deletion', async () => {
  const { page, errors } = await openPage(browser, server.url);
  await page.getByText('ready 3/3').waitFor({ timeout: 20_000 });
  const before = await podNames(page);
  const victim = before[0];
  // Keyboard only: Tab to the Pod card, Enter deletes it.
  await page.getByRole('button', { name: `Pod ${victim}`, exact: true }).focus();
  await page.keyboard.press('Enter');
  await page.getByTestId('last-command').filter({ hasText: `kubectl delete pod ${victim}` }).waitFor();
  await page.getByTestId('speed-30').click();
  // Wait for a Ready Pod that was not there before (ready 3/3 alone may be read before
  // the deletion shows).
  await page.waitForFunction((old) => [...document.querySelectorAll('[data-testid=pod].ready')]
    .some((e) => !old.includes(e.getAttribute('aria-label').slice(4))), before, { timeout: 20_000 });
  await page.getByText('ready 3/3').waitFor({ timeout: 20_000 });
  const fresh = (await podNames(page)).find((n) => !before.includes(n));
  assert.ok(fresh, 'a replacement');
  await page.getByRole('button', { name: `Inspect Pod ${fresh}`, exact: true }).focus();
  await page.keyboard.press('Enter');
  await page.getByTestId('tab-why').focus();
  await page.keyboard.press('Enter');
  const why = page.getByTestId('why');
  await why.waitFor();
  const causes = await why.locator('.cause').evaluateAll((els) => els.map((e) => ({ depth: e.dataset.depth, text: e.innerText.replace(/\s+/g, ' ') })));
  assert.match(causes[0].text, new RegExp(`kubectl deleted Pod ${victim}`), JSON.stringify(causes));
  assert.equal(causes[0].depth, '1');
  assert.match(causes[1].text, new RegExp(`replicaset-controller saw 2 of 3 Pods for ReplicaSet web-\\w+ and created Pod ${fresh}`));
  assert.ok(causes.some((c) => /default-scheduler filtered 3 nodes \(\d feasible\) and bound it to node-\d/.test(c.text)), JSON.stringify(causes));
  assert.ok(causes.some((c) => /readiness passed/.test(c.text)));
  assert.match(causes.at(-1).text, /counts it: ready 3\/3/);
  await page.getByTestId('play').click();
  await page.screenshot({ path: shot('why-en.png'), fullPage: true });
  // The same trace in Chinese (names and Kubernetes' words unchanged).
  await page.getByTestId('lang-zh').click();
  const zh = await why.innerText();
  assert.match(zh, new RegExp(`删除了 Pod ${victim}`));
  assert.match(zh, /看到 2\/3 个 Pod/);
  await page.screenshot({ path: shot('why-zh.png'), fullPage: true });
  assert.deepEqual(errors, []);
  await page.close();
});

test('a Deployment opens on its trace; a stuck Pod\'s trace ends where it is stuck', async () => {
  const { page, errors } = await openPage(browser, server.url);
  const input = page.getByTestId('console-input');
  await input.fill('kubectl set image deployment/web nginx=nginx:nope\nsim image-fail nginx:nope');
  await input.press('Enter');
  await page.getByTestId('speed-30').click();
  const backOff = await pauseWithPodIn(page, 'ImagePullBackOff');
  await page.getByRole('button', { name: 'Inspect Deployment web', exact: true }).click();
  const why = page.getByTestId('why');
  await why.waitFor();
  assert.equal(await page.getByTestId('tab-why').getAttribute('aria-selected'), 'true');
  const text = await why.innerText();
  assert.match(text, /kubectl\s+created Deployment web/);
  assert.match(text, /kubectl\s+image: nginx:1\.27 → nginx:nope/);
  assert.match(text, /ScalingReplicaSet: Scaled up replica set web-\w+ from 0 to 1/);
  const stuck = await backOff.first().getAttribute('aria-label');
  await page.getByRole('button', { name: `Inspect ${stuck}`, exact: true }).click();
  await page.getByTestId('tab-why').click();
  const last = why.getByTestId('why-stuck');
  await last.waitFor();
  assert.match(await last.innerText(), /Stuck at: image pulled[\s\S]*ImagePullBackOff/);
  await page.screenshot({ path: shot('why-stuck.png'), fullPage: true });
  assert.deepEqual(errors, []);
  await page.close();
});

test('speeds run from half to sixty times real time', async () => {
  const { page, errors } = await openPage(browser, server.url);
  await page.getByText('ready 3/3').waitFor({ timeout: 20_000 });
  const labels = await page.locator('.speeds button').evaluateAll((els) => els.map((e) => e.innerText));
  assert.deepEqual(labels, ['0.5×', '1×', '5×', '30×', '60×']);
  const clock = async () => {
    const [m, s] = (await page.getByTestId('clock').innerText()).split(':');
    return Number(m) * 60 + Number(s);
  };
  await page.getByTestId('speed-60').click();
  assert.equal(await page.getByTestId('speed-60').getAttribute('aria-pressed'), 'true');
  const t0 = await clock();
  await page.waitForTimeout(1000);
  const fast = (await clock()) - t0;
  await page.getByTestId('speed-0.5').click();
  const t1 = await clock();
  await page.waitForTimeout(1000);
  const slow = (await clock()) - t1;
  assert.ok(fast > 30, `60× moved ${fast}s in a second`);
  assert.ok(slow > 0.2 && slow < 1, `0.5× moved ${slow}s in a second`);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a new Pod card fades in and a written card pulses, then both settle even while paused', async () => {
  const { page, errors } = await openPage(browser, server.url);
  await page.getByText('ready 3/3').waitFor({ timeout: 20_000 });
  await page.getByTestId('play').click();
  const input = page.getByTestId('console-input');
  await input.fill('kubectl scale deployment web --replicas=4');
  await input.press('Enter');
  // Step until the ReplicaSet controller creates the fourth Pod: it is fresh in that frame.
  let seen = false;
  for (let i = 0; i < 10 && !seen; i++) {
    await page.getByTestId('step').click();
    seen = await page.locator('[data-testid=pod].fresh').waitFor({ timeout: 250 }).then(() => true, () => false);
  }
  assert.ok(seen, 'the new Pod card is marked fresh in the frame it appears');
  // Paused: no new frame comes, and the cue still goes away by itself.
  await page.locator('.card.fresh, .card.changed').first().waitFor({ state: 'detached', timeout: 2_000 });
  assert.equal(await page.locator('.card.fresh, .card.changed').count(), 0);
  // The next step writes the Pod (bound): it pulses.
  await page.getByTestId('step').click();
  await page.locator('.card.changed').first().waitFor({ timeout: 1_000 });
  assert.deepEqual(errors, []);
  await page.close();
});

test('the chain downloads as a PNG picture', async () => {
  const { page, errors } = await openPage(browser, server.url);
  await page.getByText('ready 3/3').waitFor({ timeout: 20_000 });
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByTestId('export-png').click(),
  ]);
  assert.equal(download.suggestedFilename(), 'kubeplay-chain.png');
  const file = await download.path();
  await download.saveAs(shot('chain.png'));
  const png = fs.readFileSync(file);
  assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  // IHDR: width and height (twice the SVG's size).
  const w = png.readUInt32BE(16), h = png.readUInt32BE(20);
  assert.ok(w > 1000 && h > 300, `${w}×${h}`);
  assert.ok(png.length > 20_000, `${png.length} bytes: not a blank canvas`);
  assert.deepEqual(errors, []);
  await page.close();
});
