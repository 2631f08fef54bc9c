/**
 * The confirmation of a planned change (IMovePlan): a move-all, the rest of one where the kernel
 * refuses some objects, or a fix that would move tensors to meta. View only: reads the plan,
 * calls the model's confirm and cancel.
 */

import * as React from 'react';

import type { DeviceModel, IMovePlan } from './model';
import { Chip } from './chip';
import { humanBytes, WireRefusal } from './tokens';
import { discardsValues, plural, reportCounts, rootOf } from './view';

function run(p: Promise<unknown>): void {
  p.catch(() => undefined); // NB: the model keeps the outcome to show
}

/** What stays where it is, and why: the kernel's reason for each refused object. */
export function Refusals(props: { refused: WireRefusal[] }): JSX.Element | null {
  if (props.refused.length === 0) {
    return null;
  }
  return (
    <ul className="dl-refused">
      {props.refused.map(r => (
        <li key={r.path}>
          <code>{r.path}</code> stays: {r.reason}
        </li>
      ))}
    </ul>
  );
}

/** The question a plan asks, in words about what confirming does. */
function question(plan: IMovePlan): React.ReactNode {
  const c = reportCounts(plan.report);
  const what = (
    <>
      {plural(c.moved, 'tensor')} of {plural(c.objects, 'object')} (<b>{humanBytes(c.bytes)}</b>)
      to <Chip device={plan.device} />
    </>
  );
  if (plan.action === 'apply_fix') {
    return <>Apply this fix: move {what}?</>;
  }
  if (plan.refused.length === 0) {
    return <>Move {what}?</>;
  }
  const stays = [...new Set(plan.refused.map(r => rootOf(r.path)))];
  const who = stays.length <= 3 ? stays.join(', ') : `${stays.slice(0, 3).join(', ')}…`;
  if (c.moved === 0) {
    return (
      <>
        Nothing to move to <Chip device={plan.device} />: {who} cannot move there (why below), and
        everything else is on it already.
      </>
    );
  }
  return (
    <>
      {who} cannot move to <Chip device={plan.device} /> (why below). Move the other {what}?
    </>
  );
}

/** A plan's confirmation: the question, the caution where values go, what stays, Move/Cancel. */
export function Confirm(props: { model: DeviceModel; plan: IMovePlan }): JSX.Element {
  const { model, plan } = props;
  const fix = plan.action === 'apply_fix';
  const empty = reportCounts(plan.report).moved === 0;
  return (
    <div
      className="dl-confirm"
      role="dialog"
      aria-label={fix ? 'Confirm fix' : 'Confirm move'}
      data-action={plan.action}
    >
      <p>{question(plan)}</p>
      {(plan.device.startsWith('meta') || discardsValues(plan.report)) && !empty && (
        <p className="dl-caution">
          meta keeps shapes and dtypes only: the values of every moved tensor are discarded.
        </p>
      )}
      <Refusals refused={plan.refused.length ? plan.refused : plan.report.refused} />
      {!empty && (
        <>
          <button
            className="dl-button dl-primary dl-confirm-go"
            onClick={() => run(model.confirmMove())}
            autoFocus
          >
            {fix ? 'Apply' : 'Move'}
          </button>{' '}
        </>
      )}
      <button className="dl-button dl-confirm-cancel" onClick={() => model.cancelMove()}>
        {empty ? 'Close' : 'Cancel'}
      </button>
    </div>
  );
}
