/**
 * The panel at the widths a sidebar really has (250 px is JupyterLab's default): nothing
 * sticks out past its right edge, no horizontal scrollbar, the table folds its columns, findings
 * keep their fix code inside their box (lines never wrapped: a long one scrolls in the box). Light and dark, with a screenshot of each width.
 * The namespace is notebooks/quickstart.ipynb's, after `model.to(meta)`: every kind of finding,
 * long paths and long fix lines without spaces.
 */
import { expect, galata, IJupyterLabPageFixture, test } from '@jupyterlab/galata';
import { Page } from '@playwright/test';
import * as path from 'path';

import {
  fixLines,
  openNotebook,
  overflowOf,
  panelOf,
  QUICKSTART,
  row,
  setPanelWidth
} from './helpers';
import { IMG, SHOTS } from './img';

const WIDTHS = [250, 400, 700];

/** Which table columns take room (the others are collapsed), by their sort key. */
async function columnsShown(page: Page): Promise<string[]> {
  return panelOf(page)
    .locator('.dl-table th')
    .evaluateAll(ths =>
      ths
        .filter(th => th.getBoundingClientRect().width > 0)
        .map(th => (th.getAttribute('class') ?? '').split(' ')[0].replace('dl-col-', ''))
    );
}

async function quickstartWithPanel(page: IJupyterLabPageFixture, tmpPath: string, name: string) {
  await openNotebook(page, tmpPath, name, QUICKSTART);
  await page.menu.clickMenuItem('View>Device Inspector');
  await expect(panelOf(page)).toBeVisible();
  await expect(row(page, 'model')).toBeVisible();
  await expect(panelOf(page).locator('.dl-finding')).toHaveCount(6);
  await row(page, 'model').locator('.dl-toggle').click();
  await expect(row(page, 'model.encoder')).toBeVisible();
}

const EXPECTED_COLUMNS: { [width: number]: string[] } = {
  250: ['name', 'device'],
  400: ['name', 'device', 'bytes'],
  700: ['name', 'kind', 'device', 'dtype', 'shape', 'bytes']
};

async function checkWidths(page: IJupyterLabPageFixture, theme: string) {
  for (const width of WIDTHS) {
    const got = await setPanelWidth(page, width);
    expect(Math.abs(got - width)).toBeLessThan(2);
    await expect.poll(() => columnsShown(page)).toEqual(EXPECTED_COLUMNS[width]);
    const overflow = await overflowOf(page);
    console.log(`${theme} ${width}px: panel ${overflow.width}px wide, ` +
      `horizontal overflow ${overflow.scroll}px, elements past the edge: ${overflow.past.length}`);
    expect(overflow.past).toEqual([]);
    expect(overflow.scroll).toBe(0);
    // fix code: as many lines drawn as written (no token cut in two), each line's indentation
    // as written; at 250 px the longest lines scroll inside their box instead
    const fixes = await fixLines(page);
    expect(fixes.length).toBeGreaterThan(0);
    for (const fix of fixes) {
      expect(fix.drawn).toBe(fix.source);
      for (const [px, spaces] of fix.indents) {
        expect(Math.abs(px - spaces * fix.charWidth)).toBeLessThan(1.5);
      }
    }
    if (width === 250) {
      expect(fixes.some(f => f.scrolls)).toBe(true);
      expect(fixes.some(f => f.indents.some(([, spaces]) => spaces > 0))).toBe(true);
    }
    // what a folded column said is still there, under the name
    const sub = row(page, 'class_weights').locator('.dl-sub');
    if (width < 560) {
      await expect(sub).toBeVisible();
      await expect(sub).toContainText('float32');
      await expect(sub).toContainText('(4,)');
    } else {
      await expect(sub).toBeHidden();
    }
    await expect(row(page, 'class_weights').locator('.dl-sub-bytes')).toBeVisible({
      visible: width < 330
    });
    await panelOf(page).evaluate(e => e.scrollTo(0, 0));
    // NB: the sidebar's default width in the README; every width for whoever looks after a run
    const dir = width === 250 && theme === 'light' ? IMG : SHOTS;
    await panelOf(page).screenshot({ path: path.join(dir, `panel-${width}-${theme}.png`) });
  }
}

test.describe("layout", () => {
  test('light: no horizontal overflow at 250, 400 and 700 px', async ({ page, tmpPath }) => {
    await quickstartWithPanel(page, tmpPath, 'widths-light.ipynb');
    // warning and error cards look alike but for their colour
    const error = panelOf(page).locator('.dl-finding[data-severity="error"]').first();
    const warning = panelOf(page).locator('.dl-finding[data-severity="warning"]').first();
    for (const card of [error, warning]) {
      await expect(card.locator('.dl-finding-message')).toHaveCSS('font-weight', '400');
      await expect(card).toHaveCSS('border-left-width', '4px');
      await expect(card).toHaveCSS('border-top-width', '1px');
    }
    expect(await error.evaluate(e => getComputedStyle(e).borderLeftColor)).not.toEqual(
      await warning.evaluate(e => getComputedStyle(e).borderLeftColor)
    );
    await checkWidths(page, 'light');
  });

  test.describe('dark theme', () => {
    test.use({
      mockSettings: {
        ...galata.DEFAULT_SETTINGS,
        '@jupyterlab/apputils-extension:themes': { theme: 'JupyterLab Dark' }
      }
    });

    test('dark: no horizontal overflow at 250, 400 and 700 px', async ({ page, tmpPath }) => {
      await quickstartWithPanel(page, tmpPath, 'widths-dark.ipynb');
      await checkWidths(page, 'dark');
    });
  });
});
