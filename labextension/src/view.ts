/**
 * What the table shows of a snapshot, and how snapshot messages and `expand` pages update it:
 * pure functions over immutable values, so the model stays small and tests compare values.
 */

import {
  ExpandResult,
  humanBytes,
  REMAPPED,
  SnapshotMsg,
  WireDevice,
  WireFinding,
  WireObject,
  WireReport,
  WireSnapshot,
  WireTotal,
  WireWindow
} from './tokens';

/** The part of a snapshot the view shows; replaced, never mutated. */
export interface IView {
  /** The window's rows, in the kernel's order (its sort and filter). */
  objects: WireObject[];
  findings: WireFinding[];
  totals: WireTotal[];
  devices: WireDevice[];
  truncated: boolean;
  skipped: string[];
  torchVersion: string | null;
  seq: number;
  /** Which page of the namespace `objects` is; null before the first snapshot. */
  window: WireWindow | null;
}

export const EMPTY: IView = {
  objects: [],
  findings: [],
  totals: [],
  devices: [],
  truncated: false,
  skipped: [],
  torchVersion: null,
  seq: -1,
  window: null
};

/** The report inside a move_all/apply_fix result (`{report: ...}` or the report itself). */
export function reportOf(result: { [key: string]: any }): WireReport {
  const report = (result.report ?? result) as WireReport;
  if (typeof report.ok !== 'boolean' || !Array.isArray(report.moved)) {
    throw new Error('The kernel answered without a move report.');
  }
  return report;
}

/**
 * The cell "Insert as cell" adds: the fix as code, headed by its rehearsal's verdict as a
 * comment (`# devicelens: verified: ...` or `# devicelens: not verified: why`), so what the user
 * runs says what was proven of it. No verdict (rehearsals turned off): the fix alone.
 */
export function fixCell(fix: string, verdict: string): string {
  const head = verdict.replace(/\s+/g, ' ').trim();
  return head ? `# devicelens: ${head}\n${fix}` : fix;
}

/** `1 tensor`, `2 tensors`. */
export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** The namespace name a report row belongs to: `batch['x']` -> `batch`. */
export function rootOf(path: string): string {
  return /^[^.[]+/.exec(path)?.[0] ?? path;
}

/** Whether a report moves tensors to meta, which keeps shapes and dtypes but no values. */
export function discardsValues(report: WireReport): boolean {
  return report.moved.some(m => m.source !== REMAPPED && (m.device ?? '').startsWith('meta'));
}

/** What a report's rows add up to. NB: a row stands for `tensors` tensors, never for one. */
export interface IReportCounts {
  /** Tensors that change device, and where they go. */
  moved: number;
  devices: string[];
  /** Tensors cast to another dtype, and to which. */
  cast: number;
  dtypes: string[];
  /** Optimizers put back onto their module's current parameters. */
  remapped: number;
  /** Namespace names the rows belong to. */
  objects: number;
  bytes: number;
}

export function reportCounts(report: WireReport): IReportCounts {
  const rows = report.moved;
  const moves = rows.filter(
    m => m.source !== REMAPPED && (m.device !== null || m.dtype === null)
  );
  const casts = rows.filter(m => m.dtype !== null);
  const sum = (ms: typeof rows) => ms.reduce((n, m) => n + (m.tensors ?? 1), 0);
  return {
    moved: sum(moves),
    devices: [...new Set(moves.map(m => m.device ?? m.target))],
    cast: sum(casts),
    dtypes: [...new Set(casts.map(m => m.dtype as string))],
    remapped: rows.filter(m => m.source === REMAPPED).length,
    objects: new Set(rows.map(m => rootOf(m.path))).size,
    bytes: rows.reduce((n, m) => n + m.bytes, 0)
  };
}

/**
 * A report's first line, word for word as `render/_report.py:headline` writes it:
 * `Moved 60 tensors to meta (4 objects, 142.9 KiB).` NB: test/headlines.json holds the
 * kernel's own headlines for a set of reports; both test suites check against it.
 */
export function reportHeadline(report: WireReport): string {
  const dry = report.dry_run;
  if (!report.ok) {
    return `${dry ? 'Would fail' : 'Nothing was changed'}: ${report.error ?? 'the move failed'}`;
  }
  const applied = report.applied ?? [];
  if (report.moved.length === 0 && applied.length > 0) {
    const n = applied.length;
    return `${dry ? 'Would apply' : 'Applied'} ${n} fix${n === 1 ? '' : 'es'}.`;
  }
  if (report.moved.length === 0) {
    return report.target
      ? `Nothing to move: everything in scope is already on ${report.target}.`
      : 'Nothing to fix: no automatic fix has anything to do here.';
  }
  const c = reportCounts(report);
  const clauses: string[] = [];
  if (c.moved > 0) {
    clauses.push(`${dry ? 'move' : 'moved'} ${plural(c.moved, 'tensor')} to ${c.devices.join(', ')}`);
  }
  if (c.cast > 0) {
    clauses.push(`cast ${plural(c.cast, 'tensor')} to ${c.dtypes.join(', ')}`);
  }
  if (c.remapped > 0) {
    clauses.push(
      `${dry ? 'remap' : 'remapped'} ${plural(c.remapped, 'optimizer')} onto current parameters`
    );
  }
  const text = (dry ? 'would ' : '') + clauses.join(' and ');
  return (
    `${text[0].toUpperCase()}${text.slice(1)} ` +
    `(${plural(c.objects, 'object')}, ${humanBytes(c.bytes)}).`
  );
}

/**
 * Apply one snapshot message to a view: a full replace, or the changed/removed names; then the
 * rows in the order of the message's window (the kernel sorts and filters).
 */
export function merge(view: IView, msg: SnapshotMsg): IView {
  const snap: WireSnapshot = msg.snapshot;
  let objects: WireObject[];
  if (msg.changed === null) {
    objects = snap.objects;
  } else {
    const drop = new Set([...msg.removed, ...msg.changed]);
    const fresh = new Map(snap.objects.map(o => [o.name, o]));
    objects = view.objects.filter(o => !drop.has(o.name));
    for (const name of msg.changed) {
      const o = fresh.get(name);
      if (o) {
        objects.push(o);
      }
    }
  }
  const window = msg.window ?? null;
  if (window) {
    const byName = new Map(objects.map(o => [o.name, o]));
    objects = window.names
      .map(name => byName.get(name))
      .filter((o): o is WireObject => o !== undefined);
  }
  return {
    objects,
    findings: msg.findings,
    totals: snap.totals,
    devices: snap.devices,
    truncated: snap.truncated,
    skipped: snap.skipped,
    torchVersion: snap.torch_version,
    seq: msg.seq,
    window
  };
}

/** Fill in one object's modules and tensors from a page of an `expand` result. */
export function withChildren(view: IView, page: ExpandResult): IView {
  if (!page || !page.object || !Array.isArray(page.object.children)) {
    return view;
  }
  const objects = view.objects.map(o => {
    if (o.name !== page.name) {
      return o;
    }
    const before = page.offset > 0 ? o.children ?? [] : [];
    return { ...o, modules: page.object.modules, children: [...before, ...page.object.children!] };
  });
  return { ...view, objects };
}
