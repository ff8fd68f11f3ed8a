// A person's data as an answer (getUserPersonalData, getMyPersonalData): an attachment never kept by a cache.
import type { FastifyReply } from 'fastify';
import type { PersonalDataFile } from '../features/users/users-personal-data.service.ts';

export function sendPersonalData(reply: FastifyReply, file: PersonalDataFile): FastifyReply {
  return reply
    .header('content-type', file.contentType)
    .header('content-disposition', `attachment; filename="${file.fileName}"`)
    .header('cache-control', 'no-store')
    .send(file.text);
}
