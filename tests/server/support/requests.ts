import { expectMatchesContract } from './contract.ts';
import { send } from './api.ts';
import type { TestApp } from './test-app.ts';

/** A GET as the demo account with this email (or without a token), its body parsed when it is JSON. */
export async function getAs(t: TestApp, email: string | null, url: string) {
  return send(t, email, { method: 'GET', url });
}

/** getAs, the answer checked against what the contract documents for GET `route` and its status. */
export async function getChecked(t: TestApp, email: string | null, route: string, url: string) {
  const answer = await getAs(t, email, url);
  expectMatchesContract('GET', route, answer.status, answer.body);
  return answer;
}
