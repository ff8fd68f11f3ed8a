// The CSV exports: the answer's body as a stream (the caller reads it as it arrives) and the file's name.
import { fileNameFromDisposition } from '../domain/csv-download';
import { ApiFailure, type ApiClient, type ErrorBody } from './client';
import type { components, operations } from './schema.gen';

export type UsersExportQuery = NonNullable<operations['exportUsers']['parameters']['query']>;

/** An export's file as it arrives. */
export interface CsvFileStream {
  body: ReadableStream<Uint8Array>;
  fileName: string;
}

const EXPORT_FAILED = "L'export a échoué.";

async function csvStream(call: Promise<{ data?: ReadableStream<Uint8Array> | null; error?: unknown; response: Response }>, fallbackName: string): Promise<CsvFileStream> {
  const { data, error, response } = await call;
  if (error !== undefined || !response.ok || !data) {
    const body = (error ?? undefined) as ErrorBody | undefined;
    throw new ApiFailure(response.status, body?.message || EXPORT_FAILED, body, response.statusText);
  }
  return { body: data, fileName: fileNameFromDisposition(response.headers.get('content-disposition'), fallbackName) };
}

/** GET /api/v2/users/export: the users list as a CSV file, streamed; `signal` aborts the download. */
export function openUsersExport(api: ApiClient, query: UsersExportQuery, signal: AbortSignal): Promise<CsvFileStream> {
  return csvStream(api.GET('/api/v2/users/export', { params: { query }, parseAs: 'stream', signal }), 'utilisateurs.csv');
}

export type AuditExportQuery = NonNullable<operations['exportAuditEntries']['parameters']['query']>;

/** GET /api/v2/audit/export: the journal as a CSV file, streamed; `signal` aborts the download. */
export function openAuditExport(api: ApiClient, query: AuditExportQuery, signal: AbortSignal): Promise<CsvFileStream> {
  return csvStream(api.GET('/api/v2/audit/export', { params: { query }, parseAs: 'stream', signal }), 'journal.csv');
}

/** POST /api/v2/users/export: exactly the users chosen (a selection of the list), as a CSV file, streamed. */
export function openSelectedUsersExport(api: ApiClient, userIds: string[], signal: AbortSignal): Promise<CsvFileStream> {
  return csvStream(api.POST('/api/v2/users/export', { body: { userIds }, parseAs: 'stream', signal }), 'utilisateurs.csv');
}

export type WorkflowFiguresExportQuery = { workflowId: components['parameters']['WorkflowId']; days: 7 | 30 | 90 };

/** GET /api/v2/workflows/{workflowId}/figures/export: a machine's figures of a period as a CSV file. */
export function openWorkflowFiguresExport(api: ApiClient, query: WorkflowFiguresExportQuery, signal: AbortSignal): Promise<CsvFileStream> {
  const { workflowId, days } = query;
  return csvStream(api.GET('/api/v2/workflows/{workflowId}/figures/export', { params: { path: { workflowId }, query: { days } }, parseAs: 'stream', signal }), `${workflowId}.csv`);
}
