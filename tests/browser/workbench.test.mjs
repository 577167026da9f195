// The workbench: the chain stays in view beside a dock (console, inspector, lesson) on
// wide screens and above a bottom sheet on narrow ones; the page is readable at 1366,
// 1920, a 700 px frame and a 390 px phone, in both languages; keyboard and screen
// reader; the timeline over the whole history; the heartbeat countdown; embeds.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch, openPage, shot, type } from './harness.mjs';

let server, browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser.close(); await server.close(); });

const SIZES = [
  ['1366', { width: 1366, height: 768 }, ''],
  ['1920', { width: 1920, height: 1080 }, ''],
  ['700', { width: 700, height: 900 }, 'embed=1&'],
  ['390', { width: 390, height: 844 }, ''],
];

for (const lang of ['en', 'zh']) {
  for (const [name, viewport, query] of SIZES) {
    test(`at ${name} px in ${lang} the page never scrolls sideways and no chain text is scaled down`, async () => {
      const { page, errors } = await openPage(browser, `${server.url}?${query}lang=${lang}`, viewport);
      await page.getByTestId('pod').first().waitFor();
      const wide = await page.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(wide <= viewport.width, `scrollWidth ${wide} > ${viewport.width}`);
      // The pod names are drawn at their size (no zoom), at least 12 px.
      const sizes = await page.locator('[data-testid=pod] .name').evaluateAll((els) =>
        els.map((e) => parseFloat(getComputedStyle(e).fontSize) * (parseFloat(getComputedStyle(e.closest('.canvas')).zoom) || 1)));
      assert.ok(sizes.length > 0 && sizes.every((s) => s >= 12), `name sizes ${sizes}`);
      // Names keep the suffix that tells them apart.
      const names = await page.locator('[data-testid=pod] .name').evaluateAll((els) => els.map((e) => [e.textContent, e.title]));
      for (const [shown, full] of names) {
        assert.ok(shown === full || full.endsWith(shown.split('…')[1]), `${shown} for ${full}`);
      }
      await page.screenshot({ path: shot(`workbench-${name}-${lang}.png`) });
      assert.deepEqual(errors, []);
      await page.close();
    });
  }
}

test('at 1366×768 the chain and the console are both on screen and typing does not scroll the chain away', async () => {
  const { page, errors } = await openPage(browser, server.url, { width: 1366, height: 768 });
  await page.getByTestId('pod').first().waitFor();
  const chainTop = async () => (await page.locator('section.chain').boundingBox()).y;
  const top = await chainTop();
  const input = page.getByTestId('console-input');
  const box = await input.boundingBox();
  assert.ok(box.y + box.height <= 768, 'the prompt is in view');
  assert.ok(box.x > 800, 'the console is docked beside the chain');
  await type(page, 'kubectl get pods -o wide');
  await page.getByTestId('console-output').getByText('NOMINATED NODE').waitFor();
  assert.equal(await chainTop(), top, 'the chain did not move');
  const scroll = await page.evaluate(() => [document.documentElement.scrollHeight, innerHeight]);
  assert.ok(scroll[0] <= scroll[1] + 1, `the page itself does not scroll: ${scroll}`);
  assert.deepEqual(errors, []);
  await page.close();
});

test('at 1920 px the workbench uses the width of the screen', async () => {
  const { page } = await openPage(browser, server.url, { width: 1920, height: 1080 });
  await page.getByTestId('pod').first().waitFor();
  const stage = await page.getByTestId('stage').boundingBox();
  const dock = await page.getByTestId('dock').boundingBox();
  assert.ok(stage.width + dock.width > 1800, `${stage.width} + ${dock.width}`);
  assert.ok((await page.locator('section.chain .canvas').boundingBox()).width > 1100, 'the chain stretches');
  await page.close();
});

test('the magnifier opens the inspector where the eye is, takes the focus, and Esc gives it back', async () => {
  const { page, errors } = await openPage(browser, server.url, { width: 1366, height: 768 });
  const lens = page.getByRole('button', { name: /^Inspect Pod web-/ }).first();
  await lens.click();
  const inspector = page.getByTestId('inspector');
  await inspector.waitFor();
  const box = await inspector.boundingBox();
  assert.ok(box.y < 768 && box.y + 40 > 0, `the inspector is on screen (y ${box.y})`);
  assert.ok(await inspector.evaluate((el) => el.contains(document.activeElement)), 'focus moved into the inspector');
  await page.keyboard.press('Escape');
  await inspector.waitFor({ state: 'detached' });
  assert.ok(await lens.evaluate((el) => el === document.activeElement), 'focus is back on the magnifier');
  // The magnifier is the tab stop right after its card.
  const next = await page.locator('[data-testid=pod]').first().evaluate((card) => card.nextElementSibling?.dataset.testid);
  assert.equal(next, 'inspect');
  assert.deepEqual(errors, []);
  await page.close();
});

