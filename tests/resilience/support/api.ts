// Calls of the API of a server in its own process, with tokens signed by its local provider (as the benchmark does).
import { tokenSigner } from '../../../bench/server-env.ts';
import type { OwnDatabase } from './database.ts';

export interface Answer {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
  headers: Headers;
}

export type Call = (method: string, path: string, body?: unknown, headers?: Record<string, string>) => Promise<Answer>;

/** A bearer token for each of these people, signed with the key the server keeps in `dataDir`. */
export async function tokensFor(database: OwnDatabase, dataDir: string, origin: string, emails: readonly string[]): Promise<Map<string, string>> {
  const sign = await tokenSigner(dataDir, origin);
  const tokens = new Map<string, string>();
  for (const email of emails) {
    const [row] = await database.query<{ auth_id: string }>('select auth_id from users where email = $1', [email]);
    if (!row?.auth_id) throw new Error(`${email} has no account in ${database.name}`);
    tokens.set(email, await sign(row.auth_id, email));
  }
  return tokens;
}

/** fetch with the token and JSON in and out. */
export function caller(origin: string, token: string): Call {
  return async (method, path, body, headers = {}) => {
    const answer = await fetch(`${origin}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await answer.text();
    return { status: answer.status, body: text ? JSON.parse(text) : undefined, headers: answer.headers };
  };
}
