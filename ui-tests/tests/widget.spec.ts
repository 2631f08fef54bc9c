/**
 * The ipywidgets view (`%devices --widget`, the default in VS Code and Colab) rendered by a real
 * JupyterLab with a real kernel: the colour-coded table, Apply on one finding, Move all to meta
 * with the progress bar, and Refresh. Every click is checked against the kernel's namespace.
 */
import { expect, IJupyterLabPageFixture, test } from '@jupyterlab/galata';
import { Locator, Page } from '@playwright/test';
import * as path from 'path';

import { IMG } from './img';

/** The model went to meta; the batch and a loss weight stayed on the cpu. */
const SETUP = [
  '%load_ext devicelens',
  'import torch, torch.nn as nn',
  'torch.manual_seed(0)',
  'model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 4)).to("meta")',
  'batch = {"x": torch.randn(32, 8)}',
  'weight = torch.ones(4)',
  'view = %devices --widget',
  'view'
].join('\n');

const META_RGB = 'rgb(165, 138, 255)'; // #A58AFF, render/_rows.py META_COLOUR

function viewOf(page: Page): Locator {
  return page.locator('.dl-widget');
}

function finding(page: Page, kind: string, text: string): Locator {
  return viewOf(page).locator(`.dl-w-finding.dl-w-${kind}`, { hasText: text });
}

/** Run `code` in a new cell at the end of the notebook; what it printed. */
async function run(page: IJupyterLabPageFixture, code: string): Promise<string> {
  const n = await page.notebook.getCellCount();
  await page.notebook.addCell('code', code);
  await page.notebook.runCell(n);
  return ((await page.notebook.getCellTextOutput(n)) ?? []).join('').trim();
}

test('the widget view: table, Apply, move all to meta, refresh', async ({ page }) => {
  await page.notebook.createNew('widget.ipynb');
  await page.notebook.setCell(0, 'code', SETUP);
  await page.notebook.runCell(0);
  await expect(viewOf(page)).toBeVisible();

  // the table: colour-coded chips with the device as text
  const table = viewOf(page).locator('.dl-w-table');
  await expect(table).toContainText("batch['x']");
  await expect(table.locator('.dl-chip[title="meta"]').first()).toHaveCSS(
    'background-color',
    META_RGB
  );
  await expect(finding(page, 'loose_device', 'batch is not on meta')).toBeVisible();
  await expect(finding(page, 'loose_device', 'weight is not on meta')).toBeVisible();
  await viewOf(page).screenshot({ path: path.join(IMG, 'widget.png') });

  // each Apply sits inside its own card, under the fix it applies, aligned with the card's text
  for (const text of ['batch is not on meta', 'weight is not on meta']) {
    const card = finding(page, 'loose_device', text);
    const box = (await card.boundingBox())!;
    const body = (await card.locator('.dl-f').boundingBox())!;
    const apply = (await card.locator('.dl-w-apply').boundingBox())!;
    expect(Math.abs(apply.x - body.x)).toBeLessThan(2);
    expect(apply.y).toBeGreaterThanOrEqual(body.y + body.height - 1);
    expect(apply.y + apply.height).toBeLessThanOrEqual(box.y + box.height + 1);
  }

  // Apply one finding: that tensor moves, the other finding stays
  await finding(page, 'loose_device', 'batch is not on meta').locator('.dl-w-apply').click();
  await expect(viewOf(page).locator('.dl-w-status')).toContainText('Moved');
  await expect(finding(page, 'loose_device', 'batch is not on meta')).toHaveCount(0);
  await expect(finding(page, 'loose_device', 'weight is not on meta')).toBeVisible();
  expect(await run(page, "print(batch['x'].device, weight.device)")).toBe('meta cpu');

  // Move all to meta: dropdown, button, a full progress bar, nothing left to fix
  await viewOf(page).locator('.dl-w-device select').selectOption({ label: 'meta (drops the data)' });
  await viewOf(page).locator('.dl-w-move').click();
  await expect(viewOf(page).locator('.dl-w-status')).toContainText('to meta');
  await expect(viewOf(page).locator('.dl-w-progress .progress-bar')).toHaveAttribute(
    'style',
    /width: 100%/
  );
  await expect(viewOf(page).locator('.dl-w-finding')).toHaveCount(0);
  await expect(viewOf(page)).toContainText('No device or dtype problems found.');
  expect(await run(page, 'print(weight.device)')).toBe('meta');

  // Refresh: a tensor created after the view shows up
  await run(page, 'late = torch.zeros(2)');
  await viewOf(page).locator('.dl-w-refresh').click();
  await expect(viewOf(page).locator('.dl-w-table')).toContainText('late');
  await expect(finding(page, 'loose_device', 'late is not on meta')).toBeVisible();
});
