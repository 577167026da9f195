// Nothing that carries meaning is clipped: every text of every card of the chain (and
// of the node row under a chain without its Node column) lies inside its card, inside
// every box that hides overflow on the way, and clear of the card's 🔍 button, in the
// delete-a-Pod, node-down, rollout and Service states, at 1366, 1920, 700 and 390 px,
// in English and Chinese. A shortened text keeps its full words in its tooltip and the
// card's accessible name.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch, openPage, shot, type } from './harness.mjs';

let server, browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

const WIDTHS = [[1366, 768], [1920, 1080], [700, 900], [390, 844]];

/** Every text of the cards that does not show whole: [card, text, why]. */
function clipped() {
  const out = [];
  const cards = document.querySelectorAll('[data-testid=chain] .card, [data-testid=node-strip] .nodechip');
  for (const card of cards) {
    const name = card.getAttribute('aria-label') || card.getAttribute('data-testid') || card.className;
    const item = card.closest('.item, .nodechip-item');
    const buttons = item ? [...item.querySelectorAll(':scope > [data-testid=inspect]')].map((b) => b.getBoundingClientRect()) : [];
    const walker = document.createTreeWalker(card, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const text = n.textContent.trim();
      if (!text) continue;
      const range = document.createRange();
      range.selectNodeContents(n);
      const rects = [...range.getClientRects()].filter((r) => r.width > 0 && r.height > 0);
      // Every box from the text up to the card that hides what overflows it.
      const clips = [];
      for (let el = n.parentElement; el; el = el.parentElement) {
        const cs = getComputedStyle(el);
        if (cs.overflowX !== 'visible' || cs.overflowY !== 'visible' || el === card) clips.push(el);
        if (el === card) break;
      }
      for (const r of rects) {
        for (const el of clips) {
          const b = el.getBoundingClientRect();
          if (r.left < b.left - 0.5 || r.right > b.right + 0.5 || r.top < b.top - 0.5 || r.bottom > b.bottom + 0.5) {
            out.push([name, text, `outside ${el === card ? 'its card' : el.className || el.tagName}`]);
          }
        }
        for (const b of buttons) {
          const overlap = Math.min(r.right, b.right) - Math.max(r.left, b.left) > 0.5
            && Math.min(r.bottom, b.bottom) - Math.max(r.top, b.top) > 0.5;
          if (overlap) out.push([name, text, 'under its 🔍 button']);
        }
      }
      // An ellipsis hides the end of a text in a box too narrow for it.
      const el = n.parentElement;
      if (el && getComputedStyle(el).textOverflow === 'ellipsis' && el.scrollWidth > el.clientWidth + 1) {
        out.push([name, text, 'cut by an ellipsis']);
      }
    }
  }
  return out;
}

/** The states to look at, each reached from the default playground (paused). */
const STATES = {
  'delete-a-pod': async (page) => {
    const victim = await page.getByTestId('pod').first().getAttribute('aria-label');
    await type(page, `kubectl delete pod ${victim.replace('Pod ', '')} --wait=false\nsim advance 1s`);
    await page.getByTestId('replaced-by').first().waitFor();
  },
  'node-down': async (page) => {
    // Past node-monitor-grace-period: NotReady, its Pods not Ready, its taints.
    await type(page, 'sim node down node-2\nsim advance 65s');
    await page.locator('[data-testid=pod] .cond').first().waitFor({ timeout: 60_000 });
    await page.getByTestId('heartbeat').first().waitFor();
  },
  rollout: async (page) => {
    await type(page, 'kubectl set image deployment/web nginx=nginx:1.28\nsim advance 3s');
    await page.locator('[data-testid^=replicaset-]').nth(1).waitFor();
  },
  service: async (page) => {
    await type(page, 'kubectl expose deployment web --port=80\nsim traffic service/web --rps 20 --retries 1 --for 10m\nsim advance 8s');
    await page.getByTestId('service-card-web').waitFor();
    await page.getByTestId('pod-hits').first().waitFor();
  },
};

for (const lang of ['en', 'zh']) {
  for (const [state, reach] of Object.entries(STATES)) {
    test(`no card text is clipped after ${state} in ${lang}, at 1366, 1920, 700 and 390 px`, async () => {
      const { page, errors } = await openPage(browser, `${server.url}?autoplay=0&lang=${lang}`, { width: 1366, height: 768 });
      await page.getByTestId('pod').first().waitFor();
      await reach(page);
      const found = [];
      for (const [width, height] of WIDTHS) {
        await page.setViewportSize({ width, height });
        // The chain measures its width and lays out again.
        await page.waitForFunction((w) => document.querySelector('[data-testid=chain]')?.getBoundingClientRect().width <= w, width);
        await page.waitForTimeout(300);
        const bad = await page.evaluate(clipped);
        if (bad.length) {
          await page.screenshot({ path: shot(`clipped-${state}-${lang}-${width}.png`) });
          found.push(...bad.map(([card, text, why]) => `${width}px: ${card}: "${text}" ${why}`));
        }
      }
      assert.deepEqual(found, []);
      assert.deepEqual(errors, []);
      await page.close();
    });
  }
}

test('a shortened name keeps its full text in the tooltip and the accessible name', async () => {
  const { page } = await openPage(browser, `${server.url}?autoplay=0`, { width: 390, height: 844 });
  await page.setViewportSize({ width: 700, height: 900 });
  const pod = page.getByTestId('pod').first();
  await pod.waitFor();
  const label = await pod.getAttribute('aria-label');
  assert.match(label, /^Pod web-[a-z0-9]+-[a-z0-9]{5}$/);
  const name = pod.locator('.name');
  assert.equal(await name.getAttribute('title'), label.replace('Pod ', ''));
  await page.close();
});
