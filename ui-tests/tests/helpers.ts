/**
 * What the browser specs share: the notebooks they run, where the panel and its rows are, how
 * wide the sidebar is and what sticks out of it.
 */
import { IJupyterLabPageFixture } from '@jupyterlab/galata';
import { Locator, Page } from '@playwright/test';

/** notebooks/quickstart.ipynb after `model.to(meta)`: every kind of finding, long fix lines. */
export const QUICKSTART = `%load_ext devicelens
import numpy as np, torch, torch.nn.functional as F
from torch import nn
torch.manual_seed(0)
torch.__future__.set_swap_module_params_on_conversion(True)

class TinyTransformer(nn.Module):
    def __init__(self, features=8, d_model=32, classes=4, max_len=16):
        super().__init__()
        self.proj = nn.Linear(features, d_model)
        self.pos = torch.randn(max_len, d_model) * 0.02
        layer = nn.TransformerEncoderLayer(d_model, nhead=4, dim_feedforward=64, dropout=0.0,
                                           batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, num_layers=2, enable_nested_tensor=False)
        self.head = nn.Linear(d_model, classes)

    def forward(self, x):
        h = self.proj(x) + self.pos[: x.shape[1]]
        return self.head(self.encoder(h).mean(dim=1))

model = TinyTransformer()
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
class_weights = torch.tensor([1.0, 2.0, 2.0, 0.5])
warmup = {"x": torch.randn(8, 16, 8), "y": torch.randint(0, 4, (8,))}
F.cross_entropy(model(warmup["x"]), warmup["y"], weight=class_weights).backward()
optimizer.step()
del warmup
model.to("meta")
rng = np.random.default_rng(0)
batch = {"x": torch.from_numpy(rng.normal(size=(8, 16, 8))),
         "y": torch.from_numpy(rng.integers(0, 4, size=8))}
validation_embeddings_of_the_second_experiment = torch.zeros(3, 5)`;

export function panelOf(page: Page): Locator {
  return page.locator('#devicelens-panel');
}

export function row(page: Page, key: string): Locator {
  return panelOf(page).locator(`tr.dl-row[data-key="${key}"]`);
}

/** The chips of a row, as the devices they name. */
export async function devicesOf(page: Page, key: string): Promise<string[]> {
  return row(page, key)
    .locator('.dl-chip')
    .evaluateAll(chips => chips.map(c => c.getAttribute('data-device') ?? ''));
}

/** Drag the right sidebar's edge until the panel is `width` px wide. */
export async function setPanelWidth(page: Page, width: number): Promise<number> {
  const handle = page
    .locator('#jp-main-split-panel > .lm-SplitPanel-handle:not(.lm-mod-hidden)')
    .last();
  for (let i = 0; i < 3; i++) {
    const now = (await panelOf(page).boundingBox())!.width;
    if (Math.abs(now - width) < 1) {
      break;
    }
    const box = (await handle.boundingBox())!;
    const y = box.y + box.height / 2;
    await page.mouse.move(box.x + box.width / 2, y);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 - (width - now), y, { steps: 5 });
    await page.mouse.up();
  }
  return (await panelOf(page).boundingBox())!.width;
}

export interface IOverflow {
  width: number;
  scroll: number;
  past: string[];
}

/**
 * Every element of the panel that reaches past its right edge, and its horizontal overflow.
 * NB: what a box that scrolls sideways holds (fix code) is clipped by it; that box is checked.
 */
export async function overflowOf(page: Page): Promise<IOverflow> {
  return panelOf(page).evaluate(root => {
    const edge = root.getBoundingClientRect().right;
    const past: string[] = [];
    const scrolls = (el: Element) => ['auto', 'scroll'].includes(getComputedStyle(el).overflowX);
    for (const el of Array.from(root.querySelectorAll('*'))) {
      let up = el.parentElement;
      while (up && up !== root && !scrolls(up)) {
        up = up.parentElement;
      }
      if (up && up !== root) {
        continue;
      }
      const r = el.getBoundingClientRect();
      if (r.width > 0 && r.right > edge + 0.5) {
        const cls = (el.getAttribute('class') ?? '').split(' ')[0];
        past.push(`${el.tagName.toLowerCase()}.${cls} +${Math.round(r.right - edge)}px`);
      }
    }
    return { width: root.clientWidth, scroll: root.scrollWidth - root.clientWidth, past };
  });
}

