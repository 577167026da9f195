// The Services panel: opened from the Views menu, expose the Deployment, send traffic,
// watch a rollout's errors and the business card's duplicates while Ready stays 3/3 — in
// English and Chinese. The chain's Service card says as much as its room allows; its
// tooltips carry the full words.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch, openPage, shot, type, openView, runStep, waitForGoals } from './harness.mjs';

let server, browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

test('exposing web and sending traffic shows answered requests beside Ready 3/3', async () => {
  const { page, errors } = await openPage(browser, server.url);
  // No Service yet: the learner opens the view, which offers to expose the Deployment.
  assert.equal(await page.getByTestId('services').count(), 0);
  await openView(page, 'services');
  const panel = page.getByTestId('services');
  await panel.getByTestId('expose-web').click();
  const card = page.getByTestId('svc-web');
  await card.waitFor();
  await assert.doesNotReject(card.getByTestId('svc-endpoints').filter({ hasText: 'Endpoints: 3 ready, 0 not ready, 0 terminating' }).waitFor({ timeout: 20000 }));
  await card.getByTestId('svc-traffic-start').click();
  await card.getByTestId('svc-app').click();
  // Requests flow and are answered while the clock plays.
  await card.getByTestId('svc-traffic').filter({ hasText: /\d+ requests, \d+ answered, 0 failed/ }).waitFor({ timeout: 20000 });
  await assert.doesNotReject(card.getByText('deployment/web: Ready 3/3').waitFor());
  // A rollout restart: answers lost on stopping Pods, retried elsewhere, accepted twice.
  await page.getByTestId('speed-30').click();
  await type(page, 'kubectl rollout restart deployment/web');
  const twice = card.getByTestId('svc-business').locator('tr', { hasText: 'accepted twice' }).locator('td');
  await page.waitForFunction(
    (el) => Number(el.textContent) > 0,
    await twice.elementHandle(),
    { timeout: 60000 },
  );
  await page.getByTestId('play').click();
  await page.screenshot({ path: shot('services-en.png'), fullPage: true });
  await panel.screenshot({ path: shot('services-panel-en.png') });
  assert.deepEqual(errors, []);
  await page.close();
});

test('the Services panel speaks Chinese', async () => {
  const { page, errors } = await openPage(browser, `${server.url}?lang=zh&views=services`);
  await page.getByTestId('expose-web').click();
  const card = page.getByTestId('svc-web');
  await card.getByText('平台健康').waitFor();
  await card.getByTestId('svc-traffic-start').click();
  await card.getByText(/个请求，\d+ 个得到应答/).waitFor({ timeout: 20000 });
  await page.getByTestId('play').click();
  await page.screenshot({ path: shot('services-zh.png'), fullPage: true });
  assert.deepEqual(errors, []);
  await page.close();
});

test('the ready-is-not-stored lesson: clicking its steps ticks every goal while Ready stays 3/3', async () => {
  const { page, errors } = await openPage(browser, `${server.url}?scenario=ready-is-not-stored&speed=30`);
  const lesson = page.getByTestId('lesson');
  await lesson.getByRole('heading', { name: 'All Pods Ready, yet the message is not safely stored' }).waitFor();
  await page.getByTestId('step-1').click();
  await waitForGoals(page, 'Goals: 1 of 6 reached', 30_000);
  await page.getByTestId('step-2').click();
  await waitForGoals(page, 'Goals: 6 of 6 reached', 60_000);
  const card = page.getByTestId('svc-gateway');
  await card.getByText('deployment/gateway: Ready 3/3').waitFor();
  const twice = await card.getByTestId('svc-business').locator('tr', { hasText: 'accepted twice' }).locator('td').innerText();
  assert.ok(Number(twice) > 0, twice);
  await page.getByTestId('play').click();
  await page.getByTestId('lang-zh').click();
  await page.getByTestId('goals').getByText('目标：已达成 6/6').waitFor();
  await page.screenshot({ path: shot('lesson-ready-is-not-stored-zh.png'), fullPage: true });
  assert.deepEqual(errors, []);
  await page.close();
});

