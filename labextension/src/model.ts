/**
 * State of the inspector: the last snapshot, its findings, requests in flight, and what the
 * user chose to see (filter, sort, expanded rows). The view only reads it; kernel I/O goes
 * through an IKernelBridge (kernel.ts), which tests replace with a fake.
 */

import { ISignal, Signal } from '@lumino/signaling';

import { EMPTY, IView, merge, reportOf, withChildren } from './view';
import {
  DEFAULT_SETTINGS,
  ExpandResult,
  IBridgeStatus,
  IKernelBridge,
  ISettings,
  KernelMsg,
  Method,
  PROTOCOL_VERSION,
  ResultMsg,
  SnapshotMsg,
  WireDevice,
  WireReport
} from './tokens';

/** Columns the table sorts by. */
export type SortKey = 'name' | 'kind' | 'device' | 'dtype' | 'shape' | 'bytes';

/** A move_all dry run waiting for the user's confirmation. */
export interface IMovePlan {
  device: string;
  report: WireReport;
}

/** What the last mutating action did, shown until the next one. */
export interface IOutcome {
  action: 'apply_fix' | 'move_all';
  report: WireReport;
}

export interface IProgress {
  method: Method;
  done: number;
  total: number;
}

interface IPending {
  method: Method;
  resolve: (result: { [key: string]: any }) => void;
  reject: (reason: Error) => void;
}

/**
 * The inspector's model. Requests return promises settled by the kernel's `result` or
 * `error` reply; a lost connection rejects every request in flight.
 */
export class DeviceModel {
  constructor(bridge: IKernelBridge, settings: ISettings = DEFAULT_SETTINGS) {
    this._bridge = bridge;
    this._settings = { ...settings };
    bridge.statusChanged.connect(this._onStatus, this);
    bridge.received.connect(this._onMessage, this);
  }

  /** Emits after any change the view shows. */
  get changed(): ISignal<this, void> {
    return this._changed;
  }
  get status(): IBridgeStatus {
    return this._bridge.status;
  }
  get view(): IView {
    return this._view;
  }
  /** A newer snapshot arrived while auto-refresh is off. */
  get outdated(): boolean {
    return this._live !== this._view;
  }
  get settings(): ISettings {
    return this._settings;
  }
  set settings(value: ISettings) {
    this._settings = { ...value };
    this._emit();
  }
  /** Requests sent and not answered yet (they wait while the kernel runs a cell). */
  get pending(): number {
    return this._pending.size;
  }
  get progress(): IProgress | null {
    return this._progress;
  }
  get plan(): IMovePlan | null {
    return this._plan;
  }
  get outcome(): IOutcome | null {
    return this._outcome;
  }
  /** The last error the kernel reported, or a request that could not be sent. */
  get error(): string {
    return this._error;
  }
  get isDisposed(): boolean {
    return this._disposed;
  }

  // --- what the user sees --------------------------------------------------------------------

  get filter(): string {
    return this._filter;
  }
  set filter(value: string) {
    this._filter = value;
    this._emit();
  }
  get sortKey(): SortKey {
    return this._sortKey;
  }
  get sortAscending(): boolean {
    return this._sortAscending;
  }
  /** Sort by `key`; a second call on the same key reverses the order. */
  sortBy(key: SortKey): void {
    this._sortAscending = key === this._sortKey ? !this._sortAscending : key !== 'bytes';
    this._sortKey = key;
    this._emit();
  }
  isExpanded(path: string): boolean {
    return this._expanded.has(path);
  }
  /** Open or close a row; opening an object whose tensors were not sent asks for them. */
  toggle(path: string): void {
    if (this._expanded.delete(path)) {
      this._emit();
      return;
    }
    this._expanded.add(path);
    const obj = this._view.objects.find(o => o.name === path);
    if (obj && obj.children === null) {
      void this.request('expand', { name: path }).catch(() => undefined);
    }
    this._emit();
  }

  /** Devices offered as move targets: `meta` only when the setting allows it. */
  get targets(): WireDevice[] {
    const all = this._devices ?? this._view.devices;
    return all.filter(d => d.kind !== 'meta' || this._settings.showMetaDevice);
  }

  // --- requests ------------------------------------------------------------------------------

  /** Send one request; the promise settles with the kernel's result. */
  request(method: Method, params: { [key: string]: any } = {}): Promise<{ [key: string]: any }> {
    const id = `dl-${++this._counter}`;
    const sent = this._bridge.send({
      type: 'request',
      protocol: PROTOCOL_VERSION,
      request_id: id,
      method,
      params
    });
    if (!sent) {
      this._error = `Not connected to a kernel with devicelens loaded (${method} not sent).`;
      this._emit();
      return Promise.reject(new Error(this._error));
    }
    const done = new Promise<{ [key: string]: any }>((resolve, reject) => {
      this._pending.set(id, { method, resolve, reject });
    });
    this._emit();
    return done;
  }

  /** Ask for a full snapshot now (also shows one held back while auto-refresh is off). */
  async refresh(): Promise<void> {
    this._view = this._live;
    this._emit();
    await this.request('refresh');
  }

  async listDevices(): Promise<void> {
    const result = await this.request('list_devices');
    if (Array.isArray(result.devices)) {
      this._devices = result.devices as WireDevice[];
      this._emit();
    }
  }

  /** Run one finding's fix in the kernel, then show the new snapshot. */
  async applyFix(findingId: string): Promise<WireReport> {
    return this._mutate('apply_fix', { finding_id: findingId });
  }

