/**
 * The e-mails of dormant accounts (issue 23), in French, plain text for the outbox: the person warned that their
 * account will be deactivated for lack of sign-in, and the back office told that a SIREN has no active employer
 * administrator left. Neither holds a link: the warning asks the person to sign in as they usually do, so that no
 * e-mail ever carries a way in (nor teaches people to follow one).
 */
import { SIGNATURE, type OutboxMail } from './templates.ts';

export interface DormancyWarningInput {
  email: string;
  firstName: string;
  lastName: string;
  /** DD/MM/YYYY: the last sign-in, or the creation (or reactivation) of the account when none since. */
  inactiveSince: string;
  /** Whether the person ever signed in (else `inactiveSince` is the account's creation or reactivation). */
  everSignedIn: boolean;
  /** DD/MM/YYYY: the day the account will be deactivated without a sign-in; null when the portal deactivates none. */
  deactivatesOn: string | null;
}

/** To the person: not signed in since `inactiveSince`; sign in to keep the account, before `deactivatesOn`. */
export function dormancyWarningMail(input: DormancyWarningInput): OutboxMail {
  const name = [input.firstName, input.lastName].map((part) => part.trim()).filter(Boolean).join(' ');
  const since = input.everSignedIn
    ? `Vous ne vous êtes pas connecté au Portail Habilitations depuis le ${input.inactiveSince}.`
    : `Vous ne vous êtes pas connecté au Portail Habilitations depuis la création de votre compte, le ${input.inactiveSince}.`;
  return {
    kind: 'account.dormancy.warning',
    recipient: input.email,
    subject: input.deactivatesOn ? `Votre compte sera désactivé le ${input.deactivatesOn}` : 'Votre compte sur le Portail Habilitations est inutilisé',
    body: [
      `Bonjour${name ? ` ${name}` : ''},`,
      '',
      since,
      ...(input.deactivatesOn
        ? [
            `Pour garder votre compte, connectez-vous au portail avant le ${input.deactivatesOn}.`,
            `Sans connexion d'ici là, votre compte sera désactivé le ${input.deactivatesOn}.`,
          ]
        : ['Pour garder votre compte actif, connectez-vous au portail.']),
      '',
      "Connectez-vous comme d'habitude, depuis l'adresse du portail que vous connaissez. Ce message ne contient aucun lien de connexion.",
      "Si vous n'avez plus besoin de ce compte, vous pouvez ignorer ce message.",
      SIGNATURE,
    ].join('\n'),
  };
}

export interface UnmanagedSirenInput {
  recipient: string;
  organizationName: string;
  sirenCode: string;
  /** The administrators of the SIREN warned of their dormancy (their e-mail addresses). */
  administrators: readonly string[];
  /** DORMANCY_WARN_AFTER_DAYS */
  warnAfterDays: number;
}

/** To a back-office user holding USER_CREATE: the SIREN's last active administrators are dormant. */
export function unmanagedSirenMail(input: UnmanagedSirenInput): OutboxMail {
  const one = input.administrators.length === 1;
  return {
    kind: 'dormancy.siren.unmanaged',
    recipient: input.recipient,
    subject: `SIREN ${input.sirenCode} : plus d'administrateur actif`,
    body: [
      'Bonjour,',
      '',
      `L'entreprise ${input.organizationName} (SIREN ${input.sirenCode}) n'a plus d'administrateur actif sur le portail.`,
      one
        ? `Son dernier administrateur, ${input.administrators[0]}, ne s'est pas connecté depuis plus de ${input.warnAfterDays} jours : il a été prévenu que son compte sera désactivé.`
        : `Ses derniers administrateurs (${input.administrators.join(', ')}) ne se sont pas connectés depuis plus de ${input.warnAfterDays} jours : ils ont été prévenus que leur compte sera désactivé.`,
      "Tant qu'aucun d'eux ne se connecte, personne ne peut gérer les utilisateurs de cette entreprise.",
      '',
      `Vous pouvez ${one ? 'lui' : 'leur'} demander de se connecter, ou habiliter un nouvel administrateur depuis 'Habilitation des administrateurs'.`,
      SIGNATURE,
    ].join('\n'),
  };
}
