// The control plane's own parts in the page: etcd's members as chips in the
// control-plane view above the chain, its quorum lost and regained by clicks, kubectl's
// timeout in the console, and the etcd lessons played by clicking their steps — in
// English and Chinese.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch, openPage, shot, type, runStep, waitForGoals } from './harness.mjs';

let server, browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

test('clicking etcd members down loses the quorum, kubectl times out, and a click brings it back', async () => {
  const { page, errors } = await openPage(browser, `${server.url}?views=control-plane`);
  await page.getByTestId('ready-web').filter({ hasText: 'ready 3/3' }).waitFor({ timeout: 20000 });
  await page.getByTestId('etcd-members-3').click();
  const quorum = page.getByTestId('etcd-quorum');
  await quorum.filter({ hasText: '3 of 3 up · quorum 2' }).waitFor();
  // One member down: still a quorum, a scale lands.
  await page.getByTestId('etcd-etcd-1').click();
  await quorum.filter({ hasText: '2 of 3 up · quorum 2' }).waitFor();
  assert.equal(await page.getByTestId('etcd-no-quorum').count(), 0);
  await page.getByRole('button', { name: 'Scale up Deployment web' }).click();
  await page.getByTestId('ready-web').filter({ hasText: 'ready 4/4' }).waitFor({ timeout: 20000 });
  // A second one: no quorum; the banner says so and kubectl times out.
  await page.getByTestId('etcd-etcd-2').click();
  const banner = page.getByTestId('etcd-no-quorum');
  await banner.getByText(/etcd has lost its quorum for .*: 1 of 3 members up, 2 needed/).waitFor();
  await type(page, 'kubectl get pods');
  await page.getByTestId('console-output').getByText('Error from server: etcdserver: request timed out').first().waitFor();
  await page.getByRole('button', { name: 'Scale up Deployment web' }).click();
  // kubectl scale reads the Deployment first: without a quorum that read times out.
  await page.getByTestId('console-output').getByText('error: no objects passed to scale etcdserver: request timed out').waitFor();
  await page.getByTestId('play').click();
  await page.locator('.cpview').screenshot({ path: shot('chain-etcd-no-quorum-en.png') });
  await page.getByTestId('lang-zh').click();
  await banner.getByText(/etcd 已失去多数派/).waitFor();
  await page.locator('.cpview').screenshot({ path: shot('chain-etcd-no-quorum-zh.png') });
  await page.getByTestId('lang-en').click();
  await page.getByTestId('play').click();
  // Back: a member starts, the banner goes, and writes land again.
  await page.getByTestId('etcd-etcd-2').click();
  await banner.waitFor({ state: 'detached' });
  await page.getByRole('button', { name: 'Scale up Deployment web' }).click();
  await page.getByTestId('ready-web').filter({ hasText: 'ready 5/5' }).waitFor({ timeout: 30000 });
  assert.deepEqual(errors, []);
  await page.close();
});

test('clicking the controller manager\'s leader kills it: no leader, nothing scales, then a standby leads', async () => {
  const { page, errors } = await openPage(browser, `${server.url}?views=control-plane`);
  await page.getByTestId('ready-web').filter({ hasText: 'ready 3/3' }).waitFor({ timeout: 20000 });
  await page.getByTestId('leader-replicas-3').click();
  const kcm = page.getByTestId('leader-kube-controller-manager');
  await kcm.filter({ hasText: '★ control-plane-1' }).waitFor();
  await kcm.click();
  await kcm.filter({ hasText: /no leader for/ }).waitFor();
  await page.getByRole('button', { name: 'Scale up Deployment web' }).click();
  await page.locator('.cpview').screenshot({ path: shot('chain-leaderless-en.png') });
  // While nobody leads, the stored scale is not acted on.
  await page.waitForTimeout(1500);
  await page.getByTestId('ready-web').filter({ hasText: 'ready 3/4' }).waitFor();
  await kcm.filter({ hasText: /★ control-plane-\d/ }).waitFor({ timeout: 40000 });
  await page.getByTestId('ready-web').filter({ hasText: 'ready 4/4' }).waitFor({ timeout: 30000 });
  await type(page, 'kubectl get events -n kube-system');
  await page.getByTestId('console-output').getByText(/became leader/).first().waitFor();
  const events = await page.getByTestId('console-output').innerText();
  assert.equal((events.match(/became leader/g) || []).length, 3, events);
  await page.getByTestId('lang-zh').click();
  await page.getByTestId('leader-kube-scheduler').filter({ hasText: '★ control-plane-1' }).waitFor();
  await page.locator('.cpview').screenshot({ path: shot('chain-leader-zh.png') });
  assert.deepEqual(errors, []);
  await page.close();
});

