/**
 * What the user asked the kernel to change (a fix, a move to another device) and how it went:
 * the move plan awaiting confirmation, a change the kernel holds while a cell runs, progress,
 * and the latest outcome. Part of the model (model.ts), which hands it the kernel's replies.
 */

import { RequestError, Result } from './requests';
import { discardsValues, reportOf, rootOf } from './view';
import { Method, ProgressMsg, QueuedMsg, WireRefusal, WireReport } from './tokens';

export type Change = 'apply_fix' | 'move_all';

/**
 * A dry run waiting for the user's confirmation: a move-all, or a fix that would move tensors to
 * meta (discarding their values, so it asks first, as a move-all to meta does).
 */
export interface IMovePlan {
  action: Change;
  /** The move-all's device; for a fix, where it would move tensors (meta). */
  device: string;
  /** The dry run of what confirming does. */
  report: WireReport;
  /**
   * move_all: the names to move, null for all. Where the kernel refused some objects, the
   * others (the rest can still move, by name); [] where none can.
   */
  names: string[] | null;
  /** What stays, and why (the dry run of all of them refused these). */
  refused: WireRefusal[];
  /** apply_fix: the finding whose fix this is; '' for a move-all. */
  findingId: string;
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
  /** The namespace names the panel shows (what a move of "the rest" may name). */
  names(): string[];
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

  /**
   * Run one finding's fix in the kernel, then show the new snapshot. A dry run first: a fix that
   * would move tensors to meta becomes a plan to confirm (null: nothing ran yet).
   */
  async applyFix(findingId: string): Promise<WireReport | null> {
    let dry: WireReport;
    this._outcome = null;
    this._host.clearError();
    try {
      // NB: sent as a change: no second one meanwhile, and its failure is the fix's outcome
      const params = { finding_id: findingId, dry_run: true };
      dry = reportOf(await this._host.request('apply_fix', params, true));
    } catch (e) {
      this._failed('apply_fix', e);
      throw e;
    }
    if (dry.ok && discardsValues(dry)) {
      this._plan = { action: 'apply_fix', device: 'meta', report: dry, names: null, refused: [],
        findingId };
      this._host.emit();
      return null;
    }
    return this._run('apply_fix', { finding_id: findingId });
  }

  /**
   * Dry run of "move all to `device`": the plan the user confirms or cancels. Where the kernel
   * refuses some objects (a copy out of meta), the plan is to move the others by name.
   */
  async planMove(device: string): Promise<IMovePlan> {
    const all = { device, dry_run: true, names: null };
    const report = reportOf(await this._host.request('move_all', all));
    this._plan = { action: 'move_all', device, report, names: null, refused: [], findingId: '' };
    if (report.refused.length > 0) {
      const stays = new Set(report.refused.map(r => rootOf(r.path)));
      const names = this._host.names().filter(n => !stays.has(n));
      const rest = names.length
        ? reportOf(await this._host.request('move_all', { ...all, names }))
        : null;
      const ok = rest !== null && rest.ok;
      this._plan = { ...this._plan, report: ok ? rest : report, names: ok ? names : [],
        refused: report.refused };
    }
    this._host.emit();
    return this._plan;
  }

  /** Carry out the plan; progress arrives while it runs, the report after. */
  confirmMove(): Promise<WireReport> {
    const plan = this._plan;
    if (!plan) {
      return Promise.reject(new Error('No move planned: choose a device first.'));
    }
    this._plan = null;
    if (plan.action === 'apply_fix') {
      return this._run('apply_fix', { finding_id: plan.findingId });
    }
    return this._run('move_all', { device: plan.device, dry_run: false, names: plan.names });
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
      this._failed(method, e);
      throw e;
    }
    this._outcome = { action: method, report, error: '', cancelled: false };
    if (report.moved.length > 0) {
      this._host.followNext(); // NB: the kernel pushes a snapshot right after a change's result
    }
    this._host.emit();
    return report;
  }

  private _failed(method: Change, e: unknown): void {
    const error = e instanceof Error ? e.message : String(e);
    const cancelled = e instanceof RequestError && e.code === 'cancelled';
    this._outcome = { action: method, report: null, error, cancelled };
    this._host.emit();
  }

  private _host: IChangeHost;

  private _plan: IMovePlan | null = null;
  private _outcome: IOutcome | null = null;
  private _queued: IQueued | null = null;
  private _progress: IProgress | null = null;
  private _progressId = '';
}
