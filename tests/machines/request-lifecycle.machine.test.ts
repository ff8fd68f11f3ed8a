import { describe, expect, it } from 'vitest';
import { canMoveRequest, nextRequestStatus, type RequestStatus } from '../../rules/request-lifecycle.machine';
import { describeMachineModel } from '../model/harness';
import { model } from './request-lifecycle.model';

describeMachineModel('request lifecycle machine (model)', model);

const backOffice = { isBackOffice: true, holdsUserCreate: true, isRequester: false };
const requester = { isBackOffice: false, holdsUserCreate: true, isRequester: true };

describe('the moves the server asks of it', () => {
  it('moves a pending request once, and no final status ever again', () => {
    expect(nextRequestStatus('PENDING', { type: 'request.approve', by: backOffice })).toBe('APPROVED');
    expect(nextRequestStatus('PENDING', { type: 'request.reject', by: backOffice })).toBe('REJECTED');
    expect(nextRequestStatus('PENDING', { type: 'request.cancel', by: requester })).toBe('CANCELLED');
    expect(nextRequestStatus('PENDING', { type: 'request.expire', now: 10, expiresAt: 10 })).toBe('EXPIRED');
    expect(nextRequestStatus('PENDING', { type: 'request.expire', now: 9, expiresAt: 10 })).toBeNull();
    for (const status of ['APPROVED', 'REJECTED', 'EXPIRED', 'CANCELLED'] as RequestStatus[]) {
      expect(nextRequestStatus(status, { type: 'request.approve', by: backOffice })).toBeNull();
      expect(nextRequestStatus(status, { type: 'request.cancel', by: backOffice })).toBeNull();
      expect(nextRequestStatus(status, { type: 'request.expire', now: 10, expiresAt: 0 })).toBeNull();
    }
  });

  it('lets the requester cancel but not decide their own request', () => {
    expect(canMoveRequest('PENDING', 'request.cancel', requester)).toBe(true);
    expect(canMoveRequest('PENDING', 'request.approve', requester)).toBe(false);
    expect(canMoveRequest('PENDING', 'request.approve', { ...backOffice, holdsUserCreate: false })).toBe(false);
    expect(canMoveRequest('PENDING', 'request.cancel', { ...backOffice, holdsUserCreate: false })).toBe(false);
  });

  it('answers as the machine for every status, move and kind of person, asked again (its answers are kept)', () => {
    const statuses: RequestStatus[] = ['PENDING', 'APPROVED', 'REJECTED', 'EXPIRED', 'CANCELLED'];
    const types = ['request.approve', 'request.reject', 'request.cancel'] as const;
    const movers = [0, 1, 2, 3, 4, 5, 6, 7].map((bits) => ({ isBackOffice: (bits & 1) > 0, holdsUserCreate: (bits & 2) > 0, isRequester: (bits & 4) > 0 }));
    for (let round = 0; round < 2; round++) {
      for (const status of statuses) {
        for (const type of types) {
          for (const by of movers) expect(canMoveRequest(status, type, by), `${status} ${type} ${JSON.stringify(by)}`).toBe(nextRequestStatus(status, { type, by }) !== null);
        }
      }
    }
  });
});
