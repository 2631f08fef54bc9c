/**
 * The faked boundaries: an IKernelBridge that records what the model sends and lets a test
 * play the kernel's replies; for kernel.ts itself, the few JupyterLab pieces it consumes (a
 * session context, a kernel connection, a comm); plus wire fixtures shaped like
 * `_protocol.py`'s encoders output.
 */

import { Signal, Slot } from '@lumino/signaling';

import {
  IBridgeStatus,
  IKernelBridge,
  KernelMsg,
  RequestMsg,
  SnapshotMsg,
  WireFinding,
  WireObject,
  WireWindow
} from '../src/tokens';

export class FakeBridge implements IKernelBridge {
  status: IBridgeStatus = {
    state: 'no-notebook',
    busy: false,
    language: '',
    kernelVersion: '',
    kernelProtocol: 0,
    notebook: ''
  };
  statusChanged: Signal<IKernelBridge, IBridgeStatus> = new Signal<IKernelBridge, IBridgeStatus>(this);
  received: Signal<IKernelBridge, KernelMsg> = new Signal<IKernelBridge, KernelMsg>(this);
  sent: RequestMsg[] = [];
  loads = 0;

  send(msg: RequestMsg): boolean {
    if (this.status.state !== 'ready') {
      return false;
    }
    this.sent.push(msg);
    return true;
  }

  async loadExtension(): Promise<void> {
    this.loads++;
  }

  setStatus(change: Partial<IBridgeStatus>): void {
    this.status = { ...this.status, ...change };
    this.statusChanged.emit(this.status);
  }

  /** Status ready, then hello, as kernel.ts does on a successful open. */
  connect(version = '0.1.0'): void {
    this.setStatus({ state: 'ready', kernelVersion: version, kernelProtocol: 2, notebook: 'a.ipynb' });
    this.emit({ type: 'hello', protocol: 2, version });
  }

  emit(msg: KernelMsg): void {
    this.received.emit(msg);
  }

  /** The last request of `method`. */
  last(method: string): RequestMsg {
    const found = [...this.sent].reverse().find(m => m.method === method);
    if (!found) {
      throw new Error(`no ${method} request sent; sent: ${this.sent.map(m => m.method)}`);
    }
    return found;
  }
}

export function tensor(path: string, device: string, owner = '', role = 'parameter') {
  return {
    path,
    role,
    owner,
    device,
    dtype: 'float32',
    shape: [4, 4],
    bytes: 64,
    requires_grad: role === 'parameter'
  };
}

/** `model = nn.Sequential(Linear, ReLU, Sequential(Linear))` with model.2 on meta. */
export function splitModel(): WireObject {
  return {
    name: 'model',
    kind: 'module',
    type: 'Sequential',
    devices: ['cpu', 'meta'],
    dtypes: ['float32'],
    shape: null,
    bytes: 256,
    tensors: 4,
    truncated: false,
    expandable: true,
    modules: [
      mod('model', 'Sequential', ['cpu', 'meta'], 0, 4),
      mod('model.0', 'Linear', ['cpu'], 1, 2),
      mod('model.1', 'ReLU', [], 1, 0),
      mod('model.2', 'Sequential', ['meta'], 1, 2),
      mod('model.2.0', 'Linear', ['meta'], 2, 2)
    ],
    children: [
      tensor('model.0.weight', 'cpu', 'model.0'),
      tensor('model.0.bias', 'cpu', 'model.0'),
      tensor('model.2.0.weight', 'meta', 'model.2.0'),
      tensor('model.2.0.bias', 'meta', 'model.2.0')
    ],
    counters: []
  };
}

function mod(path: string, type: string, devices: string[], depth: number, tensors: number) {
  return {
    path,
    type,
    devices,
    dtypes: devices.length ? ['float32'] : [],
    tensors,
    bytes: tensors * 64,
    depth,
    trapped: false
  };
}

/** A name bound to one tensor, as the kernel sends it: the row is the tensor (no child). */
export function batch(name = 'batch', device = 'cpu', bytes = 128): WireObject {
  return {
    name,
    kind: 'tensor',
    type: 'Tensor',
    devices: [device],
    dtypes: ['float32'],
    shape: [4, 8],
    bytes,
    tensors: 1,
    truncated: false,
    expandable: false,
    modules: [],
    children: [],
    counters: []
  };
}

export const SPLIT: WireFinding = {
  id: 'module_split-59e4c1f8f451',
  kind: 'module_split',
  severity: 'error',
  title: 'model is partly moved',
  message: 'model is split across cpu, meta: 2 of its tensors (model.0) are not on meta.',
  fix: 'model.to("meta")',
  paths: ['model.0.weight', 'model.0.bias'],
  objects: ['model'],
  devices: ['cpu', 'meta'],
  dtypes: [],
  applicable: true
};

/** The window of a first page holding `names` (all of a namespace of that many rows). */
export function windowOf(names: string[], extra: Partial<WireWindow> = {}): WireWindow {
  return {
    offset: 0,
    limit: 200,
    sort: 'name',
    ascending: true,
    filter: '',
    names,
    matched: names.length,
    total: names.length,
    ...extra
  };
}

/** A snapshot message; its window holds the rows sent, in that order, unless `extra` says. */
export function snapshotMsg(
  seq: number,
  objects: WireObject[],
  findings: WireFinding[] = [],
  extra: Partial<SnapshotMsg> = {}
): SnapshotMsg {
  return {
    type: 'snapshot',
    seq,
    request_id: null,
    snapshot: {
      objects,
      totals: [],
      devices: [
        { name: 'cpu', kind: 'cpu', free_bytes: null, total_bytes: null },
        { name: 'meta', kind: 'meta', free_bytes: null, total_bytes: null }
      ],
      truncated: false,
      torch_version: '2.13.0',
      skipped: []
    },
    findings,
    changed: null,
    removed: [],
    window: windowOf(objects.map(o => o.name)),
    ...extra
  };
}

