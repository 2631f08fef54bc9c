/**
 * A device chip: the device's colour (tokens.ts, as `render/_rows.py` picks it) with the device
 * written on it, never colour alone.
 */

import * as React from 'react';

import { deviceColour } from './tokens';

/** A device as colour plus text (never colour alone); `why`: a chip drawn apart, its reason. */
export function Chip(props: { device: string; why?: string }): JSX.Element {
  const bg = deviceColour(props.device);
  return (
    <span
      className={props.why ? 'dl-chip dl-chip-aside' : 'dl-chip'}
      data-device={props.device}
      title={props.why}
      style={{ backgroundColor: bg, color: inkOn(bg) }}
    >
      {props.device}
    </span>
  );
}

/** Why an optimizer's step counters keep a chip of their own after a move. */
export const COUNTERS_WHY =
  "step counters: torch keeps an optimizer's step counts (0-dim tensors) on the cpu whatever " +
  'device its state is on, so a move leaves them there; nothing to fix';

/** Black or white text, whichever reads better on `hex`. */
function inkOn(hex: string): string {
  const [r, g, b] = [1, 3, 5].map(i => parseInt(hex.slice(i, i + 2), 16) / 255);
  const lum = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  return lum > 0.45 ? '#000000' : '#ffffff';
}
