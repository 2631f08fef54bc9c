/**
 * The sidebar's React view: reads the model, calls its methods, and nothing else. What a state
 * says (and the one thing to do about it) lives here; the table itself is in table.tsx.
 */

import { LabIcon, ReactWidget, UseSignal } from '@jupyterlab/ui-components';
import { Message } from '@lumino/messaging';
import { ISignal, Signal } from '@lumino/signaling';
import * as React from 'react';

import { DeviceModel, IOutcome } from './model';
import { findingsByObject } from './rows';
import { Confirm, Refusals } from './confirm';
import { FindingCard, Table, Totals } from './table';
import { humanBytes, PANEL_VERSION, PROTOCOL_VERSION } from './tokens';
import { plural, reportHeadline } from './view';

/** What the panel asks of the application (notebook edits, clipboard). */
export interface IPanelHost {
  /** Add `code` as a new code cell below the active one (not run). */
  insertCell(code: string): void;
  copy(code: string): void;
}

/** Sidebar icon: a chip. */
export const devicesIcon = new LabIcon({
  name: 'devicelens:chip',
  svgstr:
    '<svg xmlns="http://www.w3.org/2000/svg" width="16" viewBox="0 0 24 24"><g class="jp-icon3" fill="#616161">' +
    '<path d="M6 6h12v12H6zM8 8v8h8V8zM9 2h2v3H9zm4 0h2v3h-2zM9 19h2v3H9zm4 0h2v3h-2zM2 9h3v2H2zm0 4h3v2H2zm17-4h3v2h-3zm0 4h3v2h-3z"/>' +
    '</g></svg>'
});

/** The inspector widget placed in the right sidebar. */
export class DevicePanel extends ReactWidget {
  constructor(model: DeviceModel, host: IPanelHost) {
    super();
    this.model = model;
    this._host = host;
    this.addClass('dl-Panel');
  }

  readonly model: DeviceModel;

  /** Emits true when the panel becomes visible, false when it is hidden or detached. */
  get visibilityChanged(): ISignal<this, boolean> {
    return this._visibilityChanged;
  }

  protected onAfterShow(msg: Message): void {
    super.onAfterShow(msg);
    this._visibilityChanged.emit(true);
  }

  protected onAfterHide(msg: Message): void {
    super.onAfterHide(msg);
    this._visibilityChanged.emit(false);
  }

  protected onAfterAttach(msg: Message): void {
    super.onAfterAttach(msg);
    this._visibilityChanged.emit(this.isVisible);
  }

  protected onBeforeDetach(msg: Message): void {
    this._visibilityChanged.emit(false);
    super.onBeforeDetach(msg);
  }

  /** Put the keyboard focus on the "move all" device chooser. */
  focusMove(): void {
    this.node.querySelector<HTMLSelectElement>('.dl-move select')?.focus();
  }

  render(): JSX.Element {
    return (
      <UseSignal signal={this.model.changed}>
        {() => <Inspector model={this.model} host={this._host} />}
      </UseSignal>
    );
  }

  private _host: IPanelHost;
  private _visibilityChanged = new Signal<this, boolean>(this);
}

function run(p: Promise<unknown>): void {
  p.catch(() => undefined); // NB: the model keeps the error to show; nothing else to do here
}

function Inspector(props: { model: DeviceModel; host: IPanelHost }): JSX.Element {
  const { model, host } = props;
  const status = model.status;
  return (
    <div className="dl-inspector" data-state={status.state}>
      <div className="dl-header">
        <span className="dl-title">Devices</span>
        <span className="dl-notebook" title={status.notebook}>
          {status.notebook.split('/').pop()}
        </span>
        <button
          className="dl-button dl-refresh"
          disabled={status.state !== 'ready'}
          onClick={() => run(model.refresh())}
          title="Take a new snapshot"
        >
          Refresh
        </button>
      </div>
      <StateMessage model={model} />
      {status.state === 'ready' && <Ready model={model} host={host} />}
    </div>
  );
}

/** One line per connection state, with the one action that helps where there is one. */
function StateMessage(props: { model: DeviceModel }): JSX.Element | null {
  const { model } = props;
  const s = model.status;
  const say = (text: React.ReactNode, extra?: React.ReactNode) => (
    <div className="dl-state" role="status">
      <p>{text}</p>
      {extra}
    </div>
  );
  switch (s.state) {
    case 'no-notebook':
      return say('Open a notebook to see where its tensors live.');
    case 'no-kernel':
      return say('This notebook has no kernel: choose one (Kernel → Change Kernel…).');
    case 'starting':
      return say('Waiting for the kernel to start…');
    case 'not-python':
      return say(`This kernel runs ${s.language}; devicelens inspects Python (PyTorch) kernels.`);
    case 'connecting':
      return say(
        s.busy
          ? 'Kernel busy: the panel connects when the running cell finishes.'
          : 'Connecting to the kernel…'
      );
    case 'not-loaded':
      return say(
        'devicelens is not loaded in this kernel.',
        <button className="dl-button dl-primary dl-load" onClick={() => run(model.loadExtension())}>
          Load devicelens
        </button>
      );
    case 'restarting':
      return say('Kernel restarting…');
    case 'dead':
      return say('The kernel died: restart it (Kernel → Restart Kernel…).');
    case 'mismatch':
      return say(
        `kernel-side devicelens ${s.kernelVersion} (protocol ${s.kernelProtocol}), panel ` +
          `${PANEL_VERSION} (protocol ${PROTOCOL_VERSION}) — reinstall devicelens in one ` +
          'environment, restart the kernel and reload the page.'
      );
    case 'ready':
      if (s.busy && model.pending > 0 && !model.queued) {
        // NB: shown only after a second (CSS): with subshells, reads answer mid-cell at once
        return (
          <div className="dl-state dl-waiting" role="status">
            <p>
              A cell is running: {plural(model.pending, 'request')} wait
              {model.pending === 1 ? 's' : ''} for the kernel.
            </p>
          </div>
        );
      }
      return null;
  }
}

