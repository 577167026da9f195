// The console in the page: typed commands print kubectl's text, Tab completes,
// ↑ recalls, a heredoc applies a manifest, and clicks show up as their commands.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch, openPage, shot, type } from './harness.mjs';

let server, browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

const lastOutput = (page) => page.locator('[data-testid=console-output] .entry').last().locator('.res').innerText();

test('typing kubectl get pods prints the table with kubectl columns', async () => {
  const { page, errors } = await openPage(browser, server.url);
  await page.getByTestId('play').click(); // pause: the output below must not race the clock
  await type(page, 'kubectl get pods -o wide');
  const out = await lastOutput(page);
  const lines = out.trim().split('\n');
  assert.match(lines[0], /^NAME\s+READY\s+STATUS\s+RESTARTS\s+AGE\s+IP\s+NODE\s+NOMINATED NODE\s+READINESS GATES$/);
  assert.equal(lines.length, 4);
  // Columns stay aligned: STATUS starts at the same offset on every line.
  const col = lines[0].indexOf('STATUS');
  for (const l of lines.slice(1)) assert.equal(l.slice(col, col + 7), 'Running');
  await type(page, 'kubectl get widgets');
  assert.equal((await lastOutput(page)).trim(), 'error: the server doesn\'t have a resource type "widgets"');
  await page.screenshot({ path: shot('console.png'), fullPage: true });
  assert.deepEqual(errors, []);
  await page.close();
});

test('tab completes verbs and names and arrow up recalls the last command', async () => {
  const { page, errors } = await openPage(browser, server.url);
  const input = page.getByTestId('console-input');
  await input.fill('kubectl desc');
  await input.press('Tab');
  assert.equal(await input.inputValue(), 'kubectl describe ');
  await input.fill('kubectl cordon node-');
  await input.press('Tab');
  await page.getByTestId('console-hint').filter({ hasText: 'node-1  node-2  node-3' }).waitFor();
  await input.fill('kubectl cordon node-3');
  await input.press('Enter');
  assert.equal((await lastOutput(page)).trim(), 'node/node-3 cordoned');
  await page.locator('[data-testid=node][data-status="Ready,SchedulingDisabled"]').waitFor();
  await input.press('ArrowUp');
  assert.equal(await input.inputValue(), 'kubectl cordon node-3');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a heredoc applies a manifest and the chain shows the new Deployment', async () => {
  const { page, errors } = await openPage(browser, server.url);
  const manifest = [
    'kubectl apply -f - <<EOF',
    'apiVersion: apps/v1', 'kind: Deployment', 'metadata:', '  name: api', 'spec:', '  replicas: 2',
    '  selector:', '    matchLabels: {app: api}', '  template:', '    metadata:', '      labels: {app: api}',
    '    spec:', '      containers: [{name: api, image: "api:1.0"}]', 'EOF',
  ].join('\n');
  await type(page, manifest);
  assert.equal((await lastOutput(page)).trim(), 'deployment.apps/api created');
  await page.getByTestId('speed-30').click();
  await page.getByTestId('ready-api').filter({ hasText: 'ready 2/2' }).waitFor({ timeout: 15_000 });
  assert.deepEqual(errors, []);
  await page.close();
});

test('clicking a Pod runs kubectl delete and shows it in the console', async () => {
  const { page, errors } = await openPage(browser, server.url);
  const pod = page.getByRole('button', { name: /^Pod web-/ }).first();
  const label = await pod.getAttribute('aria-label');
  await pod.click();
  const entry = page.locator('[data-testid=console-output] .entry').last();
  assert.equal(await entry.locator('.cmd').innerText(), `$ kubectl delete pod ${label.slice(4)} --wait=false`);
  assert.equal((await entry.locator('.res').innerText()).trim(), `pod "${label.slice(4)}" deleted`);
  assert.deepEqual(errors, []);
  await page.close();
});

test('rollout status prints its progress as the clock plays and ends when the rollout does', async () => {
  const { page, errors } = await openPage(browser, server.url);
  await type(page, 'kubectl set image deployment/web nginx=nginx:1.28');
  assert.equal((await lastOutput(page)).trim(), 'deployment.apps/web image updated');
  await type(page, 'kubectl rollout status deployment/web');
  // Still waiting right after Enter: the rollout has not happened yet.
  await page.getByTestId('console-waiting').waitFor();
  const early = await lastOutput(page);
  assert.ok(!early.includes('successfully rolled out'), early);
  await page.getByTestId('speed-30').click();
  await page.getByTestId('console-waiting').waitFor({ state: 'detached', timeout: 20_000 });
  const out = (await lastOutput(page)).trim().split('\n');
  assert.ok(out.length >= 3, out.join('\n'));
  assert.match(out[0], /^Waiting for deployment /);
  assert.equal(out.at(-1), 'deployment "web" successfully rolled out');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a wait on a paused clock says so and Esc stops it', async () => {
  const { page, errors } = await openPage(browser, server.url);
  await page.getByTestId('play').click();
  await type(page, 'kubectl wait --for=delete node/node-1 --timeout=5m');
  await page.getByTestId('console-waiting').filter({ hasText: 'the clock is paused' }).waitFor();
  await page.getByTestId('console-input').press('Escape');
  await page.getByTestId('console-waiting').waitFor({ state: 'detached' });
  assert.equal((await lastOutput(page)).trim(), '^C');
  assert.deepEqual(errors, []);
  await page.close();
});