test('the chain puts the Service in front of its Pods: routes flow, then one fails when its node goes down', async () => {
  const { page, errors } = await openPage(browser, `${server.url}?views=timeline`);
  await type(page, 'kubectl expose deployment web --port 80');
  await type(page, 'sim traffic service/web --rps 20 --for 10m');
  const card = page.getByTestId('service-card-web');
  // The card's lines in the words that fit; their tooltips in full.
  const endpoints = (text) => card.locator(`.specstatus .status[title^="${text}"]`);
  await endpoints('endpoints 3 ready · 0 not ready · 0 terminating').waitFor({ timeout: 20000 });
  await card.getByText('3 ready', { exact: true }).waitFor();
  await page.waitForFunction(() => /^0 failed · \d+ answered in the last 3 s/.test(document.querySelector('[data-testid=service-traffic-web]')?.title ?? ''), null, { timeout: 20000 });
  await page.waitForFunction(() => document.querySelectorAll('path.link.route.ready.flow').length === 3, null, { timeout: 20000 });
  // The timeline has the users' lane beside the components'.
  await page.getByTestId('lane-traffic service/web').waitFor();
  await type(page, 'sim node down node-2');
  await page.waitForFunction(() => document.querySelectorAll('path.link.route.fail').length === 1, null, { timeout: 30000 });
  await card.getByTestId('service-traffic-web').filter({ hasText: /^[1-9]\d* failed/ }).waitFor();
  await page.getByTestId('play').click();
  await page.locator('section.chain').screenshot({ path: shot('chain-service-failing-en.png') });
  await page.getByTestId('play').click();
  // The node lifecycle controller marks node-2 NotReady: the route turns grey, the errors stop.
  await page.getByTestId('speed-30').click();
  await endpoints('endpoints 2 ready · 1 not ready · 0 terminating').waitFor({ timeout: 60000 });
  await card.getByText('2 ready · 1 not ready', { exact: true }).waitFor();
  await page.waitForFunction(() => document.querySelectorAll('path.link.route.notready').length === 1
    && document.querySelectorAll('path.link.route.fail').length === 0, null, { timeout: 30000 });
  await page.getByTestId('play').click();
  await page.getByTestId('lang-zh').click();
  await page.getByTestId('service-card-web').locator('.specstatus .status[title^="端点 2 就绪 · 1 未就绪 · 0 终止中"]').waitFor();
  await page.locator('section.chain').screenshot({ path: shot('chain-service-notready-zh.png') });
  assert.deepEqual(errors, []);
  await page.close();
});

test('the node-down-users-side lesson: clicking its steps ticks every goal', async () => {
  const { page, errors } = await openPage(browser, `${server.url}?scenario=node-down-users-side&speed=30`);
  await page.getByTestId('lesson').getByRole('heading', { name: 'A node dies: what the users meet while the Deployment looks healthy' }).waitFor();
  await page.getByTestId('step-0').click();
  await page.getByTestId('step-1').click();
  await waitForGoals(page, /Goals: [2-6] of 6 reached/, 60_000);
  await waitForGoals(page, 'Goals: 6 of 6 reached', 120_000);
  await page.getByTestId('play').click();
  await page.screenshot({ path: shot('lesson-node-down-users-side-en.png'), fullPage: true });
  assert.deepEqual(errors, []);
  await page.close();
});

test('the drain-keeps-serving lesson: clicking its steps ticks every goal, in Chinese too', async () => {
  const { page, errors } = await openPage(browser, `${server.url}?scenario=drain-keeps-serving&speed=30`);
  await page.getByTestId('lesson').getByRole('heading', { name: 'Draining a node while users keep being served' }).waitFor();
  await page.getByTestId('step-0').click();
  await page.waitForFunction(() => /^0 failed · [1-9]/.test(document.querySelector('[data-testid=service-traffic-careful]')?.title ?? ''), null, { timeout: 30_000 });
  await page.getByTestId('step-1').click();
  await waitForGoals(page, 'Goals: 5 of 5 reached', 120_000);
  await page.getByTestId('play').click();
  await page.getByTestId('lang-zh').click();
  await page.getByTestId('goals').getByText('目标：已达成 5/5').waitFor();
  await page.screenshot({ path: shot('lesson-drain-keeps-serving-zh.png'), fullPage: true });
  assert.deepEqual(errors, []);
  await page.close();
});

test('the business card switches the message API to a database behind another Service and back', async () => {
  const { page, errors } = await openPage(browser, server.url);
  await type(page, 'kubectl expose deployment web --port 80');
  await type(page, 'kubectl create deployment db --image=postgres:16');
  await type(page, 'kubectl expose deployment db --port 5432');
  const card = page.getByTestId('svc-web');
  await card.getByTestId('svc-traffic-start').click();
  await card.getByTestId('svc-app').click();
  await card.getByText('Messages kept in: memory').waitFor();
  await card.getByTestId('svc-store-db').click();
  await card.getByText('Messages kept in: service/db').waitFor();
  await assert.doesNotReject(page.getByTestId('console-output').getByText('sim app service/web --store service/db').first().waitFor());
  await card.getByTestId('svc-store-memory').click();
  await card.getByText('Messages kept in: memory').waitFor();
  assert.deepEqual(errors, []);
  await page.close();
});

