// The journal's sentences and details (server/features/audit/journal-sentences.model.ts): one French template per
// action, names and labels instead of ids and JSON, and an organization caller's roles within its scope only.
import { describe, expect, it } from 'vitest';
import type { AuditAction, JsonValue } from '../../../server/db/schema.ts';
import { readableEntry, type JournalRow } from '../../../server/features/audit/journal-sentences.model.ts';
import { formatCount, formatOrganizationCode, type JournalLookups, type JournalOrganizationRef } from '../../../server/features/audit/journal-text.model.ts';
import { AUDIT_ACTIONS } from '../../../server/features/audit/journal.input.ts';
import { searchable } from '../../../server/features/audit/audit.model.ts';

const BEATRICE = 'a0000000-0000-4000-8000-000000000001';
const CLAIRE = 'a0000000-0000-4000-8000-000000000002';
const NOEL = 'a0000000-0000-4000-8000-000000000003';
const ZOE = 'a0000000-0000-4000-8000-000000000004';
const clinicSiren: JournalOrganizationRef = { id: 'o0000000-0000-4000-8000-000000000001', code: '787441799', name: 'Clinique des Tilleuls', type: 'SIREN' };
const clinicSiret: JournalOrganizationRef = { id: 'o0000000-0000-4000-8000-000000000002', code: '78744179900012', name: 'Clinique des Tilleuls', type: 'SIRET' };
const ehpadSiret: JournalOrganizationRef = { id: 'o0000000-0000-4000-8000-000000000003', code: '44306184100015', name: 'EHPAD Les Glycines - Nantes', type: 'SIRET' };
const organizations = [clinicSiren, clinicSiret, ehpadSiret];

function lookups(scope: readonly string[] | null = null): JournalLookups {
  return {
    users: new Map([
      [BEATRICE, { name: 'Béatrice Marchand', email: 'backoffice@portail.test', visible: true }],
      [CLAIRE, { name: 'Claire Vasseur', email: 'admin.clinique@portail.test', visible: true }],
      [NOEL, { name: 'Noël Faure', email: 'noel.faure@exemple.fr', visible: true }],
      [ZOE, { name: 'Zoé Bonnet', email: 'zoe.bonnet@exemple.fr', visible: true }],
    ]),
    invitations: new Set(['36']),
    organizationsById: new Map(organizations.map((o) => [o.id, o])),
    organizationsByCode: new Map(organizations.map((o) => [o.code, o])),
    roleNames: new Map([
      ['COMPTABLE', 'Comptable'],
      ['ADMIN_ADHERENT', 'Administrateur adhérent ("Admin Adhérent")'],
      ['RESSOURCE_HUMAINE', 'Ressources humaines'],
    ]),
    inScope: (id) => scope === null || scope.includes(id),
    backOffice: scope === null,
  };
}

function row(action: AuditAction, changes: Record<string, JsonValue>, overrides: Partial<JournalRow> = {}): JournalRow {
  const entityType = action.startsWith('invitation.') ? 'invitation' : action.endsWith('.export') ? 'export' : 'user';
  return {
    id: 1,
    at: new Date('2026-11-02T09:00:00Z'),
    actorId: BEATRICE,
    actorEmail: 'backoffice@portail.test',
    actorName: 'Béatrice Marchand',
    action,
    entityType,
    entityId: entityType === 'user' ? ZOE : entityType === 'invitation' ? '36' : 'users',
    organizationId: clinicSiret.id,
    subjectName: entityType === 'invitation' ? 'thomas.guerin@exemple.fr' : null,
    changes,
    organizationIds: [clinicSiret.id],
    ...overrides,
  };
}

const sentence = (r: JournalRow, scope: readonly string[] | null = null) => readableEntry(r, lookups(scope)).sentence;

