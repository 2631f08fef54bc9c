import { DeviceModel } from '../src/model';
import { DEFAULT_SETTINGS, PROTOCOL_VERSION, WireReport } from '../src/tokens';
import { batch, FakeBridge, snapshotMsg, splitModel, SPLIT, windowOf } from './fakes';

function report(moved: number, extra: Partial<WireReport> = {}, device = 'meta'): WireReport {
  return {
    ok: true,
    dry_run: false,
    target: device,
    moved: Array.from({ length: moved }, (_, i) => ({
      path: `model.${i}.weight`,
      source: 'cpu',
      target: device,
      bytes: 100,
      tensors: 1,
      device,
      dtype: null
    })),
    refused: [],
    applied: [],
    bytes_by_device: { meta: 100 * moved },
    error: null,
    notes: [],
    ...extra
  };
}

function setup(settings = DEFAULT_SETTINGS) {
  const bridge = new FakeBridge();
  const model = new DeviceModel(bridge, settings, { filterDelay: 0 });
  let changes = 0;
  model.changed.connect(() => changes++);
  bridge.connect();
  bridge.emit(snapshotMsg(1, [splitModel(), batch()], [SPLIT]));
  return { bridge, model, changes: () => changes };
}

const DEVICES = [
  { name: 'cpu', kind: 'cpu', free_bytes: null, total_bytes: null },
  { name: 'cuda:0', kind: 'cuda', free_bytes: 1 << 30, total_bytes: 2 << 30 },
  { name: 'meta', kind: 'meta', free_bytes: null, total_bytes: null }
];

/** The kernel answers the dry run that `applyFix` sends first with `dry`; the model goes on. */
async function answerDryRun(bridge: FakeBridge, dry: WireReport) {
  const req = bridge.last('apply_fix');
  expect(req.params).toEqual({ finding_id: req.params.finding_id, dry_run: true });
  bridge.emit({
    type: 'result',
    request_id: req.request_id,
    method: 'apply_fix',
    result: { finding_id: req.params.finding_id, report: dry }
  });
  await new Promise(resolve => setTimeout(resolve, 0));
}

/** A fix's dry run that moves two tensors to cuda:0 (no values lost: the fix runs at once). */
const TO_CUDA = report(2, { dry_run: true, target: '' }, 'cuda:0');

/** Connected, first snapshot shown, the device list answered: nothing pending. */
async function ready(settings = DEFAULT_SETTINGS) {
  const s = setup(settings);
  const req = s.bridge.last('list_devices');
  s.bridge.emit({
    type: 'result',
    request_id: req.request_id,
    method: 'list_devices',
    result: { devices: DEVICES }
  });
  await Promise.resolve();
  expect(s.model.pending).toBe(0);
  return s;
}

