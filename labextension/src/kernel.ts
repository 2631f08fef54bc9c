/**
 * The only file that talks to the kernel: follows one notebook's session, opens the
 * `devicelens` comm on its kernel, reopens it after a restart or `%load_ext`, and turns what
 * comes back into IBridgeStatus changes and typed messages for the model.
 *
 * NB: the only code ever executed in the kernel from here is LOAD_EXTENSION_CODE; requests
 * travel as comm data and the kernel never evaluates strings from them.
 */

import { ISessionContext } from '@jupyterlab/apputils';
import { Kernel, KernelMessage } from '@jupyterlab/services';
import { ISignal, Signal } from '@lumino/signaling';

import {
  COMM_TARGET,
  IBridgeStatus,
  IKernelBridge,
  KernelMsg,
  LOAD_EXTENSION_CODE,
  PANEL_VERSION,
  PROTOCOL_VERSION,
  RequestMsg
} from './tokens';

const KERNEL_MSG_TYPES = new Set(['hello', 'snapshot', 'result', 'progress', 'queued', 'error']);

const INITIAL: IBridgeStatus = {
  state: 'no-notebook',
  busy: false,
  language: '',
  kernelVersion: '',
  kernelProtocol: 0,
  notebook: ''
};

/** Kernel I/O for the inspector; see IKernelBridge. */
export class KernelBridge implements IKernelBridge {
  /**
   * @param helloTimeout - ms to wait (while the kernel is idle) for `hello` after opening the
   *   comm before deciding the extension is not loaded; ipykernel answers an unknown target
   *   with `comm_close` at once, so this only matters for other kernels.
   */
  constructor(options: { helloTimeout?: number } = {}) {
    this._helloTimeout = options.helloTimeout ?? 4000;
  }

  get status(): IBridgeStatus {
    return this._status;
  }
  get statusChanged(): ISignal<this, IBridgeStatus> {
    return this._statusChanged;
  }
  get received(): ISignal<this, KernelMsg> {
    return this._received;
  }
  get isDisposed(): boolean {
    return this._disposed;
  }

  /** Follow another notebook's session (null: none open). */
  setContext(context: ISessionContext | null): void {
    if (context === this._context || this._disposed) {
      return;
    }
    if (this._context) {
      this._context.kernelChanged.disconnect(this._onKernelChanged, this);
      this._context.statusChanged.disconnect(this._onKernelStatus, this);
      this._context.iopubMessage.disconnect(this._onIOPub, this);
    }
    this._closeComm(true);
    this._context = context;
    if (context) {
      context.kernelChanged.connect(this._onKernelChanged, this);
      context.statusChanged.connect(this._onKernelStatus, this);
      context.iopubMessage.connect(this._onIOPub, this);
    }
    void this._connect();
  }

  /** The notebook's path as shown; the document context tells when it is renamed. */
  setNotebookPath(path: string): void {
    this._set({ notebook: path });
  }

  send(msg: RequestMsg): boolean {
    if (!this._comm || this._comm.isDisposed || this._status.state !== 'ready') {
      return false;
    }
    this._comm.send(msg as any);
    return true;
  }

  async loadExtension(): Promise<void> {
    const kernel = this._context?.session?.kernel;
    if (!kernel) {
      throw new Error('No kernel to load devicelens into.');
    }
    const future = kernel.requestExecute(
      { code: LOAD_EXTENSION_CODE, silent: false, store_history: false },
      true
    );
    const reply = await future.done;
    if (reply.content.status !== 'ok') {
      throw new Error('`%load_ext devicelens` failed in the kernel: is devicelens installed there?');
    }
    if (this._status.state === 'not-loaded') {
      void this._connect();
    }
  }

  /** Idempotent: closes the comm and lets go of the notebook. */
  dispose(): void {
    if (this._disposed) {
      return;
    }
    this.setContext(null);
    this._disposed = true;
    this._clearTimer();
    Signal.clearData(this);
  }

  // --- connecting ----------------------------------------------------------------------------

  private async _connect(): Promise<void> {
    const attempt = ++this._attempt;
    this._closeComm(true);
    const context = this._context;
    const notebook = this._status.notebook || context?.path || '';
    if (!context) {
      this._set({ ...INITIAL });
      return;
    }
    if (!context.isReady) {
      this._set({ ...INITIAL, state: 'starting', notebook });
      await context.ready.catch(() => undefined);
      if (attempt !== this._attempt) {
        return;
      }
    }
    const kernel = context.session?.kernel;
    if (!kernel || kernel.status === 'dead') {
      this._set({ ...INITIAL, state: kernel ? 'dead' : 'no-kernel', notebook });
      return;
    }
    // NB: a cell that started before we followed this kernel is only known by its status
    this._cells.clear();
    this._assumeBusy = kernel.status === 'busy';
    this._set({ ...INITIAL, state: 'connecting', notebook, busy: this._assumeBusy });
    const language = await kernel.info.then(
      info => info.language_info.name,
      () => ''
    );
    if (attempt !== this._attempt || this._disposed) {
      return;
    }
    if (language.toLowerCase() !== 'python') {
      this._set({ state: 'not-python', language: language || 'an unknown language' });
      return;
    }
    this._open(kernel);
  }

  private _open(kernel: Kernel.IKernelConnection): void {
    const comm = kernel.createComm(COMM_TARGET);
    comm.onMsg = this._onCommMsg;
    comm.onClose = this._onCommClose;
    this._comm = comm;
    comm.open({ protocol: PROTOCOL_VERSION, version: PANEL_VERSION });
    this._armTimer();
  }

