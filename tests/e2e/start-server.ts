import fs from 'node:fs';
import path from 'node:path';

// The browser tests start from an empty data folder, as a fresh `npm start` does.
const dataDir = path.resolve(process.env.DATA_DIR ?? '.data/e2e');
fs.rmSync(dataDir, { recursive: true, force: true });
await import('../../server/main.ts');
