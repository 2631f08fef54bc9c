/**
 * Ids, settings and the wire protocol, typed once more on this side.
 *
 * NB: every interface below mirrors a `TypedDict` of `src/devicelens/jupyter/_protocol.py` field by
 * field, and DEVICE_COLOURS mirrors `render/_rows.py`; `tests/test_jupyter_protocol_sync.py` keeps them
 * equal. Change both sides together and bump PROTOCOL_VERSION on any incompatible change.
 */

import { ISignal } from '@lumino/signaling';

/** Version of the wire protocol this panel speaks; the kernel sends its own in `hello`. */
export const PROTOCOL_VERSION = 4;
/** Version of this panel (the Python package version it was built with). */
export const PANEL_VERSION = '0.1.0';
/** Comm target the kernel registers on `%load_ext devicelens`. */
export const COMM_TARGET = 'devicelens';
/** The one fixed code string the panel ever asks a kernel to execute. */
export const LOAD_EXTENSION_CODE = '%load_ext devicelens';

export const PLUGIN_ID = 'devicelens:plugin';
export const PANEL_ID = 'devicelens-panel';

/** Command ids (palette, menus, shortcuts). */
export namespace CommandIDs {
  export const open = 'devicelens:open';
  export const refresh = 'devicelens:refresh';
  export const moveAll = 'devicelens:move-all';
}

/** Request methods the kernel serves. */
export type Method =
  | 'refresh'
  | 'rows'
  | 'expand'
  | 'move_all'
  | 'apply_fix'
  | 'rehearse_fix'
  | 'list_devices'
  | 'cancel';
export const METHODS: Method[] = [
  'refresh',
  'rows',
  'expand',
  'move_all',
  'apply_fix',
  'rehearse_fix',
  'list_devices',
  'cancel'
];

/** The columns the panel sorts its rows by; the kernel sorts (v4). */
export type SortKey = 'name' | 'kind' | 'device' | 'dtype' | 'shape' | 'bytes';
export const SORT_KEYS: SortKey[] = ['name', 'kind', 'device', 'dtype', 'shape', 'bytes'];
/** Rows in a window unless the panel asks for another number; at most MAX_LIMIT. */
export const DEFAULT_LIMIT = 200;
export const MAX_LIMIT = 2000;

// --- data ------------------------------------------------------------------------------------

export interface WireTensor {
  path: string;
  role: string;
  owner: string;
  device: string;
  dtype: string;
  shape: number[];
  bytes: number;
  requires_grad: boolean;
}

export interface WireModule {
  path: string;
  type: string;
  devices: string[];
  dtypes: string[];
  tensors: number;
  bytes: number;
  depth: number;
  trapped: boolean;
}

export interface WireObject {
  name: string;
  kind: string;
  type: string;
  devices: string[];
  dtypes: string[];
  shape: number[] | null;
  bytes: number;
  tensors: number;
  truncated: boolean;
  expandable: boolean;
  modules: WireModule[];
  /**
   * null until expanded (lazy), except for small objects; [] in the row of a name bound to one
   * tensor: the row is that tensor (never expandable, so no child repeats it).
   */
  children: WireTensor[] | null;
  /**
   * An optimizer's step counters' devices that `devices` leaves out (0-dim, on the cpu by
   * design, so they stay there after a move); [] for anything else.
   */
  counters: string[];
}

export interface WireTotal {
  device: string;
  objects: number;
  tensors: number;
  bytes: number;
}

export interface WireDevice {
  name: string;
  kind: string;
  free_bytes: number | null;
  total_bytes: number | null;
}

export interface WireSnapshot {
  objects: WireObject[];
  totals: WireTotal[];
  devices: WireDevice[];
  truncated: boolean;
  torch_version: string | null;
  skipped: string[];
}

/**
 * Which of the namespace's top-level rows a snapshot message carries (v4): one page, in the
 * panel's order, after its filter. The kernel orders and filters; the panel draws.
 */
export interface WireWindow {
  offset: number;
  limit: number;
  sort: SortKey;
  ascending: boolean;
  filter: string;
  /** The page's rows, in order (`snapshot.objects` holds those sent). */
  names: string[];
  /** Top-level rows the filter keeps (all of them without a filter). */
  matched: number;
  /** Top-level rows in the namespace. */
  total: number;
}

export interface WireFinding {
  id: string;
  kind: string;
  severity: 'error' | 'warning' | 'info';
  title: string;
  message: string;
  fix: string;
  paths: string[];
  objects: string[];
  devices: string[];
  dtypes: string[];
  applicable: boolean;
}

