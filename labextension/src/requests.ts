/**
 * Requests in flight to the kernel: their ids, what each one is, and how each settles. The
 * model owns one; the kernel's replies settle them (result, or an error with its code).
 */

import { IKernelBridge, Method, PROTOCOL_VERSION } from './tokens';

/** What a request resolves with: the `result` of its ResultMsg (or `{seq}` for a refresh). */
export type Result = { [key: string]: any };

/** A request the kernel answered with an ErrorMsg (or that could not be sent: code ''). */
export class RequestError extends Error {
  constructor(
    message: string,
    readonly code: string
  ) {
    super(message);
  }
}

export interface IPending {
  method: Method;
  /**
   * A change (a move or a fix, and a fix's dry run before it): the kernel may hold it while a
   * cell runs, and its failure is the change's outcome rather than an error of the panel.
   */
  change: boolean;
  resolve: (result: Result) => void;
  reject: (reason: Error) => void;
}

export class Requests {
  constructor(bridge: IKernelBridge) {
    this._bridge = bridge;
  }

  get size(): number {
    return this._pending.size;
  }

  /** A change is on its way, held, or running. */
  get changing(): boolean {
    return [...this._pending.values()].some(p => p.change);
  }

  get(id: string | null): IPending | undefined {
    return id === null ? undefined : this._pending.get(id);
  }

  /** Send one request; null when the bridge has no open comm to send it on. */
  send(method: Method, params: Result, change: boolean): [string, Promise<Result>] | null {
    const id = `dl-${++this._counter}`;
    const sent = this._bridge.send({
      type: 'request',
      protocol: PROTOCOL_VERSION,
      request_id: id,
      method,
      params
    });
    if (!sent) {
      return null;
    }
    const done = new Promise<Result>((resolve, reject) => {
      this._pending.set(id, { method, change, resolve, reject });
    });
    return [id, done];
  }

  /** Settle `id` (unknown ids are ignored); true when it was pending. */
  settle(id: string | null, result?: Result, error?: Error): boolean {
    const pending = this.get(id);
    if (!pending) {
      return false;
    }
    this._pending.delete(id!);
    if (error) {
      pending.reject(error);
    } else {
      pending.resolve(result ?? {});
    }
    return true;
  }

  /** Reject everything in flight (the connection is gone). */
  rejectAll(reason: string): void {
    const pending = [...this._pending.values()];
    this._pending.clear();
    pending.forEach(p => p.reject(new RequestError(reason, '')));
  }

  private _bridge: IKernelBridge;
  private _pending = new Map<string, IPending>();
  private _counter = 0;
}
