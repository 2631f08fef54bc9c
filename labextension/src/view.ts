/**
 * What the table shows of a snapshot, and how snapshot messages and `expand` pages update it:
 * pure functions over immutable values, so the model stays small and tests compare values.
 */

import {
  ExpandResult,
  SnapshotMsg,
  WireDevice,
  WireFinding,
  WireObject,
  WireReport,
  WireSnapshot,
  WireTotal
} from './tokens';

/** The part of a snapshot the view shows; replaced, never mutated. */
export interface IView {
  objects: WireObject[];
  findings: WireFinding[];
  totals: WireTotal[];
  devices: WireDevice[];
  truncated: boolean;
  skipped: string[];
  torchVersion: string | null;
  seq: number;
}

export const EMPTY: IView = {
  objects: [],
  findings: [],
  totals: [],
  devices: [],
  truncated: false,
  skipped: [],
  torchVersion: null,
  seq: -1
};

/** The report inside a move_all/apply_fix result (`{report: ...}` or the report itself). */
export function reportOf(result: { [key: string]: any }): WireReport {
  const report = (result.report ?? result) as WireReport;
  if (typeof report.ok !== 'boolean' || !Array.isArray(report.moved)) {
    throw new Error('The kernel answered without a move report.');
  }
  return report;
}

/** Apply one snapshot message to a view: a full replace, or the changed/removed names. */
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
  return {
    objects,
    findings: msg.findings,
    totals: snap.totals,
    devices: snap.devices,
    truncated: snap.truncated,
    skipped: snap.skipped,
    torchVersion: snap.torch_version,
    seq: msg.seq
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
