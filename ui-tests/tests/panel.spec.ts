/**
 * The devicelens panel in a real JupyterLab 4 / Notebook 7 with a real kernel: rows and
 * colours, a finding applied and inserted, move all (to meta), kernel restart, two notebooks, a
 * long namespace in pages.
 * Devices: cpu + meta (a real second device on a CPU-only machine).
 */
import { expect, galata, IJupyterLabPageFixture, test } from '@jupyterlab/galata';
import * as path from 'path';

import {
  devicesOf,
  notebookJSON,
  openNotebook,
  openUploaded,
  panelOf,
  QUICKSTART,
  row,
  setPanelWidth
} from './helpers';
import { IMG } from './img';

/** A model split across cpu and meta, a batch and an optimizer (the scenario). */
const SETUP = [
  '%load_ext devicelens',
  'import torch, torch.nn as nn',
  'torch.manual_seed(0)',
  'model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 4))',
  "model[2].to('meta')",
  'batch = torch.randn(32, 8)',
  'opt = torch.optim.SGD(model.parameters(), lr=0.1)'
].join('\n');

const SPLIT = '.dl-finding[data-kind="module_split"]';
const CPU_RGB = 'rgb(111, 111, 111)'; // #6F6F6F, tokens.ts CPU_COLOUR
const META_RGB = 'rgb(165, 138, 255)'; // #A58AFF, tokens.ts META_COLOUR

/** New notebook with `source` run in its first cell, and the panel opened from the View menu. */
async function notebookWithPanel(page: IJupyterLabPageFixture, name: string, source: string) {
  await page.notebook.createNew(name);
  await page.notebook.setCell(0, 'code', source);
  await page.notebook.runCell(0);
  await page.menu.clickMenuItem('View>Device Inspector');
  await expect(panelOf(page)).toBeVisible();
}

