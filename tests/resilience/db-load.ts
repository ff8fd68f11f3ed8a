// A steady load on the API from a few concurrent loops of reads and writes, every answer recorded with its
// timing, every acknowledged write remembered so that the test can find its whole effect in the database.

/** One request: when it left and came back (performance.now()), and its status (0: no answer in HANG_MS). */
export interface Sample {
  loop: string;
  kind: 'read' | 'write' | 'probe';
  start: number;
  end: number;
  status: number;
  /** An approval sent again after a 503: its first try may have committed, so 409 (already decided) is an answer. */
  retriedAfter503?: boolean;
}

/** Writes answered 2xx. */
export interface Acknowledged {
  updates: { userId: string; firstName: string }[];
  invitations: { id: number; email: string; organizationId: string }[];
  approvals: { id: number; email: string }[];
  creations: { userId: string; email: string; assignments: number }[];
}

export interface LoadSetup {
  origin: string;
  /** Tokens: back-office (reads, writes, decisions) and an employer's administrator (own profile). */
  backoffice: string;
  employerAdmin: string;
  /** Users the update loops change, one loop each. */
  updatedUsers: { id: string; email: string }[];
  sirenCode: string;
  siretCodes: string[];
  roleIds: number[];
}

/** A request without an answer after this long counts as hanging. */
export const HANG_MS = 10_000;
/** Each loop sends at most one request per PACE_MS, so that the fast 503s of an outage do not become a flood. */
const PACE_MS = 40;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const ok = (status: number) => status >= 200 && status < 300;

/** Letters only (names refuse digits, spec §5): 0 → 'a', 27 → 'bb'. */
export function letters(n: number): string {
  let text = '';
  for (let rest = n; ; rest = Math.floor(rest / 26) - 1) {
    text = String.fromCharCode(97 + (rest % 26)) + text;
    if (rest < 26) return text;
  }
}

export function startSteadyLoad(setup: LoadSetup) {
  const samples: Sample[] = [];
  const acknowledged: Acknowledged = { updates: [], invitations: [], approvals: [], creations: [] };
  let running = true;
  let unique = 0;
  const run = `${Date.now().toString(36)}`;

  async function call(loop: string, kind: Sample['kind'], method: string, url: string, token: string | null, body?: unknown, headers: Record<string, string> = {}) {
    const start = performance.now();
    let status: number;
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    let json: any = null;
    try {
      const answer = await fetch(`${setup.origin}${url}`, {
        method,
        headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(HANG_MS),
      });
      status = answer.status;
      json = await answer.json().catch(() => null);
    } catch {
      // No (whole) answer within HANG_MS, or no connection.
      status = 0;
    }
    const end = performance.now();
    const sample: Sample = { loop, kind, start, end, status };
    samples.push(sample);
    if (end - start < PACE_MS) await sleep(PACE_MS - (end - start));
    return { status, json, sample };
  }

  const loop = async (body: () => Promise<void>) => {
    while (running) await body();
  };

  const reads = [
    loop(() => call('users list', 'read', 'GET', '/api/v2/users?page=1&pageSize=20', setup.backoffice).then(() => undefined)),
    loop(() => call('pending invitations', 'read', 'GET', '/api/v2/invitations?status=pending&page=1&pageSize=20', setup.backoffice).then(() => undefined)),
    loop(() => call('own profile', 'read', 'GET', '/api/v2/users/me', setup.employerAdmin).then(() => undefined)),
    loop(() => call('readiness', 'probe', 'GET', '/readyz', null).then(() => undefined)),
  ];

  // A user's name changed again and again, each time against the version just read (If-Match).
  const updates = setup.updatedUsers.map((user, index) => {
    let n = 0;
    return loop(async () => {
      const read = await call(`user update ${index}`, 'read', 'GET', `/api/v2/users/${user.id}`, setup.backoffice);
      if (!ok(read.status)) return;
      const firstName = `Charge ${letters(n++)}`;
      const body = { firstName, lastName: 'Résilience', email: user.email, metadata: null };
      const write = await call(`user update ${index}`, 'write', 'PUT', `/api/v2/users/${user.id}`, setup.backoffice, body, { 'if-match': `"${read.json.user.version}"` });
      if (ok(write.status)) acknowledged.updates.push({ userId: user.id, firstName });
    });
  });

  // An administrator request for a new person, then its approval (creating the person's account and role).
  let pending: { id: number; email: string; retry: boolean } | null = null;
  const invitations = loop(async () => {
    if (!pending) {
      const email = `resilience.invite.${run}.${unique++}@exemple-test.fr`;
      const body = {
        inviteeEmail: email,
        roleCode: 'ADMIN_ADHERENT',
        invitationType: 'NEW_ADMIN',
        organizationCode: setup.sirenCode,
        metadata: { userProfile: { firstName: 'Camille', lastName: 'Résilience' }, isNewUser: true },
      };
      const created = await call('invitations', 'write', 'POST', '/api/v2/invitations', setup.backoffice, body);
      if (created.status === 201) {
        acknowledged.invitations.push({ id: created.json.id, email, organizationId: created.json.organizationId });
        pending = { id: created.json.id, email, retry: false };
      }
      return;
    }
    const decided = await call('invitations', 'write', 'POST', `/api/v2/invitations/${pending.id}/approve`, setup.backoffice);
    decided.sample.retriedAfter503 = pending.retry;
    if (decided.status === 200) acknowledged.approvals.push({ id: pending.id, email: pending.email });
    if (decided.status === 503) pending.retry = true;
    else pending = null;
  });

  // A new user on two establishments with two roles each.
  const creations = loop(async () => {
    const email = `resilience.user.${run}.${unique++}@exemple-test.fr`;
    const body = {
      email,
      firstName: 'Dominique',
      lastName: 'Résilience',
      jobTitle: 'Comptable',
      phoneNumber: '0612345678',
      street: '3 place Bellecour',
      postalCode: '69002',
      city: 'Lyon',
      organizationCodes: setup.siretCodes,
      roleIds: setup.roleIds,
    };
    const created = await call('user creations', 'write', 'POST', '/api/v2/users/complete', setup.backoffice, body);
    if (created.status === 201) acknowledged.creations.push({ userId: created.json.user.id, email, assignments: created.json.organizations.length });
  });

  const all = Promise.all([...reads, ...updates, invitations, creations]);
  return {
    samples,
    acknowledged,
    async stop() {
      running = false;
      await all;
    },
  };
}
