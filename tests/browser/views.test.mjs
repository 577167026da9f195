// Every view (opened by views= in the address), in English and in Chinese, photographed
// on its own (element screenshots under screenshots/views/): the pictures a reviewer looks at before calling the page
// done. Each shot also checks that the view speaks the language it was asked for.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { serve, launch, openPage, screenshots, pauseWithPodIn } from './harness.mjs';

let server, browser;
const dir = path.join(screenshots, 'views');
before(async () => { fs.mkdirSync(dir, { recursive: true }); server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

const CJK = /[\u4e00-\u9fff]/;

for (const lang of ['en', 'zh']) {
  test(`each view renders in ${lang} and is photographed`, async () => {
    const { page, errors } = await openPage(browser, `${server.url}?lang=${lang}&views=control-plane,requests,queues,board,timeline,deployments,events`, { width: 1280, height: 1000 });
    const input = page.getByTestId('console-input');
    // A story with something to show everywhere: a stuck rollout, a deleted Pod, a node down.
    await input.fill('sim image-fail nginx:nope\nkubectl get pods');
    await input.press('Enter');
    await page.getByTestId('speed-30').click();
    await page.locator('[data-testid=ready-web]').filter({ hasText: /3\/3/ }).waitFor({ timeout: 20_000 });
    await input.fill('kubectl set image deployment/web nginx=nginx:nope\nsim node down node-3');
    await input.press('Enter');
    await page.locator('[data-testid=pod][data-status=ImagePullBackOff]').waitFor({ timeout: 20_000 });
    await page.waitForTimeout(1500);
    const backOff = await pauseWithPodIn(page, 'ImagePullBackOff');
    const name = (await backOff.first().getAttribute('aria-label')).slice(4);
    // The inspect button's name is translated; it ends with the Pod's name in both languages.
    await page.locator(`button.inspect[aria-label$=" ${name}"]`).click();
    await page.getByTestId('inspector').waitFor();
    const views = {
      toolbar: page.locator('section.toolbar'),
      chain: page.locator('section.chain'),
      timeline: page.getByTestId('timeline'),
      'inspector-path': page.getByTestId('inspector'),
      'node-board': page.getByTestId('node-board'),
      deployments: page.locator('section.deployments'),
      'control-plane': page.getByTestId('control-plane'),
      'request-path': page.getByTestId('request-path'),
      queues: page.getByTestId('queue-view'),
      console: page.locator('section.console'),
      events: page.getByTestId('events'),
    };
    for (const [name, loc] of Object.entries(views)) {
      await loc.waitFor();
      const text = await loc.innerText();
      if (lang === 'zh') assert.match(text, CJK, `${name} has Chinese`);
      // (The language switch names Chinese in Chinese on every page.)
      else assert.doesNotMatch(text.replace('中文', ''), CJK, `${name} has no Chinese`);
      await loc.screenshot({ path: path.join(dir, `${name}-${lang}.png`) });
    }
    for (const [tab, shotName] of [['tab-why', 'inspector-why'], ['tab-yaml', 'inspector-yaml'], ['tab-describe', 'inspector-describe']]) {
      await page.getByTestId(tab).click();
      const panel = page.getByTestId('inspector');
      const text = await panel.innerText();
      if (tab === 'tab-why') {
        assert.match(text, new RegExp(`ImagePullBackOff`));
        assert.match(text, lang === 'zh' ? /卡在/ : /Stuck at: image pulled/);
      } else {
        // kubectl's text stays English in both languages.
        assert.match(text, new RegExp(tab === 'tab-yaml' ? `name: ${name}` : `Name:\\s+${name}`));
      }
      await panel.screenshot({ path: path.join(dir, `${shotName}-${lang}.png`) });
    }
    // Nothing pushes the page wider than the window (a long describe line scrolls in its box).
    const [sw, iw] = await page.evaluate(() => [document.documentElement.scrollWidth, innerWidth]);
    assert.ok(sw <= iw, `page is ${sw}px wide in a ${iw}px window`);
    await page.screenshot({ path: path.join(dir, `page-${lang}.png`), fullPage: true });
    assert.deepEqual(errors, []);
    await page.close();
  });
}