test.describe('JupyterLab', () => {
  test('rows, colours and the finding; insert as cell; apply', async ({ page }) => {
    await notebookWithPanel(page, 'split.ipynb', SETUP);
    await expect(row(page, 'model')).toBeVisible();
    await expect(row(page, 'batch')).toBeVisible();
    await expect(row(page, 'opt')).toBeVisible();
    expect(await devicesOf(page, 'model')).toEqual(['cpu', 'meta']);
    expect(await devicesOf(page, 'batch')).toEqual(['cpu']);
    await expect(row(page, 'model')).toHaveClass(/dl-flagged/);
    await expect(row(page, 'batch')).not.toHaveClass(/dl-flagged/);
    const chip = (d: string) => row(page, 'model').locator(`.dl-chip[data-device="${d}"]`);
    await expect(chip('cpu')).toHaveCSS('background-color', CPU_RGB);
    await expect(chip('meta')).toHaveCSS('background-color', META_RGB);

    const finding = panelOf(page).locator(SPLIT);
    await expect(finding).toContainText('model is partly moved');
    const fix = (await finding.locator('.dl-fix').innerText()).trim();
    expect(fix).toMatch(/^model\.to\(/);

    // expand the model: one row per submodule, the cpu part flagged
    await setPanelWidth(page, 600);
    await row(page, 'model').locator('.dl-toggle').click();
    await expect(row(page, 'model.0')).toHaveClass(/dl-flagged/);
    expect(await devicesOf(page, 'model.2')).toEqual(['meta']);
    await panelOf(page).screenshot({ path: path.join(IMG, 'panel-light.png') });

    // Insert as cell: the fix rehearsed on a forked copy of the kernel first, then a new cell
    // below the active one with the fix headed by its verdict, not run
    const before = await page.notebook.getCellCount(); // runCell left the last cell active
    await finding.locator('.dl-insert').click();
    await expect.poll(() => page.notebook.getCellCount()).toBe(before + 1);
    const [head, ...code] = (await page.notebook.getCellTextInput(before)).trim().split('\n');
    expect(head).toMatch(/^# devicelens: verified: rehearsed on a copy of this kernel's state/);
    expect(code.join('\n')).toBe(fix);
    expect(await page.notebook.getCellTextOutput(before)).toBeNull();
    expect(await devicesOf(page, 'model')).toEqual(['cpu', 'meta']); // the copy's move only

    // Apply: the fix moves model.0 to meta, which discards its values: like move all to meta,
    // it asks first (in the card), and nothing runs until confirmed
    await finding.locator('.dl-apply').click();
    const ask = finding.locator('.dl-confirm[data-action="apply_fix"]');
    await expect(ask).toContainText('Apply this fix: move 2 tensors of 1 object (576 B) to meta?');
    await expect(ask.locator('.dl-caution')).toContainText('values of every moved tensor are discarded');
    expect(await devicesOf(page, 'model')).toEqual(['cpu', 'meta']);
    // then it runs in the kernel through the protocol; the finding goes, the rows follow
    await ask.locator('.dl-confirm-go').click();
    await expect(panelOf(page).locator(SPLIT)).toHaveCount(0);
    await expect(panelOf(page).locator('.dl-report.dl-ok')).toContainText('Moved');
    await expect.poll(() => devicesOf(page, 'model')).toHaveLength(1);
    await expect(row(page, 'model')).not.toHaveClass(/dl-flagged/);

    // %devices in the notebook: names stay left-aligned (JupyterLab right-aligns output tables),
    // so nesting shows; memory alone to the right
    const n = await page.notebook.getCellCount();
    await page.notebook.addCell('code', '%devices');
    await page.notebook.runCell(n);
    const table = page.locator('.jp-OutputArea-output table.dl-t');
    await expect(table.locator('tbody td').first()).toHaveCSS('text-align', 'left');
    await expect(table.locator('tbody td.dl-num').first()).toHaveCSS('text-align', 'right');
  });

  test.describe('with the meta device enabled, dark theme', () => {
    test.use({
      mockSettings: {
        ...galata.DEFAULT_SETTINGS,
        'devicelens:plugin': { showMetaDevice: true },
        '@jupyterlab/apputils-extension:themes': { theme: 'JupyterLab Dark' }
      }
    });

    test('move all to meta: dry run, confirmation, progress, report', async ({ page }) => {
      await notebookWithPanel(page, 'move.ipynb', SETUP);
      await expect(panelOf(page).locator(SPLIT)).toBeVisible();
      await setPanelWidth(page, 600);
      await row(page, 'opt').locator('.dl-toggle').click();
      await expect(row(page, 'opt.param_groups[0].params[0]')).toBeVisible();
      await panelOf(page).screenshot({ path: path.join(IMG, 'panel-dark.png') });

      await panelOf(page).locator('.dl-move select').selectOption('meta');
      await panelOf(page).locator('.dl-move-go').click();
      const confirm = panelOf(page).locator('.dl-confirm');
      // model.0's weight and bias, and the batch: model.2 is on meta already
      await expect(confirm).toContainText('Move 3 tensors of 2 objects (1.6 KiB) to meta?');
      await expect(confirm.locator('.dl-caution')).toContainText('discarded');
      await confirm.locator('.dl-confirm-go').click();
      await expect(panelOf(page).locator('.dl-report.dl-ok')).toContainText(
        'Moved 3 tensors to meta (2 objects, 1.6 KiB).'
      );
      for (const name of ['model', 'batch', 'opt.param_groups[0].params[0]']) {
        await expect.poll(() => devicesOf(page, name)).toEqual(['meta']);
      }
      // every row, expanded or not, is on the target, and so are the totals
      const all = () =>
        panelOf(page)
          .locator('tr.dl-row .dl-chip')
          .evaluateAll(cs => [...new Set(cs.map(c => c.getAttribute('data-device')))]);
      await expect.poll(all).toEqual(['meta']);
      await expect(panelOf(page).locator('.dl-total')).toHaveCount(1);
      await expect(panelOf(page).locator('.dl-total')).toHaveAttribute('data-device', 'meta');
    });
  });

  test("an optimizer moved to meta: its step counters' cpu chip, the reason on hover", async ({
    page
  }) => {
    const stepped = [
      '%load_ext devicelens',
      'import torch',
      'torch.__future__.set_swap_module_params_on_conversion(True)',
      'model = torch.nn.Linear(4, 2)',
      'opt = torch.optim.AdamW(model.parameters())',
      'model(torch.randn(3, 4)).sum().backward()',
      'opt.step()',
      '%devices --to meta'
    ].join('\n');
    await notebookWithPanel(page, 'counters.ipynb', stepped);
    await expect(row(page, 'opt')).toBeVisible();
    // collapsed: the state on meta, and the step counters apart on cpu, saying why
    await expect.poll(() => devicesOf(page, 'opt')).toEqual(['meta', 'cpu']);
    const counters = row(page, 'opt').locator('.dl-chip-aside');
    await expect(counters).toHaveAttribute('data-device', 'cpu');
    await expect(counters).toHaveAttribute('title', /step counters.*on the cpu/);
    await expect(row(page, 'opt')).not.toHaveClass(/dl-flagged/);
  });

  test('kernel restart, %load_ext, and two notebooks', async ({ page, tmpPath }) => {
    await notebookWithPanel(page, 'first.ipynb', SETUP);
    await expect(row(page, 'model')).toBeVisible();

    await page.evaluate(() => {
      void (window as any).jupyterapp.commands.execute('kernelmenu:restart'); // NB: opens a dialog
    });
    await page.locator('.jp-Dialog .jp-mod-accept').click();
    await expect(panelOf(page).locator('.dl-state')).toContainText(/restarting|Connecting/);
    // NB: JupyterLab 4.6's kernel connection can keep what it queued during a restart queued
    // (status stuck at 'starting', devicelens or not): a reconnect sends it on.
    await page.waitForTimeout(1000);
    await page.evaluate(() =>
      (window as any).jupyterapp.shell.currentWidget.sessionContext.session.kernel.reconnect()
    );
    const load = panelOf(page).locator('.dl-load');
    await expect(load).toBeVisible();
    await expect(row(page, 'model')).toHaveCount(0);
    await load.click(); // runs `%load_ext devicelens`: connected, empty namespace
    await expect(panelOf(page)).toContainText('No tensors, modules or optimizers');
    await page.notebook.runCell(0);
    await expect(row(page, 'model')).toBeVisible();
    // torch came after the panel connected: the Move-all list fills all the same, and says why
    // it offers cpu alone
    const options = panelOf(page).locator('.dl-move select option');
    await expect(options).toHaveText(['cpu']);
    await expect(panelOf(page).locator('.dl-move-go')).toBeEnabled();
    await expect(panelOf(page).locator('.dl-move-why')).toContainText('sees no GPU');
    await expect(panelOf(page).locator('.dl-move-why')).toContainText('Offer the meta device');

    // a second notebook: the panel follows it, and comes back with the first
    const second = "%load_ext devicelens\nimport torch\nother = torch.zeros(3, 5, device='meta')";
    await page.contents.uploadContent(notebookJSON(second), 'text', `${tmpPath}/second.ipynb`);
    await openUploaded(page, `${tmpPath}/second.ipynb`);
    await page.notebook.activate('second.ipynb');
    await page.notebook.runCell(0);
    await expect(row(page, 'other')).toBeVisible();
    await expect(row(page, 'model')).toHaveCount(0);
    expect(await devicesOf(page, 'other')).toEqual(['meta']);
    await expect(panelOf(page).locator('.dl-notebook')).toHaveText('second.ipynb');

    await page.notebook.activate('first.ipynb');
    await expect(row(page, 'model')).toBeVisible();
    await expect(row(page, 'other')).toHaveCount(0);
    await expect(panelOf(page).locator('.dl-notebook')).toHaveText('first.ipynb');
  });
});

test.describe('JupyterLab, the quickstart namespace', () => {
  test('the filter matches every row alike, optimizer state included', async ({ page, tmpPath }) => {
    await openNotebook(page, tmpPath, 'filter.ipynb', QUICKSTART);
    await page.menu.clickMenuItem('View>Device Inspector');
    await expect(row(page, 'optimizer')).toBeVisible();
    await panelOf(page).locator('.dl-filter').fill('exp_avg');
    await expect(row(page, 'optimizer')).toBeVisible();
    await expect(row(page, 'model')).toHaveCount(0);
    await expect(row(page, 'batch')).toHaveCount(0);
    await row(page, 'optimizer').locator('.dl-toggle').click();
    const keys = () =>
      panelOf(page)
        .locator('tr.dl-row')
        .evaluateAll(rs => rs.map(r => r.getAttribute('data-key') ?? ''));
    // 28 parameters, each with exp_avg and exp_avg_sq: only those rows, and the optimizer's
    await expect.poll(async () => (await keys()).length).toBe(1 + 2 * 28);
    expect((await keys()).slice(1).every(k => k.includes("['exp_avg"))).toBe(true);
    await panelOf(page).locator('.dl-filter').fill('TransformerEncoder'); // a submodule's type
    await expect(row(page, 'model')).toBeVisible();
    await expect(row(page, 'optimizer')).toHaveCount(0);
  });
});

test.describe('JupyterLab, a long namespace', () => {
  test('the kernel sends a page of rows, more as the end scrolls into view; sorts and filters', async ({
    page
  }) => {
    await notebookWithPanel(
      page,
      'long.ipynb',
      '%load_ext devicelens\nimport torch\nglobals().update({f"t{i:04d}": torch.zeros(2) for i in range(1000)})'
    );
    const rows = panelOf(page).locator('tr.dl-row');
    const where = panelOf(page).locator('.dl-pager-where');
    await expect(rows).toHaveCount(200);
    await expect(where).toHaveText('Rows 1–200 of 1,000');
    await row(page, 't0199').scrollIntoViewIfNeeded(); // the end comes into view: more rows
    await expect(rows).toHaveCount(400);
    await expect(where).toHaveText('Rows 1–400 of 1,000');
    await panelOf(page).locator('.dl-sort', { hasText: 'Name' }).click(); // descending, in the kernel
    await expect(rows.first()).toHaveAttribute('data-key', 't0999');
    await panelOf(page).locator('.dl-filter').fill('t09');
    await expect(where).toHaveCount(0); // 100 rows match: one page, no pager
    await expect(rows).toHaveCount(100);
    await expect(rows.first()).toHaveAttribute('data-key', 't0999');
  });
});

test.describe('Notebook 7', () => {
  test.use({ autoGoto: false });

  test('the panel opens from the View menu and shows the same rows', async ({
    context,
    request,
    tmpPath
  }) => {
    const file = `${tmpPath}/nb7.ipynb`;
    const put = await request.put(`/api/contents/${file}`, {
      data: { type: 'notebook', format: 'json', content: JSON.parse(notebookJSON(SETUP)) }
    });
    expect(put.ok()).toBe(true);
    const page = await context.newPage(); // NB: a plain page: galata's goto leads into /lab
    await page.goto(`/notebooks/${file}`);
    const prompt = page.locator('.jp-Cell .jp-InputPrompt').first();
    await prompt.waitFor();
    // NB: retried: a click before the kernel is connected may be dropped
    await expect(async () => {
      await page.getByRole('menuitem', { name: 'Run', exact: true }).click();
      await page.locator('.lm-Menu-item[data-command="runmenu:run-all"]').click();
      await expect(prompt).toHaveText(/\[\d+\]/, { timeout: 20000 });
    }).toPass({ timeout: 80000 });

    await page.getByRole('menuitem', { name: 'View' }).click();
    await page.getByRole('menuitem', { name: 'Device Inspector' }).click();
    await expect(panelOf(page)).toBeVisible();
    await expect(row(page, 'model')).toBeVisible();
    expect(await devicesOf(page, 'model')).toEqual(['cpu', 'meta']);
    await expect(row(page, 'batch')).toBeVisible();
    await expect(row(page, 'opt')).toBeVisible();
    await expect(panelOf(page).locator(SPLIT)).toBeVisible();
    await page.screenshot({ path: path.join(IMG, 'panel-notebook7.png') });
  });
});
