// What a learner meets first: the chain, its nodes and one line saying what a click does
// (at every width, on touch too; gone once they act, back after `sim reset`); with a
// lesson, its current step, Run and goals in the first screen at 1366×768 (and a phone's
// sheet that folds to a one-line status while a step runs); the first Pod a few Tabs
// from "Skip to the cluster"; something on screen before any script; no warning about
// the wasm preload. Screenshots of each, in English and Chinese.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch, openPage, shot, type } from './harness.mjs';
import { tabsFromSkipToFirstPod } from './measure.mjs';

let server, browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

const HINT = { en: 'Click a Pod to delete it', zh: '点击 Pod 删除它' };

/** Whether `locator`'s box lies within the viewport, and the learner sees it there: the
 * point at its centre is it (not a box that scrolled it away, nor a sheet over it). */
async function inView(page, locator) {
  const box = await locator.boundingBox();
  const vp = page.viewportSize();
  const inside = !!box && box.y >= 0 && box.x >= 0 && box.y + box.height <= vp.height + 0.5 && box.x + box.width <= vp.width + 0.5;
  return inside && locator.evaluate((el) => {
    const r = el.getBoundingClientRect();
    const at = document.elementFromPoint(r.x + r.width / 2, r.y + Math.min(r.height / 2, 8));
    return !!at && (el === at || el.contains(at));
  });
}

for (const lang of ['en', 'zh']) {
  test(`the first screen says what a click does at every width and on touch, in ${lang}`, async () => {
    for (const [width, height] of [[1100, 800], [1366, 768], [1440, 900], [1536, 864], [1600, 900], [1700, 900], [1920, 1080], [700, 900], [390, 844]]) {
      const { page, errors } = await openPage(browser, `${server.url}?lang=${lang}`, { width, height });
      const hint = page.getByTestId('hint');
      await hint.waitFor();
      assert.ok((await hint.innerText()).includes(HINT[lang]), await hint.innerText());
      assert.ok(await inView(page, hint), `the instruction is in view at ${width}px`);
      // The chain and its nodes are on the first screen too.
      assert.ok(await inView(page, page.getByTestId('pod').first()), `a Pod in view at ${width}px`);
      const node = page.getByTestId('node').first();
      const box = await node.boundingBox();
      assert.ok(box && box.y < height, `a node on the first screen at ${width}px`);
      if (width === 1366 || width === 390) await page.screenshot({ path: shot(`first-visit-${lang}-${width}.png`) });
      assert.deepEqual(errors, []);
      await page.close();
    }
    // A phone: no hover, no tooltip; the line is there all the same.
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, locale: lang === 'zh' ? 'zh-CN' : 'en-US' });
    const page = await context.newPage();
    await page.goto(server.url);
    await page.getByTestId('hint').waitFor();
    assert.ok(await inView(page, page.getByTestId('hint')));
    await context.close();
  });
}

test('the instruction steps aside once the learner acts, and comes back after sim reset', async () => {
  const { page, errors } = await openPage(browser, server.url, { width: 1366, height: 768 });
  await page.getByTestId('hint').waitFor();
  await page.getByTestId('pod').first().click();
  await page.getByTestId('hint').waitFor({ state: 'detached' });
  await type(page, 'sim reset');
  await page.getByTestId('hint').waitFor();
  // A command typed is acting too.
  await type(page, 'kubectl get pods');
  await page.getByTestId('hint').waitFor({ state: 'detached' });
  assert.deepEqual(errors, []);
  await page.close();
});

