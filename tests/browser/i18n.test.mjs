// The UI speaks English and Simplified Chinese: `?lang=zh`, the browser's language, and
// the switch in the toolbar. kubectl output and Kubernetes reasons stay English.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch, openPage, shot } from './harness.mjs';

let server, browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

test('lang=zh shows the page in Simplified Chinese and the switch goes back to English', async () => {
  const { page, errors } = await openPage(browser, `${server.url}?lang=zh&views=board`);
  await page.getByTestId('ready-web').waitFor();
  assert.equal(await page.locator('html').getAttribute('lang'), 'zh-CN');
  assert.match(await page.locator('.tagline').innerText(), /期望状态/);
  assert.equal(await page.getByTestId('play').innerText(), '暂停');
  assert.match(await page.getByTestId('ready-web').innerText(), /^就绪 \d\/3$/);
  await page.getByTestId('ready-web').filter({ hasText: '就绪 3/3' }).waitFor({ timeout: 20_000 });
  // Accessible names are translated too, and carry kind and name.
  await page.getByRole('button', { name: '检查 Node node-2', exact: true }).click();
  const panel = page.getByTestId('inspector');
  assert.equal(await panel.getByTestId('action-drain').innerText(), '排空（drain）');
  // kubectl output stays in kubectl's English.
  await panel.getByTestId('action-cordon').click();
  const out = page.getByTestId('console-output');
  await out.getByText('node/node-2 cordoned').waitFor();
  await page.getByTestId('node-board').getByText('已封锁').waitFor();
  await page.screenshot({ path: shot('i18n-zh.png'), fullPage: true });
  await page.getByTestId('lang-en').click();
  assert.equal(await page.locator('html').getAttribute('lang'), 'en');
  assert.equal(await page.getByTestId('play').innerText(), 'Pause');
  assert.match(await page.getByTestId('ready-web').innerText(), /^ready 3\/3$/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a browser set to Chinese gets Chinese without a parameter', async () => {
  const context = await browser.newContext({ locale: 'zh-CN' });
  const page = await context.newPage();
  await page.goto(`${server.url}?views=events`);
  await page.getByTestId('ready-web').waitFor();
  assert.equal(await page.getByTestId('lang-zh').getAttribute('aria-pressed'), 'true');
  assert.match(await page.locator('.events h2').innerText(), /^事件/);
  await context.close();
});
