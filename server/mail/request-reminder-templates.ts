/**
 * The reminders of the requests' lifecycle (issue 22), in French: the back office's daily digest of requests
 * pending too long, and the requester told their request will soon expire. Plain text, for the outbox.
 */
import { describeRequest, SIGNATURE, type InvitationMailInput, type OutboxMail } from './templates.ts';

export interface DigestLine {
  invitationId: number;
  inviteeEmail: string;
  organizationName: string;
  organizationCode: string;
  roleName: string;
  /** DD/MM/YYYY */
  createdOn: string;
}

/** To one decider of the back office: the requests pending for more than `days` days, the oldest first (`total` of them, `lines` shown). */
export function pendingDigestMail(input: { recipient: string; days: number; total: number; lines: readonly DigestLine[]; listUrl: string }): OutboxMail {
  const more = input.total - input.lines.length;
  return {
    kind: 'invitation.pending.digest',
    recipient: input.recipient,
    subject: input.total === 1 ? `1 demande en attente depuis plus de ${input.days} jours` : `${input.total} demandes en attente depuis plus de ${input.days} jours`,
    body: [
      'Bonjour,',
      '',
      input.total === 1
        ? `Une demande attend une décision depuis plus de ${input.days} jours :`
        : `${input.total} demandes attendent une décision depuis plus de ${input.days} jours :`,
      '',
      ...input.lines.map((l) => `- n° ${l.invitationId}, ${l.inviteeEmail}, ${l.roleName}, ${l.organizationName} (${l.organizationCode}), faite le ${l.createdOn}`),
      ...(more > 0 ? [`- et ${more} autre${more > 1 ? 's' : ''}`] : []),
      '',
      `Pour les traiter : ${input.listUrl}`,
      SIGNATURE,
    ].join('\n'),
  };
}

/** To the requester: their request expires on `expiresOn` (DD/MM/YYYY) unless it is decided before. */
export function requestExpiringMail(input: InvitationMailInput & { expiresOn: string }): OutboxMail {
  return {
    kind: 'invitation.expiring',
    recipient: input.senderEmail,
    subject: `Demande n° ${input.invitationId} : expiration le ${input.expiresOn}`,
    body: [
      'Bonjour,',
      '',
      `${describeRequest(input)} attend toujours une décision du back-office.`,
      `Sans décision d'ici là, elle expirera le ${input.expiresOn} ; vous pourrez alors en faire une nouvelle.`,
      SIGNATURE,
    ].join('\n'),
  };
}