  /** Dry run of "move all to `device`": the plan the user confirms or cancels. */
  async planMove(device: string): Promise<IMovePlan> {
    const result = await this.request('move_all', { device, dry_run: true, names: null });
    this._plan = { device, report: reportOf(result) };
    this._emit();
    return this._plan;
  }

  /** Carry out the plan; progress arrives while it runs, the report after. */
  async confirmMove(): Promise<WireReport> {
    if (!this._plan) {
      throw new Error('No move planned: choose a device first.');
    }
    const device = this._plan.device;
    this._plan = null;
    return this._mutate('move_all', { device, dry_run: false, names: null });
  }

  cancelMove(): void {
    this._plan = null;
    this._emit();
  }

  dismissOutcome(): void {
    this._outcome = null;
    this._error = '';
    this._emit();
  }

  /** Run `%load_ext devicelens` in the kernel; the bridge reconnects once it is loaded. */
  loadExtension(): Promise<void> {
    return this._bridge.loadExtension();
  }

  dispose(): void {
    if (this._disposed) {
      return;
    }
    this._disposed = true;
    this._rejectAll('Inspector closed.');
    Signal.clearData(this);
  }

  private async _mutate(method: 'apply_fix' | 'move_all', params: any): Promise<WireReport> {
    const report = reportOf(await this.request(method, params));
    this._outcome = { action: method, report };
    // NB: the kernel pushes a snapshot right after a move's result: show it even when
    // auto-refresh is off, since the user asked for this change
    this._followNext = report.moved.length > 0;
    this._emit();
    return report;
  }

  // --- incoming ------------------------------------------------------------------------------

  private _onStatus(_: IKernelBridge, status: IBridgeStatus): void {
    if (status.state !== 'ready') {
      this._rejectAll(`Kernel connection lost (${status.state}).`);
      this._reset();
    }
    this._emit();
  }

  private _onMessage(_: IKernelBridge, msg: KernelMsg): void {
    switch (msg.type) {
      case 'hello':
        // NB: the kernel pushes a first snapshot right after hello; only devices to ask for
        this._reset();
        this._followNext = true; // NB: the first push fills an empty table, auto-refresh or not
        this._emit();
        void this.listDevices().catch(() => undefined);
        return;
      case 'snapshot':
        this._onSnapshot(msg);
        return;
      case 'result':
        this._onResult(msg);
        return;
      case 'progress':
        if (this._pending.has(msg.request_id)) {
          const method = this._pending.get(msg.request_id)!.method;
          this._progress = { method, done: msg.done, total: msg.total };
          this._progressId = msg.request_id;
          this._emit();
        }
        return;
      case 'error':
        this._error = msg.detail || msg.error;
        this._settle(msg.request_id, undefined, new Error(this._error));
        this._emit();
        return;
    }
  }

  private _onSnapshot(msg: SnapshotMsg): void {
    const solicited = msg.request_id !== null;
    if (!solicited && msg.seq <= this._live.seq) {
      return; // NB: an older push overtaken by a refresh reply
    }
    if (!solicited && msg.changed !== null && msg.seq !== this._live.seq + 1) {
      // NB: a delta after a gap would apply to rows we never had: start over from a full one
      void this.request('refresh').catch(() => undefined);
      return;
    }
    this._live = merge(this._live, msg);
    if (solicited || this._settings.autoRefresh || this._followNext) {
      this._view = this._live;
      this._followNext = false;
    }
    this._settle(msg.request_id, { seq: msg.seq });
    this._emit();
  }

  private _onResult(msg: ResultMsg): void {
    if (msg.method === 'expand') {
      const page = msg.result as ExpandResult;
      const shown = this._view === this._live;
      this._live = withChildren(this._live, page);
      this._view = shown ? this._live : withChildren(this._view, page);
      const got = this._live.objects.find(o => o.name === page.name)?.children?.length ?? 0;
      if (page.next_offset !== null && got < this._settings.maxRows) {
        void this.request('expand', { name: page.name, offset: page.next_offset }).catch(
          () => undefined
        );
      }
    }
    this._settle(msg.request_id, msg.result);
    this._emit();
  }

  private _settle(id: string | null, result?: { [key: string]: any }, error?: Error): void {
    const pending = id === null ? undefined : this._pending.get(id);
    if (!pending || id === null) {
      return;
    }
    this._pending.delete(id);
    if (id === this._progressId) {
      this._progress = null;
    }
    if (error) {
      pending.reject(error);
    } else {
      pending.resolve(result ?? {});
    }
  }

  private _rejectAll(reason: string): void {
    const pending = [...this._pending.values()];
    this._pending.clear();
    pending.forEach(p => p.reject(new Error(reason)));
  }

  private _reset(): void {
    this._live = this._view = EMPTY;
    this._devices = null;
    this._plan = null;
    this._progress = null;
    this._error = '';
    this._outcome = null;
    this._followNext = false;
  }

  private _emit(): void {
    if (!this._disposed) {
      this._changed.emit();
    }
  }

  private _bridge: IKernelBridge;
  private _settings: ISettings;
  private _changed = new Signal<this, void>(this);
  private _live: IView = EMPTY;
  private _view: IView = EMPTY;
  private _devices: WireDevice[] | null = null;
  private _pending = new Map<string, IPending>();
  private _counter = 0;
  private _progress: IProgress | null = null;
  private _progressId = '';
  private _plan: IMovePlan | null = null;
  private _outcome: IOutcome | null = null;
  private _error = '';
  private _followNext = false;
  private _filter = '';
  private _sortKey: SortKey = 'name';
  private _sortAscending = true;
  private _expanded = new Set<string>();
  private _disposed = false;
}
