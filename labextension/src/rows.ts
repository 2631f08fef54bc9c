/**
 * Table rows for the panel: objects grouped with their submodules and tensors, capped. The
 * kernel sorts and filters the objects (the view's window, protocol v4); under a filter, an
 * open object shows the rows that match. Pure functions of a view and the user's choices, so
 * tests compare values.
 */

import { IView } from './view';
import { shapeStr, WireFinding, WireModule, WireObject, WireTensor } from './tokens';

/** One line of the table. */
export interface IRow {
  /** Unique: the object name, module path or tensor path. */
  key: string;
  level: number;
  /** Namespace name this row belongs to. */
  object: string;
  name: string;
  kind: string;
  devices: string[];
  /**
   * Devices drawn after `devices`, apart: an optimizer's step counters, which stay on the cpu by
   * design (the view says why on hover).
   */
  counters: string[];
  dtypes: string[];
  shape: string;
  bytes: number;
  flagged: boolean;
  expandable: boolean;
  expanded: boolean;
}

export interface ITableOptions {
  filter: string;
  maxRows: number;
  isExpanded: (key: string) => boolean;
}

export interface ITable {
  rows: IRow[];
  /** Rows left out by maxRows. */
  hidden: number;
  /** Objects left out by the filter (the kernel's count, over the whole namespace). */
  filtered: number;
  /** Objects past this page, before and after it. */
  before: number;
  after: number;
}

/** Paths and names that findings point at (info findings excluded), as `_rows.py` flags them. */
export function flaggedPaths(findings: WireFinding[]): Set<string> {
  const out = new Set<string>();
  for (const f of findings) {
    if (f.severity !== 'info') {
      [...f.paths, ...f.objects].forEach(p => out.add(p));
    }
  }
  return out;
}

function under(path: string, prefix: string): boolean {
  return (
    path === prefix ||
    path.startsWith(prefix + '.') ||
    path.startsWith(prefix + '[')
  );
}

function hits(flagged: Set<string>, prefix: string): boolean {
  for (const p of flagged) {
    if (under(p, prefix)) {
      return true;
    }
  }
  return false;
}

function matches(needle: string, ...texts: (string | string[])[]): boolean {
  return texts.some(t =>
    (Array.isArray(t) ? t : [t]).some(s => s.toLowerCase().includes(needle))
  );
}

/** NB: the one test of the filter, for every row alike: what the row shows, and its key. */
function rowMatches(r: IRow, needle: string): boolean {
  return matches(needle, r.key, r.name, r.kind, r.devices, r.counters, r.dtypes, r.shape);
}

function compare(a: string | number, b: string | number): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Rank of a severity: errors first, as `%devices` lists findings. */
export const SEVERITY_RANK: { [severity: string]: number } = { error: 0, warning: 1, info: 2 };
/** The rank of a row without findings: after every finding. */
const NO_FINDING = 3;

/** Findings in the order `%devices` lists them: by severity (errors first), then title. */
export function bySeverity(findings: WireFinding[]): WireFinding[] {
  return [...findings].sort(
    (a, b) =>
      compare(SEVERITY_RANK[a.severity] ?? NO_FINDING, SEVERITY_RANK[b.severity] ?? NO_FINDING) ||
      compare(a.title, b.title)
  );
}

function tensorRow(t: WireTensor, object: string, level: number, flagged: Set<string>): IRow {
  // NB: an optimizer's parameter reads best as the model parameter it is
  const label = t.role === 'opt_param' && t.owner ? `→\u00a0${t.owner}` : t.path;
  return {
    key: t.path,
    level,
    object,
    name: label,
    kind: t.role,
    devices: [t.device],
    counters: [],
    dtypes: [t.dtype],
    shape: shapeStr(t.shape),
    bytes: t.bytes,
    flagged: flagged.has(t.path),
    expandable: false,
    expanded: false
  };
}

