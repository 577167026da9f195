// The inspector: a stuck Pod shows where it is stuck and why; a node is drained from
// its panel (keyboard only), and its Pods are replaced elsewhere.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch, openPage, shot, type, pauseWithPodIn } from './harness.mjs';

let server, browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

test('a Pod whose image cannot be pulled is shown stuck at the image stage with the evidence', async () => {
  const { page, errors } = await openPage(browser, server.url);
  await type(page, 'sim image-fail api:typo\nkubectl create deployment api --image=api:typo');
  await page.getByTestId('speed-30').click();
  const backOff = await pauseWithPodIn(page, 'ImagePullBackOff');
  const name = await backOff.first().getAttribute('aria-label');
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

test('a high-priority Pod that does not fit preempts a lower one; the inspector shows the nomination and the scores', async () => {
  const { page, errors } = await openPage(browser, `${server.url}?views=events`);
  await page.getByTestId('ready-web').waitFor();
  // One more node from the column header: node-4 joins and takes part in scheduling.
  await page.getByTestId('add-node').click();
  await page.getByRole('button', { name: 'Node node-4', exact: true }).waitFor();
  // Fill every node's CPU with low-priority Pods, then ask for a critical one.
  await type(page, 'kubectl create priorityclass critical --value=1000');
  await type(page, [
    'kubectl apply -f - <<EOF',
    'apiVersion: apps/v1', 'kind: Deployment', 'metadata:', '  name: filler', 'spec:', '  replicas: 4',
    '  selector:', '    matchLabels:', '      app: filler', '  template:', '    metadata:', '      labels:', '        app: filler',
    '    spec:', '      containers:', '      - name: app', '        image: busybox:1.36', '        resources:', '          requests:', '            cpu: 3500m',
    'EOF',
  ].join('\n'));
  await page.getByTestId('speed-30').click();
  await page.getByText('ready 4/4').waitFor({ timeout: 20_000 });
  await page.getByTestId('speed-1').click();
  await type(page, [
    'kubectl apply -f - <<EOF',
    'apiVersion: v1', 'kind: Pod', 'metadata:', '  name: vip', 'spec:', '  priorityClassName: critical',
    '  containers:', '  - name: app', '    image: nginx:1.27', '    resources:', '      requests:', '        cpu: "2"',
    'EOF',
  ].join('\n'));
  await page.getByRole('button', { name: 'Inspect Pod vip', exact: true }).click();
  const panel = page.getByTestId('inspector');
  const scheduled = panel.getByTestId('stage-scheduled');
  await scheduled.filter({ hasText: /nominated to node-\d/ }).waitFor({ timeout: 10_000 });
  assert.equal(await scheduled.getAttribute('data-state'), 'current');
  assert.match(await scheduled.innerText(), /0\/4 nodes are available: 4 Insufficient cpu\./);
  await page.getByTestId('play').click();
  await page.screenshot({ path: shot('inspector-preemption.png'), fullPage: true });
  assert.match(await page.getByTestId('events').innerText(), /Preempted\s+pod\/filler-\S+\s+Preempted by pod [0-9a-f-]{36} on node node-\d/);
  await page.getByTestId('play').click();
  await page.getByTestId('speed-30').click();
  await page.locator('[data-testid=pod][data-status=Running][aria-label="Pod vip"]').waitFor({ timeout: 20_000 });
  // Once bound, the table shows the cycle that placed it, with each plugin's score.
  assert.match(await panel.innerText(), /\(chosen\)/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the node board shows a powered-off node going Unknown and its Pods counting down to eviction', async () => {
  const { page, errors } = await openPage(browser, `${server.url}?views=board`);
  await page.getByTestId('ready-web').waitFor();
  const card = page.getByTestId('board-node-3');
  await card.getByTestId('action-power').click();
  await card.getByText('powered off').waitFor();
  await page.getByTestId('speed-30').click();
  // After the 50 s grace period the node is NotReady, Ready=Unknown, tainted unreachable.
  await page.locator('[data-testid=board-node-3][data-status=NotReady]').waitFor({ timeout: 20_000 });
  await card.getByText(/Ready=Unknown · NodeStatusUnknown/).waitFor();
  await card.getByText(/node\.kubernetes\.io\/unreachable:NoExecute/).first().waitFor({ timeout: 10_000 });
  await page.getByTestId('play').click();
  // The default cluster spreads web's three Pods one per node: node-3's is counting down
  // (beside CoreDNS's, which the board shows too: it is on the node).
  const web = card.locator('.boardpod', { hasText: 'web-' });
  assert.equal(await web.count(), 1);
  assert.match(await web.locator('.countdown').innerText(), /^evicted in \d+s$/);
  // The node itself says how long its heartbeat has been missing.
  assert.match(await card.getByTestId('heartbeat').innerText(), /^no heartbeat for \d+ s$/);
  await page.getByTestId('node-board').screenshot({ path: shot('node-board.png') });
  assert.deepEqual(errors, []);
  await page.close();
});

test('the inspector shows the selected object as kubectl get -o yaml and kubectl describe', async () => {
  const { page, errors } = await openPage(browser, server.url);
  await page.getByTestId('ready-web').waitFor();
  const name = await page.getByTestId('pod').first().getAttribute('aria-label');
  await page.getByRole('button', { name: `Inspect ${name}`, exact: true }).click();
  const panel = page.getByTestId('inspector');
  await panel.getByTestId('tab-yaml').click();
  const yaml = await panel.getByTestId('inspector-text').innerText();
  assert.match(yaml, /^apiVersion: v1\nkind: Pod\nmetadata:/);
  assert.match(yaml, /ownerReferences:/);
  assert.match(yaml, /nodeName: node-\d/);
  await panel.getByTestId('tab-describe').click();
  const text = await panel.getByTestId('inspector-text').innerText();
  assert.match(text, new RegExp(`^Name:\\s+${name.replace('Pod ', '')}`));
  assert.match(text, /Controlled By:\s+ReplicaSet\/web-/);
  assert.match(text, /Events:[\s\S]*Scheduled[\s\S]*default-scheduler/);
  await page.screenshot({ path: shot('inspector-describe.png'), fullPage: false });
  await panel.getByTestId('tab-overview').click();
  await panel.getByTestId('stage-ready').waitFor();
  assert.deepEqual(errors, []);
  await page.close();
});