test('on a phone the chain is a tree and the dock is a bottom sheet the magnifier opens', async () => {
  const { page, errors } = await openPage(browser, `${server.url}?lang=zh`, { width: 390, height: 844 });
  await page.getByTestId('pod').first().waitFor();
  assert.ok(await page.locator('section.chain.flow').count() === 1, 'the tree layout');
  const handle = page.getByTestId('sheet-handle');
  assert.equal(await handle.getAttribute('aria-expanded'), 'false');
  assert.ok(!(await page.getByTestId('console-input').isVisible()), 'folded');
  await page.getByRole('button', { name: /^检查 Pod web-/ }).first().click();
  await page.getByTestId('inspector').waitFor();
  assert.equal(await handle.getAttribute('aria-expanded'), 'true');
  assert.ok(await page.getByTestId('inspector').isVisible());
  // 课程场景 stays on one line beside its picker.
  const label = await page.locator('.lesson-label').boundingBox();
  assert.ok(label.height < 30, `label height ${label.height}`);
  await page.screenshot({ path: shot('workbench-phone-sheet-zh.png') });
  assert.deepEqual(errors, []);
  await page.close();
});

test('readonly locks the lesson, and panels= chooses the picker, Share and the authoring box of an embed', async () => {
  const count = async (q) => {
    const { page } = await openPage(browser, `${server.url}?${q}`, { width: 900, height: 700 });
    await page.getByTestId('lesson').waitFor({ state: 'attached' });
    const n = {
      picker: await page.getByTestId('scenario-picker').count(),
      share: await page.getByTestId('share').count(),
      author: await page.getByTestId('own-yaml').count(),
    };
    await page.close();
    return n;
  };
  assert.deepEqual(await count(''), { picker: 1, share: 1, author: 1 });
  assert.deepEqual(await count('embed=1&scenario=gateway-delete-pod'), { picker: 1, share: 0, author: 0 });
  assert.deepEqual(await count('embed=1&scenario=gateway-delete-pod&readonly=1'), { picker: 0, share: 0, author: 0 });
  assert.deepEqual(await count('embed=1&scenario=gateway-delete-pod&panels=chain,goals'), { picker: 0, share: 0, author: 0 });
  assert.deepEqual(await count('embed=1&panels=chain,goals,picker,share,author'), { picker: 1, share: 1, author: 1 });
});

test('a command from an origin that is not allowed is ignored with a console warning naming allowOrigins', async () => {
  const { page } = await openPage(browser, `${server.url}?embed=1`);
  const warnings = [];
  page.on('console', (m) => { if (m.type() === 'warning') warnings.push(m.text()); });
  await page.getByTestId('pod').first().waitFor();
  await page.evaluate(() => window.dispatchEvent(new MessageEvent('message', {
    data: { kubeplay: 1, type: 'run', command: 'kubectl scale deployment web --replicas=1' },
    origin: 'https://elsewhere.example',
  })));
  await page.waitForTimeout(300);
  assert.ok(warnings.some((w) => w.includes('https://elsewhere.example') && w.includes('allowOrigins')), warnings.join('\n'));
  assert.equal(await page.locator('[data-testid=pod]').count(), 3, 'nothing was run');
  await page.close();
});

