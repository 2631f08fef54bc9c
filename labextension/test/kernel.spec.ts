/**
 * kernel.ts against fakes of the JupyterLab pieces it consumes (fakes.ts: FakeSessionContext,
 * FakeKernel, FakeComm): states, what goes over the comm, restarts, dispose.
 */

import { ISessionContext } from '@jupyterlab/apputils';

import { KernelBridge } from '../src/kernel';
import {
  COMM_TARGET,
  ConnectionState,
  IBridgeStatus,
  KernelMsg,
  LOAD_EXTENSION_CODE,
  PANEL_VERSION,
  PROTOCOL_VERSION,
  RequestMsg
} from '../src/tokens';
import { FakeKernel, FakeSessionContext, snapshotMsg } from './fakes';

/** Let kernel.ts's awaits (session ready, kernel info, execute reply) run. */
async function flush(): Promise<void> {
  for (let i = 0; i < 10; i++) {
    await Promise.resolve();
  }
}

function hello(protocol = PROTOCOL_VERSION, version = PANEL_VERSION) {
  return { type: 'hello', protocol, version };
}

function request(id = 'r1'): RequestMsg {
  return { type: 'request', protocol: PROTOCOL_VERSION, request_id: id, method: 'refresh', params: {} };
}

function status(change: Partial<IBridgeStatus>): IBridgeStatus {
  return {
    state: 'no-notebook',
    busy: false,
    language: '',
    kernelVersion: '',
    kernelProtocol: 0,
    notebook: 'a.ipynb',
    ...change
  };
}

/** A bridge following a notebook on `kernel`, recording the states it goes through. */
function follow(kernel: FakeKernel | null = new FakeKernel(), options = {}) {
  const context = new FakeSessionContext(kernel);
  const bridge = new KernelBridge(options);
  const states: ConnectionState[] = [];
  const received: KernelMsg[] = [];
  bridge.statusChanged.connect((_, s) => states.push(s.state));
  bridge.received.connect((_, m) => received.push(m));
  bridge.setContext(context as unknown as ISessionContext);
  return { context, bridge, states, received };
}

/** Followed, comm opened, hello answered. */
async function ready(kernel = new FakeKernel()) {
  const s = follow(kernel);
  await flush();
  kernel.comm.receive(hello());
  expect(s.bridge.status.state).toBe('ready');
  return { ...s, kernel };
}

// NB: every open arms the hello timer; fake clocks keep it from outliving a test
beforeEach(() => {
  jest.useFakeTimers();
});
afterEach(() => {
  jest.useRealTimers();
});

describe('KernelBridge: opening the comm', () => {
  it('opens the devicelens comm with its protocol and version, and is ready on hello', async () => {
    const kernel = new FakeKernel();
    const { bridge, states, received } = follow(kernel);
    expect(bridge.status).toEqual(status({ state: 'connecting' }));
    await flush();

    expect(kernel.comms.map(c => c.targetName)).toEqual([COMM_TARGET]);
    expect(COMM_TARGET).toBe('devicelens');
    expect(kernel.comm.opened).toEqual([{ protocol: PROTOCOL_VERSION, version: PANEL_VERSION }]);
    expect(kernel.comm.opened).toEqual([{ protocol: PROTOCOL_VERSION, version: PANEL_VERSION }]);

    kernel.comm.receive(hello(PROTOCOL_VERSION, '0.1.0'));
    expect(bridge.status).toEqual(
      status({ state: 'ready', kernelVersion: '0.1.0', kernelProtocol: PROTOCOL_VERSION })
    );
    expect(states).toEqual(['connecting', 'ready']);
    expect(received).toEqual([hello(PROTOCOL_VERSION, '0.1.0')]);
  });

  it('waits for a starting session before asking the kernel anything', async () => {
    const kernel = new FakeKernel();
    const context = new FakeSessionContext(kernel);
    let start!: () => void;
    context.isReady = false;
    context.ready = new Promise<void>(resolve => (start = resolve));
    const bridge = new KernelBridge();
    bridge.setContext(context as unknown as ISessionContext);
    await flush();
    expect(bridge.status.state).toBe('starting');
    expect(kernel.comms).toEqual([]);

    start();
    await flush();
    expect(bridge.status.state).toBe('connecting');
    expect(kernel.comms).toHaveLength(1);
  });

  it('forwards well-formed messages on its own comm after hello, and nothing else', async () => {
    const { kernel, received } = await ready();
    const snap = snapshotMsg(1, []);
    kernel.comm.receive(snap);
    kernel.comm.receive({ type: 'bogus' });
    kernel.comm.receive('not an object');
    kernel.comm.onMsg!({ content: { comm_id: 'someone-else', data: snapshotMsg(2, []) } });
    expect(received).toEqual([hello(), snap]);
  });

  it('drops what the kernel sends before hello', async () => {
    const kernel = new FakeKernel();
    const { received, bridge } = follow(kernel);
    await flush();
    kernel.comm.receive(snapshotMsg(1, []));
    expect(received).toEqual([]);
    expect(bridge.status.state).toBe('connecting');
  });
});

