// Retake the pictures of the page in README.md and docs/ from dist/ (build it first with
// `trunk build --release --offline`): `node scripts/readme-screenshots.mjs`.
// Each picture is a viewport of a real screen size, so it shows what a learner sees.
import path from 'node:path';
import { serve, launch, openPage, type, root } from '../tests/browser/harness.mjs';

const docs = path.join(root, 'docs');
const out = (name) => path.join(docs, name);
const server = await serve();
const browser = await launch();
const size = { width: 1366, height: 768 };
// `node scripts/readme-screenshots.mjs why` retakes only the pictures whose name has "why".
const only = process.argv[2];
const wanted = (name) => !only || name.includes(only);

async function pause(page) {
  if ((await page.getByTestId('play').getAttribute('aria-pressed')) === 'true') {
    await page.getByTestId('play').click();
  }
}

// A Pod deleted: the old one Terminating, pointing at its replacement (new uid).
if (wanted('delete-pod')) {
  const { page } = await openPage(browser, server.url, size);
  await page.getByTestId('ready-web').waitFor();
  await page.getByRole('button', { name: /^Pod web-/ }).first().click();
  await page.getByTestId('replaced-by').first().waitFor();
  await pause(page);
  await page.screenshot({ path: out('screenshot-delete-pod.png') });
  await page.close();
}

// Chinese: node-2 cordoned, in the inspector.
if (wanted('zh')) {
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
if (wanted('node-down')) {
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
if (wanted('lesson-zh')) {
  const { page } = await openPage(browser, `${server.url}?scenario=gateway-delete-pod&lang=zh&speed=5`, size);
  await page.getByTestId('step-1').click();
  await page.getByTestId('goals').getByText('目标：已达成 5/5').waitFor({ timeout: 60_000 });
  await pause(page);
  await page.screenshot({ path: out('screenshot-lesson-zh.png') });
  await page.close();
}

// The workbench in a 700 px frame and on a phone with the sheet open.
if (wanted('embed-700')) {
  const { page } = await openPage(browser, `${server.url}?embed=1&lang=zh&scenario=gateway-delete-pod&panels=chain,goals,board,picker`, { width: 700, height: 900 });
  await page.getByTestId('pod').first().waitFor();
  await page.waitForTimeout(1500);
  await page.screenshot({ path: out('screenshot-embed-700.png') });
  await page.close();
}
if (wanted('phone')) {
  const { page } = await openPage(browser, server.url, { width: 390, height: 844 });
  await page.getByTestId('pod').first().waitFor();
  await page.getByRole('button', { name: /^Inspect Pod web-/ }).first().click();
  await page.getByTestId('inspector').waitFor();
  await pause(page);
  await page.screenshot({ path: out('screenshot-phone.png') });
  await page.close();
}

// Why a Pod is stuck: a rollout to an image the registry does not have.
if (wanted('why')) {
  const { page } = await openPage(browser, server.url, size);
  await page.getByTestId('pod').first().waitFor();
  await type(page, 'sim image-fail nginx:nope\nkubectl set image deployment/web nginx=nginx:nope');
  await page.getByTestId('speed-5').click();
  const stuck = page.locator('[data-testid=pod][data-status=ImagePullBackOff], [data-testid=pod][data-status=ErrImagePull]').first();
  await stuck.waitFor({ timeout: 30_000 });
  await pause(page);
  const name = (await stuck.getAttribute('aria-label')).replace('Pod ', '');
  await page.getByRole('button', { name: `Inspect Pod ${name}`, exact: true }).click();
  await page.getByTestId('tab-why').click();
  await page.getByTestId('why-stuck').waitFor();
  await page.screenshot({ path: out('screenshot-why.png') });
  await page.close();
}

// A Service in front of its Pods, one of them on a powered-off node.
if (wanted('chain-service')) {
  const { page } = await openPage(browser, server.url, size);
  await page.getByTestId('pod').first().waitFor();
  await type(page, 'kubectl expose deployment web --port 80');
  await type(page, 'sim traffic service/web --rps 20 --for 10m');
  await page.getByTestId('speed-5').click();
  await page.locator('[data-testid=node]').nth(1).click();
  await page.locator('[data-testid=pod-hits].fail').first().waitFor({ timeout: 30_000 });
  await pause(page);
  await page.locator('section.chain').screenshot({ path: out('screenshot-chain-service.png') });
  await page.close();
}

// The Services panel after a rollout restart under traffic: Ready 3/3 throughout, the
// requests reset on stopping Pods, the messages accepted twice and lost.
if (wanted('services')) {
  const { page } = await openPage(browser, server.url, size);
  await page.getByTestId('pod').first().waitFor();
  await type(page, 'kubectl expose deployment web --port=80\nsim traffic service/web --rps 20 --retries 1 --for 10m\nsim app service/web');
  const card = page.getByTestId('svc-web');
  await card.getByTestId('svc-traffic').filter({ hasText: /\d+ requests, \d+ answered, 0 failed/ }).waitFor({ timeout: 30_000 });
  await page.getByTestId('speed-5').click();
  await type(page, 'kubectl rollout restart deployment/web');
  const twice = card.getByTestId('svc-business').locator('tr', { hasText: 'accepted twice' }).locator('td');
  await page.waitForFunction((el) => Number(el.textContent) > 0, await twice.elementHandle(), { timeout: 60_000 });
  await card.getByText('deployment/web: Ready 3/3').waitFor();
  await pause(page);
  await page.getByTestId('services').screenshot({ path: out('screenshot-services.png') });
  await page.close();
}

// A large cluster drawn as counts: 1,200 nodes, two powered off, one cordoned.
if (wanted('large-cluster')) {
  const { page } = await openPage(browser, server.url, { width: 1366, height: 900 });
  await page.getByTestId('pod').first().waitFor();
  await type(page, 'sim reset --nodes 1200 --zones 3');
  await type(page, 'kubectl create deployment app --image=nginx:1.27 --replicas=3000\nkubectl create deployment api --image=nginx:1.27 --replicas=1200\nkubectl cordon node-17\nsim node down node-1000\nsim node down node-1001');
  await page.getByTestId('speed-60').click();
  await page.getByTestId('aggregated').waitFor({ timeout: 60_000 });
  await page.locator('[data-testid=board-node-1000][data-status=NotReady]').waitFor({ timeout: 180_000 });
  await pause(page);
  await page.screenshot({ path: out('screenshot-large-cluster.png') });
  await page.close();
}

await browser.close();
await server.close();
console.log('retook the pictures in docs/');