/** A move row's `source` when the row is an optimizer put back onto its module's parameters. */
export const REMAPPED = 'stale parameters';

export interface WireMove {
  path: string;
  /** Where the tensors were (`cpu`, `cuda:0 float16`), or REMAPPED. */
  source: string;
  target: string;
  bytes: number;
  tensors: number;
  /** Where the tensors go; null: they stay on their device. */
  device: string | null;
  /** What they are cast to; null: no cast. */
  dtype: string | null;
}

export interface WireRefusal {
  path: string;
  reason: string;
}

export interface WireReport {
  ok: boolean;
  dry_run: boolean;
  target: string;
  moved: WireMove[];
  refused: WireRefusal[];
  bytes_by_device: { [device: string]: number };
  error: string | null;
  notes: string[];
  /** The titles of the findings a fix-all applied (v3). */
  applied: string[];
}

// --- messages --------------------------------------------------------------------------------

/** Kernel -> panel, first message on every open comm. */
export interface HelloMsg {
  type: 'hello';
  protocol: number;
  version: string;
}

/**
 * Kernel -> panel, pushed after each cell while a panel is open, and as the reply to refresh
 * and rows. Its rows are those of `window` only; totals and findings are the namespace's.
 */
export interface SnapshotMsg {
  type: 'snapshot';
  seq: number;
  request_id: string | null;
  snapshot: WireSnapshot;
  findings: WireFinding[];
  changed: string[] | null;
  removed: string[];
  window: WireWindow;
}

export interface ResultMsg {
  type: 'result';
  request_id: string;
  method: Method;
  result: { [key: string]: any };
}

export interface ProgressMsg {
  type: 'progress';
  request_id: string;
  done: number;
  total: number;
}

/**
 * Kernel -> panel: the change `request_id` waits for the running cell to end (its progress and
 * final reply follow then), unless the panel cancels it meanwhile.
 */
export interface QueuedMsg {
  type: 'queued';
  request_id: string;
  method: Method;
  reason: string;
}

export interface ErrorMsg {
  type: 'error';
  request_id: string | null;
  error: string;
  detail: string;
}

/** Panel -> kernel. */
export interface RequestMsg {
  type: 'request';
  protocol: number;
  request_id: string;
  method: Method;
  params: { [key: string]: any };
}

// --- requests: params and results -----------------------------------------------------------

export interface RefreshParams {}

/**
 * `rows` params (and `window` in the comm's open data): what to change of the window; a field
 * left out keeps its value.
 */
export interface WindowParams {
  offset?: number;
  limit?: number;
  sort?: SortKey;
  ascending?: boolean;
  filter?: string;
}

export interface ExpandParams {
  name: string;
  path?: string;
  offset?: number;
}

export interface MoveAllParams {
  device: string;
  dry_run?: boolean;
  names?: string[] | null;
}

export interface ApplyFixParams {
  finding_id: string;
  dry_run?: boolean;
}

export interface RehearseFixParams {
  finding_id: string;
}

export interface ListDevicesParams {}

export interface CancelParams {
  request_id: string;
}

export interface ExpandResult {
  name: string;
  path: string;
  object: WireObject;
  offset: number;
  next_offset: number | null;
}

export interface MoveResult {
  report: WireReport;
}

export interface ApplyFixResult {
  finding_id: string;
  report: WireReport;
}

/** A finding's fix as code and its verdict: run as shown on a forked copy of the kernel. */
export interface RehearseFixResult {
  finding_id: string;
  fix: string;
  verdict: string;
}

export interface DevicesResult {
  devices: WireDevice[];
}

export interface CancelResult {
  request_id: string;
  cancelled: boolean;
}

/** `ErrorMsg.error` codes. */
export type ErrorCode =
  | 'bad_request'
  | 'unknown_method'
  | 'protocol_mismatch'
  | 'stale_finding'
  | 'bad_device'
  | 'move_failed'
  | 'too_large'
  | 'cancelled'
  | 'internal';
export const ERROR_CODES: ErrorCode[] = [
  'bad_request',
  'unknown_method',
  'protocol_mismatch',
  'stale_finding',
  'bad_device',
  'move_failed',
  'too_large',
  'cancelled',
  'internal'
];

/** Any message the kernel sends. */
export type KernelMsg = HelloMsg | SnapshotMsg | ResultMsg | ProgressMsg | QueuedMsg | ErrorMsg;

// --- connection ------------------------------------------------------------------------------

