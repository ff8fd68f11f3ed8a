// A person's data on request (issue 23): the file (JSON or the HTML summary) and its name, of a user or of oneself.
import { fileNameFromDisposition } from '../domain/csv-download';
import type { PersonalDataFormat } from '../domain/personal-data';
import { ApiFailure, type ApiClient, type ErrorBody } from './client';

const DOWNLOAD_FAILED = 'Le téléchargement a échoué.';

async function asFile(call: Promise<{ data?: Blob; error?: unknown; response: Response }>, format: PersonalDataFormat): Promise<{ file: Blob; fileName: string }> {
  const { data, error, response } = await call;
  if (error !== undefined || !response.ok || !data) {
    const body = (error ?? undefined) as ErrorBody | undefined;
    throw new ApiFailure(response.status, body?.message || DOWNLOAD_FAILED, body, response.statusText);
  }
  return { file: data, fileName: fileNameFromDisposition(response.headers.get('content-disposition'), `donnees-personnelles.${format}`) };
}

/** GET /api/v2/users/{id}/personal-data (userId), or /api/v2/users/me/personal-data (null: oneself). */
export function openPersonalData(api: ApiClient, userId: string | null, format: PersonalDataFormat, signal: AbortSignal): Promise<{ file: Blob; fileName: string }> {
  return userId === null
    ? asFile(api.GET('/api/v2/users/me/personal-data', { params: { query: { format } }, parseAs: 'blob', signal }), format)
    : asFile(api.GET('/api/v2/users/{id}/personal-data', { params: { path: { id: userId }, query: { format } }, parseAs: 'blob', signal }), format);
}