function Ready(props: { model: DeviceModel; host: IPanelHost }): JSX.Element {
  const { model, host } = props;
  const view = model.view;
  const names = new Set(view.objects.map(o => o.name));
  const loose = findingsByObject(view.findings, names).get('') ?? [];
  return (
    <>
      <div className="dl-controls">
        <input
          className="dl-filter"
          type="search"
          placeholder="Filter by name, type, device, dtype"
          aria-label="Filter rows"
          value={model.filter}
          onChange={e => (model.filter = e.target.value)}
        />
        <MoveAll model={model} />
      </div>
      <Activity model={model} />
      {model.outdated && (
        <div className="dl-note">
          New snapshot available (auto-refresh is off).{' '}
          <button className="dl-link" onClick={() => run(model.refresh())}>
            Show it
          </button>
        </div>
      )}
      {loose.map(f => (
        <FindingCard key={f.id} finding={f} model={model} host={host} />
      ))}
      {view.seq < 0 ? (
        <div className="dl-state">Taking a snapshot…</div>
      ) : (view.window?.total ?? view.objects.length) === 0 ? (
        <div className="dl-state">
          No tensors, modules or optimizers in this notebook's namespace yet.
        </div>
      ) : (
        <Table model={model} host={host} />
      )}
      <Totals totals={view.totals} />
    </>
  );
}

/** "Move all to [device ▾]": dry run first, confirmation with bytes, then the move. */
function MoveAll(props: { model: DeviceModel }): JSX.Element {
  const { model } = props;
  const targets = model.targets;
  const accelerators = model.devices.filter(d => d.kind !== 'cpu' && d.kind !== 'meta');
  const [device, setDevice] = React.useState('');
  const chosen = targets.some(d => d.name === device) ? device : targets[0]?.name ?? '';
  const label = (name: string, free: number | null) =>
    free === null ? name : `${name} (${humanBytes(free)} free)`;
  return (
    <div className="dl-move">
      <label>
        Move all to{' '}
        <select
          aria-label="Target device"
          value={chosen}
          onChange={e => setDevice(e.target.value)}
        >
          {targets.map(d => (
            <option key={d.name} value={d.name}>
              {label(d.name, d.free_bytes)}
            </option>
          ))}
        </select>
      </label>
      <button
        className="dl-button dl-move-go"
        disabled={!chosen || model.changing || model.plan !== null}
        onClick={() => run(model.planMove(chosen))}
      >
        Move…
      </button>
      {accelerators.length === 0 && !model.settings.showMetaDevice && targets.length > 0 && (
        <p className="dl-move-why">
          Only cpu: this kernel sees no GPU (CUDA, MPS or XPU). To try moves without one, turn on{' '}
          <i>Offer the meta device</i> in Settings → Device Inspector (meta keeps shapes and
          dtypes, not values).
        </p>
      )}
    </div>
  );
}

/** The move plan awaiting confirmation, progress while something runs, the last report. */
function Activity(props: { model: DeviceModel }): JSX.Element {
  const { model } = props;
  const { plan, progress, outcome, error, queued } = model;
  // NB: a fix's confirmation shows in its finding's card, here only once that card is gone
  const shown = model.view.findings.some(f => f.id === plan?.findingId);
  return (
    <>
      {plan && (plan.action === 'move_all' || !shown) && <Confirm model={model} plan={plan} />}
      {queued && (
        <div className="dl-queued" role="status">
          <p>
            <b>Queued: a cell is running.</b> The {queued.method === 'move_all' ? 'move' : 'fix'}{' '}
            runs as soon as it ends, before the next cell.
          </p>
          <button
            className="dl-button dl-queued-cancel"
            disabled={queued.cancelling}
            onClick={() => run(model.cancelQueued())}
          >
            {queued.cancelling ? 'Cancelling…' : 'Cancel'}
          </button>
        </div>
      )}
      {progress && (
        <div className="dl-progress" role="progressbar" aria-valuenow={progress.done}
          aria-valuemin={0} aria-valuemax={progress.total}>
          <progress value={progress.done} max={Math.max(1, progress.total)} /> {progress.done}/
          {progress.total}
        </div>
      )}
      {outcome && <Outcome outcome={outcome} onClose={() => model.dismissOutcome()} />}
      {error && (
        <div className="dl-error" role="alert">
          {error}{' '}
          <button className="dl-link" onClick={() => model.dismissOutcome()}>
            Dismiss
          </button>
        </div>
      )}
    </>
  );
}

/** The latest change: its report, why it failed, or that it was cancelled. */
function Outcome(props: { outcome: IOutcome; onClose: () => void }): JSX.Element {
  const { action, report, error, cancelled } = props.outcome;
  const ok = report !== null && report.ok;
  const text = cancelled
    ? 'Cancelled before it ran: nothing was changed.'
    : report
      ? reportHeadline(report)
      : `The ${action === 'move_all' ? 'move' : 'fix'} failed: ${error}`;
  return (
    <div className={`dl-report ${ok ? 'dl-ok' : cancelled ? 'dl-cancelled' : 'dl-failed'}`}
      role="status">
      <p>
        {text}{' '}
        <button className="dl-link" onClick={props.onClose}>
          Dismiss
        </button>
      </p>
      {report && <Refusals refused={report.refused} />}
      {report?.notes.map(n => (
        <p key={n} className="dl-note">
          {n}
        </p>
      ))}
    </div>
  );
}