test('three API servers: clicking the leader\'s own one down fails the controller manager over, kubectl keeps answering', async () => {
  const { page, errors } = await openPage(browser, `${server.url}?views=control-plane`);
  await page.getByTestId('ready-web').filter({ hasText: 'ready 3/3' }).waitFor({ timeout: 20000 });
  await page.getByTestId('leader-replicas-3').click();
  await page.getByTestId('apiserver-replicas-3').click();
  const kcm = page.getByTestId('leader-kube-controller-manager');
  await kcm.filter({ hasText: '★ control-plane-1' }).waitFor();
  const first = page.getByTestId('kube-apiserver-control-plane-1');
  await first.click();
  await page.locator('[data-testid="kube-apiserver-control-plane-1"][aria-pressed="true"]').waitFor();
  // kubectl goes through the load balancer: no outage banner, the scale is stored.
  assert.equal(await page.getByTestId('apiserver-down').count(), 0);
  await page.getByRole('button', { name: 'Scale up Deployment web' }).click();
  await kcm.filter({ hasText: /★ control-plane-[23]/ }).waitFor({ timeout: 60000 });
  await page.getByTestId('ready-web').filter({ hasText: 'ready 4/4' }).waitFor({ timeout: 30000 });
  await page.locator('.cpview').screenshot({ path: shot('chain-apiserver-ha-en.png') });
  await page.getByTestId('lang-zh').click();
  await page.locator('.cpview').screenshot({ path: shot('chain-apiserver-ha-zh.png') });
  assert.deepEqual(errors, []);
  await page.close();
});

test('the queue view: a broken watch misses a scale, 410 Gone relists it, and the Pods converge', async () => {
  const { page, errors } = await openPage(browser, `${server.url}?views=queues`);
  await page.getByTestId('ready-web').filter({ hasText: 'ready 3/3' }).waitFor({ timeout: 20000 });
  const row = page.getByTestId('queue-replicaset-controller');
  await row.and(page.locator('[data-broken="false"]')).waitFor();
  await page.getByTestId('break-gone-replicaset-controller').click();
  await row.and(page.locator('[data-broken="true"]')).waitFor();
  await page.getByRole('button', { name: 'Scale up Deployment web' }).click();
  await row.getByText(/broken since .* · [1-9]\d* missed/).waitFor({ timeout: 20000 });
  await page.getByTestId('queue-view').screenshot({ path: shot('queue-view-broken-en.png') });
  assert.equal(await page.getByTestId('ready-web').textContent(), 'ready 3/4');
  await row.and(page.locator('[data-relists="1"]')).waitFor({ timeout: 60000 });
  await row.getByTestId('rewatch').getByText(/410 Gone: too old resource version/).waitFor();
  await page.getByTestId('ready-web').filter({ hasText: 'ready 4/4' }).waitFor({ timeout: 30000 });
  await page.getByTestId('lang-zh').click();
  await page.getByTestId('queue-view').getByRole('heading', { name: /Informer 与工作队列/ }).waitFor();
  await page.getByTestId('queue-view').screenshot({ path: shot('queue-view-zh.png') });
  assert.deepEqual(errors, []);
  await page.close();
});

