// Jobs, CronJobs, DaemonSets, StatefulSets and an autoscaler in the page: the chain draws CronJob → Job →
// Pod → Node, DaemonSet → a Pod per node and StatefulSet → its ordinal Pods, a Job's card counts completions and failures against
// its back-off limit, and the workload lessons are played by clicking their steps — in
// English and Chinese.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch, openPage, shot, type, runStep, waitForGoals } from './harness.mjs';

let server, browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

test('a CronJob draws its Jobs and their Pods in the chain, and a Job card reads Complete', async () => {
  const { page, errors } = await openPage(browser, `${server.url}?speed=60`);
  await page.getByTestId('ready-web').filter({ hasText: 'ready 3/3' }).waitFor({ timeout: 20000 });
  await type(page, "kubectl create cronjob tick --image=busybox:1.36 --schedule='*/1 * * * *' -- sh -c 'sleep 5'");
  await page.getByTestId('console-output').getByText('cronjob.batch/tick created').waitFor();
  await page.getByTestId('cronjob-tick').waitFor();
  // The first run at the next minute: a Job named after the minute, its Pod, then Complete.
  const job = page.locator('[data-testid^="job-tick-"]').first();
  await job.waitFor({ timeout: 60000 });
  await job.filter({ hasText: 'Job · Complete' }).waitFor({ timeout: 60000 });
  await job.getByText('completions 1/1').waitFor();
  assert.ok(await page.locator('[data-testid="pod"][data-status="Completed"]').count() >= 1);
  // Owner lines: CronJob → Job and Job → Pod are drawn.
  assert.ok(await page.locator('path.link.owner').count() >= 5);
  await page.getByTestId('play').click();
  await page.locator('section.chain').screenshot({ path: shot('chain-cronjob-en.png') });
  await page.getByTestId('lang-zh').click();
  await page.locator('[data-testid^="job-tick-"]').first().getByText('完成 1/1').waitFor();
  await page.locator('section.chain').screenshot({ path: shot('chain-cronjob-zh.png') });
  assert.deepEqual(errors, []);
  await page.close();
});

test('inspecting a Job shows kubectl describe job', async () => {
  const { page, errors } = await openPage(browser, `${server.url}?speed=30`);
  await page.getByTestId('ready-web').filter({ hasText: 'ready 3/3' }).waitFor({ timeout: 20000 });
  await type(page, "kubectl create job pi --image=perl:5.34 -- sh -c 'sleep 3'");
  await page.getByTestId('job-pi').filter({ hasText: 'Complete' }).waitFor({ timeout: 60000 });
  await page.getByRole('button', { name: 'Inspect Job pi' }).click();
  await page.getByTestId('tab-describe').click();
  await page.getByTestId('inspector-text').getByText(/Pods Statuses:\s+0 Active \(0 Ready\) \/ 1 Succeeded \/ 0 Failed/).waitFor();
  assert.deepEqual(errors, []);
  await page.close();
});

for (const [id, title, steps, goals] of [
  ['job-two-retry-layers', "A Job's two retry layers: OnFailure restarts, Never replaces", 2, 5],
  ['cronjob-forbid-skips', 'A CronJob with Forbid skips a run while the last one still runs', 2, 6],
  ['what-success-means', 'What each controller counts as success: replicas kept vs completions reached', 2, 5],
  ['daemonset-on-every-node', 'A DaemonSet covers every node: a new node gets its Pod, a drain and a dead node leave it', 4, 6],
  ['hpa-up-and-back-down', 'An autoscaler adds Pods under load at once, and removes them only after five quiet minutes', 5, 3],
  ['statefulset-at-most-one', 'A StatefulSet starts in order and never runs two of a Pod: a dead node\'s Pod waits for a force delete', 7, 6],
]) {
  test(`the ${id} lesson: clicking its steps ticks every goal`, async () => {
    const { page, errors } = await openPage(browser, `${server.url}?scenario=${id}&speed=30`);
    await page.getByTestId('lesson').getByRole('heading', { name: title }).waitFor();
    for (let i = 0; i < steps; i++) {
      await runStep(page, i);
      await page.waitForTimeout(3000);
      if (id === 'statefulset-at-most-one' && i === 2) {
        // Past the eviction timeout: the dead node's two Pods are Terminating.
        await page.waitForFunction(() => document.querySelectorAll('[data-testid="pod"][data-status="Terminating"]').length >= 2, null, { timeout: 60_000 });
        await page.getByTestId('statefulset-db').waitFor();
        await page.locator('section.chain').screenshot({ path: shot('chain-statefulset-stuck-en.png') });
      }
    }
    await waitForGoals(page, `Goals: ${goals} of ${goals} reached`, 120_000);
    if (id === 'daemonset-on-every-node') {
      await page.getByTestId('daemonset-log-agent').waitFor();
      await page.locator('section.chain').screenshot({ path: shot('chain-daemonset-en.png') });
      await page.getByTestId('lang-zh').click();
      await page.getByTestId('daemonset-log-agent').getByText('每个符合条件的节点一个 Pod').waitFor();
      await page.locator('section.chain').screenshot({ path: shot('chain-daemonset-zh.png') });
      // The node board marks the DaemonSet's Pod on each Ready node.
      const board = page.getByTestId('node-board');
      const tagged = await board.getByTestId('daemon-pod').evaluateAll((els) => els.map((e) => e.closest('[data-testid^="board-pod-"]').dataset.testid));
      assert.ok(tagged.length >= 3 && tagged.every((t) => t.startsWith('board-pod-log-agent-')), tagged.join(' '));
      await board.screenshot({ path: shot('node-board-daemonset-zh.png') });
    }
    if (id === 'hpa-up-and-back-down') {
      await page.getByTestId('hpa-web').getByText('HPA 0%/50%').waitFor();
      await page.locator('section.chain').screenshot({ path: shot('chain-hpa-en.png') });
    }
    if (id === 'statefulset-at-most-one') {
      await page.getByTestId('sts-ready-db').filter({ hasText: 'ready 3' }).waitFor();
      await page.getByTestId('statefulset-db').getByText('claims 3').waitFor();
      await page.locator('section.chain').screenshot({ path: shot('chain-statefulset-en.png') });
      await page.getByTestId('lang-zh').click();
      await page.getByTestId('statefulset-db').getByText('声明 3').waitFor();
      await page.locator('section.chain').screenshot({ path: shot('chain-statefulset-zh.png') });
      // Each ordinal's disk is listed on the node its Pod runs on, bound.
      const board = page.getByTestId('node-board');
      for (const i of [0, 1, 2]) {
        const disk = board.getByTestId(`board-volume-data-db-${i}`);
        await disk.waitFor();
        assert.equal(await disk.evaluate((e) => e.classList.contains('unbound')), false);
        assert.match(await disk.getAttribute('title'), new RegExp(`PersistentVolume pvc-[0-9a-f-]+ 已绑定到申领 data-db-${i}，由 Pod db-${i} 挂载`));
        const card = disk.locator('xpath=ancestor::article[1]');
        assert.equal(await card.getByTestId(`board-pod-db-${i}`).count(), 1);
      }
      await board.screenshot({ path: shot('node-board-volumes-zh.png') });
    }
    if (id === 'job-two-retry-layers') {
      await page.getByTestId('job-reindex-never').filter({ hasText: 'Job · Failed' }).waitFor();
      await page.locator('section.chain').screenshot({ path: shot('chain-job-retry-layers-en.png') });
    }
    assert.deepEqual(errors, []);
    await page.close();
  });
}