describe('KernelBridge: protocol mismatch', () => {
  it('goes to mismatch on a hello of another protocol, keeping what the panel message needs', async () => {
    const kernel = new FakeKernel();
    const { bridge, states, received } = follow(kernel);
    await flush();
    kernel.comm.receive(hello(PROTOCOL_VERSION + 1, '0.3.0'));

    // panel.tsx words it from these: `kernel-side devicelens 0.3.0 (protocol 5), panel
    // ${PANEL_VERSION} (protocol 4) — reinstall devicelens …`
    expect(bridge.status).toEqual(
      status({ state: 'mismatch', kernelVersion: '0.3.0', kernelProtocol: PROTOCOL_VERSION + 1 })
    );
    expect(states).toEqual(['connecting', 'mismatch']);
    expect(received).toEqual([]); // NB: the model never sees a hello it cannot speak to
    expect(kernel.comm.closes).toBe(1); // the panel closes the comm itself …
    expect(bridge.status.state).toBe('mismatch'); // … without reading that as "not loaded"
    expect(bridge.send(request())).toBe(false);

    // the kernel's protocol_mismatch error that follows its hello lands on a closed comm
    kernel.comm.receive({ type: 'error', request_id: null, error: 'protocol_mismatch', detail: 'x' });
    expect(received).toEqual([]);
    expect(bridge.status.state).toBe('mismatch');
  });

  it('goes to mismatch on a protocol_mismatch error after hello', async () => {
    const { kernel, bridge, states, received } = await ready();
    expect(bridge.send(request('r1'))).toBe(true);
    kernel.comm.receive({
      type: 'error',
      request_id: 'r1',
      error: 'protocol_mismatch',
      detail: 'kernel-side devicelens 0.1.0 (protocol 1), panel protocol 7 — reinstall devicelens'
    });
    expect(bridge.status).toEqual(
      status({ state: 'mismatch', kernelVersion: PANEL_VERSION, kernelProtocol: PROTOCOL_VERSION })
    );
    expect(states).toEqual(['connecting', 'ready', 'mismatch']);
    expect(received).toEqual([hello()]);
    expect(kernel.comm.closes).toBe(1);
    expect(bridge.send(request('r2'))).toBe(false);
    expect(kernel.comm.sent).toEqual([request('r1')]);
  });

  it('forwards other errors and stays ready', async () => {
    const { kernel, bridge, received } = await ready();
    const error = { type: 'error', request_id: 'r1', error: 'bad_device', detail: 'no cuda:3' };
    kernel.comm.receive(error);
    expect(received).toEqual([hello(), error]);
    expect(bridge.status.state).toBe('ready');
  });
});

describe('KernelBridge: kernels it cannot inspect', () => {
  it('says which language a non-Python kernel runs and opens no comm', async () => {
    const kernel = new FakeKernel('k1', 'julia');
    const { bridge, states } = follow(kernel);
    await flush();
    expect(bridge.status).toEqual(status({ state: 'not-python', language: 'julia' }));
    expect(states).toEqual(['connecting', 'not-python']);
    expect(kernel.comms).toEqual([]);
    expect(bridge.send(request())).toBe(false);
  });

  it('treats a kernel whose info fails as an unknown, non-Python language', async () => {
    const kernel = new FakeKernel();
    kernel.info = Promise.reject(new Error('no reply'));
    const { bridge } = follow(kernel);
    await flush();
    expect(bridge.status).toEqual(status({ state: 'not-python', language: 'an unknown language' }));
    expect(kernel.comms).toEqual([]);
  });

  it('reports no kernel and a dead kernel without opening anything', async () => {
    expect(follow(null).bridge.status).toEqual(status({ state: 'no-kernel' }));
    const dead = new FakeKernel();
    dead.status = 'dead';
    expect(follow(dead).bridge.status).toEqual(status({ state: 'dead' }));
    await flush();
    expect(dead.comms).toEqual([]);
  });
});

