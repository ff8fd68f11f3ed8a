import fs from 'node:fs';
import path from 'node:path';
import { assertChromium } from './chromium';

export default function globalSetup(): void {
  assertChromium();
  if (!fs.existsSync(path.resolve('dist/index.html'))) {
    throw new Error('The SPA is not built: run `npm run build` first (npm test does).');
  }
}
