import fs from 'node:fs';

/** Debian's Chromium (or CHROME_PATH): Playwright cannot download its own browser here. */
export function chromiumPath(): string {
  return process.env.CHROME_PATH ?? '/usr/bin/chromium';
}

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

export function assertChromium(): void {
  const path = chromiumPath();
  if (!fs.existsSync(path)) {
    throw new Error(
      `Chromium is missing at ${path}: the browser tests need it.\n` +
        `Install it with: apt-get update && apt-get install -y chromium\n` +
        `or point CHROME_PATH at a Chromium or Chrome binary.`,
    );
  }
}