describe('KernelBridge: extension not loaded', () => {
  it('is not-loaded when the kernel closes the comm, and %load_ext reopens it', async () => {
    const kernel = new FakeKernel();
    const { bridge, states } = follow(kernel);
    await flush();
    kernel.comm.kernelClose();
    expect(bridge.status.state).toBe('not-loaded');
    expect(kernel.comm.closes).toBe(0); // NB: not closed back
    expect(bridge.send(request())).toBe(false);

    await bridge.loadExtension();
    expect(kernel.executed).toEqual([
      {
        content: { code: '%load_ext devicelens', silent: false, store_history: false },
        disposeOnDone: true
      }
    ]);
    expect(LOAD_EXTENSION_CODE).toBe('%load_ext devicelens');
    await flush();
    expect(kernel.comms).toHaveLength(2);
    expect(kernel.comm.opened).toEqual([{ protocol: PROTOCOL_VERSION, version: PANEL_VERSION }]);
    kernel.comm.receive(hello());
    expect(states).toEqual(['connecting', 'not-loaded', 'connecting', 'ready']);
    expect(bridge.send(request())).toBe(true);
    expect(kernel.comm.sent).toEqual([request()]);
  });

  it('gives up on hello after the timeout, not before, and waits longer while busy', async () => {
    const kernel = new FakeKernel();
    const { bridge, context } = follow(kernel, { helloTimeout: 4000 });
    await flush();
    const first = kernel.comm;

    context.setStatus('busy');
    context.executeStarts();
    jest.advanceTimersByTime(10000);
    expect(bridge.status).toEqual(status({ state: 'connecting', busy: true }));

    context.executeDone();
    context.setStatus('idle');
    jest.advanceTimersByTime(3999);
    expect(bridge.status.state).toBe('connecting');
    jest.advanceTimersByTime(1);
    expect(bridge.status.state).toBe('not-loaded');
    expect(first.closes).toBe(1); // the panel withdraws its open
    first.receive(hello()); // a late hello on the withdrawn comm changes nothing
    expect(bridge.status.state).toBe('not-loaded');

    await bridge.loadExtension();
    await flush();
    expect(kernel.executed.map(e => e.content)).toEqual([
      { code: '%load_ext devicelens', silent: false, store_history: false }
    ]);
    expect(kernel.comms).toHaveLength(2);
    kernel.comm.receive(hello());
    expect(bridge.status.state).toBe('ready');
    jest.advanceTimersByTime(10000); // the hello stopped the clock
    expect(bridge.status.state).toBe('ready');
  });

  it('tries again after a cell runs, since the cell may have loaded the extension', async () => {
    const kernel = new FakeKernel();
    const { bridge, context } = follow(kernel);
    await flush();
    kernel.comm.kernelClose();
    context.executeDone();
    await flush();
    expect(kernel.comms).toHaveLength(2);
    kernel.comm.receive(hello());
    expect(bridge.status.state).toBe('ready');
    context.executeDone(); // ready: no new comm per cell
    await flush();
    expect(kernel.comms).toHaveLength(2);
  });

  it('rejects a failed %load_ext and one with no kernel, and stays not-loaded', async () => {
    const kernel = new FakeKernel();
    const { bridge } = follow(kernel);
    await flush();
    kernel.comm.kernelClose();
    kernel.replyStatus = 'error';
    await expect(bridge.loadExtension()).rejects.toThrow(
      '`%load_ext devicelens` failed in the kernel: is devicelens installed there?'
    );
    await flush();
    expect(bridge.status.state).toBe('not-loaded');
    expect(kernel.comms).toHaveLength(1);

    await expect(follow(null).bridge.loadExtension()).rejects.toThrow(
      'No kernel to load devicelens into.'
    );
  });
});

describe('KernelBridge: is a cell running?', () => {
  it('follows execute requests, not the kernel status a subshell turns idle mid-cell', async () => {
    const { bridge, context } = await ready();
    context.executeStarts('cell-1');
    context.setStatus('busy');
    expect(bridge.status.busy).toBe(true);
    // a comm message answered on a subshell while the cell runs: busy, idle, kernel 'idle'
    context.iopub('busy', 'comm_msg');
    context.iopub('idle', 'comm_msg');
    context.setStatus('idle');
    expect(bridge.status.busy).toBe(true);
    context.executeStarts('console-1'); // a second execute (a console on another subshell)
    context.executeDone('cell-1');
    expect(bridge.status.busy).toBe(true);
    context.executeDone('console-1');
    expect(bridge.status.busy).toBe(false);
  });

  it('takes a busy kernel found on connect for a running cell until something goes idle', async () => {
    const kernel = new FakeKernel();
    kernel.status = 'busy';
    const { bridge, context } = follow(kernel);
    await flush();
    expect(bridge.status).toEqual(status({ state: 'connecting', busy: true }));
    kernel.comm.receive(hello());
    expect(bridge.status.busy).toBe(true);
    context.executeDone('started-before-we-looked');
    expect(bridge.status.busy).toBe(false);
  });

  it('forgets running cells over a restart', async () => {
    const { bridge, context } = await ready();
    context.executeStarts('cell-1');
    context.setStatus('restarting');
    expect(bridge.status).toMatchObject({ state: 'restarting', busy: false });
    context.setStatus('idle');
    await flush();
    expect(bridge.status.busy).toBe(false);
  });
});

