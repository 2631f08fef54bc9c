/**
 * Where the browser tests save screenshots: test-results/ (ignored) on every run, the README's
 * docs/img when `make screenshots` sets DEVICELENS_SCREENSHOTS.
 */
import * as path from 'path';

export const IMG = process.env.DEVICELENS_SCREENSHOTS
  ? path.resolve(__dirname, '..', '..', 'docs', 'img')
  : path.resolve(__dirname, '..', 'test-results', 'img');