/** Submodule rows under `parent`, each expandable into its own submodules and tensors. */
function moduleRows(
  o: WireObject,
  parent: string,
  level: number,
  flagged: Set<string>,
  isExpanded: (key: string) => boolean
): IRow[] {
  const out: IRow[] = [];
  const tensors = (o.children ?? []).filter(t => t.owner === parent && t.role !== 'grad');
  tensors.forEach(t => out.push(tensorRow(t, o.name, level, flagged)));
  const subs = o.modules.filter((m: WireModule) => parentOf(m.path, o.name) === parent);
  for (const m of subs) {
    const hasKids =
      m.tensors > 0 || o.modules.some(c => parentOf(c.path, o.name) === m.path);
    const open = hasKids && isExpanded(m.path);
    out.push({
      key: m.path,
      level,
      object: o.name,
      name: m.path,
      kind: m.trapped ? `${m.type} (not moved by .to())` : m.type,
      devices: m.devices,
      counters: [],
      dtypes: m.dtypes,
      shape: '',
      bytes: m.bytes,
      flagged: hits(flagged, m.path),
      expandable: hasKids,
      expanded: open
    });
    if (open) {
      out.push(...moduleRows(o, m.path, level + 1, flagged, isExpanded));
    }
  }
  return out;
}

/** The module path one level up (`model.2.0` -> `model.2`); '' for the root itself. */
function parentOf(path: string, root: string): string {
  if (path === root) {
    return '';
  }
  const cut = path.lastIndexOf('.');
  return cut < root.length ? root : path.slice(0, cut);
}

function childRows(
  o: WireObject,
  flagged: Set<string>,
  isExpanded: (key: string) => boolean
): IRow[] {
  if (o.kind === 'module') {
    return moduleRows(o, o.name, 1, flagged, isExpanded);
  }
  return (o.children ?? []).map(t => tensorRow(t, o.name, 1, flagged));
}

function objectRow(o: WireObject, flagged: Set<string>, open: boolean): IRow {
  return {
    key: o.name,
    level: 0,
    object: o.name,
    name: o.name,
    kind: o.kind === 'tensor' ? 'Tensor' : o.type,
    devices: o.devices,
    counters: (o.counters ?? []).filter(d => !o.devices.includes(d)), // NB: [] from kernels < 0.1
    dtypes: o.dtypes,
    shape: shapeStr(o.shape),
    bytes: o.bytes,
    flagged: hits(flagged, o.name),
    expandable: o.expandable,
    expanded: open
  };
}

/**
 * Which of an open object's rows the filter keeps: null for all of them (no filter, the
 * object's own row matches, or no row sent matches: the kernel matched it on what it did not
 * send), else the keys of the rows that match, which keep their ancestors in view too.
 */
function filterHits(o: WireObject, self: IRow, needle: string, flagged: Set<string>): string[] | null {
  if (!needle || rowMatches(self, needle)) {
    return null;
  }
  const keys = childRows(o, flagged, () => true)
    .filter(r => rowMatches(r, needle))
    .map(r => r.key);
  return keys.length ? keys : null;
}

/** The rows to draw for `view` (the kernel's page, in its order) and the user's open rows. */
export function tableRows(view: IView, opts: ITableOptions): ITable {
  const needle = opts.filter.trim().toLowerCase();
  const flagged = flaggedPaths(view.findings);
  const rows: IRow[] = [];
  for (const o of view.objects) {
    const self = objectRow(o, flagged, o.expandable && opts.isExpanded(o.name));
    rows.push(self);
    if (self.expanded) {
      const hit = filterHits(o, self, needle, flagged);
      const kids = childRows(o, flagged, opts.isExpanded);
      rows.push(...(hit ? kids.filter(r => hit.some(h => under(h, r.key))) : kids));
    }
  }
  const max = Math.max(1, opts.maxRows);
  const w = view.window;
  return {
    rows: rows.slice(0, max),
    hidden: Math.max(0, rows.length - max),
    filtered: w ? w.total - w.matched : 0,
    before: w ? w.offset : 0,
    after: w ? Math.max(0, w.matched - w.offset - w.names.length) : 0
  };
}

/**
 * Findings grouped by the object row they are drawn under; the rest under ''. Each group is in
 * `%devices` order (bySeverity).
 */
export function findingsByObject(
  findings: WireFinding[],
  names: Set<string>
): Map<string, WireFinding[]> {
  const out = new Map<string, WireFinding[]>();
  for (const f of bySeverity(findings)) {
    const at = f.objects.find(n => names.has(n)) ?? '';
    out.set(at, [...(out.get(at) ?? []), f]);
  }
  return out;
}
