import fs from 'node:fs';
import path from 'node:path';
import { assertChromium } from './chromium';

export default function globalSetup(): void {
  assertChromium();
  const webRoot = process.env.WEB_ROOT ?? 'dist';
  if (!fs.existsSync(path.resolve(webRoot, 'index.html'))) {
    throw new Error('The SPA is not built: run `npm run build` first (npm test does).');
  }
}
