// The moves of a request turned into the answers people read (server/features/invitations/request-lifecycle.model.ts): pure.
import { describe, expect, it } from 'vitest';
import { actor } from '../support/actor.ts';
import { DomainError } from '../../../server/core/errors.ts';
import { isDueToExpire, requestExpiresAt, requireMove, type LifecycleRow } from '../../../server/features/invitations/request-lifecycle.model.ts';

const backOffice = actor({ permissions: new Set(['USER_CREATE']) });
const requester = actor({ userId: 'u-2', userType: 'ORGANIZATION', isBackOffice: false, permissions: new Set(['USER_CREATE']) });

// Made at 23:30 in Paris on 30/09/2026 (summer time): its period ends 30 × 24 h later, 22:30 in Paris on 30/10 (winter time by then).
const row = (overrides: Partial<LifecycleRow> = {}): LifecycleRow => ({ status: 'PENDING', created_at: new Date('2026-09-30T21:30:00Z'), processed_at: null, sender_user_id: 'u-2', ...overrides });

function refusal(run: () => unknown): { kind: string; message: string } {
  try {
    run();
  } catch (error) {
    if (error instanceof DomainError) return { kind: error.kind, message: error.message };
    throw error;
  }
  throw new Error('no refusal');
}

describe('a request’s moves, as the lifecycle machine allows them', () => {
  const before = new Date('2026-10-30T21:29:59Z');
  const after = new Date('2026-10-30T21:30:00Z');

  it('expires exactly its period after it was made, and names the day in Paris', () => {
    expect(requestExpiresAt(row().created_at, 30)).toEqual(after);
    expect(isDueToExpire(row(), before, 30)).toBe(false);
    expect(isDueToExpire(row(), after, 30)).toBe(true);
    expect(isDueToExpire(row({ status: 'CANCELLED', processed_at: before }), after, 30)).toBe(false);
    expect(refusal(() => requireMove(row(), 'request.approve', backOffice, after, 30))).toEqual({
      kind: 'conflict',
      message: 'Cette demande a expiré le 30/10/2026 : elle ne peut plus être approuvée ni rejetée.',
    });
    expect(refusal(() => requireMove(row(), 'request.cancel', requester, after, 30)).message).toBe('Cette demande a expiré le 30/10/2026 : elle ne peut plus être annulée.');
  });

  it('answers the date recorded for an expired request, whatever the period is now', () => {
    const expired = row({ status: 'EXPIRED', processed_at: new Date('2026-10-15T22:30:00Z') });
    expect(refusal(() => requireMove(expired, 'request.reject', backOffice, after, 60)).message).toBe('Cette demande a expiré le 16/10/2026 : elle ne peut plus être approuvée ni rejetée.');
  });

  it('lets the back office decide and the requester cancel a pending request within its period; nobody else', () => {
    expect(requireMove(row(), 'request.approve', backOffice, before, 30)).toBe('APPROVED');
    expect(requireMove(row(), 'request.reject', backOffice, before, 30)).toBe('REJECTED');
    expect(requireMove(row(), 'request.cancel', requester, before, 30)).toBe('CANCELLED');
    expect(requireMove(row(), 'request.cancel', backOffice, before, 30)).toBe('CANCELLED');
    expect(refusal(() => requireMove(row(), 'request.approve', requester, before, 30)).kind).toBe('forbidden');
    expect(refusal(() => requireMove(row(), 'request.cancel', actor({ permissions: new Set(['USER_LIST']) }), before, 30)).kind).toBe('forbidden');
  });

  it('refuses any move of a request no longer pending, with the reason', () => {
    const cancelled = row({ status: 'CANCELLED', processed_at: before });
    expect(refusal(() => requireMove(cancelled, 'request.approve', backOffice, before, 30)).message).toBe('Cette demande a été annulée : elle ne peut plus être approuvée ni rejetée.');
    expect(refusal(() => requireMove(cancelled, 'request.cancel', requester, before, 30)).message).toBe("Cette demande n'est plus en attente : elle ne peut plus être annulée.");
    const approved = row({ status: 'APPROVED', processed_at: before });
    expect(refusal(() => requireMove(approved, 'request.reject', backOffice, before, 30)).message).toBe('Cette demande a déjà été traitée.');
  });
});