describe('DeviceModel snapshots', () => {
  it('shows the first push after hello and asks for the device list', () => {
    const { bridge, model, changes } = setup();
    expect(bridge.sent.map(m => m.method)).toEqual(['list_devices']);
    expect(bridge.sent[0].protocol).toBe(PROTOCOL_VERSION);
    expect(model.view.objects.map(o => o.name)).toEqual(['model', 'batch']);
    expect(model.view.findings[0].id).toBe('module_split-59e4c1f8f451');
    expect(model.view.seq).toBe(1);
    expect(changes()).toBeGreaterThan(0);
  });

  it('upserts changed rows and drops removed ones', () => {
    const { bridge, model } = setup();
    bridge.emit(snapshotMsg(2, [batch('batch', 'meta', 999), batch('x')], [], {
      changed: ['batch', 'x'],
      removed: ['model']
    }));
    const objs = model.view.objects;
    expect(objs.map(o => [o.name, o.devices[0], o.bytes])).toEqual([
      ['batch', 'meta', 999],
      ['x', 'cpu', 128]
    ]);
    expect(model.view.findings).toEqual([]);
  });

  it('asks for a full snapshot after a gap in seq instead of applying the delta', () => {
    const { bridge, model } = setup();
    bridge.emit(snapshotMsg(5, [batch('y')], [], { changed: ['y'], removed: [] }));
    expect(model.view.objects.map(o => o.name)).toEqual(['model', 'batch']);
    expect(bridge.last('refresh').params).toEqual({});
  });

  it('ignores a push older than what it shows', () => {
    const { bridge, model } = setup();
    bridge.emit(snapshotMsg(1, [batch('old')]));
    expect(model.view.objects.map(o => o.name)).toEqual(['model', 'batch']);
  });

  it('holds pushes back while auto-refresh is off, until Refresh', async () => {
    const { bridge, model } = setup({ ...DEFAULT_SETTINGS, autoRefresh: false });
    bridge.emit(snapshotMsg(2, [batch('z')]));
    expect(model.outdated).toBe(true);
    expect(model.view.objects.map(o => o.name)).toEqual(['model', 'batch']);
    const done = model.refresh();
    expect(model.view.objects.map(o => o.name)).toEqual(['z']);
    const rid = bridge.last('refresh').request_id;
    bridge.emit(snapshotMsg(3, [batch('w')], [], { request_id: rid }));
    await done;
    expect(model.outdated).toBe(false);
    expect(model.view.objects.map(o => o.name)).toEqual(['w']);
  });
});

