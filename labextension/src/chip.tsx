/**
 * A device chip: the device's colour (tokens.ts, as `render/_rows.py` picks it) with the device
 * written on it, never colour alone.
 */

import * as React from 'react';

import { deviceColour } from './tokens';

/** A device as colour plus text (never colour alone). */
export function Chip(props: { device: string }): JSX.Element {
  const bg = deviceColour(props.device);
  return (
    <span
      className="dl-chip"
      data-device={props.device}
      style={{ backgroundColor: bg, color: inkOn(bg) }}
    >
      {props.device}
    </span>
  );
}

/** Black or white text, whichever reads better on `hex`. */
function inkOn(hex: string): string {
  const [r, g, b] = [1, 3, 5].map(i => parseInt(hex.slice(i, i + 2), 16) / 255);
  const lum = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  return lum > 0.45 ? '#000000' : '#ffffff';
}
