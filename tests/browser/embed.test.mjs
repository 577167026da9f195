// An embedded lesson on a course page: its step and goals in the frame's first screen
// at 700 px (English and Chinese), a frame about one screen tall whose content scrolls
// inside, with a button to show all of it; every documented panel renders; an unknown
// panel name is reported (and lesson= is read as scenario=); a read-only frame has no
// control that does nothing and says what a click does; embed.js says hello only to a
// loaded frame; one xAPI "completed" and one "passed" per completion.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch, openPage, shot, openView } from './harness.mjs';
import { hostPage, embedFigures } from './measure.mjs';
import LZString from 'lz-string';

const pages = {};
for (const lang of ['en', 'zh']) pages[`/host-${lang}.html`] = hostPage(`embed=1&scenario=gateway-delete-pod&lang=${lang}`);
const otherPages = {};
let server, other, browser;
before(async () => { server = await serve('', { pages }); other = await serve('', { pages: otherPages }); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); await other?.close(); });

const real = (errors) => errors.filter((e) => !/favicon|status of 404/.test(e));

for (const lang of ['en', 'zh']) {
  test(`a lesson embedded in a 700 px column shows its step, Run and goals in the frame's first screen, in ${lang}`, async () => {
    const { page, errors } = await openPage(browser, `${server.url}host-${lang}.html`, { width: 1366, height: 768 });
    const f = await embedFigures(page);
    const cap = Math.max(480, Math.round(768 * 0.9));
    assert.ok(f.height <= cap, `the frame is about one screen: ${f.height}px`);
    assert.ok(f.runTop !== null && f.runTop + 24 <= f.height, `the first Run at ${f.runTop}px in a ${f.height}px frame`);
    assert.ok(f.goalsBottom <= f.height, `the goals end at ${f.goalsBottom}px in a ${f.height}px frame`);
    await page.screenshot({ path: shot(`embed-700-${lang}.png`) });
    // The content scrolls inside; the button under the frame shows all of it.
    const inner = await page.frameLocator('#kp').locator('html').evaluate((e) => e.scrollHeight);
    assert.ok(inner > f.height, `the content (${inner}px) is taller than the frame`);
    const expand = page.locator('#kp + [data-kubeplay-expand]');
    assert.match(await expand.innerText(), lang === 'en' ? /^Show the whole playground \(\d+ px\)$/ : /^展开 kubeplay 的全部内容/);
    await expand.click();
    await page.waitForFunction((h) => Math.abs(document.getElementById('kp').getBoundingClientRect().height - h) <= 2, inner);
    await expand.click();
    await page.waitForFunction((h) => document.getElementById('kp').getBoundingClientRect().height <= h, cap);
    assert.deepEqual(real(errors), []);
    await page.close();
  });
}

test('every documented panel renders in an embed: events and deployments too', async () => {
  for (const [panel, testid] of [['events', 'events'], ['deployments', 'deployments'], ['timeline', 'timeline'], ['board', 'node-board'],
    ['requests', 'request-path'], ['queues', 'queue-view'], ['control-plane', 'control-plane'], ['compare', 'compare']]) {
    const { page, errors } = await openPage(browser, `${server.url}?embed=1&panels=chain,${panel}`, { width: 700, height: 900 });
    await page.getByTestId('chain').waitFor();
    await page.getByTestId(testid).first().waitFor({ timeout: 10_000 });
    assert.equal(await page.getByTestId('author-notice').count(), 0, panel);
    assert.deepEqual(errors, [], panel);
    await page.close();
  }
});

test('an unknown panel name is reported to the author, and lesson= opens the lesson', async () => {
  const page = await browser.newPage({ viewport: { width: 700, height: 900 } });
  const warnings = [];
  page.on('console', (m) => { if (m.type() === 'warning') warnings.push(m.text()); });
  await page.goto(`${server.url}?embed=1&lesson=gateway-delete-pod&panels=chian,goals`);
  const notice = page.getByTestId('author-notice');
  await notice.waitFor();
  const text = await notice.innerText();
  assert.match(text, /^kubeplay: panels= names "chian" that this page does not know \(ignored\)\. Accepted: chain, goals, console, picker, share, author, import, control-plane, requests, queues, compare, services, board, timeline, deployments, events, controller$/);
  assert.ok(warnings.includes(text), JSON.stringify(warnings));
  // lesson= is scenario=: the lesson is open.
  await page.getByTestId('lesson').getByRole('heading', { name: 'Three gateway replicas: one Pod is deleted' }).waitFor();
  await page.screenshot({ path: shot('embed-author-notice.png') });
  await page.close();
  // Read-only: the console hears it; the learner's page shows no notice.
  const ro = await browser.newPage({ viewport: { width: 700, height: 900 } });
  const roWarnings = [];
  ro.on('console', (m) => { if (m.type() === 'warning') roWarnings.push(m.text()); });
  await ro.goto(`${server.url}?embed=1&readonly=1&panels=chain,goals,timelime`);
  await ro.getByTestId('chain').waitFor();
  await ro.waitForFunction(() => true);
  assert.equal(await ro.getByTestId('author-notice').count(), 0);
  assert.ok(roWarnings.some((w) => w.includes('"timelime"')), JSON.stringify(roWarnings));
  await ro.close();
});