for (const lang of ['en', 'zh']) {
  test(`a powered-off node counts down its missing heartbeat to NotReady (${lang})`, async () => {
    const { page, errors } = await openPage(browser, `${server.url}?lang=${lang}&views=board`);
    await page.getByTestId('pod').first().waitFor();
    await page.getByTestId('speed-5').click();
    await page.locator('[data-testid=node]').nth(1).click();
    const beat = page.getByTestId('board-node-2').getByTestId('heartbeat');
    await beat.waitFor();
    const text = lang === 'en' ? /no heartbeat for (\d+) s \(NotReady at (\d+) s\): NotReady in (\d+) s/ : /已 (\d+) 秒无心跳（第 (\d+) 秒变为 NotReady）：还剩 (\d+) 秒/;
    const m = (await beat.innerText()).match(text);
    assert.ok(m, await beat.innerText());
    assert.ok(Number(m[2]) >= 50 && Number(m[2]) <= 60, `NotReady at ${m[2]} s`);
    await page.getByTestId('speed-30').click();
    await page.getByTestId('board-node-2').and(page.locator('[data-status=NotReady]')).waitFor({ timeout: 20_000 });
    assert.match(await beat.innerText(), lang === 'en' ? /^no heartbeat for \d+ s$/ : /^已 \d+ 秒无心跳$/);
    // The screen reader hears it.
    await page.getByTestId('announcer').filter({ hasText: 'node-2 NotReady' }).waitFor({ timeout: 10_000 });
    await page.screenshot({ path: shot(`heartbeat-${lang}.png`) });
    assert.deepEqual(errors, []);
    await page.close();
  });
}

test('the timeline reaches 0:00.0, keeps the future grey while rewound, zooms, and Home and End jump', async () => {
  const { page, errors } = await openPage(browser, `${server.url}?views=timeline`, { width: 1366, height: 900 });
  await page.getByTestId('pod').first().waitFor();
  await page.getByTestId('play').click();
  const clock = page.getByTestId('clock');
  await page.locator('body').press('Home');
  assert.equal(await clock.innerText(), '0:00.0');
  assert.equal(await page.locator('[data-testid=pod]').count(), 0, 'before the ReplicaSet made its Pods');
  assert.ok(await page.locator('.timeline .lane .mark.future').count() > 5, 'the recorded future stays, greyed');
  // A mark of the opening story: the scheduler binding the Pods at 0:00.7.
  await page.getByTestId('lane-default-scheduler').locator('.grp .mark').first().click();
  assert.equal(await clock.innerText(), '0:00.7');
  assert.equal(await page.locator('[data-testid=pod][data-status=Pending]').count(), 3);
  // Before the binds (0:00.5) the Pods have no node: a drawn Pending icon, not an emoji.
  await page.getByTestId('scrub').evaluate((el) => { el.value = '500'; el.dispatchEvent(new Event('input', { bubbles: true })); });
  assert.equal(await page.locator('[data-testid=pod] .pending-ico').count(), 3);
  await page.getByTestId('tl-zoom-in').click();
  assert.notEqual(await page.getByTestId('tl-window').innerText(), '0:00.0 – 0:10.0');
  await page.getByTestId('tl-whole').click();
  await page.getByRole('button', { name: 'Later' }).waitFor();
  await page.locator('body').press('End');
  await page.waitForFunction(() => document.querySelectorAll('.timeline .lane .mark.future').length === 0, null, { timeout: 5_000 });
  assert.equal(await page.getByTestId('play').getAttribute('aria-pressed'), 'true');
  assert.deepEqual(errors, []);
  await page.close();
});

test('Tab leaves an empty console, completes a command being typed, and Escape then Tab leaves anyway', async () => {
  const { page } = await openPage(browser, server.url);
  await page.getByTestId('pod').first().waitFor();
  // The first tab stop is a skip link.
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement.className), 'skip');
  const input = page.getByTestId('console-input');
  await input.focus();
  await page.keyboard.press('Tab');
  assert.ok(!(await input.evaluate((el) => el === document.activeElement)), 'left the console');
  await input.fill('kubectl desc');
  await input.press('Tab');
  assert.equal(await input.inputValue(), 'kubectl describe ');
  await input.press('Escape');
  await input.press('Tab');
  assert.ok(!(await input.evaluate((el) => el === document.activeElement)), 'Esc then Tab left it');
  await page.close();
});

test('nodes are in natural order, and sim reset starts a new history without a fork', async () => {
  const { page, errors } = await openPage(browser, `${server.url}?views=board`);
  await page.getByTestId('pod').first().waitFor();
  await type(page, 'sim reset --nodes 12');
  await page.getByTestId('board-node-12').waitFor();
  const order = await page.locator('[data-testid^=board-node-]').evaluateAll((els) => els.map((e) => e.dataset.testid));
  assert.deepEqual(order.slice(0, 3), ['board-node-1', 'board-node-2', 'board-node-3']);
  assert.equal(order.at(-1), 'board-node-12');
  assert.equal(await page.getByTestId('forked').count(), 0);
  assert.deepEqual(errors, []);
  await page.close();
});