for (const lang of ['en', 'zh']) {
  test(`with a lesson open, its current step, Run and every goal are on the first screen at 1366×768, in ${lang}`, async () => {
    for (const id of ['gateway-delete-pod', 'etcd-quorum-table', 'predict-the-gateway-story', 'control-plane-machinery']) {
      const { page, errors } = await openPage(browser, `${server.url}?scenario=${id}&lang=${lang}`, { width: 1366, height: 768 });
      const current = page.locator('[data-testid=steps] li.current');
      await current.waitFor();
      const run = current.locator('button[data-testid^=step-]');
      assert.ok(await inView(page, run), `${id}: the current step's Run in view`);
      // The checklist stands in view; up to eight goals every one of them, a longer
      // list in its own scrolling box.
      const goals = page.getByTestId('goals');
      assert.ok(await inView(page, goals), `${id}: the goal checklist in view`);
      const items = goals.locator('li');
      if ((await items.count()) <= 8) assert.ok(await inView(page, items.last()), `${id}: the last goal in view`);
      if (id === 'gateway-delete-pod') await page.screenshot({ path: shot(`lesson-${lang}-1366.png`) });
      // Run it (a "predict, then run" step first takes an answer): the next step becomes
      // the current one, still in view.
      if (await run.isDisabled()) {
        const choice = current.locator('input[type=radio]').first();
        if (await choice.count()) await choice.check(); else await current.locator('input[type=number]').fill('1');
      }
      await run.click();
      await page.locator('[data-testid=steps] li.ran').first().waitFor();
      await page.waitForTimeout(300);
      const next = page.locator('[data-testid=steps] li.current button[data-testid^=step-]');
      assert.ok(await inView(page, next), `${id}: the next step's Run in view`);
      assert.deepEqual(errors, []);
      await page.close();
    }
  });
}

for (const lang of ['en', 'zh']) {
  test(`a phone: the lesson's sheet folds to a one-line status while its step runs, the chain in view, in ${lang}`, async () => {
    const { page, errors } = await openPage(browser, `${server.url}?scenario=gateway-delete-pod&lang=${lang}`, { width: 390, height: 844 });
    const dock = page.getByTestId('dock');
    await page.locator('[data-testid=steps] li.current').waitFor();
    assert.match(await dock.getAttribute('class'), /\bopen\b/, 'the lesson opens with its sheet up');
    await page.screenshot({ path: shot(`phone-lesson-${lang}.png`) });
    await page.getByTestId('step-1').click();
    await page.waitForFunction(() => !document.querySelector('[data-testid=dock]').classList.contains('open'));
    const handle = page.getByTestId('sheet-handle');
    const status = lang === 'en' ? /^▴ Lesson: step 2 of 3 ran · goals [0-5] of 5$/ : /^▴ 课程场景：第 2\/3 步已运行 · 已达成目标 [0-5]\/5$/;
    assert.match(await handle.innerText(), status);
    // One line, and the chain above it: the Pods are in view, not under the sheet.
    const h = await handle.boundingBox();
    assert.ok(h.height <= 48, `the folded sheet is one line (${h.height}px)`);
    // The step deletes a Pod: the first one drawn may be leaving as we look, so ask
    // for any Pod in view above the sheet, in one look at the page.
    await page.waitForFunction((top) => [...document.querySelectorAll('[data-testid=pod]')].some((p) => {
      const r = p.getBoundingClientRect();
      return r.height > 0 && r.y >= 0 && r.y + r.height <= top;
    }), h.y);
    await page.getByTestId('goals').getByText(lang === 'en' ? 'Goals: 5 of 5 reached' : '目标：已达成 5/5').waitFor({ state: 'attached', timeout: 60_000 });
    assert.match(await handle.innerText(), lang === 'en' ? /goals 5 of 5/ : /已达成目标 5\/5/);
    await page.screenshot({ path: shot(`phone-step-running-${lang}.png`) });
    assert.deepEqual(errors, []);
    await page.close();
  });
}

test('the first Pod is at most 5 Tabs after "Skip to the cluster", on the playground and in a lesson', async () => {
  for (const url of [server.url, `${server.url}?scenario=gateway-delete-pod`, `${server.url}?lang=zh`]) {
    const { page, errors } = await openPage(browser, url, { width: 1366, height: 768 });
    const { tabs, skip } = await tabsFromSkipToFirstPod(page);
    assert.ok(tabs !== null && tabs <= 5, `${url}: ${tabs} Tabs (skip link: ${skip})`);
    assert.deepEqual(errors, []);
    await page.close();
  }
});

