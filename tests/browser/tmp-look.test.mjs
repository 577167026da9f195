import { test, before, after } from 'node:test';
import { serve, launch, openPage } from './harness.mjs';
let server, browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser.close(); await server.close(); });
test('look', async () => {
  const { page } = await openPage(browser, `${server.url}?scenario=predict-the-gateway-story&lang=zh&speed=30&slowmo=0`, { width: 1366, height: 768 });
  await page.getByTestId('predict-number-0').fill('2');
  await page.getByTestId('step-0').click();
  await page.getByTestId('predict-result-0').getByText(/实际发生/).waitFor({ timeout: 20000 });
  await page.waitForTimeout(800);
  await page.screenshot({ path: '/tmp/look-predict-zh.png' });
  const p2 = await openPage(browser, `${server.url}?scenario=diagnosing-a-pod&lang=zh`, { width: 1366, height: 768 });
  await p2.page.getByTestId('pod').first().waitFor();
  await p2.page.waitForTimeout(1500);
  await p2.page.screenshot({ path: '/tmp/look-diag-zh.png' });
});
