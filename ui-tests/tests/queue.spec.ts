/**
 * A move asked for while a cell runs. JupyterLab sends the panel's comm messages to a kernel
 * subshell, so they reach the kernel mid-cell: the panel must show the move as queued (with
 * Cancel) and the kernel must run it only after the cell. The cell prints the device before and
 * after its sleep: its own output proves nothing moved under it.
 */
import { expect, galata, IJupyterLabPageFixture, test } from '@jupyterlab/galata';
import * as path from 'path';

import { devicesOf, openNotebook, panelOf, row } from './helpers';
import { SHOTS } from './img';

const SETUP = '%load_ext devicelens\nimport torch\nx = torch.ones(1000)';
const LONG = "print('before', x.device, flush=True)\nimport time; time.sleep(8)\nprint('after', x.device)";

test.use({
  mockSettings: {
    ...galata.DEFAULT_SETTINGS,
    'devicelens:plugin': { showMetaDevice: true }
  }
});

/** Plan "move all to meta" while idle; then start the long cell and wait for its first line. */
async function planThenStartTheCell(page: IJupyterLabPageFixture, tmpPath: string, name: string) {
  await openNotebook(page, tmpPath, name, SETUP, LONG);
  await page.menu.clickMenuItem('View>Device Inspector');
  await expect(row(page, 'x')).toBeVisible();
  await panelOf(page).locator('.dl-move select').selectOption('meta');
  await panelOf(page).locator('.dl-move-go').click();
  const confirm = panelOf(page).locator('.dl-confirm');
  await expect(confirm).toContainText('Move 1 tensor of 1 object (3.9 KiB) to meta?');
  await page.notebook.runCell(1, { wait: false });
  await expect.poll(async () => (await page.notebook.getCellTextOutput(1))?.join('') ?? '', {
    timeout: 20000
  }).toContain('before cpu');
  return confirm;
}

async function outputOf(page: IJupyterLabPageFixture, cell: number): Promise<string> {
  return ((await page.notebook.getCellTextOutput(cell)) ?? []).join('');
}

test('a move asked for during a cell is queued and runs after it', async ({ page, tmpPath }) => {
  const confirm = await planThenStartTheCell(page, tmpPath, 'queued.ipynb');
  await confirm.locator('.dl-confirm-go').click();
  const queued = panelOf(page).locator('.dl-queued');
  await expect(queued).toContainText('Queued: a cell is running.');
  await expect(queued.locator('.dl-queued-cancel')).toBeEnabled();
  expect(await outputOf(page, 1)).not.toContain('after'); // NB: shown while the cell still runs
  expect(await devicesOf(page, 'x')).toEqual(['cpu']);
  await panelOf(page).screenshot({ path: path.join(SHOTS, 'panel-queued.png') });

  await expect.poll(() => outputOf(page, 1), { timeout: 30000 }).toContain('after');
  expect(await outputOf(page, 1)).toBe('before cpu\nafter cpu\n'); // nothing moved during it
  await expect(queued).toHaveCount(0);
  await expect(panelOf(page).locator('.dl-report.dl-ok')).toHaveText(
    /Moved 1 tensor to meta \(1 object, 3\.9 KiB\)\./
  );
  await expect.poll(() => devicesOf(page, 'x')).toEqual(['meta']);
});

test('a queued move can be cancelled: nothing moves', async ({ page, tmpPath }) => {
  const confirm = await planThenStartTheCell(page, tmpPath, 'cancelled.ipynb');
  await confirm.locator('.dl-confirm-go').click();
  const queued = panelOf(page).locator('.dl-queued');
  await expect(queued).toBeVisible();
  await queued.locator('.dl-queued-cancel').click();
  await expect(panelOf(page).locator('.dl-report.dl-cancelled')).toContainText(
    'Cancelled before it ran: nothing was changed.'
  );
  await expect(queued).toHaveCount(0);
  await expect.poll(() => outputOf(page, 1), { timeout: 30000 }).toContain('after');
  expect(await outputOf(page, 1)).toBe('before cpu\nafter cpu\n');
  const n = await page.notebook.getCellCount();
  await page.notebook.addCell('code', 'print(x.device)');
  await page.notebook.runCell(n);
  expect(await outputOf(page, n)).toBe('cpu\n');
  expect(await devicesOf(page, 'x')).toEqual(['cpu']);
});
