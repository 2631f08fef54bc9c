/**
 * State of the inspector: the last snapshot, its findings, requests in flight, and what the
 * user chose to see (filter, sort, page, expanded rows). The kernel sorts and filters and sends
 * one page of rows (the window, protocol v4); the model asks for another when the user sorts,
 * filters or scrolls. The view only reads it; kernel I/O goes through an IKernelBridge
 * (kernel.ts), which tests replace with a fake.
 */

import { ISignal, Signal } from '@lumino/signaling';

import { Changes, IMovePlan, IOutcome, IProgress, IQueued } from './changes';
import { RequestError, Requests, Result } from './requests';
import { EMPTY, fixCell, IView, merge, withChildren } from './view';
import {
  DEFAULT_LIMIT,
  DEFAULT_SETTINGS,
  ExpandResult,
  IBridgeStatus,
  IKernelBridge,
  ISettings,
  KernelMsg,
  MAX_LIMIT,
  Method,
  ResultMsg,
  SnapshotMsg,
  SortKey,
  WindowParams,
  WireDevice,
  WireFinding,
  WireReport
} from './tokens';

export type { SortKey } from './tokens';

/** What the model needs besides its bridge and settings. */
export interface IModelOptions {
  /** ms the filter waits for the next keystroke before the kernel is asked (0: at once). */
  filterDelay?: number;
}

export type { IMovePlan, IOutcome, IProgress, IQueued } from './changes';

/**
 * The inspector's model. Requests return promises settled by the kernel's `result` or
 * `error` reply; a lost connection rejects every request in flight.
 */
