/**
 * The one faked boundary: an IKernelBridge that records what the model sends and lets a test
 * play the kernel's replies; plus wire fixtures shaped like `_protocol.py`'s encoders output.
 */

import { Signal } from '@lumino/signaling';

import {
  IBridgeStatus,
  IKernelBridge,
  KernelMsg,
  RequestMsg,
  SnapshotMsg,
  WireFinding,
  WireObject
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
    this.setStatus({ state: 'ready', kernelVersion: version, kernelProtocol: 1, notebook: 'a.ipynb' });
    this.emit({ type: 'hello', protocol: 1, version });
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
    ]
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
    children: [tensor(name, device, '', 'tensor')]
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
    ...extra
  };
}