test('a read-only embed shows no control that does nothing, and its tooltips say what a click does', async () => {
  const { page, errors } = await openPage(browser,
    `${server.url}?embed=1&readonly=1&scenario=gateway-delete-pod&views=control-plane,services,deployments,queues`, { width: 1100, height: 1400 });
  await page.getByTestId('pod').first().waitFor();
  // Nothing disabled standing in for an action, no action that is refused on click.
  const disabled = await page.locator('button:disabled').evaluateAll((els) => els.map((e) => e.outerHTML.slice(0, 160)));
  assert.deepEqual(disabled, [], 'no disabled button');
  for (const id of ['add-node', 'apiserver-down-button', 'etcd-members-3', 'console-input', 'expose-gateway']) {
    assert.equal(await page.getByTestId(id).count(), 0, id);
  }
  assert.equal(await page.getByRole('button', { name: /^Scale (up|down)/ }).count(), 0);
  assert.equal(await page.locator('button[data-testid^=step-]').count(), 0, 'no Run');
  assert.equal(await page.locator('[data-testid^=set-image-], [data-testid^=undo-]').count(), 0);
  // A Pod card says (and does) what a click does there: inspect it.
  const pod = page.getByTestId('pod').first();
  const name = (await pod.getAttribute('aria-label')).replace('Pod ', '');
  assert.equal(await pod.getAttribute('title'), `Pod ${name}: click to inspect it`);
  const count = await page.getByTestId('pod').count();
  await pod.click();
  await page.getByTestId('inspector').waitFor();
  assert.equal(await page.getByTestId('pod').count(), count, 'nothing deleted');
  assert.doesNotMatch(await page.getByTestId('etcd-bar').innerText(), /members|Click/);
  for (const t of await page.locator('[data-testid=control-plane] [title]').evaluateAll((els) => els.map((e) => e.title))) {
    assert.doesNotMatch(t, /Click/, t);
  }
  await page.screenshot({ path: shot('embed-readonly.png'), fullPage: true });
  assert.deepEqual(errors, []);
  await page.close();
});

test('embed.js says hello only once a frame has loaded: no origin error on a course page of another origin', async () => {
  const page = await browser.newPage({ viewport: { width: 1366, height: 768 } });
  const problems = [];
  page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') problems.push(m.text()); });
  page.on('pageerror', (e) => problems.push(String(e)));
  // The course page on one origin, the frame on another; embed.js loaded at once.
  const html = hostPage(`embed=1&scenario=gateway-delete-pod`, { script: false })
    .replace('src="./?', `src="${server.url}?`)
    .replace('</body>', `<script src="${server.url}embed.js"></script></body>`);
  otherPages['/course.html'] = html;
  await page.goto(`${other.url}course.html`);
  await page.locator('#kp[data-kubeplay-ready="1"]').waitFor({ timeout: 30_000 });
  await page.waitForFunction(() => parseInt(document.getElementById('kp').style.height, 10) > 300);
  assert.deepEqual(real(problems), []);
  await page.close();
});

