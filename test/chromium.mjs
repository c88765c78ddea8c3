// How every browser test launches Chromium: the binary scripts/find-chrome.sh found (CHROME_PATH;
// no test tool downloads a browser), with flags that keep it quiet and working as root on a
// closed network. Shared by the widget tests (web-test-runner) and the end-to-end suite.

export const CHROMIUM_PATH = process.env.CHROME_PATH ?? '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];
