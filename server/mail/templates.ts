/**
 * The portal's e-mails, in French. Each function answers what the outbox stores
 * ({ kind, recipient, subject, body }, plain text); nothing here sends anything.
 * Write one with `enqueueMail(trx, mail)` (./outbox.ts) in the transaction of the change it announces.
 */
import type { OutboxKind } from '../db/schema.ts';

export interface OutboxMail {
  kind: OutboxKind;
  recipient: string;
  subject: string;
  body: string;
}

export const SIGNATURE = "\n--\nPortail Habilitations\nCe message est envoyé automatiquement, merci de ne pas y répondre.\n";

function fullName(firstName: string | null | undefined, lastName: string | null | undefined): string {
  return [firstName, lastName].map((part) => part?.trim() ?? '').filter(Boolean).join(' ');
}

/**
 * A new account: how to sign in the first time. `setupUrl` comes from `accountSetupUrl(subject, email, sentAt)`
 * (server/dev-idp/account-setup.ts): a single-use link to choose a password at the local provider,
 * or the portal's sign-in page with an external identity provider.
 */
export function accountInvitationMail(input: { email: string; firstName: string; lastName: string; setupUrl: string }): OutboxMail {
  const name = fullName(input.firstName, input.lastName);
  return {
    kind: 'account.invitation',
    recipient: input.email,
    subject: 'Votre compte sur le Portail Habilitations',
    body: [
      `Bonjour${name ? ` ${name}` : ''},`,
      '',
      `Un compte a été créé pour vous sur le Portail Habilitations avec l'adresse ${input.email}.`,
      'Pour y accéder la première fois, ouvrez le lien ci-dessous :',
      '',
      input.setupUrl,
      '',
      "Si vous n'attendiez pas ce message, vous pouvez l'ignorer.",
      SIGNATURE,
    ].join('\n'),
  };
}

export interface InvitationMailInput {
  /** The person who made the request: the e-mail goes to them. */
  senderEmail: string;
  inviteeEmail: string;
  invitationId: number;
  invitationType: 'NEW_ADMIN' | 'ROLE_ASSIGNMENT';
  organizationCode: string;
  organizationName: string;
  roleName: string;
}

/** A request as its e-mails name it: what it asks, its number, organization and code. */
export function describeRequest(input: InvitationMailInput): string {
  const what =
    input.invitationType === 'NEW_ADMIN'
      ? `La demande d'administrateur pour « ${input.inviteeEmail} »`
      : `La demande d'attribution du rôle « ${input.roleName} » à « ${input.inviteeEmail} »`;
  return `${what} (demande n° ${input.invitationId}, ${input.organizationName}, ${input.organizationCode})`;
}

/** To the requester: their request was approved. */
export function invitationApprovedMail(input: InvitationMailInput): OutboxMail {
  return {
    kind: 'invitation.approved',
    recipient: input.senderEmail,
    subject: `Demande n° ${input.invitationId} approuvée`,
    body: ['Bonjour,', '', `${describeRequest(input)} a été approuvée.`, SIGNATURE].join('\n'),
  };
}

/** To the requester: their request was rejected, with the reason given by the back office. */
export function invitationRejectedMail(input: InvitationMailInput & { rejectionReason: string }): OutboxMail {
  return {
    kind: 'invitation.rejected',
    recipient: input.senderEmail,
    subject: `Demande n° ${input.invitationId} refusée`,
    body: ['Bonjour,', '', `${describeRequest(input)} a été rejetée avec le motif :`, '', `« ${input.rejectionReason} »`, SIGNATURE].join('\n'),
  };
}

/** ' à la demande de {email}' for a change someone asked for, '' when the portal itself did. */
const requester = (email: string | null) => (email ? ` à la demande de ${email}` : '');

/**
 * To a new address given to an account: the single-use link (24 hours) by which its owner confirms it, signed
 * in with the current address. Until then the account keeps signing in with its current address.
 */
export function emailChangeConfirmMail(input: { email: string; currentEmail: string; requestedBy: string | null; firstName: string; lastName: string; confirmUrl: string }): OutboxMail {
  const name = fullName(input.firstName, input.lastName);
  return {
    kind: 'email.change.confirm',
    recipient: input.email,
    subject: 'Confirmez votre nouvelle adresse de connexion',
    body: [
      `Bonjour${name ? ` ${name}` : ''},`,
      '',
      `L'adresse ${input.email} a été indiquée comme nouvelle adresse de connexion de votre compte sur le Portail Habilitations${requester(input.requestedBy)}.`,
      `Pour la confirmer, ouvrez le lien ci-dessous dans les 24 heures et connectez-vous avec votre adresse actuelle (${input.currentEmail}) :`,
      '',
      input.confirmUrl,
      '',
      "Seule la personne titulaire du compte peut confirmer ce changement : recevoir ce message ne suffit pas. Ne le confirmez que si vous l'avez demandé vous-même : quelqu'un qui vous transmettrait ce lien pourrait chercher à prendre le contrôle de votre compte.",
      "Tant qu'elle n'est pas confirmée, votre compte garde son adresse actuelle. Si vous n'êtes pas à l'origine de ce changement, ignorez ce message.",
      SIGNATURE,
    ].join('\n'),
  };
}

/** To the current address of an account whose address is to change: told before anything changes. */
export function emailChangeNoticeMail(input: { email: string; newEmail: string; requestedBy: string | null; firstName: string; lastName: string }): OutboxMail {
  const name = fullName(input.firstName, input.lastName);
  return {
    kind: 'email.change.notice',
    recipient: input.email,
    subject: 'Votre adresse de connexion va changer',
    body: [
      `Bonjour${name ? ` ${name}` : ''},`,
      '',
      `Une demande de changement de l'adresse de connexion de votre compte sur le Portail Habilitations a été faite${requester(input.requestedBy)} : ${input.email} serait remplacée par ${input.newEmail}.`,
      "Rien ne changera sans votre confirmation : seul le titulaire du compte, connecté avec son adresse actuelle, peut confirmer le changement depuis le lien envoyé à la nouvelle adresse. Si cette nouvelle adresse n'est pas la vôtre, ne confirmez rien, même si quelqu'un vous transmet ce lien ; la demande expirera d'elle-même dans 24 heures.",
      '',
      "Si vous n'êtes pas à l'origine de cette demande, prévenez sans attendre votre administrateur ou le service relation clients.",
      SIGNATURE,
    ].join('\n'),
  };
}
