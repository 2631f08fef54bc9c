import { IView } from '../src/view';
import { findingsByObject, ITableOptions, tableRows } from '../src/rows';
import { deviceColour, DEVICE_COLOURS, humanBytes, shapeStr, WireFinding } from '../src/tokens';
import { batch, SPLIT, splitModel, tensor } from './fakes';
/** `human_bytes` of a set of sizes (tests/test_render_bytes_parity.py writes and checks it). */
import golden from './bytes.json';

function view(): IView {
  return {
    objects: [splitModel(), batch('batch', 'cpu', 128), batch('z_meta', 'meta', 4096)],
    findings: [SPLIT],
    totals: [],
    devices: [],
    truncated: false,
    skipped: [],
    torchVersion: null,
    seq: 1,
    window: null
  };
}

function opts(open: string[] = [], extra: Partial<ITableOptions> = {}): ITableOptions {
  return {
    filter: '',
    maxRows: 500,
    isExpanded: k => open.includes(k),
    ...extra
  };
}

const brief = (rows: ReturnType<typeof tableRows>['rows']) =>
  rows.map(r => `${r.level}:${r.name}:${r.devices.join('+')}${r.flagged ? ':!' : ''}`);

describe('tableRows', () => {
  it('shows one row per object, flagged where a finding points', () => {
    expect(brief(tableRows(view(), opts()).rows)).toEqual([
      '0:model:cpu+meta:!',
      '0:batch:cpu',
      '0:z_meta:meta'
    ]);
  });

  it('opens a module per submodule, and a submodule into its tensors', () => {
    const rows = tableRows(view(), opts(['model', 'model.0', 'model.2'])).rows;
    expect(brief(rows)).toEqual([
      '0:model:cpu+meta:!',
      '1:model.0:cpu:!',
      '2:model.0.weight:cpu:!',
      '2:model.0.bias:cpu:!',
      '1:model.1:',
      '1:model.2:meta',
      '2:model.2.0:meta',
      '0:batch:cpu',
      '0:z_meta:meta'
    ]);
    const m2 = rows.find(r => r.key === 'model.2')!;
    expect([m2.expandable, m2.expanded]).toEqual([true, true]);
    expect(rows.find(r => r.key === 'model.1')!.expandable).toBe(false);
  });

  it('draws the objects the kernel sent in its order, and counts what its filter hid', () => {
    const v = { ...view(), objects: [batch('z_meta', 'meta', 4096), splitModel()] };
    v.window = { offset: 0, limit: 200, sort: 'device', ascending: false, filter: 'META',
      names: ['z_meta', 'model'], matched: 2, total: 3 };
    const t = tableRows(v, opts([], { filter: 'META' }));
    expect(t.rows.map(r => r.key)).toEqual(['z_meta', 'model']);
    expect([t.filtered, t.before, t.after]).toEqual([1, 0, 0]);
    // an open object the kernel matched on a nested path shows the rows that match
    const open = tableRows(v, opts(['model', 'model.2'], { filter: '2.0.bias' }));
    expect(open.rows.map(r => r.key)).toEqual(['z_meta', 'model', 'model.2', 'model.2.0']);
  });

  it('says how many rows are before and after the page', () => {
    const v = { ...view() };
    v.window = { offset: 200, limit: 3, sort: 'name', ascending: true, filter: '',
      names: ['model', 'batch', 'z_meta'], matched: 1000, total: 1000 };
    const t = tableRows(v, opts());
    expect([t.before, t.after, t.filtered]).toEqual([200, 797, 0]);
  });

  it('draws a tensor row alike whether or not the kernel repeats its tensor as a child', () => {
    const repeated = (): IView => ({
      ...view(),
      objects: view().objects.map(o =>
        o.kind === 'tensor'
          ? { ...o, children: [tensor(o.name, o.devices[0], '', 'tensor')] }
          : o
      )
    });
    for (const filter of ['', 'meta', 'batch', 'float32', 'tensor', 'nothing']) {
      for (const open of [[], ['batch', 'z_meta', 'model']]) {
        const o = opts(open, { filter });
        expect(tableRows(view(), o)).toEqual(tableRows(repeated(), o));
      }
    }
    expect(tableRows(view(), opts()).rows.map(r => r.name)).toEqual(['model', 'batch', 'z_meta']);
  });

  it('narrows an open object to the rows that match: optimizer state, submodules, ancestors', () => {
    const opt = {
      ...batch('opt', 'cpu', 256),
      kind: 'optimizer',
      type: 'AdamW',
      shape: null,
      expandable: true,
      tensors: 3,
      children: [
        tensor('opt.param_groups[0].params[0]', 'cpu', 'model.0.weight', 'opt_param'),
        tensor("opt.state[model.0.weight]['exp_avg']", 'cpu', 'model.0.weight', 'state'),
        tensor("opt.state[model.0.weight]['step']", 'cpu', 'model.0.weight', 'state')
      ]
    };
    // the kernel's window under the filter 'exp_avg': the optimizer only
    const v = { ...view(), objects: [opt] };
    const closed = tableRows(v, opts([], { filter: 'exp_avg' }));
    expect(closed.rows.map(r => r.key)).toEqual(['opt']);
    const open = tableRows(v, opts(['opt'], { filter: 'exp_avg' }));
    expect(open.rows.map(r => r.key)).toEqual(['opt', "opt.state[model.0.weight]['exp_avg']"]);
    // a submodule's type matches: its ancestors stay in view, its siblings go
    const m = { ...view(), objects: [splitModel()] };
    const linear = tableRows(m, opts(['model', 'model.2'], { filter: 'linear' })).rows;
    expect(linear.map(r => r.key)).toEqual(['model', 'model.0', 'model.2', 'model.2.0']);
    // the object's own row matches: all of it stays
    const whole = tableRows(m, opts(['model'], { filter: 'sequential' })).rows;
    expect(whole.map(r => r.key)).toEqual(['model', 'model.0', 'model.1', 'model.2']);
  });

  it("draws an optimizer's step counters apart: meta, and cpu where they stay", () => {
    // after a move to meta: the kernel's devices leave the 0-dim step counters out (by design)
    const opt = {
      ...batch('opt', 'meta', 256),
      kind: 'optimizer',
      type: 'AdamW',
      shape: null,
      expandable: true,
      tensors: 3,
      children: null,
      counters: ['cpu']
    };
    const v = { ...view(), objects: [opt] };
    const [row] = tableRows(v, opts()).rows;
    expect([row.devices, row.counters]).toEqual([['meta'], ['cpu']]);
    expect(tableRows(v, opts([], { filter: 'cpu' })).rows.map(r => r.key)).toEqual(['opt']);
    // a kernel that sends no counters, or counters among the devices: no second chip
    const older = { ...opt, counters: undefined as unknown as string[] };
    expect(tableRows({ ...v, objects: [older] }, opts()).rows[0].counters).toEqual([]);
    const same = { ...opt, devices: ['cpu'] };
    expect(tableRows({ ...v, objects: [same] }, opts()).rows[0].counters).toEqual([]);
  });

  it("keeps children under their object, in the kernel's order of objects", () => {
    const sorted = [batch('z_meta', 'meta', 4096), splitModel(), batch('batch', 'cpu', 128)];
    const t = tableRows({ ...view(), objects: sorted }, opts(['model']));
    expect(t.rows.filter(r => r.level === 0).map(r => r.key)).toEqual([
      'z_meta',
      'model',
      'batch'
    ]);
    const i = t.rows.findIndex(r => r.key === 'model');
    expect(t.rows[i + 1].key).toBe('model.0');
  });

  it('lists the cards under one row by severity, then title, as %devices does', () => {
    const finding = (severity: WireFinding['severity'], title: string) => ({
      ...SPLIT,
      id: `${severity}-${title}`,
      severity,
      title,
      objects: ['batch'],
      paths: []
    });
    const under = findingsByObject(
      [finding('info', 'a note'), finding('warning', 'b warns'), finding('warning', 'a warns'),
        finding('error', 'z fails')],
      new Set(['batch'])
    );
    expect(under.get('batch')!.map(f => f.title)).toEqual(['z fails', 'a warns', 'b warns',
      'a note']);
  });

  it('caps rows at maxRows and says how many are left out', () => {
    const t = tableRows(view(), opts(['model'], { maxRows: 2 }));
    expect(t.rows.map(r => r.key)).toEqual(['model', 'model.0']);
    expect(t.hidden).toBe(4);
  });

  it('places findings under the object they concern', () => {
    const loose = { ...SPLIT, id: 'other', objects: ['gone'] };
    const by = findingsByObject([SPLIT, loose], new Set(['model', 'batch']));
    expect(by.get('model')!.map(f => f.id)).toEqual([SPLIT.id]);
    expect(by.get('')!.map(f => f.id)).toEqual(['other']);
  });
});

