// Answers compressed (issue 18): the API's JSON above all, and any other compressible answer (HTML pages of the
// local provider, CSV exports), Brotli or gzip as the client accepts, above 1 kB. Brotli at a low quality: most
// of the gain for a small part of the CPU of its default (11), which would cost the server's throughput. The
// SPA's files are compressed at build time and sent as they are (plugins/web.ts): an answer that already has a
// Content-Encoding is left alone.
import type { FastifyInstance } from 'fastify';
import compress from '@fastify/compress';
import { constants } from 'node:zlib';

/** Below this, compressing costs more than it saves. */
export const COMPRESSION_THRESHOLD_BYTES = 1024;

export async function registerCompression(app: FastifyInstance): Promise<void> {
  await app.register(compress, {
    global: true,
    threshold: COMPRESSION_THRESHOLD_BYTES,
    encodings: ['br', 'gzip'],
    brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } },
    zlibOptions: { level: 6 },
  });
}