/**
 * Where the panel stands with the kernel of the current notebook. Each state has one message
 * and, where there is one, one thing to do about it (see panel.tsx).
 */
export type ConnectionState =
  | 'no-notebook'
  | 'no-kernel'
  | 'starting'
  | 'not-python'
  | 'connecting'
  | 'not-loaded'
  | 'ready'
  | 'restarting'
  | 'dead'
  | 'mismatch';

/** What the kernel boundary (kernel.ts) reports to the model. */
export interface IBridgeStatus {
  state: ConnectionState;
  /**
   * A cell is running: an `execute_request` is between its iopub `busy` and `idle` (on any
   * shell). NB: not the kernel's overall status, which subshells turn `idle` mid-cell.
   */
  busy: boolean;
  /** Kernel language when it is not Python, else ''. */
  language: string;
  /** Kernel-side devicelens version from `hello`, '' before it. */
  kernelVersion: string;
  /** Kernel-side protocol version from `hello`, 0 before it. */
  kernelProtocol: number;
  /** Path of the notebook followed, '' without one. */
  notebook: string;
}

/**
 * The kernel boundary as the model sees it; kernel.ts implements it and tests fake it.
 */
export interface IKernelBridge {
  readonly status: IBridgeStatus;
  /** Emits on every change of `status`. */
  readonly statusChanged: ISignal<IKernelBridge, IBridgeStatus>;
  /** Emits each well-formed message the kernel sends on the comm. */
  readonly received: ISignal<IKernelBridge, KernelMsg>;
  /** Send one request; false when no comm is open. */
  send(msg: RequestMsg): boolean;
  /** Run LOAD_EXTENSION_CODE in the kernel (the only code the panel executes). */
  loadExtension(): Promise<void>;
}

/** Panel settings (schema/plugin.json). */
export interface ISettings {
  autoRefresh: boolean;
  maxRows: number;
  showMetaDevice: boolean;
}

export const DEFAULT_SETTINGS: ISettings = {
  autoRefresh: true,
  maxRows: 500,
  showMetaDevice: false
};

// --- colours ---------------------------------------------------------------------------------

/** Okabe–Ito, colour-blind safe; the device is always written as text beside its colour. */
export const DEVICE_COLOURS = [
  '#0072B2',
  '#E69F00',
  '#009E73',
  '#CC79A7',
  '#56B4E9',
  '#D55E00',
  '#F0E442',
  '#000000'
];
export const CPU_COLOUR = '#6F6F6F';
export const META_COLOUR = '#A58AFF';
export const OTHER_COLOUR = '#8C564B';

/** Colour of a device chip, as `render/_rows.py:device_colour` picks it. */
export function deviceColour(device: string): string {
  const [kind, index = ''] = device.split(':', 2);
  if (kind === 'cpu') {
    return CPU_COLOUR;
  }
  if (kind === 'meta') {
    return META_COLOUR;
  }
  if (['cuda', 'xpu', 'mps', 'hip'].includes(kind)) {
    const n = /^\d+$/.test(index) ? parseInt(index, 10) : 0;
    return DEVICE_COLOURS[n % DEVICE_COLOURS.length];
  }
  return OTHER_COLOUR;
}

/**
 * Bytes as `inspect/units.py:human_bytes` writes them for `%devices`: one decimal, rounded as
 * Python's `f"{x:.1f}"` rounds (a tie goes to the even digit: 215.25 KiB is `215.2 KiB`).
 * NB: not `toFixed(1)`, which rounds that tie up; test/bytes.json holds the kernel's strings,
 * and both test suites check against it.
 */
export function humanBytes(n: number): string {
  if (n < 1024) {
    return `${n} B`;
  }
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let value = n;
  for (const unit of units) {
    if (value / 1024 < 1024 || unit === 'TiB') {
      return `${tenths(value)} ${unit}`;
    }
    value = Math.trunc(value / 1024);
  }
  return `${n} B`;
}

/** `v / 1024` to one decimal, ties to even, in integers (v / 1024 is exact in a double). */
function tenths(v: number): string {
  const num = v * 10;
  let q = Math.floor(num / 1024);
  const twice = 2 * (num - q * 1024);
  if (twice > 1024 || (twice === 1024 && q % 2 === 1)) {
    q += 1;
  }
  return `${Math.floor(q / 10)}.${q % 10}`;
}

/** Shape as `render/_rows.py:shape_str` writes it. */
export function shapeStr(shape: number[] | null | undefined): string {
  if (!shape) {
    return '';
  }
  return '(' + shape.join(', ') + (shape.length === 1 ? ',' : '') + ')';
}