  private _closeComm(tellKernel: boolean): void {
    const comm = this._comm;
    this._comm = null; // NB: first, so the onClose that close() calls locally is ignored
    this._clearTimer();
    if (comm && !comm.isDisposed && tellKernel) {
      try {
        comm.close();
      } catch {
        // a kernel already gone: nothing to tell it
      }
    }
  }

  /** Give up waiting for `hello` after a quiet spell; re-armed while the kernel is busy. */
  private _armTimer(): void {
    this._clearTimer();
    this._timer = setTimeout(() => {
      this._timer = null;
      if (this._status.state !== 'connecting' || !this._comm) {
        return;
      }
      if (this._status.busy) {
        this._armTimer();
        return;
      }
      this._closeComm(true);
      this._set({ state: 'not-loaded' });
    }, this._helloTimeout);
  }

  private _clearTimer(): void {
    if (this._timer !== null) {
      clearTimeout(this._timer);
      this._timer = null;
    }
  }

  // --- handlers (stable identity: connected once, checked against the current comm) ---------

  private _onCommMsg = (msg: KernelMessage.ICommMsgMsg): void => {
    if (!this._comm || msg.content.comm_id !== this._comm.commId) {
      return;
    }
    const data = msg.content.data as unknown as KernelMsg;
    if (!data || typeof data !== 'object' || !KERNEL_MSG_TYPES.has((data as any).type)) {
      return; // NB: not ours to interpret; the model only sees well-formed messages
    }
    if (data.type === 'hello') {
      this._clearTimer();
      const ok = data.protocol === PROTOCOL_VERSION;
      this._set({
        state: ok ? 'ready' : 'mismatch',
        kernelVersion: String(data.version),
        kernelProtocol: Number(data.protocol)
      });
      if (!ok) {
        this._closeComm(true);
        return;
      }
    } else if (this._status.state !== 'ready') {
      return;
    } else if (data.type === 'error' && data.error === 'protocol_mismatch') {
      // NB: the kernel refuses this panel's protocol: one mismatch state, not an error per request
      this._closeComm(true);
      this._set({ state: 'mismatch' });
      return;
    }
    this._received.emit(data);
  };

  private _onCommClose = (msg: KernelMessage.ICommCloseMsg): void => {
    if (!this._comm || msg.content.comm_id !== this._comm.commId) {
      return;
    }
    // The kernel closed our comm: no target registered (extension not loaded) or unloaded.
    this._closeComm(false);
    if (this._status.state === 'connecting' || this._status.state === 'ready') {
      this._set({ state: 'not-loaded' });
    }
  };

  private _onKernelChanged(): void {
    void this._connect();
  }

  private _onKernelStatus(_: ISessionContext, status: Kernel.Status): void {
    const state = this._status.state;
    switch (status) {
      case 'restarting':
      case 'autorestarting':
      case 'terminating':
        this._attempt++;
        this._closeComm(false);
        this._forgetCells();
        this._set({ state: 'restarting', busy: false, kernelVersion: '', kernelProtocol: 0 });
        return;
      case 'dead':
        this._attempt++;
        this._closeComm(false);
        this._forgetCells();
        this._set({ state: 'dead', busy: false });
        return;
      case 'idle':
        if (state === 'restarting' || state === 'dead' || state === 'no-kernel') {
          void this._connect();
          return;
        }
        if (state === 'connecting' && this._comm) {
          this._armTimer(); // NB: the quiet spell starts now; the open may have queued behind a cell
        }
        return;
    }
  }

  /**
   * Cells start and end here: iopub `status` messages whose parent is an `execute_request`.
   * NB: not the kernel's overall status, which a subshell answering a comm message turns
   * `idle` while a cell still runs on the main shell.
   */
  private _onIOPub(_: ISessionContext, msg: KernelMessage.IMessage): void {
    if (msg.header.msg_type !== 'status') {
      return;
    }
    const state = (msg.content as any).execution_state;
    const parent = msg.parent_header as any;
    if (state === 'idle') {
      this._assumeBusy = false;
    }
    if (!parent || parent.msg_type !== 'execute_request') {
      this._set({ busy: this._cells.size > 0 || this._assumeBusy });
      return;
    }
    const id = String(parent.msg_id ?? '');
    if (state === 'busy') {
      this._cells.add(id);
    } else if (state === 'idle') {
      this._cells.delete(id);
    }
    this._set({ busy: this._cells.size > 0 || this._assumeBusy });
    if (state === 'idle' && this._status.state === 'not-loaded') {
      void this._connect(); // NB: the cell that just ended may have loaded devicelens
    }
  }

  private _forgetCells(): void {
    this._cells.clear();
    this._assumeBusy = false;
  }

  private _set(change: Partial<IBridgeStatus>): void {
    const next = { ...this._status, ...change };
    const same = (Object.keys(next) as (keyof IBridgeStatus)[]).every(
      k => next[k] === this._status[k]
    );
    if (!same && !this._disposed) {
      this._status = next;
      this._statusChanged.emit(next);
    }
  }

  private _context: ISessionContext | null = null;
  private _comm: Kernel.IComm | null = null;
  private _status: IBridgeStatus = { ...INITIAL };
  private _statusChanged = new Signal<this, IBridgeStatus>(this);
  private _received = new Signal<this, KernelMsg>(this);
  private _attempt = 0;
  /** msg_ids of the execute requests running now (any shell or subshell). */
  private _cells = new Set<string>();
  private _assumeBusy = false;
  private _timer: ReturnType<typeof setTimeout> | null = null;
  private _helloTimeout: number;
  private _disposed = false;
}