describe('helpers mirrored from render/_rows.py', () => {
  it('colours devices like device_colour', () => {
    expect(deviceColour('cpu')).toBe('#6F6F6F');
    expect(deviceColour('meta')).toBe('#A58AFF');
    expect(deviceColour('cuda:1')).toBe(DEVICE_COLOURS[1]);
    expect(deviceColour('cuda:9')).toBe(DEVICE_COLOURS[1]);
    expect(deviceColour('mps')).toBe(DEVICE_COLOURS[0]);
    expect(deviceColour('tpu:0')).toBe('#8C564B');
  });

  it('rounds bytes as %devices does, ties included (bytes.json holds the kernel strings)', () => {
    const sizes = (golden as [number, string][]).map(([n]) => n);
    expect(sizes.map(n => [n, humanBytes(n)])).toEqual(golden);
    // the total: 220416 B is 215.25 KiB exactly, which %devices writes 215.2 KiB
    expect(humanBytes(220416)).toBe('215.2 KiB');
  });

  it('writes bytes and shapes like human_bytes and shape_str', () => {
    expect([0, 1023, 1024, 1536, 5 * 1024 * 1024, 3 * 1024 ** 5].map(humanBytes)).toEqual([
      '0 B',
      '1023 B',
      '1.0 KiB',
      '1.5 KiB',
      '5.0 MiB',
      '3072.0 TiB'
    ]);
    expect([shapeStr([3]), shapeStr([2, 3]), shapeStr([]), shapeStr(null)]).toEqual([
      '(3,)',
      '(2, 3)',
      '()',
      ''
    ]);
  });
});

describe('optimizer rows', () => {
  it('name each parameter by the model parameter it is, keyed by its own path', () => {
    const opt = {
      ...batch('opt'),
      kind: 'optimizer',
      type: 'SGD',
      devices: [],
      shape: null,
      expandable: true,
      children: [
        {
          path: 'opt.param_groups[0].params[0]',
          role: 'opt_param',
          owner: 'model.0.weight',
          device: 'cpu',
          dtype: 'float32',
          shape: [16, 8],
          bytes: 512,
          requires_grad: true
        }
      ]
    };
    const v = { ...view(), objects: [opt] };
    const rows = tableRows(v, opts(['opt'])).rows;
    expect(rows.map(r => [r.level, r.key, r.name, r.kind, r.shape])).toEqual([
      [0, 'opt', 'opt', 'SGD', ''],
      [1, 'opt.param_groups[0].params[0]', '→\u00a0model.0.weight', 'opt_param', '(16, 8)']
    ]);
  });
});
