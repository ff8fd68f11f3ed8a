// HTTP requests whose outcome is told apart at the connection level: an answer, a refused connection, or a
// connection cut under a request (a reset), which fetch would all fold into one 'fetch failed'.
import http from 'node:http';

export interface Outcome {
  status?: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body?: any;
  /** The connection's error code (ECONNREFUSED, ECONNRESET…) when no answer came. */
  error?: string;
}

export interface Send {
  method: 'GET' | 'POST' | 'PUT';
  path: string;
  token: string;
  body?: unknown;
  headers?: Record<string, string>;
}

/** One request; `agent: false` for a connection of its own, closed after it. */
export function send(origin: string, agent: http.Agent | false, request: Send): Promise<Outcome> {
  return new Promise((resolve) => {
    const payload = request.body === undefined ? undefined : JSON.stringify(request.body);
    const headers: Record<string, string> = { authorization: `Bearer ${request.token}`, ...request.headers };
    if (payload !== undefined) Object.assign(headers, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(payload)) });
    const failed = (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message });
    const outgoing = http.request(`${origin}${request.path}`, { method: request.method, agent, headers }, (answer) => {
      let text = '';
      answer.setEncoding('utf8');
      answer.on('data', (chunk: string) => (text += chunk));
      answer.on('error', failed);
      answer.on('end', () => {
        if (!answer.complete) return resolve({ error: 'ECONNRESET' });
        let body: unknown = text;
        try {
          body = text ? JSON.parse(text) : undefined;
        } catch {
          // not JSON: kept as text
        }
        resolve({ status: answer.statusCode, body });
      });
    });
    outgoing.on('error', failed);
    outgoing.end(payload);
  });
}
