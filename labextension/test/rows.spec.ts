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
    seq: 1
  };
}

function opts(open: string[] = [], extra: Partial<ITableOptions> = {}): ITableOptions {
  return {
    filter: '',
    sortKey: 'name',
    ascending: true,
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

  it('filters by device, type or nested path, and counts what it hid', () => {
    const t = tableRows(view(), opts([], { filter: 'META' }));
    expect(t.rows.map(r => r.key)).toEqual(['model', 'z_meta']);
    expect(t.filtered).toBe(1);
    expect(tableRows(view(), opts([], { filter: '2.0.bias' })).rows.map(r => r.key)).toEqual([
      'model'
    ]);
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
        const o = opts(open, { filter, sortKey: 'bytes' });
        expect(tableRows(view(), o)).toEqual(tableRows(repeated(), o));
      }
    }
    expect(tableRows(view(), opts()).rows.map(r => r.name)).toEqual(['model', 'batch', 'z_meta']);
  });

  it('filters every row the same way: optimizer state, submodules, and keeps their ancestors', () => {
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
    const v = { ...view(), objects: [...view().objects, opt] };
    // an optimizer's child row matches: the optimizer stays, and open, shows only that row
    const closed = tableRows(v, opts([], { filter: 'exp_avg' }));
    expect(closed.rows.map(r => r.key)).toEqual(['opt']);
    expect(closed.filtered).toBe(3);
    const open = tableRows(v, opts(['opt'], { filter: 'exp_avg' }));
    expect(open.rows.map(r => r.key)).toEqual(['opt', "opt.state[model.0.weight]['exp_avg']"]);
    // a submodule's type matches: its ancestors stay in view, its siblings go
    const linear = tableRows(v, opts(['model', 'model.2'], { filter: 'linear' })).rows;
    expect(linear.map(r => r.key)).toEqual(['model', 'model.0', 'model.2', 'model.2.0']);
    // the object's own row matches: all of it stays
    const whole = tableRows(v, opts(['model'], { filter: 'sequential' })).rows;
    expect(whole.map(r => r.key)).toEqual(['model', 'model.0', 'model.1', 'model.2']);
  });

  it('puts errors first, then warnings, then info, each by name, as %devices lists them', () => {
    const finding = (severity: WireFinding['severity'], title: string, objects: string[]) => ({
      ...SPLIT,
      id: `${severity}-${title}`,
      severity,
      title,
      objects,
      paths: []
    });
    const v: IView = {
      ...view(),
      objects: [...view().objects, batch('a_plain'), batch('y_info'), batch('b_warn')],
      findings: [
        finding('info', 'y is unused', ['y_info']),
        finding('warning', 'batch is float64', ['b_warn']),
        finding('warning', 'another batch warning', ['b_warn']),
        finding('error', 'z is on meta', ['z_meta']),
        finding('error', 'model is partly moved', ['model'])
      ]
    };
    // the analysis sends errors first; the table sorted by name drew warnings above them
    expect(tableRows(v, opts()).rows.map(r => r.key)).toEqual([
      'model',
      'z_meta',
      'b_warn',
      'y_info',
      'a_plain',
      'batch'
    ]);
    // the cards under one row: by severity, then title
    const under = findingsByObject(v.findings, new Set(v.objects.map(o => o.name)));
    expect(under.get('b_warn')!.map(f => f.title)).toEqual([
      'another batch warning',
      'batch is float64'
    ]);
    // another column sorts by that column alone
    expect(tableRows(v, opts([], { sortKey: 'bytes', ascending: false })).rows[0].key).toBe(
      'z_meta'
    );
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

  it('sorts objects and keeps children under their object', () => {
    const t = tableRows(view(), opts(['model'], { sortKey: 'bytes', ascending: false }));
    expect(t.rows.filter(r => r.level === 0).map(r => r.key)).toEqual([
      'z_meta',
      'model',
      'batch'
    ]);
    const i = t.rows.findIndex(r => r.key === 'model');
    expect(t.rows[i + 1].key).toBe('model.0');
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