describe('DeviceModel requests', () => {
  it('applies a fix by finding id and shows the report', async () => {
    const { bridge, model } = await ready({ ...DEFAULT_SETTINGS, autoRefresh: false });
    const applied = model.applyFix(SPLIT.id);
    await answerDryRun(bridge, TO_CUDA);
    const req = bridge.last('apply_fix');
    expect(req.params).toEqual({ finding_id: SPLIT.id });
    expect(model.pending).toBe(1);
    bridge.emit({
      type: 'result',
      request_id: req.request_id,
      method: 'apply_fix',
      result: { finding_id: SPLIT.id, report: report(2) }
    });
    const r = await applied;
    expect(r!.moved).toHaveLength(2);
    expect(model.outcome?.action).toBe('apply_fix');
    expect(model.pending).toBe(0);
    // the push that follows a move is shown even with auto-refresh off
    bridge.emit(snapshotMsg(2, [batch('after')]));
    expect(model.view.objects.map(o => o.name)).toEqual(['after']);
    bridge.emit(snapshotMsg(3, [batch('later')]));
    expect(model.view.objects.map(o => o.name)).toEqual(['after']);
  });

  it('plans a move with a dry run, then moves with progress', async () => {
    const { bridge, model } = await ready();
    const planned = model.planMove('meta');
    const dry = bridge.last('move_all');
    expect(dry.params).toEqual({ device: 'meta', dry_run: true, names: null });
    bridge.emit({
      type: 'result',
      request_id: dry.request_id,
      method: 'move_all',
      result: { report: report(3, { dry_run: true }) }
    });
    const plan = await planned;
    expect(plan.device).toBe('meta');
    expect(plan.report.moved.reduce((n, m) => n + m.bytes, 0)).toBe(300);
    expect(model.plan).toBe(plan);

    const moving = model.confirmMove();
    expect(model.plan).toBeNull();
    const go = bridge.last('move_all');
    expect(go.params).toEqual({ device: 'meta', dry_run: false, names: null });
    bridge.emit({ type: 'progress', request_id: go.request_id, done: 1, total: 3 });
    expect(model.progress).toEqual({ method: 'move_all', done: 1, total: 3 });
    bridge.emit({
      type: 'result',
      request_id: go.request_id,
      method: 'move_all',
      result: { report: report(3) }
    });
    await moving;
    expect(model.progress).toBeNull();
    expect(model.outcome?.report?.moved).toHaveLength(3);
  });

  it('asks before a fix that moves tensors to meta, as move all does, and applies it then', async () => {
    const { bridge, model } = await ready();
    const applied = model.applyFix(SPLIT.id);
    expect(model.changing).toBe(true); // NB: no second Apply while the dry run is out
    await answerDryRun(bridge, report(2, { dry_run: true, target: '' }));
    expect(await applied).toBeNull();
    // nothing ran: one request, the dry run; the plan waits for the user
    expect(bridge.sent.filter(m => m.method === 'apply_fix').map(m => m.params)).toEqual([
      { finding_id: SPLIT.id, dry_run: true }
    ]);
    expect(model.plan).toMatchObject({ action: 'apply_fix', device: 'meta', findingId: SPLIT.id });
    expect(model.plan!.report.moved.map(m => m.device)).toEqual(['meta', 'meta']);
    expect(model.changing).toBe(false);

    const confirmed = model.confirmMove();
    expect(model.plan).toBeNull();
    const go = bridge.last('apply_fix');
    expect(go.params).toEqual({ finding_id: SPLIT.id });
    bridge.emit({
      type: 'result',
      request_id: go.request_id,
      method: 'apply_fix',
      result: { finding_id: SPLIT.id, report: report(2) }
    });
    expect((await confirmed).moved).toHaveLength(2);
    expect(model.outcome?.action).toBe('apply_fix');
  });

  it('a fix to meta cancelled at its confirmation sends nothing more', async () => {
    const { bridge, model } = await ready();
    const applied = model.applyFix(SPLIT.id);
    await answerDryRun(bridge, report(1, { dry_run: true, target: '' }));
    await applied;
    const sent = bridge.sent.length;
    model.cancelMove();
    expect([model.plan, model.outcome, bridge.sent.length]).toEqual([null, null, sent]);
  });

  it('plans to move the rest where the kernel refuses some objects, and moves them by name', async () => {
    const { bridge, model } = await ready();
    bridge.emit(snapshotMsg(2, [splitModel(), batch(), batch('x', 'cuda:0')], [SPLIT]));
    const planned = model.planMove('cpu');
    const why = 'is on meta, which holds no data, so it cannot be copied to cpu (model.2.0.weight)';
    bridge.emit({
      type: 'result',
      request_id: bridge.last('move_all').request_id,
      method: 'move_all',
      result: {
        report: report(0, {
          ok: false,
          dry_run: true,
          target: 'cpu',
          refused: [{ path: 'model', reason: why }],
          error: 'model cannot be moved (see below), so nothing was moved'
        })
      }
    });
    await new Promise(resolve => setTimeout(resolve, 0));
    // a second dry run: everything the panel shows but what stays
    const rest = bridge.last('move_all');
    expect(rest.params).toEqual({ device: 'cpu', dry_run: true, names: ['batch', 'x'] });
    const one = { ...report(1, { dry_run: true, target: 'cpu' }, 'cpu') };
    one.moved[0] = { ...one.moved[0], path: 'x', source: 'cuda:0' };
    bridge.emit({
      type: 'result',
      request_id: rest.request_id,
      method: 'move_all',
      result: { report: one }
    });
    const plan = await planned;
    expect(plan).toMatchObject({ action: 'move_all', device: 'cpu', names: ['batch', 'x'] });
    expect(plan.refused).toEqual([{ path: 'model', reason: why }]);
    expect(plan.report.moved.map(m => m.path)).toEqual(['x']);
    expect(model.error).toBe(''); // NB: no "see below" message: the plan says what stays

    void model.confirmMove().catch(() => undefined);
    expect(bridge.last('move_all').params).toEqual({
      device: 'cpu',
      dry_run: false,
      names: ['batch', 'x']
    });
  });

  it('where every object is refused, the plan moves nothing', async () => {
    const { bridge, model } = await ready();
    bridge.emit(snapshotMsg(2, [splitModel()], [SPLIT]));
    const planned = model.planMove('cpu');
    const refused = [{ path: 'model', reason: 'is on meta, which holds no data' }];
    bridge.emit({
      type: 'result',
      request_id: bridge.last('move_all').request_id,
      method: 'move_all',
      result: { report: report(0, { ok: false, dry_run: true, target: 'cpu', refused }) }
    });
    const plan = await planned;
    expect([plan.names, plan.refused, plan.report.moved]).toEqual([[], refused, []]);
    expect(bridge.sent.filter(m => m.method === 'move_all')).toHaveLength(1);
  });

  it('rejects a change the kernel refuses and shows why as its outcome', async () => {
    const { bridge, model } = await ready();
    const applied = model.applyFix('gone');
    const req = bridge.last('apply_fix');
    bridge.emit({
      type: 'error',
      request_id: req.request_id,
      error: 'stale_finding',
      detail: "finding 'gone' no longer applies"
    });
    await expect(applied).rejects.toThrow("finding 'gone' no longer applies");
    expect(model.outcome).toEqual({
      action: 'apply_fix',
      report: null,
      error: "finding 'gone' no longer applies",
      cancelled: false
    });
    expect(model.error).toBe('');
    expect(model.pending).toBe(0);
  });

  it('shows the latest outcome: a failed move replaces an earlier success', async () => {
    const { bridge, model } = await ready();
    const first = model.applyFix(SPLIT.id);
    await answerDryRun(bridge, TO_CUDA);
    const req = bridge.last('apply_fix');
    bridge.emit({
      type: 'result',
      request_id: req.request_id,
      method: 'apply_fix',
      result: { finding_id: SPLIT.id, report: report(2) }
    });
    await first;
    expect(model.outcome?.report?.ok).toBe(true);
    model.cancelMove();
    const planned = model.planMove('meta');
    const dry = bridge.last('move_all');
    bridge.emit({
      type: 'result',
      request_id: dry.request_id,
      method: 'move_all',
      result: { report: report(1, { dry_run: true }) }
    });
    await planned;
    const moving = model.confirmMove();
    expect(model.outcome).toBeNull(); // NB: the old report goes as soon as the new change starts
    bridge.emit({
      type: 'error',
      request_id: bridge.last('move_all').request_id,
      error: 'move_failed',
      detail: 'not enough memory on cuda:0; nothing was changed'
    });
    await expect(moving).rejects.toThrow('not enough memory');
    expect(model.outcome).toMatchObject({ action: 'move_all', report: null, cancelled: false });
    expect(model.outcome?.error).toBe('not enough memory on cuda:0; nothing was changed');
  });

  it('sends nothing and says so when not connected', async () => {
    const bridge = new FakeBridge();
    const model = new DeviceModel(bridge);
    await expect(model.refresh()).rejects.toThrow('Not connected');
    expect(bridge.sent).toEqual([]);
    expect(model.error).toContain('refresh not sent');
  });

  it('rejects requests in flight and clears rows when the kernel restarts', async () => {
    const { bridge, model } = await ready();
    const applied = model.applyFix(SPLIT.id);
    bridge.setStatus({ state: 'restarting' });
    await expect(applied).rejects.toThrow('restarting');
    expect(model.view.objects).toEqual([]);
    expect(model.pending).toBe(0);
  });

  it('counts requests queued behind a busy kernel', async () => {
    const { bridge, model } = await ready();
    bridge.setStatus({ busy: true });
    void model.refresh().catch(() => undefined);
    void model.refresh().catch(() => undefined);
    expect(model.status.busy).toBe(true);
    expect(model.pending).toBe(2);
  });

  it('shows a change the kernel holds while a cell runs, and cancels it', async () => {
    const { bridge, model } = await ready();
    const applied = model.applyFix(SPLIT.id);
    await answerDryRun(bridge, TO_CUDA);
    const rid = bridge.last('apply_fix').request_id;
    const reason = 'a cell is running: the change waits until it ends, then runs before the next one';
    bridge.emit({ type: 'queued', request_id: rid, method: 'apply_fix', reason });
    expect(model.queued).toEqual({ requestId: rid, method: 'apply_fix', reason, cancelling: false });
    expect(model.changing).toBe(true);

    const cancelling = model.cancelQueued();
    const cancel = bridge.last('cancel');
    expect(cancel.params).toEqual({ request_id: rid });
    expect(model.queued?.cancelling).toBe(true);
    bridge.emit({
      type: 'error',
      request_id: rid,
      error: 'cancelled',
      detail: 'apply_fix cancelled before it ran: nothing was changed'
    });
    await expect(applied).rejects.toThrow('cancelled');
    bridge.emit({
      type: 'result',
      request_id: cancel.request_id,
      method: 'cancel',
      result: { request_id: rid, cancelled: true }
    });
    await cancelling;
    expect(model.queued).toBeNull();
    expect(model.outcome).toMatchObject({ action: 'apply_fix', report: null, cancelled: true });
    expect(model.error).toBe('');
    expect([model.pending, model.changing]).toEqual([0, false]);
  });

  it('a cancel too late leaves the change to run and its report to show', async () => {
    const { bridge, model } = await ready();
    const applied = model.applyFix(SPLIT.id);
    await answerDryRun(bridge, TO_CUDA);
    const rid = bridge.last('apply_fix').request_id;
    bridge.emit({ type: 'queued', request_id: rid, method: 'apply_fix', reason: 'a cell runs' });
    const cancelling = model.cancelQueued();
    const cancel = bridge.last('cancel');
    bridge.emit({
      type: 'result',
      request_id: cancel.request_id,
      method: 'cancel',
      result: { request_id: rid, cancelled: false }
    });
    await cancelling;
    expect(model.queued).toEqual({
      requestId: rid,
      method: 'apply_fix',
      reason: 'a cell runs',
      cancelling: false
    });
    bridge.emit({ type: 'progress', request_id: rid, done: 1, total: 2 });
    bridge.emit({
      type: 'result',
      request_id: rid,
      method: 'apply_fix',
      result: { finding_id: SPLIT.id, report: report(2) }
    });
    await applied;
    expect(model.queued).toBeNull();
    expect(model.outcome?.report?.moved).toHaveLength(2);
  });

  it('never takes a read for a held change', async () => {
    const { bridge, model } = await ready();
    void model.refresh().catch(() => undefined);
    const rid = bridge.last('refresh').request_id;
    bridge.emit({ type: 'queued', request_id: rid, method: 'refresh', reason: 'x' });
    expect([model.queued, model.changing]).toEqual([null, false]);
  });

  it('refills the device list once torch is imported after the panel connected', async () => {
    const bridge = new FakeBridge();
    const model = new DeviceModel(bridge, DEFAULT_SETTINGS);
    bridge.connect(); // a fresh kernel after a restart and "Load devicelens": no torch yet
    bridge.emit({ ...snapshotMsg(1, []), snapshot: { ...snapshotMsg(1, []).snapshot,
      devices: [], torch_version: null } });
    const first = bridge.last('list_devices');
    bridge.emit({ type: 'result', request_id: first.request_id, method: 'list_devices',
      result: { devices: [] } });
    await Promise.resolve();
    expect(model.targets).toEqual([]);
    bridge.emit(snapshotMsg(2, [batch()])); // the user's cell imported torch
    const again = bridge.last('list_devices');
    expect(again.request_id).not.toBe(first.request_id);
    expect(model.targets.map(d => d.name)).toEqual(['cpu']); // the snapshot's, meanwhile
    bridge.emit({ type: 'result', request_id: again.request_id, method: 'list_devices',
      result: { devices: DEVICES } });
    await Promise.resolve();
    expect(model.targets.map(d => d.name)).toEqual(['cpu', 'cuda:0']);
    expect(model.devices.map(d => d.name)).toEqual(['cpu', 'cuda:0', 'meta']);
  });

  it('asks the kernel to filter, and shows the rows it sends in its order', async () => {
    const { bridge, model } = await ready();
    model.filter = ' exp_avg ';
    expect(bridge.last('rows').params).toEqual({ offset: 0, limit: 200, sort: 'name',
      ascending: true, filter: 'exp_avg' });
    expect(model.paging).toBe(true);
    const rid = bridge.last('rows').request_id;
    const opt = { ...batch('opt'), kind: 'optimizer', type: 'Adam', expandable: true };
    bridge.emit(snapshotMsg(2, [opt], [], { request_id: rid,
      window: windowOf(['opt'], { filter: 'exp_avg', matched: 1, total: 900 }) }));
    await Promise.resolve();
    expect(model.view.objects.map(o => o.name)).toEqual(['opt']);
    expect(model.view.window!.total - model.view.window!.matched).toBe(899);
    await new Promise(resolve => setTimeout(resolve, 0));
    expect(model.paging).toBe(false);
  });

  it('waits for a pause in the typing before it asks the kernel to filter', () => {
    jest.useFakeTimers();
    try {
      const bridge = new FakeBridge();
      const model = new DeviceModel(bridge, DEFAULT_SETTINGS);
      bridge.connect();
      bridge.emit(snapshotMsg(1, [batch()]));
      model.filter = 'b';
      model.filter = 'ba';
      expect(bridge.sent.filter(m => m.method === 'rows')).toHaveLength(0);
      jest.advanceTimersByTime(300);
      const rows = bridge.sent.filter(m => m.method === 'rows');
      expect(rows.map(m => m.params.filter)).toEqual(['ba']);
      model.filter = 'bat';
      model.dispose(); // NB: no request after the panel is gone
      jest.advanceTimersByTime(300);
      expect(bridge.sent.filter(m => m.method === 'rows')).toHaveLength(1);
    } finally {
      jest.useRealTimers();
    }
  });

  it('asks the kernel to sort from the first page; the same column again reverses it', async () => {
    const { bridge, model } = await ready();
    model.sortBy('bytes');
    expect(bridge.last('rows').params).toMatchObject({ offset: 0, sort: 'bytes',
      ascending: false });
    model.sortBy('bytes');
    expect(bridge.last('rows').params).toMatchObject({ sort: 'bytes', ascending: true });
    model.sortBy('name');
    expect(bridge.last('rows').params).toMatchObject({ sort: 'name', ascending: true });
  });

  it('loads more rows as the user scrolls, up to max rows, then pages', async () => {
    const { bridge, model } = await ready({ ...DEFAULT_SETTINGS, maxRows: 300 });
    const page = (offset: number, limit: number, n: number) => {
      const names = Array.from({ length: n }, (_, i) => `t${offset + i}`);
      bridge.emit(snapshotMsg(model.view.seq + 1, names.map(name => batch(name)), [], {
        request_id: bridge.sent[bridge.sent.length - 1].request_id,
        window: windowOf(names, { offset, limit, matched: 1000, total: 1000 })
      }));
    };
    page(0, 200, 200);
    await new Promise(resolve => setTimeout(resolve, 0));
    expect(model.showMore()).toBe(true);
    expect(bridge.last('rows').params).toMatchObject({ offset: 0, limit: 300 });
    expect(model.showMore()).toBe(false); // NB: one request at a time
    page(0, 300, 300);
    await new Promise(resolve => setTimeout(resolve, 0));
    expect(model.view.objects).toHaveLength(300);
    expect(model.showMore()).toBe(false); // NB: as long as max rows allows
    model.nextPage();
    expect(bridge.last('rows').params).toMatchObject({ offset: 300, limit: 300 });
    page(300, 300, 300);
    await new Promise(resolve => setTimeout(resolve, 0));
    expect(model.view.objects[0].name).toBe('t300');
    model.previousPage();
    expect(bridge.last('rows').params).toMatchObject({ offset: 0, limit: 300 });
  });

  it('asks again for the sort and filter the user chose after the kernel reconnects', async () => {
    const { bridge, model } = await ready();
    model.sortBy('device');
    const before = bridge.sent.length;
    bridge.connect(); // a restart: the kernel starts over with its default window
    const again = bridge.sent.slice(before).filter(m => m.method === 'rows');
    expect(again.map(m => m.params)).toEqual([{ offset: 0, limit: 200, sort: 'device',
      ascending: true, filter: '' }]);
  });

  it('offers meta as a target only when the setting allows it', async () => {
    const { model } = await ready();
    expect(model.targets.map(d => d.name)).toEqual(['cpu', 'cuda:0']);
    model.settings = { ...model.settings, showMetaDevice: true };
    expect(model.targets.map(d => d.name)).toEqual(['cpu', 'cuda:0', 'meta']);
  });

  it('fetches lazily sent tensors page by page when a row opens', async () => {
    const { bridge, model } = await ready();
    const big = { ...splitModel(), name: 'big', children: null };
    bridge.emit(snapshotMsg(2, [big], [], { changed: ['big'], removed: [] }));
    model.toggle('big');
    expect(model.isExpanded('big')).toBe(true);
    const first = bridge.last('expand');
    expect(first.params).toEqual({ name: 'big' });
    const page = (offset: number, paths: string[], next: number | null) => ({
      name: 'big',
      path: '',
      offset,
      next_offset: next,
      object: { ...big, children: paths.map(p => ({ ...splitModel().children![0], path: p })) }
    });
    bridge.emit({
      type: 'result',
      request_id: first.request_id,
      method: 'expand',
      result: page(0, ['big.a', 'big.b'], 2)
    });
    const second = bridge.last('expand');
    expect(second.params).toEqual({ name: 'big', offset: 2 });
    bridge.emit({
      type: 'result',
      request_id: second.request_id,
      method: 'expand',
      result: page(2, ['big.c'], null)
    });
    const obj = model.view.objects.find(o => o.name === 'big')!;
    expect(obj.children!.map(t => t.path)).toEqual(['big.a', 'big.b', 'big.c']);
    expect(bridge.sent.filter(m => m.method === 'expand')).toHaveLength(2);
  });

  it('delegates %load_ext to the bridge and disposes once', async () => {
    const bridge = new FakeBridge();
    const model = new DeviceModel(bridge);
    await model.loadExtension();
    expect(bridge.loads).toBe(1);
    model.dispose();
    model.dispose();
    expect(model.isDisposed).toBe(true);
  });
});

