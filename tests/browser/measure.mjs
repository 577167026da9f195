// What a learner meets first, measured the same way by the browser tests (which assert
// behaviour: counts and positions) and by scripts/bench.mjs (which prints the figures,
// timings included): Tabs from the skip link to the first Pod, an embedded lesson's
// frame in a 700 px column, and when the page first shows something and first answers.

/** Press Tab from the top of the page to the skip link, follow it, then Tab until a Pod
 * card has the focus; the Tabs after the skip link (null: none within `max`). */
export async function tabsFromSkipToFirstPod(page, max = 60) {
  await page.getByTestId('pod').first().waitFor();
  await page.evaluate(() => { document.activeElement?.blur(); window.scrollTo(0, 0); });
  await page.keyboard.press('Tab');
  const skip = await page.evaluate(() => document.activeElement?.textContent ?? '');
  if (!/Skip to the cluster|跳到集群/.test(skip)) return { tabs: null, skip };
  await page.keyboard.press('Enter');
  for (let i = 1; i <= max; i++) {
    await page.keyboard.press('Tab');
    const onPod = await page.evaluate(() => document.activeElement?.getAttribute('data-testid') === 'pod');
    if (onPod) return { tabs: i, skip };
  }
  return { tabs: null, skip };
}

/** A course page with the playground in a `width` px column, embed.js sizing it. */
export function hostPage(query, { width = 700, script = true } = {}) {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>course</title></head>
<body style="margin:0;font-family:sans-serif">
<div id="col" style="width:${width}px;margin:0 auto"><p>A course page.</p>
<iframe data-kubeplay id="kp" src="./?${query}" title="kubeplay" style="width:100%;border:0"></iframe>
<p>After the frame.</p></div>
${script ? '<script src="embed.js" async></script>' : ''}
</body></html>`;
}

/** The framed page once embed.js has sized it and its height has held for a second:
 * the frame's height, the top of its first Run button inside the frame (null: none),
 * and the frame's first screen (its own height). */
export async function embedFigures(page) {
  const frame = page.locator('#kp');
  await page.locator('#kp[data-kubeplay-ready="1"]').waitFor({ timeout: 30_000 });
  const inner = page.frameLocator('#kp');
  await inner.getByTestId('pod').first().waitFor({ timeout: 30_000 });
  let last = -1;
  for (let i = 0; i < 40; i++) {
    const h = await frame.evaluate((f) => f.getBoundingClientRect().height);
    if (h === last) break;
    last = h;
    await page.waitForTimeout(500);
  }
  const height = await frame.evaluate((f) => Math.round(f.getBoundingClientRect().height));
  const run = inner.locator('button[data-testid^="step-"]').first();
  const runTop = (await run.count())
    ? await run.evaluate((b) => Math.round(b.getBoundingClientRect().top + document.scrollingElement.scrollTop))
    : null;
  const goals = inner.getByTestId('goals');
  const goalsBottom = (await goals.count())
    ? await goals.evaluate((g) => Math.round(g.getBoundingClientRect().bottom + document.scrollingElement.scrollTop))
    : null;
  return { height, runTop, goalsBottom };
}

/** Installed before any script: when the page first paints something (first contentful
 * paint), and when a Pod card is first on the page with the main thread free to answer
 * a click (a task queued when the card appears runs). In ms from navigation start. */
export const LOAD_PROBE = () => {
  window.__load = {};
  new PerformanceObserver((l) => {
    for (const e of l.getEntries()) if (e.name === 'first-contentful-paint') window.__load.content = e.startTime;
  }).observe({ type: 'paint', buffered: true });
  const look = () => {
    if (window.__load.pod || !document.querySelector('[data-testid=pod]')) return false;
    window.__load.pod = performance.now();
    setTimeout(() => { window.__load.interactive = performance.now(); }, 0);
    return true;
  };
  new MutationObserver((_, o) => { if (look()) o.disconnect(); })
    .observe(document, { subtree: true, childList: true });
};

/** Wait for the probe's figures. */
export async function loadTimes(page, timeout = 120_000) {
  await page.waitForFunction(() => window.__load?.interactive !== undefined && window.__load?.content !== undefined, null, { timeout });
  return page.evaluate(() => window.__load);
}
