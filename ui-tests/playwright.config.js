/**
 * Real-browser tests of the devicelens panel: galata's base config, Debian's Chromium (no
 * browser download), one worker, and a JupyterLab server started for the run.
 */
const { execFileSync } = require('child_process');
const path = require('path');
const baseConfig = require('@jupyterlab/galata/lib/playwright-config');

const venvBin = path.resolve(__dirname, '..', '.venv', 'bin');

/**
 * A port nobody listens on, picked once per run: the runner and its workers each load this
 * file, so the first pick travels to the workers through the environment. NB: never 8888, which
 * a user's own JupyterLab may hold.
 */
function freePort() {
  const pick =
    'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])';
  return execFileSync(path.join(venvBin, 'python'), ['-c', pick], { encoding: 'utf8' }).trim();
}
if (!process.env.DEVICELENS_UI_PORT) {
  process.env.DEVICELENS_UI_PORT = freePort();
}
const port = process.env.DEVICELENS_UI_PORT;
const url = `http://127.0.0.1:${port}`;

module.exports = {
  ...baseConfig,
  reporter: [['list']],
  timeout: 120000,
  expect: { timeout: 20000 },
  retries: 0,
  workers: 1,
  use: {
    ...baseConfig.use,
    baseURL: url,
    viewport: { width: 1400, height: 850 },
    video: 'off',
    trace: 'off',
    launchOptions: {
      executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync'
      ]
    }
  },
  webServer: {
    command: `jupyter lab --config jupyter_server_test_config.py --ServerApp.port=${port}`,
    url: `${url}/lab`,
    timeout: 120000,
    reuseExistingServer: false,
    env: { ...process.env, PATH: `${venvBin}:${process.env.PATH}` }
  }
};