for (const [id, title, steps, goals] of [
  ['etcd-quorum-table', "etcd's quorum: how many members may fail", 9, 8],
  ['etcd-lost-quorum', 'notes-api: etcd loses its quorum, then gets it back', 6, 7],
  ['leader-killed', "The controller manager's leader is killed", 6, 7],
  ['watch-broke', 'A watch broke and the controller relisted', 5, 4],
  ['two-writers-one-field', 'Two writers, one field: server-side apply and its conflicts', 7, 4],
  ['three-replicas-one-node', 'Three replicas, one node: no N−1 margin', 6, 6],
  ['admission-mutates-and-refuses', 'Admission changes what you sent, or refuses it', 5, 4],
]) {
  test(`the ${id} lesson: clicking its steps ticks every goal`, async () => {
    const { page, errors } = await openPage(browser, `${server.url}?scenario=${id}&speed=30`);
    await page.getByTestId('lesson').getByRole('heading', { name: title }).waitFor();
    for (let i = 0; i < steps; i++) {
      await runStep(page, i);
      await page.waitForTimeout(1500);
    }
    await waitForGoals(page, `Goals: ${goals} of ${goals} reached`, 90_000);
    assert.deepEqual(errors, []);
    await page.close();
  });
}

test('the write-path lesson: each stage refuses, then a webhook of the learner\'s own code says no, times out and fails open', async () => {
  const { page, errors } = await openPage(browser, `${server.url}?scenario=write-path-refusals&speed=30`, { width: 1366, height: 900 });
  await page.getByTestId('lesson').getByRole('heading', { name: "The API server's write path: who refuses what" }).waitFor();
  for (let i = 0; i < 8; i++) {
    await runStep(page, i);
    await page.waitForTimeout(1500);
  }
  // The webhook's server is code: the learner reads it before it runs.
  await page.getByTestId('step-8').click();
  const consent = page.getByTestId('consent');
  await consent.waitFor();
  assert.match(await consent.innerText(), /This step runs code written in JavaScript \(a controller or a webhook server\)/);
  assert.match(await page.getByTestId('consent-code').innerText(), /function admit\(review\)/);
  await page.getByTestId('consent-run').click();
  const notes = page.getByTestId('request-webhooks');
  await page.getByTestId('request-status').getByText('admission webhook "image-policy.course.example.com" denied the request: image nginx names no version tag').waitFor({ timeout: 60_000 });
  await notes.getByText(/webhook image-policy\.course\.example\.com \(Fail\): denied, 403 \(pod image-policy-/).waitFor();
  await page.getByTestId('step-9').click();
  await consent.waitFor();
  await page.getByTestId('consent-run').click();
  await notes.getByText(/\(Fail\): no answer within 10s \(pod image-policy-/).waitFor({ timeout: 60_000 });
  await page.locator('.requests').screenshot({ path: shot('request-path-webhook-timeout.png') });
  await page.getByTestId('predict-10-1').check();
  await page.getByTestId('step-10').click();
  await page.getByTestId('predict-result-10').getByText(/✓/).waitFor({ timeout: 60_000 });
  await notes.getByText('audit annotation failed-open.validating.webhook.admission.k8s.io/round_0_index_0: image-policy.course.example.com').waitFor();
  await waitForGoals(page, 'Goals: 10 of 10 reached', 90_000);
  await page.screenshot({ path: shot('write-path-webhook-1366.png') });
  assert.deepEqual(errors, []);
  await page.close();
});

test('the etcd backup lesson in Chinese: predictions, every member\'s data lost, the restore, and the banner for a cut path', async () => {
  const { page, errors } = await openPage(browser, `${server.url}?scenario=etcd-backup-and-restore&lang=zh&speed=30`, { width: 1366, height: 900 });
  await page.getByTestId('lesson').getByRole('heading', { name: /etcd 不是缓存/ }).waitFor();
  // etcd's revision and size show once the lesson looks inside it, not before.
  const data = page.getByTestId('etcd-data');
  assert.equal(await data.count(), 0);
  for (let i = 0; i < 6; i++) {
    if (i === 1) await data.filter({ hasText: /修订版本 \d+ · \d/ }).waitFor();
    if (i === 2) await page.getByTestId('predict-2-1').check();
    if (i === 3) await page.getByTestId('predict-number-3').fill('2');
    await runStep(page, i);
    // A predict step's answer is checked when the step has run: wait for it.
    if (i === 2 || i === 3) await page.getByTestId(`predict-result-${i}`).getByText(/✓/).waitFor({ timeout: 60_000 });
    if (i === 4) {
      const cut = page.getByTestId('etcd-cut');
      await cut.getByText(/API Server 已有 .* 连不上 etcd/).waitFor({ timeout: 30_000 });
      await page.locator('.cpview').screenshot({ path: shot('chain-etcd-cut-zh.png') });
    }
    await page.waitForTimeout(1500);
  }
  await waitForGoals(page, '目标：已达成 6/6', 90_000);
  await page.getByTestId('etcd-cut').waitFor({ state: 'detached' });
  assert.deepEqual(errors, []);
  await page.close();
});

test('the what-etcd-holds lesson: keys, twenty rollouts that pile up, and a defragmentation that gives the room back', async () => {
  const { page, errors } = await openPage(browser, `${server.url}?scenario=what-etcd-holds&speed=30`);
  await page.getByTestId('lesson').getByRole('heading', { name: /What etcd holds/ }).waitFor();
  for (let i = 0; i < 6; i++) {
    if (i === 3) await page.getByTestId('predict-number-3').fill('21');
    await runStep(page, i);
    // The twenty rollouts take a while: the answer is checked when they are done.
    if (i === 3) await page.getByTestId('predict-result-3').getByText(/✓ as predicted/).waitFor({ timeout: 120_000 });
    await page.waitForTimeout(1500);
  }
  await waitForGoals(page, 'Goals: 5 of 5 reached', 120_000);
  const text = await page.getByTestId('etcd-data').innerText();
  const m = text.match(/rev \d+ · (.+) \((.+) in use\)/);
  assert.ok(m, text);
  assert.equal(m[1], m[2], `defragmented: the file is the size in use (${text})`);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the request path panel shows each stage, and a switch to alice shows the 403 at authorization', async () => {
  const { page, errors } = await openPage(browser, `${server.url}?views=requests`);
  await page.getByTestId('ready-web').filter({ hasText: 'ready 3/3' }).waitFor({ timeout: 20000 });
  const panel = page.getByTestId('request-path');
  await type(page, 'kubectl scale deployment web --replicas=4');
  const shown = panel.getByTestId('request-shown');
  await shown.and(page.locator('[data-code="200"]')).waitFor();
  assert.equal(await shown.getByTestId('stage-passed').count(), 6);
  await assert.doesNotReject(shown.getByText(/written at resourceVersion \d+/).waitFor());
  // As alice (no binding), the scale button is refused at authorization.
  await panel.getByTestId('context-select').selectOption('alice@kubeplay');
  await page.getByTestId('console-output').getByText('Switched to context "alice@kubeplay".').waitFor();
  await page.getByRole('button', { name: 'Scale up Deployment web' }).click();
  await page.getByTestId('console-output').getByText('error: no objects passed to scale deployments.apps "web" is forbidden: User "alice" cannot get resource "deployments" in API group "apps" in the namespace "default"').waitFor();
  await shown.and(page.locator('[data-code="403"]')).waitFor();
  const refused = shown.getByTestId('stage-refused');
  assert.equal(await refused.getAttribute('data-stage'), 'authorization');
  assert.equal(await shown.getByTestId('stage-unreached').count(), 4);
  await page.getByTestId('play').click();
  await panel.screenshot({ path: shot('request-path-403-en.png') });
  await page.getByTestId('lang-zh').click();
  await panel.getByText('请求路径').waitFor();
  await panel.screenshot({ path: shot('request-path-403-zh.png') });
  await page.getByTestId('lang-en').click();
  // An earlier request can be picked from the list.
  await panel.locator('ul.recent button').last().click();
  await shown.getByTestId('stage-refused').waitFor({ state: 'detached' });
  // Back as the admin, the next scale goes through every stage.
  await panel.getByTestId('context-select').selectOption('kubernetes-admin@kubeplay');
  await page.getByRole('button', { name: 'Scale up Deployment web' }).click();
  await page.getByTestId('ready-web').filter({ hasText: /ready \d\/5/ }).waitFor({ timeout: 20000 });
  assert.deepEqual(errors, []);
  await page.close();
});
