/**
 * What a move report says: the same sentences as `render/_report.py:headline`
 * (tests/test_render.py checks those with the same reports; headlines.json holds the kernel's).
 */
import { WireMove, WireReport } from '../src/tokens';
import { plural, reportCounts, reportHeadline, rootOf } from '../src/view';
/** The kernel's own headlines (tests/test_render_headline_parity.py writes and checks them). */
import golden from './headlines.json';

function move(
  path: string,
  bytes: number,
  tensors: number,
  device: string | null,
  dtype: string | null = null
): WireMove {
  const target = [device, dtype].filter(Boolean).join(' ');
  return { path, source: 'cpu', target, bytes, tensors, device, dtype };
}

function report(moved: WireMove[], extra: Partial<WireReport> = {}): WireReport {
  return {
    ok: true,
    dry_run: false,
    target: 'meta',
    moved,
    refused: [],
    bytes_by_device: {},
    error: null,
    notes: [],
    applied: [],
    ...extra
  };
}

describe('reportHeadline', () => {
  it('counts tensors as tensors and objects as objects, never rows', () => {
    const model = move('model', 70000, 28, 'meta');
    const opt = move('opt', 140000, 32, 'meta');
    expect(reportHeadline(report([model, opt]))).toBe(
      'Moved 60 tensors to meta (2 objects, 205.1 KiB).'
    );
    expect(reportHeadline(report([model], { dry_run: true }))).toBe(
      'Would move 28 tensors to meta (1 object, 68.4 KiB).'
    );
    expect(reportCounts(report([model, opt]))).toEqual({
      moved: 60,
      devices: ['meta'],
      cast: 0,
      dtypes: [],
      remapped: 0,
      objects: 2,
      bytes: 210000
    });
  });

  it('says casts as casts, and a dict of two tensors as one object', () => {
    const batch = [
      move("batch['x']", 4096, 1, 'meta', 'float32'),
      move("batch['y']", 64, 1, 'meta')
    ];
    expect(reportHeadline(report(batch, { target: '' }))).toBe(
      'Moved 2 tensors to meta and cast 1 tensor to float32 (1 object, 4.1 KiB).'
    );
    const cast = move('w', 16, 1, null, 'float32');
    expect(reportHeadline(report([cast], { target: '' }))).toBe(
      'Cast 1 tensor to float32 (1 object, 16 B).'
    );
    expect(reportHeadline(report([cast], { target: '', dry_run: true }))).toBe(
      'Would cast 1 tensor to float32 (1 object, 16 B).'
    );
  });

  it('says plainly when nothing was to do, and why nothing changed', () => {
    expect(reportHeadline(report([], { target: '' }))).toBe(
      'Nothing to fix: no automatic fix has anything to do here.'
    );
    expect(reportHeadline(report([]))).toBe(
      'Nothing to move: everything in scope is already on meta.'
    );
    expect(reportHeadline(report([], { ok: false, error: 'out of memory on cuda:0' }))).toBe(
      'Nothing was changed: out of memory on cuda:0'
    );
  });

  it('pluralises and finds the namespace name of a row', () => {
    expect([0, 1, 2].map(n => plural(n, 'object'))).toEqual(['0 objects', '1 object', '2 objects']);
    expect(["batch['x']", 'model.enc.weight', 'opt'].map(rootOf)).toEqual(['batch', 'model', 'opt']);
  });
});

describe('reportHeadline says what the kernel says', () => {
  it.each(golden.map(c => [c.name, c.report as WireReport, c.headline]))(
    '%s',
    (_name, wire, expected) => {
      expect(reportHeadline(wire)).toBe(expected);
    }
  );
});