// --- JupyterLab's side of kernel.ts ----------------------------------------------------------

/** A Signal that counts its connections, so a test can see handlers let go. */
export class CountingSignal<T, U> extends Signal<T, U> {
  receivers = 0;
  connect(slot: Slot<T, U>, thisArg?: unknown): boolean {
    const added = super.connect(slot, thisArg);
    this.receivers += added ? 1 : 0;
    return added;
  }
  disconnect(slot: Slot<T, U>, thisArg?: unknown): boolean {
    const removed = super.disconnect(slot, thisArg);
    this.receivers -= removed ? 1 : 0;
    return removed;
  }
}

/**
 * A recording Kernel.IComm. Like JupyterLab's CommHandler, `close()` calls `onClose` locally
 * before disposing, and throws once disposed.
 */
export class FakeComm {
  constructor(
    readonly targetName: string,
    readonly commId: string
  ) {}
  onMsg: ((msg: any) => void) | null = null;
  onClose: ((msg: any) => void) | null = null;
  isDisposed = false;
  /** `data` of each `open()`. */
  opened: unknown[] = [];
  /** `data` of each `send()`. */
  sent: unknown[] = [];
  /** Times the panel closed this comm (told the kernel). */
  closes = 0;

  open(data: unknown): void {
    this.opened.push(data);
  }
  send(data: unknown): void {
    if (!this.isDisposed) {
      this.sent.push(data);
    }
  }
  close(): void {
    if (this.isDisposed) {
      throw new Error('Cannot close');
    }
    this.closes++;
    this.onClose?.(commMsg('comm_close', this.commId, {}));
    this.dispose();
  }
  dispose(): void {
    this.isDisposed = true;
  }

  /** The kernel sends `data` on this comm. */
  receive(data: unknown): void {
    this.onMsg?.(commMsg('comm_msg', this.commId, data));
  }
  /** The kernel closes this comm (as ipykernel does at once for an unknown target). */
  kernelClose(): void {
    this.onClose?.(commMsg('comm_close', this.commId, {}));
    this.dispose();
  }
}

function commMsg(type: string, commId: string, data: unknown) {
  return { header: { msg_type: type }, content: { comm_id: commId, data } };
}

/** A Kernel.IKernelConnection with what kernel.ts uses: status, info, comms, execute. */
export class FakeKernel {
  constructor(
    readonly id = 'k1',
    language = 'python'
  ) {
    this.info = Promise.resolve({ language_info: { name: language } });
  }
  status = 'idle';
  info: Promise<{ language_info: { name: string } }>;
  comms: FakeComm[] = [];
  /** Arguments of each `requestExecute()`. */
  executed: { content: unknown; disposeOnDone: unknown }[] = [];
  /** What the next execute replies. */
  replyStatus = 'ok';

  createComm(target: string): FakeComm {
    const comm = new FakeComm(target, `${this.id}-comm-${this.comms.length + 1}`);
    this.comms.push(comm);
    return comm;
  }
  requestExecute(content: unknown, disposeOnDone?: unknown) {
    this.executed.push({ content, disposeOnDone });
    return { done: Promise.resolve({ content: { status: this.replyStatus } }) };
  }
  /** The comm opened last. */
  get comm(): FakeComm {
    const comm = this.comms[this.comms.length - 1];
    if (!comm) {
      throw new Error(`no comm opened on kernel ${this.id}`);
    }
    return comm;
  }
}

/** An ISessionContext with what kernel.ts uses: path, readiness, the kernel, three signals. */
export class FakeSessionContext {
  constructor(kernel: FakeKernel | null, readonly path = 'a.ipynb') {
    this.session = { kernel };
  }
  isReady = true;
  ready: Promise<void> = Promise.resolve();
  session: { kernel: FakeKernel | null };
  kernelChanged = new CountingSignal<this, unknown>(this);
  statusChanged = new CountingSignal<this, string>(this);
  iopubMessage = new CountingSignal<this, unknown>(this);

  /** The kernel's status changes, as the session context relays it. */
  setStatus(status: string): void {
    if (this.session.kernel) {
      this.session.kernel.status = status;
    }
    this.statusChanged.emit(status);
  }
  /** Another kernel replaces the current one (restart into a new one, change kernel). */
  changeKernel(kernel: FakeKernel | null): void {
    const oldValue = this.session.kernel;
    this.session.kernel = kernel;
    this.kernelChanged.emit({ name: 'kernel', oldValue, newValue: kernel });
  }
  /** The iopub `status: busy` that starts execute request `id` (a cell). */
  executeStarts(id = 'e1'): void {
    this.iopub('busy', 'execute_request', id);
  }
  /** The iopub `status: idle` that ends execute request `id`. */
  executeDone(id = 'e1'): void {
    this.iopub('idle', 'execute_request', id);
  }
  /** An iopub `status` message whose parent is a `parentType` request. */
  iopub(state: string, parentType: string, id = 'x1'): void {
    this.iopubMessage.emit({
      header: { msg_type: 'status' },
      parent_header: { msg_type: parentType, msg_id: id },
      content: { execution_state: state }
    });
  }
  get receivers(): number {
    return this.kernelChanged.receivers + this.statusChanged.receivers + this.iopubMessage.receivers;
  }
}
