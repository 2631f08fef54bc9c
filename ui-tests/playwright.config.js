/**
 * Real-browser tests of the devicelens panel: galata's base config, Debian's Chromium (no
 * browser download), one worker, and a JupyterLab server started for the run.
 */
const path = require('path');
const baseConfig = require('@jupyterlab/galata/lib/playwright-config');

const venvBin = path.resolve(__dirname, '..', '.venv', 'bin');

module.exports = {
  ...baseConfig,
  reporter: [['list']],
  timeout: 120000,
  expect: { timeout: 20000 },
  retries: 0,
  workers: 1,
  use: {
    ...baseConfig.use,
    baseURL: 'http://127.0.0.1:8888',
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
    command: 'jupyter lab --config jupyter_server_test_config.py',
    url: 'http://127.0.0.1:8888/lab',
    timeout: 120000,
    reuseExistingServer: false,
    env: { ...process.env, PATH: `${venvBin}:${process.env.PATH}` }
  }
};