describe('the journal sentences', () => {
  it("tells a download of a person's data by someone else, and of one's own (issue 23)", () => {
    expect(sentence(row('personal-data.exported', { format: 'html' }))).toBe('Béatrice Marchand a téléchargé les données personnelles de Zoé Bonnet.');
    expect(sentence(row('personal-data.exported', { format: 'json' }, { actorId: ZOE, actorName: 'Zoé Bonnet', actorEmail: 'zoe.bonnet@exemple.fr' }))).toBe('Zoé Bonnet a téléchargé ses données personnelles.');
  });

  it('tells a sign-in that ended a dormancy warning, by the person, with the day of the warning in Paris (issue 24)', () => {
    const own = { actorId: ZOE, actorName: 'Zoé Bonnet', actorEmail: 'zoe.bonnet@exemple.fr' };
    const ended = row('user.dormancy.end', { dormancyWarnedAt: { before: '2026-10-11T22:30:00.000Z', after: null } }, own);
    expect(readableEntry(ended, lookups())).toMatchObject({
      sentence: "Zoé Bonnet a levé l'avertissement d'inactivité du 12 octobre 2026 en se connectant.",
      details: [{ field: 'dormancyWarnedAt', label: "Avertissement d'inactivité", before: '12/10/2026 00:30', after: null }],
    });
    expect(sentence(row('user.dormancy.end', { dormancyWarnedAt: { before: '2026-11-01T08:00:00.000Z', after: null } }, own))).toBe(
      "Zoé Bonnet a levé l'avertissement d'inactivité du 1er novembre 2026 en se connectant.",
    );
    // A deletion keeps the warning the account was under in its details; its sentence is the same.
    const deleted = readableEntry(row('user.delete', { firstName: { before: 'Zoé', after: null }, dormancyWarnedAt: { before: '2026-10-11T22:30:00.000Z', after: null } }), lookups());
    expect(deleted.sentence).toBe('Béatrice Marchand a supprimé Zoé Bonnet.');
    expect(deleted.details.map((d) => [d.label, d.before, d.after])).toEqual([
      ['Prénom', 'Zoé', null],
      ["Avertissement d'inactivité", '12/10/2026 00:30', null],
    ]);
  });

  it("writes the issue's examples exactly", () => {
    expect(sentence(row('user.deactivate', { isActive: { before: true, after: false } }))).toBe('Béatrice Marchand a désactivé Zoé Bonnet.');
    expect(sentence(row('user.roles', { assignments: { before: [], after: ['78744179900012 COMPTABLE'] } }, { actorId: CLAIRE, entityId: NOEL }))).toBe(
      'Claire Vasseur a attribué le rôle Comptable à Noël Faure sur Clinique des Tilleuls (SIRET 787 441 799 00012).',
    );
    expect(sentence(row('invitation.reject', { status: { before: 'PENDING', after: 'REJECTED' }, rejectionReason: 'Dossier incomplet' }))).toBe(
      'Béatrice Marchand a rejeté la demande n° 36 de thomas.guerin@exemple.fr : « Dossier incomplet ».',
    );
    expect(sentence(row('user.update', { jobTitle: { before: 'Comptable', after: 'Responsable RH' } }, { actorId: CLAIRE, entityId: NOEL }))).toBe(
      'Claire Vasseur a modifié Noël Faure : Fonction « Comptable » → « Responsable RH ».',
    );
  });

  it('has a template for every action', () => {
    const changes: Record<AuditAction, Record<string, JsonValue>> = {
      'user.create': { firstName: { before: null, after: 'Zoé' }, isActive: { before: null, after: true }, assignments: { before: null, after: ['78744179900012 COMPTABLE'] } },
      'user.update': { city: { before: null, after: 'Lyon' }, phoneNumber: { before: '0102030405', after: null } },
      'user.roles': { assignments: { before: ['78744179900012 COMPTABLE'], after: [] } },
      'user.deactivate': { isActive: { before: true, after: false } },
      'user.reactivate': { isActive: { before: false, after: true } },
      'user.delete': { firstName: { before: 'Zoé', after: null }, assignments: { before: ['78744179900012 COMPTABLE'], after: [] } },
      'user.email.request': { pendingEmail: { before: null, after: 'zoe@nouveau.fr' } },
      'user.email.confirm': { email: { before: 'zoe.bonnet@exemple.fr', after: 'zoe@nouveau.fr' }, pendingEmail: { before: 'zoe@nouveau.fr', after: null } },
      'user.invitation.resend': { invitationSentAt: { before: '2026-11-01T08:00:00.000Z', after: '2026-11-27T08:00:00.000Z' } },
      'user.dormancy.end': { dormancyWarnedAt: { before: '2026-11-01T08:00:00.000Z', after: null } },
      'invitation.create': { inviteeEmail: 'thomas.guerin@exemple.fr', invitationType: 'ROLE_ASSIGNMENT', organizationCode: '787441799', roleCode: 'ADMIN_ADHERENT' },
      'invitation.approve': { status: { before: 'PENDING', after: 'APPROVED' }, userId: NOEL, userCreated: false },
      'invitation.reject': { status: { before: 'PENDING', after: 'REJECTED' }, rejectionReason: 'Dossier incomplet' },
      'invitation.cancel': { status: { before: 'PENDING', after: 'CANCELLED' }, cancellationReason: 'Personne partie' },
      'invitation.expire': { status: { before: 'PENDING', after: 'EXPIRED' }, expiryDays: 30 },
      'users.export': { rows: 1234 },
      'journal.export': { rows: 1 },
      'personal-data.exported': { format: 'json' },
    };
    const sentences = Object.fromEntries(AUDIT_ACTIONS.map((action) => [action, sentence(row(action, changes[action], action === 'journal.export' ? { entityId: 'journal' } : {}))]));
    expect(sentences).toEqual({
      'user.create': "Béatrice Marchand a créé l'utilisateur Zoé Bonnet.",
      'user.update': 'Béatrice Marchand a modifié Zoé Bonnet : Téléphone « 0102030405 » → (vide), Ville (vide) → « Lyon ».',
      'user.roles': 'Béatrice Marchand a retiré le rôle Comptable à Zoé Bonnet sur Clinique des Tilleuls (SIRET 787 441 799 00012).',
      'user.deactivate': 'Béatrice Marchand a désactivé Zoé Bonnet.',
      'user.reactivate': 'Béatrice Marchand a réactivé Zoé Bonnet.',
      'user.delete': 'Béatrice Marchand a supprimé Zoé Bonnet.',
      'user.email.request': "Béatrice Marchand a demandé le changement de l'adresse e-mail de Zoé Bonnet pour « zoe@nouveau.fr ».",
      'user.email.confirm': 'Béatrice Marchand a confirmé la nouvelle adresse e-mail de Zoé Bonnet « zoe@nouveau.fr ».',
      'user.invitation.resend': "Béatrice Marchand a renvoyé l'invitation à Zoé Bonnet.",
      'user.dormancy.end': "Béatrice Marchand a levé l'avertissement d'inactivité du 1er novembre 2026 en se connectant.",
      'invitation.create': 'Béatrice Marchand a créé la demande n° 36 de thomas.guerin@exemple.fr : rôle Admin Adhérent sur Clinique des Tilleuls (SIREN 787 441 799).',
      'invitation.approve': 'Béatrice Marchand a approuvé la demande n° 36 de thomas.guerin@exemple.fr.',
      'invitation.reject': 'Béatrice Marchand a rejeté la demande n° 36 de thomas.guerin@exemple.fr : « Dossier incomplet ».',
      'invitation.cancel': 'Béatrice Marchand a annulé la demande n° 36 de thomas.guerin@exemple.fr : « Personne partie ».',
      'invitation.expire': 'La demande n° 36 de thomas.guerin@exemple.fr a expiré après 30 jours sans décision.',
      'users.export': 'Béatrice Marchand a exporté 1 234 utilisateurs.',
      'journal.export': 'Béatrice Marchand a exporté 1 entrée du journal.',
      'personal-data.exported': 'Béatrice Marchand a téléchargé les données personnelles de Zoé Bonnet.',
    });
  });

  it('says a person confirmed their own address, an approval that created the account, and several roles changed at once', () => {
    expect(sentence(row('user.email.confirm', { email: { before: 'a@b.fr', after: 'zoe@nouveau.fr' } }, { actorId: ZOE }))).toBe('Zoé Bonnet a confirmé sa nouvelle adresse e-mail « zoe@nouveau.fr ».');
    const grant = { organizationId: clinicSiren.id, organizationCode: '787441799', roleCode: 'ADMIN_ADHERENT', inheritsToChildren: true };
    expect(sentence(row('user.create', { email: 'zoe@x.fr', roles: [grant], invitationId: 13 }))).toBe("Béatrice Marchand a créé l'utilisateur Zoé Bonnet en approuvant la demande n° 13.");
    expect(sentence(row('user.roles', { added: [grant], invitationId: 13 }))).toBe(
      'Béatrice Marchand a attribué le rôle Admin Adhérent à Zoé Bonnet sur Clinique des Tilleuls (SIREN 787 441 799) et ses établissements.',
    );
    expect(sentence(row('user.roles', { assignments: { before: ['78744179900012 COMPTABLE'], after: ['78744179900012 RESSOURCE_HUMAINE', '44306184100015 COMPTABLE'] } }))).toBe(
      'Béatrice Marchand a modifié les rôles de Zoé Bonnet : attribué Ressources humaines sur Clinique des Tilleuls (SIRET 787 441 799 00012), Comptable sur EHPAD Les Glycines - Nantes (SIRET 443 061 841 00015) ; retiré Comptable sur Clinique des Tilleuls (SIRET 787 441 799 00012).',
    );
  });

  it('names the author and the person as they are now, else as recorded, else by e-mail, and the portal when nobody', () => {
    const gone = row('user.deactivate', {}, { actorId: 'a0000000-0000-4000-8000-00000000dead', actorName: 'Ancien Agent', entityId: 'a0000000-0000-4000-8000-00000000beef', subjectName: 'Paul Ancien' });
    expect(readableEntry(gone, lookups())).toMatchObject({ sentence: 'Ancien Agent a désactivé Paul Ancien.', actorName: 'Ancien Agent', subject: { label: 'Paul Ancien', exists: false } });
    const byEmail = row('user.delete', { email: { before: 'paul@exemple.fr', after: null } }, { actorId: null, actorName: null, actorEmail: 'ops@portail.test', entityId: 'a0000000-0000-4000-8000-00000000beef' });
    expect(sentence(byEmail)).toBe('ops@portail.test a supprimé paul@exemple.fr.');
    expect(readableEntry(row('user.reactivate', {}, { actorId: null, actorName: null, actorEmail: null }), lookups())).toMatchObject({ actorName: null, sentence: 'Le portail a réactivé Zoé Bonnet.' });
  });

  it('gives each changed field its French label and its values as people read them, never an id or JSON', () => {
    const entry = readableEntry(
      // Recorded in any order (the server's keys), read in the profile's.
      row('user.create', {
        email: { before: null, after: 'zoe@x.fr' },
        firstName: { before: null, after: 'Zoé' },
        mobilePhone: { before: null, after: '0612345678' },
        street: { before: null, after: '3 rue des Lilas' },
        postalCode: { before: null, after: '69003' },
        isActive: { before: null, after: true },
        pendingEmail: { before: null, after: 'z@y.fr' },
        assignments: { before: null, after: ['787441799 ADMIN_ADHERENT +'] },
      }),
      lookups(),
    );
    expect(entry.details).toEqual([
      { field: 'firstName', label: 'Prénom', before: null, after: 'Zoé' },
      { field: 'email', label: 'Email', before: null, after: 'zoe@x.fr' },
      { field: 'pendingEmail', label: 'Adresse en attente', before: null, after: 'z@y.fr' },
      { field: 'mobilePhone', label: 'Portable', before: null, after: '0612345678' },
      { field: 'street', label: 'Adresse', before: null, after: '3 rue des Lilas' },
      { field: 'postalCode', label: 'Code postal', before: null, after: '69003' },
      { field: 'isActive', label: 'Statut', before: null, after: 'Actif' },
      { field: 'roles', label: 'Rôles', before: null, after: 'Admin Adhérent sur Clinique des Tilleuls (SIREN 787 441 799) et ses établissements' },
    ]);
    const approval = readableEntry(row('invitation.approve', { status: { before: 'PENDING', after: 'APPROVED' }, userId: NOEL, userCreated: true }), lookups());
    expect(approval.details).toEqual([
      { field: 'status', label: 'Statut de la demande', before: 'En attente', after: 'Approuvée' },
      { field: 'userCreated', label: 'Compte créé', before: null, after: 'Oui' },
    ]);
    expect(approval.subject).toEqual({ type: 'invitation', id: '36', label: 'demande n° 36 de thomas.guerin@exemple.fr', exists: true });
    expect(readableEntry(row('user.deactivate', { isActive: { before: true, after: false } }), lookups()).details).toEqual([{ field: 'isActive', label: 'Statut', before: 'Actif', after: 'Inactif' }]);
  });

  it("reads an export's filters and an edit's metadata in French, with names and labels, never an id, a code or JSON", () => {
    const users = readableEntry(
      row('users.export', { rows: 1234, filters: { search: 'mar', organizationId: clinicSiret.id, roleCode: 'COMPTABLE', includeInactive: true, sort: 'lastLoginAt', order: 'desc' } }),
      lookups(),
    );
    expect(users.details).toEqual([
      { field: 'rows', label: 'Lignes exportées', before: null, after: '1 234' },
      {
        field: 'filters',
        label: 'Filtres',
        before: null,
        after: 'Recherche « mar », Organisation : Clinique des Tilleuls (SIRET 787 441 799 00012), Rôle : Comptable, Utilisateurs inactifs inclus : Oui, Tri : Dernière connexion, Ordre : décroissant',
      },
    ]);
    const journal = readableEntry(row('journal.export', { rows: 2, filters: { actorId: CLAIRE, userId: NOEL, action: 'user.deactivate,user.roles', from: '2026-11-01', to: '2026-11-30' } }), lookups());
    expect(journal.details[1]!.after).toBe('Auteur : Claire Vasseur, Personne concernée : Noël Faure, Actions : Désactivation, Rôles attribués ou retirés, Du : 01/11/2026, Au : 30/11/2026');
    // A person the reader may not open is not named; an organization no longer known reads by its id's absence.
    const hidden = lookups([clinicSiret.id]);
    const withHidden = { ...hidden, users: new Map([...hidden.users].map(([id, u]) => [id, id === NOEL ? { ...u, visible: false } : u])) };
    expect(readableEntry(row('journal.export', { rows: 2, filters: { userId: NOEL } }), withHidden).details[1]!.after).toBe('Personne concernée : une personne hors de votre périmètre');
    const edit = readableEntry(row('user.update', { metadata: { before: null, after: '{"jobTitle":"Comptable","city":"Lyon","badge":"A12"}' } }), lookups());
    expect(edit.details).toEqual([{ field: 'metadata', label: 'Informations complémentaires', before: null, after: 'Fonction : Comptable, Ville : Lyon, badge : A12' }]);
    expect(readableEntry(row('user.update', { metadata: { before: 'pas du JSON', after: null } }), lookups()).details[0]!.before).toBe('pas du JSON');
  });

  it("shows an organization caller only the roles within their scope, in the details and in the sentence", () => {
    const change = { assignments: { before: ['44306184100015 COMPTABLE'], after: ['44306184100015 RESSOURCE_HUMAINE', '78744179900012 COMPTABLE'] } };
    const clinic = [clinicSiren.id, clinicSiret.id];
    const seen = readableEntry(row('user.roles', change, { organizationIds: [ehpadSiret.id, clinicSiret.id], organizationId: ehpadSiret.id }), lookups(clinic));
    expect(seen.sentence).toBe('Béatrice Marchand a attribué le rôle Comptable à Zoé Bonnet sur Clinique des Tilleuls (SIRET 787 441 799 00012).');
    expect(seen.details).toEqual([{ field: 'roles', label: 'Rôles', before: null, after: 'Comptable sur Clinique des Tilleuls (SIRET 787 441 799 00012)' }]);
    // Filed under the EHPAD: the clinic's caller sees it under the clinic.
    expect(seen.organization).toEqual(clinicSiret);
    const ehpadOnly = readableEntry(row('user.roles', { assignments: { before: ['44306184100015 COMPTABLE'], after: [] } }), lookups(clinic));
    expect(ehpadOnly.sentence).toBe('Béatrice Marchand a modifié les rôles de Zoé Bonnet.');
    expect(ehpadOnly.details).toEqual([]);
  });

  it('formats SIREN, SIRET and counts in groups of digits, and normalizes search text without accents', () => {
    expect(formatOrganizationCode('787441799')).toBe('787 441 799');
    expect(formatOrganizationCode('78744179900012')).toBe('787 441 799 00012');
    expect(formatCount(1234567)).toBe('1 234 567');
    expect(searchable('  Zoé  BONNET Œuvre Lætitia Ça ')).toBe('zoe bonnet oeuvre laetitia ca');
  });
});
