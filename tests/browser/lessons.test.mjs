// Lessons (scenarios), share links and embedding: a scenario opens from ?scenario= and
// its goals tick as its step runs; a share link reopens the same world; an author's
// broken scenario is refused with its line; the demo course page drives an embedded
// lesson over postMessage (and a foreign origin is ignored); the iframe is sized by the
// resize handshake; dist/ works from a sub-path with the network blocked.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch, openPage, shot, type, runStep, waitForGoals } from './harness.mjs';
import LZString from 'lz-string';

let server, other, browser;
before(async () => { server = await serve(); other = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); await other?.close(); });

// The demo page asks for /favicon.ico, which a static dist/ does not have.
const real = (errors) => errors.filter((e) => !/favicon|status of 404/.test(e));

test('a lesson opens from ?scenario=, its step runs with a click and every goal ticks', async () => {
  const { page, errors } = await openPage(browser, `${server.url}?scenario=gateway-delete-pod&speed=5`);
  const lesson = page.getByTestId('lesson');
  await lesson.getByRole('heading', { name: 'Three gateway replicas: one Pod is deleted' }).waitFor();
  // The first step is a look (t0): nothing is reached by it, only by the deletion.
  await page.getByTestId('step-0').click();
  await page.getByTestId('last-command').filter({ hasText: 'kubectl get pods -l app=gateway -o wide' }).waitFor();
  await page.getByTestId('goals').getByText('Goals: 0 of 5 reached').waitFor();
  assert.equal(await page.getByTestId('goal-0').getAttribute('data-reached'), 'false');
  await page.getByTestId('step-1').click();
  await page.getByTestId('last-command').filter({ hasText: 'kubectl delete pods -l app=gateway --field-selector spec.nodeName=node-1 --wait=false' }).waitFor();
  await waitForGoals(page, 'Goals: 5 of 5 reached', 30_000);
  await page.screenshot({ path: shot('lesson-en.png') });
  await page.getByTestId('lang-zh').click();
  await page.getByTestId('goals').getByText('目标：已达成 5/5').waitFor();
  await page.screenshot({ path: shot('lesson-zh.png') });
  assert.deepEqual(errors, []);
  await page.close();
});

