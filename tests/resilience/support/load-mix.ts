// The mix of the load test. Each connection (a lane) owns one organization user and loops over reads and
// writes on it, one request at a time, so that no two connections touch the same rows and no write can meet a
// legitimate conflict: every answer is expected to be a 2xx. Each write is counted when sent and when
// acknowledged, so that the database can be checked afterwards (a request cut by the end of the load may or may
// not have been applied: it lies between the two counts).
import type { LaneRequest } from './autocannon.ts';

export type WriteKind = 'update' | 'create' | 'approve' | 'reject' | 'deactivate' | 'reactivate';
export const WRITE_KINDS: readonly WriteKind[] = ['update', 'create', 'approve', 'reject', 'deactivate', 'reactivate'];

export interface LaneUser {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
}

export interface Lane {
  index: number;
  user: LaneUser;
  cycles: number;
  /** The user's ETag as last read, for If-Match. */
  etag: string | null;
  /** The invitation created in this cycle, to decide next. */
  invitationId: number | null;
  sent: Record<WriteKind, number>;
  acked: Record<WriteKind, number>;
  lastSentTitle: string | null;
  lastAckedTitle: string | null;
  created: number[];
  approved: number[];
  rejected: number[];
}

/** An answer other than the step's 2xx. */
export interface Refusal {
  step: string;
  status: number;
  body: string;
}

export interface MixSettings {
  backOfficeToken: string;
  /** An employer administrator: the users list within their scope. */
  organizationToken: string;
  /** The establishment the lanes' invitations are for. */
  siretCode: string;
  /** An external role the lanes' users are asked for (and given on approval). */
  invitedRole: string;
}

export const REJECTION_REASON = 'Refusée pendant le test de charge.';
const SEARCHES = ['', 'charge', 'mar', 'tilleuls', 'camille'];
const SORTS = ['name', 'email', 'lastLogin'];

const zero = (): Record<WriteKind, number> => ({ update: 0, create: 0, approve: 0, reject: 0, deactivate: 0, reactivate: 0 });

export function newLane(index: number, user: LaneUser): Lane {
  return { index, user, cycles: 0, etag: null, invitationId: null, sent: zero(), acked: zero(), lastSentTitle: null, lastAckedTitle: null, created: [], approved: [], rejected: [] };
}

interface Built {
  method: 'GET' | 'POST' | 'PUT';
  path: string;
  token?: string;
  body?: unknown;
  headers?: Record<string, string>;
}

/** The loop of requests of one lane, for autocannon's client.setRequests. */
export function laneRequests(lane: Lane, settings: MixSettings, refusals: Refusal[]): LaneRequest[] {
  const userPath = `/api/v2/users/${lane.user.id}`;
  const step = (name: string, build: () => Built, write: WriteKind | null, onOk?: (body: string, headers: Record<string, string | string[]>) => void): LaneRequest => ({
    setupRequest(request) {
      const built = build();
      if (write) lane.sent[write] += 1;
      // A new headers object every time: autocannon writes Content-Length into the one it is given.
      const headers: Record<string, string> = { authorization: `Bearer ${built.token ?? settings.backOfficeToken}`, ...built.headers };
      if (built.body !== undefined) headers['content-type'] = 'application/json';
      return { ...request, method: built.method, path: built.path, headers, body: built.body === undefined ? undefined : JSON.stringify(built.body) };
    },
    onResponse(status, body, _context, headers) {
      if (status < 200 || status >= 300) {
        refusals.push({ step: name, status, body: body.slice(0, 300) });
        return;
      }
      if (write) lane.acked[write] += 1;
      onOk?.(body, headers);
    },
  });

  const usersList = step('users list', () => {
    lane.cycles += 1;
    const n = lane.index + lane.cycles;
    const search = SEARCHES[n % SEARCHES.length]!;
    const query = `page=${1 + (n % 3)}&pageSize=20&includeInactive=true&sort=${SORTS[n % SORTS.length]}&order=${n % 2 ? 'desc' : 'asc'}${search ? `&search=${search}` : ''}`;
    return { method: 'GET', path: `/api/v2/users?${query}` };
  }, null);
  const me = step('current user', () => ({ method: 'GET', path: '/api/v2/users/me' }), null);
  const readUser = step('user', () => ({ method: 'GET', path: userPath }), null, (_body, headers) => {
    lane.etag = String(headers.etag ?? headers.ETag ?? '');
  });
  const title = () => `Charge de mission ${lane.index}.${lane.cycles}`;
  const update = step(
    'user update',
    () => {
      lane.lastSentTitle = title();
      const { firstName, lastName, email } = lane.user;
      return { method: 'PUT', path: userPath, headers: { 'if-match': lane.etag ?? '"0"' }, body: { firstName, lastName, email, metadata: JSON.stringify({ jobTitle: lane.lastSentTitle }) } };
    },
    'update',
    () => (lane.lastAckedTitle = lane.lastSentTitle),
  );
  const pending = step('pending invitations', () => ({ method: 'GET', path: `/api/v2/invitations?status=pending&page=1&pageSize=10&search=${encodeURIComponent(lane.user.email)}` }), null);
  const invite = step(
    'invitation creation',
    () => ({ method: 'POST', path: '/api/v2/invitations', body: { inviteeEmail: lane.user.email, roleCode: settings.invitedRole, invitationType: 'ROLE_ASSIGNMENT', organizationCode: settings.siretCode } }),
    'create',
    (body) => {
      lane.invitationId = (JSON.parse(body) as { id: number }).id;
      lane.created.push(lane.invitationId);
    },
  );
  // Approve in one cycle, reject in the next: both decisions on every lane. Without an invitation (its
  // creation was refused, already counted) the step reads instead, so that the loop goes on.
  let deciding: 'approve' | 'reject' | null = null;
  const decision = step(
    'invitation decision',
    () => {
      deciding = lane.invitationId === null ? null : lane.cycles % 2 ? 'approve' : 'reject';
      if (deciding === null) return { method: 'GET', path: '/api/v2/users/me' };
      lane.sent[deciding] += 1;
      const body = deciding === 'reject' ? { body: { rejectionReason: REJECTION_REASON } } : {};
      return { method: 'POST', path: `/api/v2/invitations/${lane.invitationId}/${deciding}`, ...body };
    },
    null,
    () => {
      if (deciding === null || lane.invitationId === null) return;
      lane.acked[deciding] += 1;
      (deciding === 'approve' ? lane.approved : lane.rejected).push(lane.invitationId);
      lane.invitationId = null;
    },
  );
  const details = step('user full details', () => ({ method: 'GET', path: `${userPath}/full-details` }), null);
  const deactivate = step('user deactivation', () => ({ method: 'POST', path: `${userPath}/deactivate` }), 'deactivate');
  const scopedList = step('users list of an employer administrator', () => ({ method: 'GET', path: '/api/v2/users?page=1&pageSize=10&includeInactive=true&search=charge', token: settings.organizationToken }), null);
  const reactivate = step('user reactivation', () => ({ method: 'POST', path: `${userPath}/reactivate` }), 'reactivate');
  return [usersList, me, readUser, update, pending, invite, decision, details, deactivate, scopedList, reactivate];
}