test('stopping the API server refuses kubectl while the Service keeps answering; starting it again catches up', async () => {
  const { page, errors } = await openPage(browser, `${server.url}?views=control-plane`);
  await type(page, 'kubectl expose deployment web --port 80');
  await type(page, 'sim traffic service/web --rps 20 --for 10m');
  const traffic = page.getByTestId('service-traffic-web');
  const answered = () => page.waitForFunction(() => /^0 failed · [1-9]\d* answered/.test(document.querySelector('[data-testid=service-traffic-web]')?.title ?? ''), null, { timeout: 20000 });
  await answered();
  await page.getByTestId('apiserver-down-button').click();
  const banner = page.getByTestId('apiserver-down');
  await banner.getByText(/The API server is down \(since /).waitFor();
  // A click that needs the API server is refused as kubectl would be.
  await page.getByRole('button', { name: 'Scale up Deployment web' }).click();
  await page.getByTestId('console-output').getByText('The connection to the server 10.0.0.2:6443 was refused - did you specify the right host or port?').first().waitFor();
  assert.equal(await page.getByTestId('ready-web').innerText(), 'ready 3/3');
  // Users are still answered ten simulated seconds later.
  await page.getByTestId('speed-5').click();
  await page.waitForTimeout(2500);
  await answered();
  await page.getByTestId('play').click();
  await page.locator('section.chain').screenshot({ path: shot('chain-apiserver-down-en.png') });
  await page.getByTestId('lang-zh').click();
  await page.getByTestId('apiserver-down').getByText(/API Server 已停止/).waitFor();
  await page.locator('section.chain').screenshot({ path: shot('chain-apiserver-down-zh.png') });
  await page.getByTestId('lang-en').click();
  await page.getByTestId('play').click();
  await page.getByTestId('apiserver-up').click();
  await banner.waitFor({ state: 'detached' });
  await page.getByRole('button', { name: 'Scale up Deployment web' }).click();
  await page.getByTestId('ready-web').filter({ hasText: 'ready 4/4' }).waitFor({ timeout: 20000 });
  assert.deepEqual(errors, []);
  await page.close();
});

test('the control-plane-down lesson: clicking its steps ticks every goal', async () => {
  const { page, errors } = await openPage(browser, `${server.url}?scenario=control-plane-down&speed=30`);
  await page.getByTestId('lesson').getByRole('heading', { name: 'notes-api: the control plane is down, the data plane keeps serving' }).waitFor();
  for (const i of [0, 1, 2, 3, 4]) {
    await runStep(page, i);
    await page.waitForTimeout(1500);
  }
  await waitForGoals(page, 'Goals: 7 of 7 reached', 60_000);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the rollout-readiness-traffic lesson: clicking its steps ticks every goal', async () => {
  const { page, errors } = await openPage(browser, `${server.url}?scenario=rollout-readiness-traffic&speed=30`);
  await page.getByTestId('lesson').getByRole('heading', { name: 'A rollout seen by users: with and without a readiness probe' }).waitFor();
  await page.getByTestId('step-0').click();
  await page.waitForFunction(() => /^0 failed · [1-9]/.test(document.querySelector('[data-testid=service-traffic-probed]')?.title ?? ''), null, { timeout: 30_000 });
  await page.getByTestId('step-1').click();
  await waitForGoals(page, 'Goals: 5 of 5 reached', 120_000);
  // Both Services in front of their Pods; plain's users met errors, probed's none.
  await page.getByTestId('service-card-plain').waitFor();
  await page.getByTestId('play').click();
  await page.screenshot({ path: shot('lesson-rollout-readiness-traffic-en.png'), fullPage: true });
  assert.deepEqual(errors, []);
  await page.close();
});

test('devices hold their connections: each Pod shows how many, the business card counts them, a deleted Pod\'s devices reconnect elsewhere', async () => {
  const { page, errors } = await openPage(browser, `${server.url}?views=services,board`);
  const card = page.getByTestId('svc-web');
  await page.getByTestId('services').getByTestId('expose-web').click();
  await card.getByTestId('svc-app').click();
  await card.getByTestId('svc-devices').click();
  const devices = card.getByTestId('svc-devices-card');
  await devices.filter({ hasText: /100 \/ 100/ }).waitFor({ timeout: 20000 });
  const conns = page.getByTestId('pod-conns');
  await assert.doesNotReject(conns.nth(2).waitFor());
  const counts = (await conns.allTextContents()).map((t) => Number(t.replace(/\D/g, '')));
  assert.equal(counts.reduce((a, b) => a + b, 0), 100);
  // One Pod deleted: its devices are closed and reconnect to the others; the card counts them.
  await type(page, 'kubectl delete pod -l app=web --field-selector spec.nodeName=node-1 --wait=false');
  await devices.filter({ hasText: /reconnects \(failed attempts\)\s*[1-9]/ }).waitFor({ timeout: 30000 });
  await devices.filter({ hasText: /100 \/ 100/ }).waitFor({ timeout: 30000 });
  await page.screenshot({ path: shot('services-devices.png') });
  assert.deepEqual(errors, []);
});