test('in a lesson at 1× an action plays in slow motion, and Step says what it changed', async () => {
  const { page, errors } = await openPage(browser, `${server.url}?scenario=gateway-delete-pod`);
  await page.getByTestId('step-1').click();
  await page.getByTestId('slowing').waitFor();
  assert.equal(await page.getByTestId('slow-motion').getAttribute('aria-pressed'), 'true');
  await page.getByTestId('play').click();
  await page.getByTestId('step').click();
  await page.getByTestId('step-summary').filter({ hasText: /Step → \d+:\d\d\.\d: / }).waitFor();
  assert.deepEqual(errors, []);
  await page.close();
});

test('a shared link opens paused at the moment it was shared', async () => {
  const { page } = await openPage(browser, server.url);
  await page.getByTestId('pod').first().waitFor();
  await type(page, 'kubectl scale deployment web --replicas=4');
  await page.getByTestId('play').click();
  const at = await page.getByTestId('clock').innerText();
  await page.getByTestId('share').click();
  const url = await page.getByTestId('share-url').inputValue();
  const { page: again } = await openPage(browser, url);
  // The link replays (how fast depends on the machine), then stays paused there.
  await again.getByTestId('clock').filter({ hasText: at }).waitFor({ timeout: 20_000 });
  await again.getByTestId('replay').waitFor({ state: 'detached', timeout: 20_000 });
  await again.waitForTimeout(500);
  assert.equal(await again.getByTestId('play').getAttribute('aria-pressed'), 'false');
  assert.equal(await again.getByTestId('clock').innerText(), at);
  await page.close(); await again.close();
});

test('in dark mode the lesson picker is dark too', async () => {
  const page = await browser.newPage({ colorScheme: 'dark' });
  await page.goto(server.url);
  const bg = await page.getByTestId('scenario-picker').evaluate((el) => getComputedStyle(el).backgroundColor);
  const [r, g, b] = bg.match(/\d+/g).map(Number);
  assert.ok(r + g + b < 200, `picker background ${bg}`);
  await page.close();
});

test('Ctrl+C in the console stops a command that waits for the cluster, as in a terminal', async () => {
  const { page, errors } = await openPage(browser, server.url);
  await page.getByTestId('pod').first().waitFor();
  await type(page, 'kubectl set image deployment/web nginx=nginx:does-not-exist');
  await type(page, 'kubectl rollout status deployment/web');
  await page.getByTestId('console-waiting').waitFor();
  await page.getByTestId('console-input').press('Control+c');
  await page.getByTestId('console-waiting').waitFor({ state: 'detached' });
  // The prompt takes the next command at once.
  await type(page, 'kubectl get deployment web');
  await page.getByTestId('console-output').getByText('UP-TO-DATE').waitFor();
  assert.deepEqual(errors, []);
  await page.close();
});

test('sim advance on a large cluster runs in slices the page stays live through, and Ctrl+C stops it where it is', async () => {
  const { page, errors } = await openPage(browser, server.url);
  await page.getByTestId('pod').first().waitFor();
  await type(page, 'sim reset --nodes 1500');
  await page.getByTestId('console-output').getByText(/cluster reset: 1500 nodes/).waitFor();
  await type(page, 'sim advance 12h');
  // The page keeps drawing while the clock runs: the hint says where it is.
  const waiting = page.getByTestId('console-waiting');
  await waiting.waitFor();
  const first = await waiting.textContent();
  assert.match(first, /running the clock: .* of at most .*Ctrl\+C/);
  await page.waitForFunction(
    (before) => document.querySelector('[data-testid=console-waiting]')?.textContent !== before,
    first,
  );
  await page.getByTestId('console-input').press('Control+c');
  await waiting.waitFor({ state: 'detached' });
  const out = await page.getByTestId('console-output').textContent();
  assert.match(out, /\^C\s*stopped at [\d:]+\.\d \(started at [\d:]+\.\d\)/);
  // The clock stopped well before the 12 hours it was asked for.
  const clock = await page.getByTestId('clock').textContent();
  assert.doesNotMatch(clock, /^12:/);
  await type(page, 'sim time');
  await page.getByTestId('console-output').getByText(/\(2\d{3}-/).waitFor();
  assert.deepEqual(errors, []);
  await page.close();
});