describe('Insert as cell', () => {
  it('asks the kernel to rehearse the fix and heads the cell with its verdict', async () => {
    const { bridge, model } = await ready();
    const cell = model.fixCell(SPLIT);
    const req = bridge.last('rehearse_fix');
    expect(req.params).toEqual({ finding_id: SPLIT.id });
    bridge.emit({
      type: 'result',
      request_id: req.request_id,
      method: 'rehearse_fix',
      result: {
        finding_id: SPLIT.id,
        fix: 'model.to("meta")',
        verdict: 'verified: rehearsed on a copy of this kernel\'s state, the fix runs'
      }
    });
    expect(await cell).toBe(
      '# devicelens: verified: rehearsed on a copy of this kernel\'s state, the fix runs\n' +
        'model.to("meta")'
    );
  });

  it('inserts nothing for a finding that is gone, and shows why', async () => {
    const { bridge, model } = await ready();
    const cell = model.fixCell(SPLIT);
    const req = bridge.last('rehearse_fix');
    bridge.emit({
      type: 'error',
      request_id: req.request_id,
      error: 'stale_finding',
      detail: 'finding abc no longer applies'
    });
    await expect(cell).rejects.toThrow('no longer applies');
    expect(model.error).toBe('finding abc no longer applies');
  });

  it('marks the fix not verified where the kernel cannot rehearse it', async () => {
    const { bridge, model } = await ready();
    const cell = model.fixCell(SPLIT);
    const req = bridge.last('rehearse_fix');
    bridge.emit({
      type: 'error',
      request_id: req.request_id,
      error: 'unknown_method',
      detail: "unknown method 'rehearse_fix'"
    });
    expect(await cell).toBe(
      `# devicelens: not verified: this kernel's devicelens cannot rehearse it\n${SPLIT.fix}`
    );
    expect(model.error).toBe('');
  });
});
