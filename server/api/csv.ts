// A CSV file as an answer: its headers, and its text streamed with backpressure (the next rows are read only as
// the client takes the previous ones). Every export handler answers through sendCsv.
import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import type { CsvDownload } from '../features/exports/exports.service.ts';

export function sendCsv(reply: FastifyReply, download: CsvDownload): FastifyReply {
  reply
    .header('content-type', 'text/csv; charset=utf-8')
    .header('content-disposition', download.contentDisposition)
    .header('cache-control', 'no-store');
  // Bytes, not objects: the stream buffers at most its highWaterMark (64 kB) ahead of the socket.
  return reply.send(Readable.from(download.chunks, { objectMode: false, highWaterMark: 64 * 1024 }));
}