test('before any script runs the page shows its name, a line and a progress bar; the app replaces them', async () => {
  const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 1366, height: 768 } });
  const page = await context.newPage();
  await page.goto(server.url);
  const loading = page.locator('#loading');
  assert.match(await loading.innerText(), /kubeplay/);
  assert.match(await loading.innerText(), /Kubernetes control plane in your browser/);
  assert.match(await loading.innerText(), /在浏览器里运行的 Kubernetes 控制平面/);
  assert.ok(await loading.locator('.loading-bar').isVisible());
  await page.screenshot({ path: shot('loading.png') });
  await context.close();
  const { page: live, errors } = await openPage(browser, server.url);
  await live.getByTestId('pod').first().waitFor();
  assert.equal(await live.locator('#loading').count(), 0);
  assert.deepEqual(errors, []);
  await live.close();
});

test('loading the page warns about nothing: no preload integrity warning', async () => {
  const page = await browser.newPage();
  const warnings = [];
  page.on('console', (m) => { if (m.type() === 'warning' || m.type() === 'error') warnings.push(m.text()); });
  await page.goto(server.url);
  await page.getByTestId('pod').first().waitFor();
  await page.waitForTimeout(3500);
  assert.deepEqual(warnings.filter((w) => /integrity|preload/i.test(w)), []);
  await page.close();
});

test("the inspector's tabs stay in view while a long text scrolls", async () => {
  const { page, errors } = await openPage(browser, server.url, { width: 1366, height: 768 });
  const name = await page.getByTestId('pod').first().getAttribute('aria-label');
  await page.getByRole('button', { name: `Inspect ${name}`, exact: true }).click();
  const panel = page.getByTestId('inspector');
  await panel.getByTestId('tab-describe').click();
  await panel.getByTestId('inspector-text').waitFor();
  // Scroll the inspector's own box (the dock keeps the page still) to its end.
  await panel.evaluate((p) => { p.scrollTop = p.scrollHeight; });
  await page.waitForTimeout(200);
  const tabs = await panel.locator('.tabs').boundingBox();
  const box = await panel.boundingBox();
  assert.ok(tabs.y >= box.y - 1 && tabs.y + tabs.height <= box.y + box.height, `tabs at ${tabs.y} in a panel at ${box.y}`);
  assert.ok(await panel.evaluate((p) => p.scrollTop) > 0, 'the content did scroll');
  await panel.getByTestId('tab-yaml').click();
  await panel.getByTestId('inspector-text').getByText(/^apiVersion: v1/).waitFor();
  assert.deepEqual(errors, []);
  await page.close();
});

test('after a rewind the inspector says "not created yet" for a later Pod and "no longer exists" for a deleted one', async () => {
  const { page, errors } = await openPage(browser, `${server.url}?autoplay=0`, { width: 1366, height: 768 });
  await page.getByText('ready 3/3').waitFor({ timeout: 20_000 });
  const podNames = () => page.getByTestId('pod').evaluateAll((els) => els.map((e) => e.getAttribute('aria-label').replace('Pod ', '')));
  const before = await podNames();
  const victim = before[0];
  await type(page, `kubectl delete pod ${victim} --wait=false\nsim advance 1s`);
  await page.getByTestId('replaced-by').waitFor();
  // The deleted Pod, inspected while it terminates, then gone.
  await page.getByRole('button', { name: `Inspect Pod ${victim}`, exact: true }).click();
  const panel = page.getByTestId('inspector');
  await panel.getByTestId('tab-why').waitFor();
  await type(page, 'sim advance 40s');
  await panel.getByTestId('inspector-gone').getByText(`Pod ${victim} no longer exists.`).waitFor({ timeout: 30_000 });
  // Its replacement, then back to 0:00 (Home), before the replacement was made.
  const replacement = (await podNames()).find((n) => !before.includes(n));
  await page.getByRole('button', { name: `Inspect Pod ${replacement}`, exact: true }).click();
  await panel.getByTestId('tab-why').waitFor();
  await page.locator('body').press('Home');
  await panel.getByTestId('inspector-gone')
    .getByText(new RegExp(`^Pod ${replacement} is not created yet: the recorded history creates it at [\\d:.]+\\.$`)).waitFor();
  await page.getByTestId('lang-zh').click();
  await panel.getByTestId('inspector-gone').getByText(new RegExp(`^Pod ${replacement} 尚未创建`)).waitFor();
  assert.deepEqual(errors, []);
  await page.close();
});
