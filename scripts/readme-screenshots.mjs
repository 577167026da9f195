// Retake the README's pictures of the page from dist/ (build it first with
// `trunk build --release --offline`): `node scripts/readme-screenshots.mjs`.
// Each picture is a viewport of a real screen size, so it shows what a learner sees.
import path from 'node:path';
import { serve, launch, openPage, type, root } from '../tests/browser/harness.mjs';

const docs = path.join(root, 'docs');
const out = (name) => path.join(docs, name);
const server = await serve();
const browser = await launch();
const size = { width: 1366, height: 768 };

async function pause(page) {
  if ((await page.getByTestId('play').getAttribute('aria-pressed')) === 'true') {
    await page.getByTestId('play').click();
  }
}

// A Pod deleted: the old one Terminating, pointing at its replacement (new uid).
{
  const { page } = await openPage(browser, server.url, size);
  await page.getByTestId('ready-web').waitFor();
  await page.getByRole('button', { name: /^Pod web-/ }).first().click();
  await page.getByTestId('replaced-by').first().waitFor();
  await pause(page);
  await page.screenshot({ path: out('screenshot-delete-pod.png') });
  await page.close();
}

// Chinese: node-2 cordoned, in the inspector.
{
  const { page } = await openPage(browser, `${server.url}?lang=zh`, size);
  await page.getByTestId('pod').first().waitFor();
  await type(page, 'kubectl cordon node-2');
  await page.getByRole('button', { name: '检查 Node node-2', exact: true }).click();
  await page.getByTestId('inspector').waitFor();
  await pause(page);
  await page.screenshot({ path: out('screenshot-zh.png') });
  await page.close();
}

// A node powered off: its heartbeat countdown, then NotReady and the eviction countdown.
{
  const { page } = await openPage(browser, server.url, size);
  await page.getByTestId('pod').first().waitFor();
  await page.getByTestId('speed-30').click();
  await page.locator('[data-testid=node]').nth(1).click();
  await page.locator('[data-testid=node][data-status=NotReady]').waitFor({ timeout: 30_000 });
  await pause(page);
  await page.getByRole('button', { name: 'Inspect Node node-2', exact: true }).click();
  await page.getByTestId('inspector').waitFor();
  await page.screenshot({ path: out('screenshot-node-down.png') });
  await page.close();
}

// The first lesson in Chinese, every goal reached.
{
  const { page } = await openPage(browser, `${server.url}?scenario=gateway-delete-pod&lang=zh&speed=5`, size);
  await page.getByTestId('step-1').click();
  await page.getByTestId('goals').getByText('目标：已达成 5/5').waitFor({ timeout: 60_000 });
  await pause(page);
  await page.screenshot({ path: out('screenshot-lesson-zh.png') });
  await page.close();
}

// The workbench in a 700 px frame and on a phone with the sheet open.
{
  const { page } = await openPage(browser, `${server.url}?embed=1&lang=zh&scenario=gateway-delete-pod&panels=chain,goals,board,picker`, { width: 700, height: 900 });
  await page.getByTestId('pod').first().waitFor();
  await page.waitForTimeout(1500);
  await page.screenshot({ path: out('screenshot-embed-700.png') });
  await page.close();
}
{
  const { page } = await openPage(browser, server.url, { width: 390, height: 844 });
  await page.getByTestId('pod').first().waitFor();
  await page.getByRole('button', { name: /^Inspect Pod web-/ }).first().click();
  await page.getByTestId('inspector').waitFor();
  await pause(page);
  await page.screenshot({ path: out('screenshot-phone.png') });
  await page.close();
}

await browser.close();
await server.close();
console.log('retook the README pictures in docs/');