/** A Python notebook, one code cell per source, as nbformat JSON. */
export function notebookJSON(...sources: string[]): string {
  return JSON.stringify({
    nbformat: 4,
    nbformat_minor: 5,
    metadata: { kernelspec: { name: 'python3', display_name: 'Python 3', language: 'python' } },
    cells: sources.map((source, i) => ({
      cell_type: 'code',
      id: `c${i}`,
      source,
      metadata: {},
      outputs: [],
      execution_count: null
    }))
  });
}

/** Open `sources` as a notebook (uploaded: typing would auto-indent) and run its first cell. */
export async function openNotebook(
  page: IJupyterLabPageFixture,
  tmpPath: string,
  name: string,
  ...sources: string[]
) {
  await page.contents.uploadContent(notebookJSON(...sources), 'text', `${tmpPath}/${name}`);
  await openUploaded(page, `${tmpPath}/${name}`);
  await page.notebook.activate(name);
  await page.notebook.runCell(0);
}

/**
 * Open a file just uploaded, through JupyterLab's document manager, and wait for its tab.
 *
 * NB: not galata's `openByPath`, which double-clicks the file in the file browser: on a busy
 * machine the browser's listing can lag an upload past galata's fixed 15 s wait, and the test
 * failed there (a browser test is about the panel, not the file browser).
 */
export async function openUploaded(page: IJupyterLabPageFixture, filePath: string) {
  await page.evaluate(
    async p => {
      await (window as any).jupyterapp.commands.execute('docmanager:open', { path: p });
    },
    filePath
  );
  const name = filePath.slice(filePath.lastIndexOf('/') + 1);
  await page
    .getByRole('main')
    .getByRole('tab', { name: new RegExp(`^${name.replace(/[.]/g, '\\.')}`) })
    .last()
    .waitFor({ state: 'visible' });
}

export interface IFixLines {
  /** Lines of the fix's source. */
  source: number;
  /** Lines the browser draws (a wrapped line counts as two). */
  drawn: number;
  /** The box scrolls sideways (a line longer than it is wide). */
  scrolls: boolean;
  /** Each source line's indentation in px, as drawn, and in characters. */
  indents: [number, number][];
  charWidth: number;
}

/** How every finding's fix code is drawn. */
export async function fixLines(page: Page): Promise<IFixLines[]> {
  return panelOf(page)
    .locator('.dl-fix')
    .evaluateAll(pres =>
      pres.map(pre => {
        const code = pre.querySelector('code')!;
        const text = code.textContent ?? '';
        const style = getComputedStyle(pre);
        const pad = parseFloat(style.paddingTop) + parseFloat(style.paddingBottom);
        const drawn = Math.round((pre.clientHeight - pad) / parseFloat(style.lineHeight));
        const node = code.firstChild!;
        const left = pre.getBoundingClientRect().left + parseFloat(style.paddingLeft);
        const range = document.createRange();
        const xAt = (i: number) => {
          range.setStart(node, i);
          range.setEnd(node, i + 1);
          return range.getBoundingClientRect().left - left + pre.scrollLeft;
        };
        const lines = text.split('\n');
        let offset = 0;
        const indents: [number, number][] = [];
        for (const line of lines) {
          const spaces = line.length - line.trimStart().length;
          if (line.trim()) {
            indents.push([Math.round(xAt(offset + spaces)), spaces]);
          }
          offset += line.length + 1;
        }
        range.setStart(node, 0);
        range.setEnd(node, 1);
        const charWidth = range.getBoundingClientRect().width;
        return {
          source: lines.length,
          drawn,
          scrolls: pre.scrollWidth > pre.clientWidth,
          indents,
          charWidth
        };
      })
    );
}
