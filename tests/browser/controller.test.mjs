// The learner's own controller in the page: written in the controller view, run in the
// sandbox (fetched only then), converging a custom resource; an endless loop stopped by
// its budget while the page keeps working; and a share link that carries a controller
// shows its code and runs it only when the learner chooses to.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch, openPage, openView, shot, type } from './harness.mjs';

let server, browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

/** Requests for the sandbox's files, as the page makes them. */
function sandboxRequests(page) {
  const seen = [];
  page.on('request', (r) => { if (/kubeplay-sandbox/.test(r.url())) seen.push(r.url()); });
  return seen;
}

const lastOutput = (page) => page.locator('[data-testid=console-output] .entry').last().locator('.res').innerText();

/** What `kubectl get podsets` prints now. */
async function podsets(page) {
  await type(page, 'kubectl get podsets');
  return lastOutput(page);
}

test('a controller written in the page converges a PodSet, and the sandbox loads only then', async () => {
  const { page, errors } = await openPage(browser, `${server.url}?lang=en`, { width: 1366, height: 900 });
  const fetched = sandboxRequests(page);
  await openView(page, 'controller');
  const view = page.getByTestId('my-controller');
  await view.waitFor();
  await page.getByTestId('mc-example').click();
  await page.getByTestId('speed-30').click();
  assert.deepEqual(fetched, [], 'nothing of the sandbox before a controller runs');
  // The learner's code: the course's loop, with one line of their own.
  const editor = page.getByTestId('mc-editor');
  const code = await editor.inputValue();
  assert.match(code, /function reconcile\(request, client\)/);
  const mine = code.replace('const action = reconcile_step(desired, observed);', 'const action = reconcile_step(desired, observed);\n  console.log("desired", desired, "observed", observed);');
  assert.notEqual(mine, code);
  await editor.fill(mine);
  await page.getByTestId('mc-run').click();
  await page.locator('[data-testid=mc-status][data-state=running]').waitFor({ timeout: 20_000 });
  assert.ok(fetched.some((u) => u.endsWith('kubeplay-sandbox_bg.wasm')), `the sandbox was fetched: ${fetched}`);
  await page.getByTestId('mc-logs').filter({ hasText: 'desired 3 observed 3' }).waitFor({ timeout: 30_000 });
  const got = await podsets(page);
  assert.match(got, /web\s+3\s+3\s+in-sync/);
  // Its Role is on show, and the console shows the command the button ran.
  assert.match(await page.getByTestId('mc-role').innerText(), /pods: get, list, watch, create, update, patch, delete/);
  await view.screenshot({ path: shot('controller-converged-en.png') });
  assert.deepEqual(errors, []);
  await page.close();
});

test('an endless loop is stopped by its budget, and the page keeps working', async () => {
  const { page, errors } = await openPage(browser, `${server.url}?lang=zh&views=controller`, { width: 1366, height: 900 });
  await page.getByTestId('mc-example').click();
  await page.getByTestId('mc-editor').fill('function reconcile(request, client) {\n  while (true) {}\n}\n');
  await page.getByTestId('speed-30').click();
  await page.getByTestId('mc-run').click();
  await page.locator('[data-testid=mc-status][data-state=failing]').waitFor({ timeout: 20_000 });
  assert.match(await page.getByTestId('mc-error').innerText(), /used its whole budget \(100 ticks/);
  // The clock goes on and the page answers: a command runs, a click pauses the loop.
  await type(page, 'sim time');
  await type(page, 'kubectl get pods');
  await page.getByTestId('mc-pause').click();
  await page.locator('[data-testid=mc-status][data-state=paused]').waitFor();
  // Back-off: a minute of simulated failures is a handful of tries, not thousands.
  const calls = await page.getByTestId('mc-calls').innerText();
  const n = Number(calls.match(/(\d+)/)[1]);
  assert.ok(n >= 1 && n <= 20, calls);
  await page.getByTestId('my-controller').screenshot({ path: shot('controller-failing-zh.png') });
  assert.deepEqual(errors, []);
  await page.close();
});

test('a shared link with a controller shows its code and replays the same world once the learner agrees', async () => {
  const { page, errors } = await openPage(browser, `${server.url}?lang=en&views=controller`, { width: 1366, height: 900 });
  await page.getByTestId('mc-example').click();
  await page.getByTestId('speed-30').click();
  await page.getByTestId('mc-run').click();
  await page.locator('[data-testid=mc-status][data-state=running]').waitFor({ timeout: 20_000 });
  await type(page, 'sim settle');
  await page.getByTestId('console-waiting').waitFor({ state: 'detached', timeout: 30_000 });
  const before = await podsets(page);
  assert.match(before, /web\s+3\s+3\s+in-sync/);
  await page.getByTestId('play').click();
  await type(page, 'kubectl get pods -o name');
  const pods = await lastOutput(page);
  await page.getByTestId('share').click();
  const link = await page.evaluate(() => location.href);
  await page.close();

  const second = await openPage(browser, link, { width: 1366, height: 900 });
  const fetched = sandboxRequests(second.page);
  const consent = second.page.getByTestId('consent');
  await consent.waitFor();
  assert.match(await second.page.getByTestId('consent-code').innerText(), /function reconcile\(request, client\)/);
  await second.page.waitForTimeout(300);
  assert.deepEqual(fetched, [], 'nothing runs before the learner chooses to');
  await consent.screenshot({ path: shot('controller-consent-en.png') });
  await second.page.getByTestId('consent-run').click();
  await second.page.getByTestId('replay').waitFor({ state: 'detached', timeout: 30_000 });
  await type(second.page, 'kubectl get pods -o name');
  assert.equal(await lastOutput(second.page), pods);
  assert.deepEqual(second.errors, []);
  assert.deepEqual(errors, []);
  await second.page.close();
});

test('the write-the-loop lesson in Chinese shows its controller before the step runs it, and its goal ticks', async () => {
  const { page, errors } = await openPage(browser, `${server.url}?scenario=write-the-loop&lang=zh&speed=30`, { width: 1366, height: 900 });
  const fetched = sandboxRequests(page);
  await page.getByTestId('my-controller').waitFor();
  await page.getByTestId('predict-number-0').fill('0');
  await page.getByTestId('step-0').click();
  await page.getByTestId('predict-result-0').waitFor({ timeout: 30_000 });
  await page.getByTestId('predict-number-1').fill('3');
  await page.getByTestId('step-1').click();
  const consent = page.getByTestId('consent');
  await consent.waitFor();
  assert.match(await consent.innerText(), /这一步会运行一段用 JavaScript 写的代码（控制器或 Webhook 服务）/);
  assert.match(await page.getByTestId('consent-code').innerText(), /function reconcile_step\(desired, observed\)/);
  assert.deepEqual(fetched, [], 'nothing of the sandbox before the learner agrees');
  await page.getByTestId('consent-run').click();
  await page.locator('[data-testid=goal-0][data-reached=true]').waitFor({ timeout: 30_000 });
  await page.getByTestId('predict-result-1').waitFor({ timeout: 30_000 });
  assert.match(await page.getByTestId('mc-logs').innerText(), /desired=3 observed=0 action=create-one-pod/);
  // The editor shows the code that runs: the lesson's, ready to change and reload.
  assert.match(await page.getByTestId('mc-editor').inputValue(), /function reconcile_step\(desired, observed\)/);
  await page.screenshot({ path: shot('controller-lesson-zh.png') });
  assert.deepEqual(errors, []);
  await page.close();
});
