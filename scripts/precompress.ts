// A Vite plugin that writes a .br and a .gz beside every text asset of the build, which the server sends as
// they are (@fastify/static `preCompressed`, server/app.ts): compressed once at build time, at the highest
// levels, never per request. The .gz files are what the browser budgets measure (gzip -9, web-bundle.ts).
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { Plugin } from 'vite';
import { MERMAID_PACKAGES } from './web-bundle.ts';

const gzip = promisify(zlib.gzip);
const brotli = promisify(zlib.brotliCompress);
const TEXT = /\.(js|mjs|css|html|svg|json|txt)$/;
/** Smaller files gain nothing worth a second request path. */
const MIN_BYTES = 1024;
/** Brotli's best level takes 1.5 s per MB: Mermaid's 4 MB (loaded on /workflows only) get a fast level instead. */
const BROTLI_BEST = 11;
const BROTLI_FAST = 5;

export function precompress(): Plugin {
  let outDir = 'dist';
  const mermaidFiles = new Set<string>();
  return {
    name: 'portail:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    generateBundle(_options, bundle) {
      for (const chunk of Object.values(bundle)) {
        if (chunk.type === 'chunk' && chunk.moduleIds.some((id) => MERMAID_PACKAGES.test(id.replaceAll('\\', '/')))) mermaidFiles.add(path.normalize(chunk.fileName));
      }
    },
    async closeBundle() {
      const files = (await fs.readdir(outDir, { recursive: true, withFileTypes: true }))
        .filter((entry) => entry.isFile() && TEXT.test(entry.name) && !entry.parentPath.includes(`${path.sep}.vite`))
        .map((entry) => path.join(entry.parentPath, entry.name));
      await Promise.all(
        files.map(async (file) => {
          const content = await fs.readFile(file);
          if (content.length < MIN_BYTES) return;
          const [gz, br] = await Promise.all([
            gzip(content, { level: 9 }),
            brotli(content, {
              params: {
                [zlib.constants.BROTLI_PARAM_QUALITY]: mermaidFiles.has(path.relative(outDir, file)) ? BROTLI_FAST : BROTLI_BEST,
                [zlib.constants.BROTLI_PARAM_SIZE_HINT]: content.length,
              },
            }),
          ]);
          if (gz.length < content.length) await fs.writeFile(`${file}.gz`, gz);
          if (br.length < content.length) await fs.writeFile(`${file}.br`, br);
        }),
      );
    },
  };
}