test('a share link reopens the same world, and it is what lz-string decodes', async () => {
  const { page, errors } = await openPage(browser, `${server.url}?scenario=gateway-delete-pod`);
  await page.getByTestId('speed-30').click();
  await page.getByTestId('step-1').click();
  await waitForGoals(page, 'Goals: 5 of 5 reached', 30_000);
  await page.getByTestId('play').click();
  await page.getByTestId('share').click();
  const url = await page.getByTestId('share-url').inputValue();
  assert.match(url, /#s=[A-Za-z0-9+\-$]+$/);
  const session = JSON.parse(LZString.decompressFromEncodedURIComponent(url.split('#s=')[1]));
  assert.equal(session.v, 1);
  assert.deepEqual(session.scenario, { id: 'gateway-delete-pod' });
  assert.ok(session.journal.some(([, a]) => a.r && a.r.startsWith('kubectl delete pods -l app=gateway')), JSON.stringify(session));
  const look = async (p) => ({
    clock: await p.getByTestId('clock').innerText(),
    pods: (await p.getByRole('button', { name: /^Pod / }).evaluateAll((els) => els.map((e) => e.innerText))).sort(),
    goals: await p.getByTestId('goals').innerText(),
  });
  const mine = await look(page);
  // Opened paused (autoplay=0), the link shows the shared moment itself.
  assert.match(url, /\?scenario=gateway-delete-pod#s=/);
  const { page: again, errors: errors2 } = await openPage(browser, url.replace('#s=', '&autoplay=0#s='));
  await again.getByTestId('goals').waitFor();
  // The page replays the session in slices a frame can afford: look once it is done.
  await again.getByTestId('replay').waitFor({ state: 'detached', timeout: 20_000 });
  assert.equal(await again.getByTestId('play').getAttribute('aria-pressed'), 'false');
  assert.deepEqual(await look(again), mine);
  assert.deepEqual([...errors, ...errors2], []);
  await page.close(); await again.close();
});

test('a broken scenario of the author\'s own is refused with its line; a good one loads', async () => {
  const { page, errors } = await openPage(browser, server.url);
  await page.getByText('Write your own scenario (YAML)').click();
  await page.getByTestId('own-yaml').fill('id: mine\ntitle: {en: Mine, zh: 我的}\ndescription: {en: d, zh: d}\ncluster:\n  nodes:\n    - {name: n1, cpus: 4}\n');
  await page.getByTestId('own-load').click();
  assert.match(await page.getByTestId('own-error').innerText(), /scenario\.yaml at line 6 column \d+: cluster\.nodes\[0\]|unknown field `cpus`/);
  await page.getByTestId('own-yaml').fill('id: mine\ntitle: {en: Mine, zh: 我的}\ndescription: {en: Two web Pods, zh: 两个 web Pod}\ncluster:\n  nodes: [{name: n1}, {name: n2}]\nsetup: |\n  kubectl create deployment web --image=nginx:1.27 --replicas=2\ngoals:\n  - label: {en: Two ready, zh: 两个就绪}\n    expect: deployment/web {.status.readyReplicas} == 2\n');
  await page.getByTestId('own-load').click();
  await page.getByTestId('lesson').getByRole('heading', { name: 'Mine' }).waitFor();
  await page.getByTestId('speed-30').click();
  await waitForGoals(page, 'Goals: 1 of 1 reached', 20_000);
  assert.equal(await page.getByTestId('own-error').count(), 0);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the demo course page drives an embedded lesson over postMessage and gets events, goals and converged', async () => {
  const { page, errors } = await openPage(browser, `${server.url}course-demo.html`);
  const frame = page.locator('#lesson1');
  await frame.and(page.locator('[data-kubeplay-ready="1"]')).waitFor({ timeout: 20_000 });
  // Resize handshake: embed.js set the iframe's height from the frame's own, up to
  // about one screen of the course page (90 % of its height); the rest scrolls inside,
  // and the button under the frame shows all of it.
  await page.waitForFunction(() => parseInt(document.getElementById('lesson1').style.height, 10) > 400, null, { timeout: 10_000 });
  const inner = await page.frameLocator('#lesson1').locator('html').evaluate((e) => e.scrollHeight);
  const outer = await frame.evaluate((f) => parseInt(f.style.height, 10));
  const cap = await page.evaluate(() => Math.max(480, Math.round(innerHeight * 0.9)));
  assert.ok(Math.abs(Math.min(inner, cap) - outer) <= 2, `iframe ${outer}px for content ${inner}px (one screen: ${cap}px)`);
  if (inner > cap) {
    const expand = page.locator('#lesson1 + [data-kubeplay-expand]');
    await expand.click();
    await page.waitForFunction((h) => Math.abs(parseInt(document.getElementById('lesson1').style.height, 10) - h) <= 2, inner);
    await expand.click();
    await page.waitForFunction((h) => parseInt(document.getElementById('lesson1').style.height, 10) <= h, cap);
  }
  await page.waitForFunction(() => window.kubeplayMessages.some((m) => m.type === 'converged'), null, { timeout: 20_000 });
  const before = await page.evaluate(() => window.kubeplayMessages.length);
  await page.click('#delete');
  await page.waitForFunction((n) => {
    const m = window.kubeplayMessages.slice(n);
    return m.some((x) => x.type === 'output' && x.id === 'delete-1' && x.ok)
      && m.some((x) => x.type === 'event' && x.reason === 'SuccessfulCreate')
      && m.some((x) => x.type === 'goal' && x.all)
      && m.some((x) => x.type === 'converged');
  }, before, { timeout: 30_000 });
  const out = await page.evaluate(() => window.kubeplayMessages.find((m) => m.type === 'output'));
  assert.match(out.output, /^pod "gateway-\w+-\w+" deleted\n$/);
  // The second lesson is embedded read-only: state, no controls.
  const ro = page.frameLocator('iframe[src*="readonly=1"]');
  await ro.getByTestId('node-board').waitFor();
  assert.equal(await ro.getByTestId('action-drain').count(), 0);
  assert.equal(await ro.getByTestId('add-node').count(), 0);
  assert.equal(await ro.getByTestId('console-input').count(), 0);
  assert.equal(await ro.locator('button[data-testid^=step-]').count(), 0);
  await page.screenshot({ path: shot('course-demo.png'), fullPage: true });
  assert.deepEqual(real(errors), []);
  await page.close();
});

test('commands from an origin not in allowOrigins are ignored; listing it lets them in', async () => {
  // The course page on one origin, the playground on another.
  const lesson = `${server.url}?embed=1&scenario=gateway-delete-pod&speed=30`;
  for (const [allow, obeyed] of [['', false], [`&allowOrigins=${encodeURIComponent(other.url.replace(/\/$/, ''))}`, true]]) {
    const { page, errors } = await openPage(browser, `${other.url}course-demo.html`);
    await page.evaluate((src) => {
      const f = document.getElementById('lesson1');
      f.removeAttribute('data-kubeplay-ready');
      f.src = src;
    }, lesson + allow);
    const frame = page.locator('#lesson1');
    await frame.and(page.locator('[data-kubeplay-ready="1"]')).waitFor({ timeout: 20_000 });
    // Events still reach the parent (they go to its origin), so wait for the start to settle.
    await page.waitForFunction(() => window.kubeplayMessages.some((m) => m.type === 'converged'), null, { timeout: 20_000 });
    const n = await page.evaluate(() => window.kubeplayMessages.length);
    await page.click('#delete');
    await page.waitForTimeout(3000);
    const got = await page.evaluate((k) => window.kubeplayMessages.slice(k), n);
    const replied = got.some((m) => m.type === 'output');
    const deleted = got.some((m) => m.type === 'event' && m.reason === 'Killing');
    assert.equal(replied, obeyed, JSON.stringify(got));
    assert.equal(deleted, obeyed, JSON.stringify(got));
    assert.deepEqual(real(errors), []);
    await page.close();
  }
});

test('dist/ served from a sub-path with the network blocked loads and runs', async () => {
  const sub = await serve('/courses/k8s/play');
  const ctx = await browser.newContext();
  const outside = [];
  await ctx.route('**/*', (route) => {
    const u = new URL(route.request().url());
    if (u.hostname === '127.0.0.1') return route.continue();
    outside.push(u.href);
    return route.abort();
  });
  const page = await ctx.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(`${sub.url}?scenario=replacement-pending&speed=60`);
  await waitForGoals(page, /Goals: 0 of 4 reached/, 20_000);
  await page.getByTestId('step-1').click();
  await waitForGoals(page, /Goals: 2 of 4 reached/, 30_000);
  assert.deepEqual(outside, []);
  assert.deepEqual(errors, []);
  await ctx.close();
  await sub.close();
});

test('a course page gets xAPI statements and a JSInput grade, and re-verifies the record in Node with the page module', async () => {
  const { loadVerifier } = await import('../../scripts/verify-record.mjs');
  const { dist } = await import('./harness.mjs');
  const { page, errors } = await openPage(browser, `${server.url}course-demo.html`);
  const frame = page.locator('#lesson1');
  await frame.and(page.locator('[data-kubeplay-ready="1"]')).waitFor({ timeout: 20_000 });
  await page.waitForFunction(() => window.kubeplayMessages.some((m) => m.type === 'converged'), null, { timeout: 20_000 });
  const launched = await page.evaluate(() => window.kubeplayMessages.find((m) => m.type === 'xapi'));
  assert.equal(launched.statement.verb.id, 'http://adlnet.gov/expapi/verbs/launched');
  assert.equal(launched.statement.object.id, 'urn:kubeplay:lesson:gateway-delete-pod');
  // Before the lesson is done, the grade says so.
  const early = JSON.parse(await frame.evaluate((f) => f.contentWindow.getGrade()));
  assert.equal(early.complete, false);
  await page.click('#delete');
  await page.waitForFunction(() => window.kubeplayMessages.some((m) => m.type === 'xapi' && m.statement.verb.display['en-US'] === 'passed'), null, { timeout: 30_000 });
  const verbs = await page.evaluate(() => window.kubeplayMessages.filter((m) => m.type === 'xapi').map((m) => m.statement.verb.display['en-US']));
  assert.ok(verbs.includes('progressed') && verbs.includes('completed'), verbs.join());
  const passed = await page.evaluate(() => window.kubeplayMessages.find((m) => m.type === 'xapi' && m.statement.verb.display['en-US'] === 'passed'));
  assert.equal(passed.statement.result.success, true);
  const fromXapi = passed.statement.result.extensions['urn:kubeplay:xapi:completion-record'];
  // JSInput, same origin: the functions on the frame's window.
  const grade = JSON.parse(await frame.evaluate((f) => f.contentWindow.getGrade()));
  assert.equal(grade.complete, true);
  assert.equal(grade.score, 1);
  const state = await frame.evaluate((f) => f.contentWindow.getState());
  assert.ok(state.length > 20);
  // And over postMessage, for a parent on another origin.
  await page.evaluate(() => {
    const f = document.getElementById('lesson1');
    f.contentWindow.postMessage({ kubeplay: 1, type: 'getGrade', id: 'g1' }, new URL(f.src).origin);
  });
  await page.waitForFunction(() => window.kubeplayMessages.some((m) => m.type === 'grade' && m.id === 'g1'), null, { timeout: 10_000 });
  // The server's side: the record verifies with the page's own module, and a forged one does not.
  const verify = await loadVerifier(dist);
  const verdict = verify(grade.record);
  assert.equal(verdict.passed, true, verdict.report);
  assert.equal(verify(JSON.stringify(fromXapi)).genuine, true);
  const forged = JSON.parse(grade.record);
  forged.goals[0] += 1;
  const refused = verify(JSON.stringify(forged));
  assert.equal(refused.passed, false);
  assert.match(refused.report, /REFUSED/);
  // The same check from a shell: exit 0 for the genuine record, 1 for the forgery.
  const { execFileSync, spawnSync } = await import('node:child_process');
  const os = await import('node:os');
  const fsm = await import('node:fs');
  const dir = fsm.mkdtempSync(`${os.tmpdir()}/kubeplay-record-`);
  fsm.writeFileSync(`${dir}/good.json`, grade.record);
  fsm.writeFileSync(`${dir}/forged.json`, JSON.stringify(forged));
  const script = new URL('../../scripts/verify-record.mjs', import.meta.url).pathname;
  assert.match(execFileSync('node', [script, `${dir}/good.json`, dist]).toString(), /PASSED\n$/);
  assert.equal(spawnSync('node', [script, `${dir}/forged.json`, dist]).status, 1);
  // setState restores the session: the same grade.
  assert.equal(await frame.evaluate((f, s) => f.contentWindow.setState(s), state), true);
  const again = JSON.parse(await frame.evaluate((f) => f.contentWindow.getGrade()));
  assert.equal(again.complete, true);
  assert.deepEqual(real(errors), []);
  await page.close();
});

test('a predict-then-run step asks first, then shows the prediction beside what happened with the Events', async () => {
  const { page, errors } = await openPage(browser, `${server.url}?scenario=predict-the-gateway-story&speed=5&slowmo=0`);
  const run0 = page.getByTestId('step-0');
  await run0.waitFor();
  // No guess, no run.
  assert.equal(await run0.isDisabled(), true);
  await page.getByTestId('predict-number-0').fill('3');
  await run0.click();
  const r0 = page.getByTestId('predict-result-0');
  await r0.getByText('Your prediction: 3').waitFor();
  await r0.getByText(/What happened: 2 \(at [\d:.]+\)/).waitFor({ timeout: 20_000 });
  assert.match(await r0.textContent(), /not as predicted/);
  assert.match(await r0.textContent(), /Evidence \(Events since the step\): .*SuccessfulCreate/);
  // A choice question, answered right.
  await page.getByTestId('predict-2-2').check();
  await page.getByTestId('step-2').click();
  const r2 = page.getByTestId('predict-result-2');
  await r2.getByText(/What happened: Ready drops to 2/).waitFor({ timeout: 60_000 });
  assert.match(await r2.textContent(), /✓ as predicted/);
  assert.match(await r2.textContent(), /Unhealthy/);
  await page.screenshot({ path: shot('predict-en.png') });
  assert.deepEqual(real(errors), []);
  await page.close();
});

test('a step shows the commands that ran, never a placeholder, counts its wait down with an offer to speed up, then shows its look', async () => {
  const { page, errors } = await openPage(browser, `${server.url}?scenario=notes-api-node-down`);
  await page.getByTestId('step-1').waitFor();
  const shown = await page.locator('[data-testid^=lesson-cmd-]').allInnerTexts();
  assert.ok(shown.length >= 3, JSON.stringify(shown));
  for (const c of shown) assert.doesNotMatch(c, /\{(pod|newest-pod|node-of|rs):/, c);
  // Before it runs, the step names the node a Run would power off.
  const before = await page.getByTestId('lesson-cmd-1').innerText();
  assert.match(before, /^sim node down node-\d$/);
  await page.getByTestId('step-1').click();
  assert.equal(await page.getByTestId('lesson-cmd-1').innerText(), before, 'the command that ran');
  const wait = page.getByTestId('lesson-wait-1');
  await wait.getByText(/Its point takes time: [\d:.]+ of simulated time left/).waitFor();
  await page.screenshot({ path: shot('lesson-step-wait.png') });
  await page.getByTestId('lesson-speed-up-1').click();
  const look = page.getByTestId('lesson-look-1');
  await look.waitFor({ timeout: 40_000 });
  assert.equal(await wait.count(), 0, 'the countdown is gone once the wait is over');
  const text = await look.innerText();
  assert.match(text, /\$ kubectl get nodes\n/);
  assert.match(text, /NotReady/);
  assert.match(text, /Kubelet stopped posting node status/);
  assert.doesNotMatch(text, /\{(pod|newest-pod|node-of|rs):/);
  await page.screenshot({ path: shot('lesson-step-look.png') });
  assert.deepEqual(real(errors), []);
  await page.close();
});

test('writing a session as a lesson fills the editor with a scenario that loads and whose steps reach its goals', async () => {
  const { page, errors } = await openPage(browser, `${server.url}?speed=30`);
  await page.getByTestId('pod').first().waitFor();
  await type(page, 'kubectl scale deployment web --replicas=5');
  await page.getByTestId('ready-web').getByText('5/5').waitFor({ timeout: 30_000 }).catch(() => {});
  await page.waitForTimeout(1500);
  await page.locator('details.own summary').click();
  await page.getByTestId('own-record').click();
  const yaml = await page.getByTestId('own-yaml').inputValue();
  assert.match(yaml, /^id: my-lesson\n/);
  assert.match(yaml, /command: \|\n      kubectl scale deployment web --replicas=5\n/);
  assert.match(yaml, /deployment\/web \{\.status\.readyReplicas\} == 5/);
  await page.getByTestId('own-load').click();
  await page.getByRole('heading', { name: 'My lesson' }).waitFor();
  await page.getByTestId('step-0').click();
  await waitForGoals(page, /Goals: (\d+) of \1 reached/, 60_000);
  assert.deepEqual(real(errors), []);
  await page.close();
});

test('what if: fork the session with one change, act once, and see both branches and their first difference', async () => {
  const { page, errors } = await openPage(browser, `${server.url}?speed=5&slowmo=0&views=compare,timeline`);
  await page.getByTestId('pod').first().waitFor();
  const panel = page.getByTestId('compare');
  await panel.getByTestId('fork-change').fill('kubectl scale deployment nope --replicas=1');
  await panel.getByTestId('fork-start').click();
  await panel.getByTestId('fork-error').getByText(/not found/).waitFor();
  await panel.getByTestId('fork-change').fill('kubectl cordon node-1');
  await panel.getByTestId('fork-start').click();
  await panel.getByTestId('fork-diff').getByText('No difference yet').waitFor();
  await type(page, 'kubectl cordon node-2');
  await type(page, 'kubectl scale deployment web --replicas=6');
  await panel.getByTestId('fork-diff').getByText(/First difference at [\d:.]+: as is node\/node-\d.* what if node\/node-\d/).waitFor({ timeout: 30_000 });
  assert.ok(await panel.getByTestId('branch-fork').locator('li.differs').count() > 0);
  await page.getByTestId('play').click();
  // Both chains are drawn; the second is a picture (no 🔍, nothing to click) whose
  // cards that differ from the first's are marked.
  const fork = page.getByTestId('chain-fork');
  await fork.getByTestId('pod').first().waitFor();
  assert.equal(await fork.getByTestId('pod').count(), 6);
  assert.equal(await fork.getByTestId('inspect').count(), 0);
  assert.ok(await page.getByTestId('chain').getByTestId('inspect').count() > 0);
  assert.ok(await fork.locator('.item.differs').count() > 0);
  const before = await page.getByTestId('chain').getByTestId('pod').count();
  await fork.getByTestId('pod').first().click();
  assert.equal(await page.getByTestId('chain').getByTestId('pod').count(), before, 'a click on the picture deletes nothing');
  // Both timelines, each with the first difference marked.
  await page.getByTestId('timeline').getByTestId('tl-first-difference').waitFor();
  await page.getByTestId('timeline-fork').getByTestId('tl-first-difference').waitFor();
  assert.ok(await page.getByTestId('timeline-fork').getByTestId('lane-kubectl').count() === 1);
  await page.getByTestId('split').scrollIntoViewIfNeeded();
  await page.screenshot({ path: shot('compare-en.png') });
  // The share link carries both branches.
  await page.getByTestId('share').click();
  const url = await page.getByTestId('share-url').inputValue();
  const diff = await panel.getByTestId('fork-diff').textContent();
  const again = await openPage(browser, url);
  await again.page.getByTestId('compare').getByTestId('fork-diff').getByText(diff).waitFor({ timeout: 30_000 });
  await again.page.getByTestId('chain-fork').getByTestId('pod').first().waitFor();
  await page.getByTestId('fork-close').click();
  await panel.getByTestId('fork-start').waitFor();
  assert.equal(await page.getByTestId('chain-fork').count(), 0);
  assert.equal(await page.getByTestId('timeline-fork').count(), 0);
  assert.deepEqual(real(errors), []);
  assert.deepEqual(real(again.errors), []);
  await again.page.close();
  await page.close();
});

test('the node-disk-pressure lesson in Chinese: the prediction, the disk-pressure taint on the node card, the eviction, and every goal', async () => {
  const { page, errors } = await openPage(browser, `${server.url}?scenario=node-disk-pressure&lang=zh&speed=30`, { width: 1366, height: 900 });
  await page.getByTestId('lesson').getByRole('heading', { name: /节点磁盘耗尽/ }).waitFor();
  await page.getByTestId('step-0').click();
  await page.waitForTimeout(1000);
  await page.getByTestId('predict-1-1').check();
  await page.getByTestId('step-1').click();
  await page.getByTestId('predict-result-1').getByText(/✓/).waitFor({ timeout: 60_000 });
  // The board's node card carries the taint the node lifecycle controller added.
  await page.getByText(/disk-pressure/).first().waitFor({ timeout: 30_000 });
  await page.screenshot({ path: shot('node-disk-pressure-zh.png') });
  for (const i of [2, 3, 4]) {
    await runStep(page, i);
    await page.waitForTimeout(1500);
  }
  await waitForGoals(page, '目标：已达成 6/6', 180_000);
  assert.deepEqual(real(errors), []);
  await page.close();
});

test('the node-memory-pressure lesson: the prediction, the tainted node card, the eviction, and every goal', async () => {
  const { page, errors } = await openPage(browser, `${server.url}?scenario=node-memory-pressure&speed=30`, { width: 1366, height: 900 });
  await page.getByTestId('lesson').getByRole('heading', { name: /A node under memory pressure/ }).waitFor();
  await page.getByTestId('step-0').click();
  await page.waitForTimeout(1000);
  await page.getByTestId('predict-1-1').check();
  await page.getByTestId('step-1').click();
  await page.getByTestId('predict-result-1').getByText(/✓ as predicted/).waitFor({ timeout: 60_000 });
  assert.match(await page.getByTestId('predict-result-1').textContent(), /Evicted/);
  await page.screenshot({ path: shot('node-memory-pressure-en.png') });
  for (const i of [2, 3]) {
    await runStep(page, i);
    await page.waitForTimeout(1500);
  }
  await waitForGoals(page, 'Goals: 5 of 5 reached', 120_000);
  assert.deepEqual(real(errors), []);
  await page.close();
});
