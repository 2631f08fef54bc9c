/**
 * Where the browser tests save screenshots. IMG: the README's (docs/img when `make screenshots`
 * sets DEVICELENS_SCREENSHOTS, else test-results/img, ignored); SHOTS: the rest, always under
 * test-results/img, to look at after a run.
 */
import * as path from 'path';

export const SHOTS = path.resolve(__dirname, '..', 'test-results', 'img');

export const IMG = process.env.DEVICELENS_SCREENSHOTS
  ? path.resolve(__dirname, '..', '..', 'docs', 'img')
  : SHOTS;
