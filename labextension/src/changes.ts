/**
 * What the user asked the kernel to change (a fix, a move to another device) and how it went:
 * the move plan awaiting confirmation, a change the kernel holds while a cell runs, progress,
 * and the latest outcome. Part of the model (model.ts), which hands it the kernel's replies.
 */

import { RequestError, Result } from './requests';
import { reportOf } from './view';
import { Method, ProgressMsg, QueuedMsg, WireReport } from './tokens';

export type Change = 'apply_fix' | 'move_all';

/** A move_all dry run waiting for the user's confirmation. */
export interface IMovePlan {
  device: string;
  report: WireReport;
}

/**
 * What the latest change did, shown until the next one starts (a failure never hides behind an
 * older success): its report, or why it failed (`error`), or that it was cancelled.
 */
export interface IOutcome {
  action: Change;
  report: WireReport | null;
  error: string;
  cancelled: boolean;
}

/** A change the kernel holds until the running cell ends (QueuedMsg). */
export interface IQueued {
  requestId: string;
  method: Method;
  reason: string;
  /** A cancel was sent and is not answered yet. */
  cancelling: boolean;
}

export interface IProgress {
  method: Method;
  done: number;
  total: number;
}

/** What Changes needs of the model. */
export interface IChangeHost {
  request(method: Method, params: Result, change?: boolean): Promise<Result>;
  /** The view changed. */
  emit(): void;
  /** A change starts: the last error shown is no longer news. */
  clearError(): void;
  /** Show the push that follows a change even while auto-refresh is off. */
  followNext(): void;
}

export class Changes {
  constructor(host: IChangeHost) {
    this._host = host;
  }

  get plan(): IMovePlan | null {
    return this._plan;
  }
  get outcome(): IOutcome | null {
    return this._outcome;
  }
  get queued(): IQueued | null {
    return this._queued;
  }
  get progress(): IProgress | null {
    return this._progress;
  }

  /** Run one finding's fix in the kernel, then show the new snapshot. */
  applyFix(findingId: string): Promise<WireReport> {
    return this._run('apply_fix', { finding_id: findingId });
  }

  /** Dry run of "move all to `device`": the plan the user confirms or cancels. */
  async planMove(device: string): Promise<IMovePlan> {
    const result = await this._host.request('move_all', { device, dry_run: true, names: null });
    this._plan = { device, report: reportOf(result) };
    this._host.emit();
    return this._plan;
  }

  /** Carry out the plan; progress arrives while it runs, the report after. */
  confirmMove(): Promise<WireReport> {
    if (!this._plan) {
      return Promise.reject(new Error('No move planned: choose a device first.'));
    }
    const device = this._plan.device;
    this._plan = null;
    return this._run('move_all', { device, dry_run: false, names: null });
  }

  cancelMove(): void {
    this._plan = null;
    this._host.emit();
  }

  /** Ask the kernel to drop the change it holds; it answers that change `cancelled`. */
  async cancelQueued(): Promise<void> {
    const q = this._queued;
    if (!q || q.cancelling) {
      return;
    }
    this._queued = { ...q, cancelling: true };
    this._host.emit();
    const result = await this._host.request('cancel', { request_id: q.requestId });
    if (!result.cancelled && this._queued?.requestId === q.requestId) {
      this._queued = { ...this._queued, cancelling: false }; // NB: too late: it is running
      this._host.emit();
    }
  }

  dismiss(): void {
    this._outcome = null;
  }

  // --- the kernel's replies (model.ts passes on those for changes) ---------------------------

  onQueued(msg: QueuedMsg): void {
    this._queued = {
      requestId: msg.request_id,
      method: msg.method,
      reason: msg.reason,
      cancelling: false
    };
  }

  onProgress(msg: ProgressMsg, method: Method): void {
    this._progress = { method, done: msg.done, total: msg.total };
    this._progressId = msg.request_id;
  }

  /** Request `id` got its final answer. */
  onSettled(id: string | null): void {
    if (id !== null && id === this._progressId) {
      this._progress = null;
    }
    if (id !== null && id === this._queued?.requestId) {
      this._queued = null;
    }
  }

  reset(): void {
    this._plan = this._outcome = this._queued = this._progress = null;
  }

  private async _run(method: Change, params: Result): Promise<WireReport> {
    this._outcome = null; // NB: the latest change's outcome replaces any older one
    this._host.clearError();
    let report: WireReport;
    try {
      report = reportOf(await this._host.request(method, params, true));
    } catch (e) {
      const error = e instanceof Error ? e.message : String(e);
      const cancelled = e instanceof RequestError && e.code === 'cancelled';
      this._outcome = { action: method, report: null, error, cancelled };
      this._host.emit();
      throw e;
    }
    this._outcome = { action: method, report, error: '', cancelled: false };
    if (report.moved.length > 0) {
      this._host.followNext(); // NB: the kernel pushes a snapshot right after a change's result
    }
    this._host.emit();
    return report;
  }

  private _host: IChangeHost;
  private _plan: IMovePlan | null = null;
  private _outcome: IOutcome | null = null;
  private _queued: IQueued | null = null;
  private _progress: IProgress | null = null;
  private _progressId = '';
}
