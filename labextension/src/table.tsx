/**
 * The table view: objects grouped with their submodules and tensors (rows.ts decides which),
 * device chips, findings drawn under the rows they concern, and per-device totals.
 */

import * as React from 'react';

import { DeviceModel, SortKey } from './model';
import type { IPanelHost } from './panel';
import { findingsByObject, IRow, tableRows } from './rows';
import { Chip, COUNTERS_WHY } from './chip';
import { Confirm } from './confirm';
import { humanBytes, WireFinding, WireTotal } from './tokens';

/**
 * Columns, and from which sidebar width on each has a column of its own (base.css): below it,
 * what it says folds into a line under the name. Name and devices always stay.
 */
const COLUMNS: [SortKey, string, 'always' | 'medium' | 'wide'][] = [
  ['name', 'Name', 'always'],
  ['kind', 'Kind', 'wide'],
  ['device', 'Device', 'always'],
  ['dtype', 'dtype', 'wide'],
  ['shape', 'Shape', 'wide'],
  ['bytes', 'Memory', 'medium']
];

function run(p: Promise<unknown>): void {
  p.catch(() => undefined); // NB: the model keeps the error to show
}

export function Table(props: { model: DeviceModel; host: IPanelHost }): JSX.Element {
  const { model, host } = props;
  const view = model.view;
  const table = tableRows(view, {
    filter: model.filter,
    maxRows: model.settings.maxRows,
    isExpanded: key => model.isExpanded(key)
  });
  const byObject = findingsByObject(view.findings, new Set(view.objects.map(o => o.name)));
  const body: JSX.Element[] = [];
  for (const row of table.rows) {
    body.push(<Row key={row.key} row={row} model={model} />);
    if (row.level === 0) {
      for (const f of byObject.get(row.object) ?? []) {
        body.push(
          <tr key={`${row.key}::${f.id}`} className="dl-finding-row">
            <td colSpan={COLUMNS.length}>
              <FindingCard finding={f} model={model} host={host} />
            </td>
          </tr>
        );
      }
    }
  }
  return (
    <>
      <table className="dl-table">
        <colgroup>
          {COLUMNS.map(([key]) => (
            <col key={key} />
          ))}
        </colgroup>
        <thead>
          <tr>
            {COLUMNS.map(([key, label, from]) => (
              <th
                key={key}
                className={`dl-col-${key} dl-from-${from}`}
                aria-sort={
                  model.sortKey !== key ? 'none' : model.sortAscending ? 'ascending' : 'descending'
                }
              >
                <button
                  className="dl-sort"
                  onClick={() => model.sortBy(key)}
                  title={key === 'name' ? 'Rows with errors first, then warnings, then by name' : undefined}
                >
                  {label}
                  {model.sortKey === key ? (model.sortAscending ? ' ▲' : ' ▼') : ''}
                </button>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{body}</tbody>
      </table>
      <Pager model={model} before={table.before} after={table.after} />
      {(table.hidden > 0 || table.filtered > 0 || view.truncated) && (
        <div className="dl-note">
          {table.hidden > 0 && `${table.hidden} more rows not shown (max rows setting). `}
          {table.filtered > 0 && `${table.filtered} objects hidden by the filter. `}
          {view.truncated && 'The namespace is larger than one snapshot holds: some objects are left out.'}
        </div>
      )}
    </>
  );
}

/**
 * Where this page is among the namespace's rows: more rows load as the end scrolls into view
 * (up to the max-rows setting), then Previous / Next move by a page.
 */
function Pager(props: { model: DeviceModel; before: number; after: number }): JSX.Element | null {
  const { model, before, after } = props;
  const end = React.useRef<HTMLDivElement>(null);
  React.useEffect(() => {
    const node = end.current;
    if (!node || after === 0 || typeof IntersectionObserver === 'undefined') {
      return;
    }
    const seen = new IntersectionObserver(entries => {
      if (entries.some(e => e.isIntersecting)) {
        model.showMore();
      }
    });
    seen.observe(node);
    return () => seen.disconnect();
  }, [model, after, model.view.window?.limit]);
  const w = model.view.window;
  if (!w || (before === 0 && after === 0)) {
    return null;
  }
  const shown = w.names.length;
  return (
    <div className="dl-pager" ref={end} role="navigation" aria-label="Pages of rows">
      <span className="dl-pager-where">
        Rows {shown ? w.offset + 1 : 0}–{w.offset + shown} of {w.matched.toLocaleString('en')}
      </span>{' '}
      {before > 0 && (
        <button className="dl-link dl-pager-prev" onClick={() => model.previousPage()}>
          ◂ Previous
        </button>
      )}{' '}
      {after > 0 && (
        <button className="dl-link dl-pager-next" onClick={() => model.nextPage()}>
          Next ▸
        </button>
      )}
    </div>
  );
}

function Row(props: { row: IRow; model: DeviceModel }): JSX.Element {
  const { row, model } = props;
  const indent = { paddingLeft: `${0.25 + row.level * 1}em` };
  return (
    <tr
      className={`dl-row dl-level-${Math.min(row.level, 3)}${row.flagged ? ' dl-flagged' : ''}`}
      data-key={row.key}
      data-object={row.object}
    >
      <td className="dl-name" style={indent}>
        {row.expandable ? (
          <button
            className="dl-toggle"
            aria-expanded={row.expanded}
            aria-label={`${row.expanded ? 'Collapse' : 'Expand'} ${row.name}`}
            onClick={() => model.toggle(row.key)}
          >
            {row.expanded ? '▾' : '▸'}
          </button>
        ) : (
          <span className="dl-toggle-space" />
        )}
        <span className="dl-label" title={row.key}>
          {breakable(row.name)}
        </span>
        <SubLine row={row} />
      </td>
      <td className="dl-kind dl-from-wide">{row.kind}</td>
      <td className="dl-devices">
        {row.devices.map(d => (
          <Chip key={d} device={d} />
        ))}
        {row.counters.map(d => (
          <Chip key={`counters-${d}`} device={d} why={COUNTERS_WHY} />
        ))}
      </td>
      <td className="dl-dtype dl-from-wide">{row.dtypes.join(', ')}</td>
      <td className="dl-shape dl-from-wide">{row.shape}</td>
      <td className="dl-bytes dl-from-medium">{humanBytes(row.bytes)}</td>
    </tr>
  );
}

/**
 * What the hidden columns would say, as a line under the name: CSS shows it (and which parts
 * of it) only while the sidebar is too narrow for those columns.
 */
function SubLine(props: { row: IRow }): JSX.Element {
  const { row } = props;
  const parts: [string, string][] = [
    ['kind', row.kind],
    ['dtype', row.dtypes.join(', ')],
    ['shape', row.shape],
    ['bytes', humanBytes(row.bytes)]
  ];
  return (
    <div className="dl-sub">
      {parts
        .filter(([, text]) => text)
        .map(([key, text]) => (
          <span key={key} className={`dl-sub-${key}`}>
            {text}
          </span>
        ))}
    </div>
  );
}

/** A dotted path that may wrap after its dots and brackets, never inside a name. */
function breakable(path: string): React.ReactNode[] {
  return path.split(/(?<=[.\]])/).map((part, i) => (
    <React.Fragment key={i}>
      {i > 0 && <wbr />}
      {part}
    </React.Fragment>
  ));
}

/** One finding: what is wrong and why, the fix as code, and Apply / Insert as cell / Copy. */
export function FindingCard(props: {
  finding: WireFinding;
  model: DeviceModel;
  host: IPanelHost;
}): JSX.Element {
  const { finding: f, model, host } = props;
  const [copied, setCopied] = React.useState(false);
  const [rehearsing, setRehearsing] = React.useState(false);
  const insert = () => {
    setRehearsing(true);
    model
      .fixCell(f)
      .then(code => host.insertCell(code))
      .catch(() => undefined) // NB: the model keeps the error to show; nothing is inserted
      .finally(() => setRehearsing(false));
  };
  return (
    <div
      className={`dl-finding dl-sev-${f.severity}`}
      data-finding={f.id}
      data-kind={f.kind}
      data-severity={f.severity}
    >
      <div className="dl-finding-title">
        <span className="dl-severity">{f.severity}</span> {f.title}
      </div>
      <p className="dl-finding-message">{f.message}</p>
      {f.fix && (
        <>
          <pre className="dl-fix">
            <code>{f.fix}</code>
          </pre>
          <div className="dl-actions">
            {f.applicable && (
              <button
                className="dl-button dl-primary dl-apply"
                disabled={model.changing || model.plan !== null}
                onClick={() => run(model.applyFix(f.id))}
                title="Run this fix in the kernel"
              >
                Apply
              </button>
            )}
            <button
              className="dl-button dl-insert"
              disabled={rehearsing}
              onClick={insert}
              title="Rehearse the fix on a copy of the kernel, then add it as a new cell below the active one, its verdict on top (not run)"
            >
              {rehearsing ? 'Rehearsing…' : 'Insert as cell'}
            </button>
            <button
              className="dl-button dl-copy"
              onClick={() => {
                host.copy(f.fix);
                setCopied(true);
              }}
            >
              {copied ? 'Copied' : 'Copy'}
            </button>
          </div>
        </>
      )}
      {model.plan?.findingId === f.id && <Confirm model={model} plan={model.plan} />}
    </div>
  );
}

export function Totals(props: { totals: WireTotal[] }): JSX.Element | null {
  if (props.totals.length === 0) {
    return null;
  }
  return (
    <div className="dl-totals" aria-label="Totals per device">
      {props.totals.map(t => (
        <span key={t.device} className="dl-total" data-device={t.device}>
          <Chip device={t.device} /> {humanBytes(t.bytes)} · {t.tensors} tensor
          {t.tensors === 1 ? '' : 's'}
        </span>
      ))}
    </div>
  );
}