describe('KernelBridge: restarts, notebooks, dispose', () => {
  it('goes through restarting and reopens the comm on the new kernel', async () => {
    const { kernel, bridge, context, states } = await ready();
    const old = kernel.comm;
    context.setStatus('restarting');
    expect(bridge.status).toEqual(status({ state: 'restarting' }));
    expect(old.closes).toBe(0); // NB: the kernel that had it is gone: nothing to tell
    expect(bridge.send(request())).toBe(false);

    const next = new FakeKernel('k2');
    context.changeKernel(next);
    await flush();
    expect(next.comms).toHaveLength(1);
    expect(next.comm.opened).toEqual([{ protocol: PROTOCOL_VERSION, version: PANEL_VERSION }]);
    old.receive(hello()); // the old comm is no longer listened to
    expect(bridge.status.state).toBe('connecting');
    next.comm.receive(hello());
    expect(states).toEqual(['connecting', 'ready', 'restarting', 'connecting', 'ready']);
    expect(bridge.send(request())).toBe(true);
    expect(next.comm.sent).toEqual([request()]);
    expect(old.sent).toEqual([]);
  });

  it('reconnects after a dead kernel comes back idle', async () => {
    const { kernel, bridge, context, states } = await ready();
    context.setStatus('dead');
    expect(bridge.status.state).toBe('dead');
    context.setStatus('idle');
    await flush();
    expect(kernel.comms).toHaveLength(2);
    kernel.comm.receive(hello());
    expect(states).toEqual(['connecting', 'ready', 'dead', 'connecting', 'ready']);
  });

  it('lets go of one notebook when following another', async () => {
    const { kernel, bridge, context } = await ready();
    const other = new FakeKernel('k2');
    const second = new FakeSessionContext(other, 'b.ipynb');
    bridge.setContext(second as unknown as ISessionContext);
    expect(kernel.comm.closes).toBe(1);
    expect(context.receivers).toBe(0);
    expect(second.receivers).toBe(3);
    await flush();
    other.comm.receive(hello());
    expect(bridge.status).toEqual(
      status({ state: 'ready', notebook: 'a.ipynb', kernelVersion: PANEL_VERSION, kernelProtocol: PROTOCOL_VERSION })
    );
  });

  it('disposes once: closes the comm, disconnects every handler, then ignores everything', async () => {
    const { kernel, bridge, context, states, received } = await ready();
    expect(context.receivers).toBe(3);
    bridge.dispose();
    bridge.dispose();
    expect(bridge.isDisposed).toBe(true);
    expect(kernel.comm.closes).toBe(1);
    expect(context.receivers).toBe(0);

    context.setStatus('restarting');
    context.changeKernel(new FakeKernel('k2'));
    context.executeDone();
    bridge.setContext(context as unknown as ISessionContext);
    await flush();
    expect(kernel.comms).toHaveLength(1);
    expect(context.receivers).toBe(0);
    // one last change as it lets go of the notebook (the model rejects what was pending)
    expect(states).toEqual(['connecting', 'ready', 'no-notebook']);
    expect(received).toEqual([hello()]);
    expect(bridge.send(request())).toBe(false);
  });

  it('drops a connect overtaken by a newer one', async () => {
    const slow = new FakeKernel('k1');
    let answer!: (v: { language_info: { name: string } }) => void;
    slow.info = new Promise(resolve => (answer = resolve));
    const { bridge, context } = follow(slow);
    const next = new FakeKernel('k2');
    context.changeKernel(next);
    await flush();
    answer({ language_info: { name: 'python' } });
    await flush();
    expect(slow.comms).toEqual([]);
    expect(next.comms).toHaveLength(1);
    expect(bridge.status.state).toBe('connecting');
  });
});

describe('KernelBridge: requests while not connected', () => {
  it('refuses them (false, nothing queued) in every state but ready', async () => {
    const bridge = new KernelBridge();
    expect(bridge.status.state).toBe('no-notebook');
    expect(bridge.send(request())).toBe(false);

    const kernel = new FakeKernel();
    const s = follow(kernel);
    await flush();
    expect(s.bridge.status.state).toBe('connecting');
    expect(s.bridge.send(request('early'))).toBe(false);
    kernel.comm.receive(hello());
    expect(s.bridge.send(request('r1'))).toBe(true);
    expect(kernel.comm.sent).toEqual([request('r1')]); // 'early' was not held back for later
  });
});
