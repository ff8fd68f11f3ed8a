// A person's data on request as a readable French summary (format=html): one self-contained page, headings and
// tables, printable, no script and nothing fetched (its own Content-Security-Policy says so). Every value is
// escaped. Pure: the document (users-personal-data.model.ts) in, the page out.
import { escapeHtml } from '../../core/html-page.ts';
import { frenchDateTime } from '../exports/csv.model.ts';
import { FIELD_LABELS } from '../audit/journal-text.model.ts';
import type { PersonalDataDocument } from './users-personal-data.model.ts';

type Request = PersonalDataDocument['requestsMade'][number];

const REQUEST_STATUS: Record<Request['status'], string> = { PENDING: 'En attente', APPROVED: 'Approuvée', REJECTED: 'Refusée', EXPIRED: 'Expirée', CANCELLED: 'Annulée' };
const REQUEST_TYPE: Record<Request['type'], string> = { NEW_ADMIN: 'Nouvel administrateur', ROLE_ASSIGNMENT: 'Attribution de rôle' };
const EMAIL_STATUS: Record<PersonalDataDocument['emails'][number]['status'], string> = { PENDING: "En attente d'envoi", SENT: 'Envoyé', FAILED: "Échec de l'envoi" };

const STYLE = `body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#0f172a;line-height:1.5;margin:2rem auto;max-width:60rem;padding:0 1rem}
h1{font-size:1.6rem}h2{font-size:1.25rem;margin-top:2rem;border-bottom:2px solid #1d4ed8;padding-bottom:.25rem}h3{font-size:1rem;margin:1.25rem 0 .25rem}
table{border-collapse:collapse;width:100%;margin:.5rem 0}th,td{border:1px solid #94a3b8;padding:.35rem .5rem;text-align:left;vertical-align:top;overflow-wrap:anywhere}
th{background:#e2e8f0}tbody th{width:16rem}pre{white-space:pre-wrap;overflow-wrap:anywhere;background:#f1f5f9;padding:.75rem;border-radius:.25rem;font-family:inherit}
.muted{color:#475569}ul{margin:.25rem 0;padding-left:1.25rem}@media print{body{margin:0;max-width:none}h2{break-after:avoid}tr,pre{break-inside:avoid}}`;

/** Any value as text, escaped; empty: 'non renseigné'. */
const cell = (value: string | null | undefined): string => (value === null || value === undefined || value === '' ? '<span class="muted">non renseigné</span>' : escapeHtml(value));
const date = (value: string | null): string | null => (value === null ? null : frenchDateTime(value));
const yesNo = (value: boolean) => (value ? 'Oui' : 'Non');

function fieldTable(caption: string, rows: readonly (readonly [string, string | null])[]): string {
  const body = rows.map(([label, value]) => `<tr><th scope="row">${escapeHtml(label)}</th><td>${cell(value)}</td></tr>`).join('');
  return `<table><caption class="muted">${escapeHtml(caption)}</caption><tbody>${body}</tbody></table>`;
}

function table(caption: string, head: readonly string[], rows: readonly (readonly (string | null)[])[], empty: string): string {
  if (rows.length === 0) return `<p>${escapeHtml(empty)}</p>`;
  const th = head.map((h) => `<th scope="col">${escapeHtml(h)}</th>`).join('');
  const body = rows.map((r) => `<tr>${r.map((v) => `<td>${cell(v)}</td>`).join('')}</tr>`).join('');
  return `<table><caption class="muted">${escapeHtml(caption)}</caption><thead><tr>${th}</tr></thead><tbody>${body}</tbody></table>`;
}

function requestsTable(caption: string, requests: readonly Request[], empty: string): string {
  return table(
    caption,
    ['N°', 'Type', 'Statut', 'Organisation', 'Rôle', 'Personne invitée', 'Demandée par', 'Créée le', 'Traitée le', 'Décidée par', 'Motif'],
    requests.map((r) => [
      String(r.id),
      REQUEST_TYPE[r.type],
      REQUEST_STATUS[r.status],
      `${r.organizationName} (${r.organizationCode})`,
      r.roleLabel,
      r.inviteeEmail,
      r.requestedBy,
      date(r.createdAt),
      date(r.processedAt),
      r.decidedBy ?? r.cancelledBy,
      r.rejectionReason ?? r.cancellationReason,
    ]),
    empty,
  );
}