export class DeviceModel {
  constructor(
    bridge: IKernelBridge,
    settings: ISettings = DEFAULT_SETTINGS,
    options: IModelOptions = {}
  ) {
    this._filterDelay = options.filterDelay ?? 250;
    this._bridge = bridge;
    this._requests = new Requests(bridge);
    this._changes = new Changes({
      request: (method, params, change) => this.request(method, params, change),
      emit: () => this._emit(),
      clearError: () => (this._error = ''),
      followNext: () => (this._followNext = true),
      names: () => this._view.objects.map(o => o.name)
    });
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
  /** Requests sent and not answered yet. */
  get pending(): number {
    return this._requests.size;
  }
  /** A change (move, fix) is on its way, held or running: no second one meanwhile. */
  get changing(): boolean {
    return this._requests.changing;
  }
  /** The change the kernel holds until the running cell ends, if any. */
  get queued(): IQueued | null {
    return this._changes.queued;
  }
  get progress(): IProgress | null {
    return this._changes.progress;
  }
  get plan(): IMovePlan | null {
    return this._changes.plan;
  }
  get outcome(): IOutcome | null {
    return this._changes.outcome;
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
  /** Filter the rows; the kernel filters them all (after a short pause in the typing). */
  set filter(value: string) {
    this._filter = value;
    this._clearFilterTimer();
    if (this._filterDelay <= 0) {
      this._askRows({ offset: 0 });
    } else {
      this._filterTimer = setTimeout(() => {
        this._filterTimer = null;
        this._askRows({ offset: 0 });
      }, this._filterDelay);
    }
    this._emit();
  }
  get sortKey(): SortKey {
    return this._sortKey;
  }
  get sortAscending(): boolean {
    return this._sortAscending;
  }
  /** Sort by `key` (in the kernel); a second call on the same key reverses the order. */
  sortBy(key: SortKey): void {
    this._sortAscending = key === this._sortKey ? !this._sortAscending : key !== 'bytes';
    this._sortKey = key;
    this._askRows({ offset: 0 });
    this._emit();
  }

  /** Rows the window can grow to as the user scrolls: the max-rows setting (at most MAX_LIMIT). */
  get maxWindow(): number {
    return Math.max(1, Math.min(this._settings.maxRows, MAX_LIMIT));
  }
  /** The user scrolled to the end of the rows: ask for more, up to `maxWindow`. */
  showMore(): boolean {
    const w = this._view.window;
    if (!w || this._paging || w.offset + w.names.length >= w.matched) {
      return false;
    }
    if (w.names.length < w.limit || w.limit >= this.maxWindow) {
      return false; // NB: a page cut short (long names), or as long as allowed: use next page
    }
    this._askRows({ limit: Math.min(this.maxWindow, w.limit + DEFAULT_LIMIT) });
    return true;
  }
  /** The next page of rows (the window as long as it is, past its end). */
  nextPage(): void {
    const w = this._view.window;
    if (w && w.offset + w.names.length < w.matched) {
      this._askRows({ offset: w.offset + Math.max(1, w.names.length) });
    }
  }
  /** The page before this one. */
  previousPage(): void {
    const w = this._view.window;
    if (w && w.offset > 0) {
      this._askRows({ offset: Math.max(0, w.offset - w.limit) });
    }
  }
  /** A `rows` request is on its way. */
  get paging(): boolean {
    return this._paging;
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

  /**
   * Every device the kernel can move to. NB: the `list_devices` answer, unless it was empty
   * (torch not imported yet when the panel connected): then the latest snapshot's.
   */
  get devices(): WireDevice[] {
    return this._devices?.length ? this._devices : this._view.devices;
  }
  /** Devices offered as move targets: `meta` only when the setting allows it. */
  get targets(): WireDevice[] {
    return this.devices.filter(d => d.kind !== 'meta' || this._settings.showMetaDevice);
  }

  // --- requests ------------------------------------------------------------------------------

  /**
   * Send one request; the promise settles with the kernel's result, or rejects with a
   * RequestError carrying the kernel's error code. `change`: a move or fix (not a dry run).
   */
  request(method: Method, params: Result = {}, change = false): Promise<Result> {
    const sent = this._requests.send(method, params, change);
    if (!sent) {
      this._error = `Not connected to a kernel with devicelens loaded (${method} not sent).`;
      this._emit();
      return Promise.reject(new RequestError(this._error, ''));
    }
    this._emit();
    return sent[1];
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

  /**
   * Run one finding's fix in the kernel, or plan it for confirmation where it would discard
   * values (null then; see changes.ts, as for the four below).
   */
  applyFix(findingId: string): Promise<WireReport | null> {
    return this._changes.applyFix(findingId);
  }
  /**
   * The cell "Insert as cell" adds for `finding`: its fix as code, rehearsed first on a forked
   * copy of the kernel (which waits for a running cell), headed by the verdict. Rejects when the
   * finding is gone (the error shows; nothing is inserted). A kernel whose devicelens cannot
   * rehearse (an older one) gets the fix as shown, marked not verified.
   */
  async fixCell(finding: WireFinding): Promise<string> {
    try {
      const r = await this.request('rehearse_fix', { finding_id: finding.id });
      return fixCell(typeof r.fix === 'string' ? r.fix : finding.fix, String(r.verdict ?? ''));
    } catch (e) {
      if (e instanceof RequestError && e.code === 'unknown_method') {
        this._error = '';
        this._emit();
        return fixCell(finding.fix, "not verified: this kernel's devicelens cannot rehearse it");
      }
      throw e;
    }
  }
  planMove(device: string): Promise<IMovePlan> {
    return this._changes.planMove(device);
  }
  confirmMove(): Promise<WireReport> {
    return this._changes.confirmMove();
  }
  cancelMove(): void {
    this._changes.cancelMove();
  }
  cancelQueued(): Promise<void> {
    return this._changes.cancelQueued();
  }

  dismissOutcome(): void {
    this._changes.dismiss();
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
    this._clearFilterTimer();
    this._requests.rejectAll('Inspector closed.');
    Signal.clearData(this);
  }

  /** Ask the kernel for the window the user chose, `change` applied. */
  private _askRows(change: WindowParams): void {
    const w = this._view.window;
    const params: WindowParams = {
      offset: w?.offset ?? 0,
      limit: w?.limit ?? DEFAULT_LIMIT,
      sort: this._sortKey,
      ascending: this._sortAscending,
      filter: this._filter.trim(),
      ...change
    };
    this._paging = true;
    void this.request('rows', params as Result)
      .catch(() => undefined)
      .then(() => {
        this._paging = false;
        this._emit();
      });
  }

  private _clearFilterTimer(): void {
    if (this._filterTimer !== null) {
      clearTimeout(this._filterTimer);
      this._filterTimer = null;
    }
  }

  // --- incoming ------------------------------------------------------------------------------

  private _onStatus(_: IKernelBridge, status: IBridgeStatus): void {
    if (status.state !== 'ready') {
      this._requests.rejectAll(`Kernel connection lost (${status.state}).`);
      this._reset();
    }
    this._emit();
  }

  private _onMessage(_: IKernelBridge, msg: KernelMsg): void {
    switch (msg.type) {
      case 'hello':
        // NB: the kernel pushes a first snapshot right after hello; only devices to ask for,
        // and the window, where the user had chosen another sort or filter before
        this._reset();
        this._followNext = true; // NB: the first push fills an empty table, auto-refresh or not
        this._emit();
        void this.listDevices().catch(() => undefined);
        if (this._sortKey !== 'name' || !this._sortAscending || this._filter.trim()) {
          this._askRows({ offset: 0, limit: DEFAULT_LIMIT });
        }
        return;
      case 'queued':
        if (this._requests.get(msg.request_id)?.change) {
          this._changes.onQueued(msg); // NB: only changes are ever held
          this._emit();
        }
        return;
      case 'snapshot':
        this._onSnapshot(msg);
        return;
      case 'result':
        this._onResult(msg);
        return;
      case 'progress': {
        const pending = this._requests.get(msg.request_id);
        if (pending) {
          this._changes.onProgress(msg, pending.method);
          this._emit();
        }
        return;
      }
      case 'error': {
        const detail = msg.detail || msg.error;
        if (!this._requests.get(msg.request_id)?.change) {
          this._error = detail; // NB: a change's failure is its outcome, shown as such
        }
        this._settle(msg.request_id, undefined, new RequestError(detail, msg.error));
        this._emit();
        return;
      }
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
    const hadTorch = this._live.torchVersion !== null;
    this._live = merge(this._live, msg);
    if (solicited || this._settings.autoRefresh || this._followNext) {
      this._view = this._live;
      this._followNext = false;
    }
    this._settle(msg.request_id, { seq: msg.seq });
    if (!hadTorch && this._live.torchVersion !== null && this._devices?.length === 0) {
      // NB: the kernel had no torch to list devices with when the panel connected (a restart,
      // then "Load devicelens"); now a cell imported it
      void this.listDevices().catch(() => undefined);
    }
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

  private _settle(id: string | null, result?: Result, error?: Error): void {
    this._changes.onSettled(id);
    this._requests.settle(id, result, error);
  }

  private _reset(): void {
    this._live = this._view = EMPTY;
    this._devices = null;
    this._changes.reset();
    this._paging = false;
    this._error = '';
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
  private _requests: Requests;
  private _changes: Changes;
  private _filterDelay: number;
  private _filterTimer: ReturnType<typeof setTimeout> | null = null;
  private _paging = false;
  private _error = '';
  private _followNext = false;
  private _filter = '';
  private _sortKey: SortKey = 'name';
  private _sortAscending = true;
  private _expanded = new Set<string>();
  private _disposed = false;
}