test('the last two goals met in one tick send one xAPI completed and one passed', async () => {
  const yaml = [
    'id: two-at-once', 'title: { en: Two at once, zh: 同时两个 }', 'description: { en: d, zh: d }',
    'cluster:', '  nodes: [{ name: node-1 }]',
    'setup: |', '  kubectl create deployment web --image=nginx:1.27 --replicas=1', '  sim settle',
    'steps:', '  - text: { en: Scale to 2, zh: 扩到 2 }', '    command: kubectl scale deployment web --replicas=2',
    'goals:',
    '  - label: { en: Two ready, zh: 两个就绪 }', '    expect: deployment/web {.status.readyReplicas} == 2',
    '  - label: { en: Two available, zh: 两个可用 }', '    expect: deployment/web {.status.availableReplicas} == 2',
  ].join('\n');
  const src = `embed=1&speed=30#scenario=${LZString.compressToEncodedURIComponent(yaml)}`;
  const host = `<!doctype html><html><body><iframe id="kp" data-kubeplay src="./?${src}" style="width:900px;height:700px"></iframe>
<script>window.msgs = []; addEventListener('message', (e) => { if (e.data && e.data.kubeplay === 1) window.msgs.push(e.data); });</script>
<script src="embed.js"></script></body></html>`;
  const local = await serve('', { pages: { '/xapi.html': host } });
  const page = await browser.newPage();
  await page.goto(`${local.url}xapi.html`);
  await page.locator('#kp[data-kubeplay-ready="1"]').waitFor({ timeout: 30_000 });
  await page.frameLocator('#kp').getByTestId('step-0').click();
  await page.waitForFunction(() => window.msgs.filter((m) => m.type === 'goal').length === 2, null, { timeout: 30_000 });
  await page.waitForTimeout(1500);
  const goals = await page.evaluate(() => window.msgs.filter((m) => m.type === 'goal'));
  assert.equal(goals[0].time, goals[1].time, 'both goals met in the same tick');
  const verbs = await page.evaluate(() => window.msgs.filter((m) => m.type === 'xapi').map((m) => m.statement.verb.display['en-US']));
  assert.deepEqual(verbs.filter((v) => v === 'completed'), ['completed']);
  assert.deepEqual(verbs.filter((v) => v === 'passed'), ['passed']);
  await page.close();
  await local.close();
});

test('the learner opens any view from one menu, kept in the address; a Service brings its view in', async () => {
  const { page, errors } = await openPage(browser, server.url, { width: 1366, height: 768 });
  await page.getByTestId('pod').first().waitFor();
  // A first visit: the chain, no view.
  for (const id of ['control-plane', 'timeline', 'queue-view', 'request-path', 'services', 'events', 'my-controller']) {
    assert.equal(await page.getByTestId(id).count(), 0, id);
  }
  await page.getByTestId('views-menu').locator('summary').click();
  const purposes = await page.getByTestId('views-menu').locator('.view-purpose').allInnerTexts();
  assert.equal(purposes.length, 10);
  assert.ok(purposes.every((p) => p.length > 20), JSON.stringify(purposes));
  await page.getByTestId('views-menu').locator('summary').click();
  await openView(page, 'timeline');
  await page.getByTestId('timeline').waitFor();
  assert.match(page.url(), /[?&]views=timeline(&|$)/);
  // The state brings Services in; the learner may close it, and that is kept too.
  await page.getByTestId('console-input').fill('kubectl expose deployment web --port 80');
  await page.getByTestId('console-input').press('Enter');
  await page.getByTestId('services').waitFor();
  await page.getByTestId('views-menu').locator('summary').click();
  await page.getByTestId('view-services').uncheck();
  await page.getByTestId('services').waitFor({ state: 'detached' });
  const chosen = new URL(page.url()).searchParams.get('views').split(',').sort();
  assert.deepEqual(chosen, ['-services', 'timeline']);
  await page.reload();
  await page.getByTestId('timeline').waitFor();
  assert.equal(await page.getByTestId('services').count(), 0);
  // In Chinese: the menu's purposes too.
  await page.getByTestId('lang-zh').click();
  await page.getByTestId('views-menu').locator('summary').click();
  assert.match(await page.getByTestId('views-menu').innerText(), /按时间排列的每一次变更/);
  await page.screenshot({ path: shot('views-menu-zh.png') });
  assert.deepEqual(errors, []);
  await page.close();
});

test('a lesson opens the views it declares; the API server down brings its bar with the way back up', async () => {
  const { page, errors } = await openPage(browser, `${server.url}?scenario=control-plane-down`, { width: 1366, height: 768 });
  await page.getByTestId('control-plane').waitFor();
  await page.close();
  const p2 = await openPage(browser, `${server.url}?scenario=gateway-delete-pod`, { width: 1366, height: 768 });
  await p2.page.getByTestId('timeline').waitFor();
  assert.equal(await p2.page.getByTestId('control-plane').count(), 0);
  await p2.page.close();
  // The playground, its bar closed: stopping the API server from the console brings it.
  const p3 = await openPage(browser, server.url, { width: 1366, height: 768 });
  await p3.page.getByTestId('pod').first().waitFor();
  assert.equal(await p3.page.getByTestId('control-plane').count(), 0);
  await p3.page.getByTestId('console-input').fill('sim apiserver down');
  await p3.page.getByTestId('console-input').press('Enter');
  await p3.page.getByTestId('apiserver-up').click();
  await p3.page.getByTestId('apiserver-down').waitFor({ state: 'detached' });
  assert.deepEqual([...errors, ...p2.errors, ...p3.errors], []);
  await p3.page.close();
});