function journalTable(entries: PersonalDataDocument['journal']): string {
  if (entries.length === 0) return '<p>Aucune entrée du journal ne concerne cette personne.</p>';
  const rows = entries.map((e) => {
    const details = e.details.length === 0 ? '' : `<ul>${e.details.map((d) => `<li>${escapeHtml(d.label)} : ${cell(d.before)} → ${cell(d.after)}</li>`).join('')}</ul>`;
    return `<tr><td>${cell(date(e.at))}</td><td>${cell(e.actionLabel)}</td><td>${escapeHtml(e.sentence)}${details}</td></tr>`;
  });
  return `<table><caption class="muted">Les modifications la concernant, de la plus récente à la plus ancienne</caption><thead><tr><th scope="col">Date</th><th scope="col">Action</th><th scope="col">Détail</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

function emailsSection(emails: PersonalDataDocument['emails']): string {
  if (emails.length === 0) return '<p>Aucun e-mail ne lui a été envoyé.</p>';
  return emails
    .map((m) => `<article><h3>${escapeHtml(m.subject)}</h3><p class="muted">À ${escapeHtml(m.recipient)}, le ${cell(date(m.createdAt))} : ${escapeHtml(EMAIL_STATUS[m.status])}${m.sentAt ? ` (envoyé le ${cell(date(m.sentAt))})` : ''}</p><pre>${escapeHtml(m.body)}</pre></article>`)
    .join('');
}

/** The page: lang="fr", its own style inline, a policy forbidding any script or fetch. */
export function personalDataHtml(doc: PersonalDataDocument): string {
  const p = doc.person;
  const name = `${p.firstName} ${p.lastName}`.trim();
  const identity = fieldTable('Les informations du profil', [
    [FIELD_LABELS.firstName!, p.firstName],
    [FIELD_LABELS.lastName!, p.lastName],
    [FIELD_LABELS.email!, p.email],
    [FIELD_LABELS.pendingEmail!, p.pendingEmail],
    [FIELD_LABELS.jobTitle!, p.jobTitle],
    [FIELD_LABELS.phoneNumber!, p.phoneNumber],
    [FIELD_LABELS.mobilePhone!, p.mobilePhone],
    [FIELD_LABELS.street!, p.street],
    [FIELD_LABELS.postalCode!, p.postalCode],
    [FIELD_LABELS.city!, p.city],
    [FIELD_LABELS.metadata!, p.metadata],
    [FIELD_LABELS.userType!, p.userType === 'BACKOFFICE' ? 'Back-office' : 'Organisation'],
    [FIELD_LABELS.isActive!, p.isActive ? 'Actif' : 'Inactif'],
    ['Identifiant', p.id],
    ['Dernière modification du profil', date(p.updatedAt)],
  ]);
  const signIn = fieldTable('Ce que le portail garde des connexions', [
    ['Compte créé le', date(doc.signIn.createdAt)],
    ['Dernière connexion', doc.signIn.lastLoginAt ? date(doc.signIn.lastLoginAt) : 'Jamais connecté'],
    ["Dernier lien d'activation envoyé le", date(doc.signIn.invitationSentAt)],
  ]);
  const roles = table(
    'Les rôles détenus, par organisation',
    ['Organisation', 'Code', 'Type', 'Rôle', 'Étendu à tous les établissements', 'Depuis le'],
    doc.organizations.map((o) => [o.organizationName, o.organizationCode, o.organizationType, o.roleLabel, yesNo(o.inheritsToChildren), date(o.since)]),
    'Aucun rôle dans une organisation.',
  );
  const permissions = p.userType === 'BACKOFFICE' ? `<h2>Permissions du back-office</h2><p>${doc.permissions.length ? doc.permissions.map(escapeHtml).join(', ') : 'Aucune.'}</p>` : '';
  const body = [
    `<h1>Données personnelles de ${escapeHtml(name)}</h1>`,
    `<p>Tout ce que le Portail Habilitations conserve sur cette personne, établi le ${cell(date(doc.exportedAt))}. Les liens des e-mails (activation du compte, confirmation d'adresse) sont retirés : « [lien retiré] ».</p>`,
    `<h2>Identité et coordonnées</h2>${identity}`,
    `<h2>Connexion</h2>${signIn}`,
    `<h2>Organisations et rôles</h2>${roles}`,
    permissions,
    `<h2>Demandes faites par la personne</h2>${requestsTable('Les demandes de droits faites par la personne', doc.requestsMade, 'Aucune demande faite.')}`,
    `<h2>Demandes la concernant</h2>${requestsTable('Les demandes de droits faites pour elle', doc.requestsReceived, 'Aucune demande la concernant.')}`,
    `<h2>Journal des modifications</h2>${journalTable(doc.journal)}`,
    `<h2>E-mails envoyés</h2>${emailsSection(doc.emails)}`,
  ].join('\n');
  return `<!doctype html>
<html lang="fr">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Données personnelles de ${escapeHtml(name)} · Portail Habilitations</title>
<style>${STYLE}</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;
}
