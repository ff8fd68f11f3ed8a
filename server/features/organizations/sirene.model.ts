// The rules of the Sirene import (issue 17), pure: which columns a stock file must have, what a row must hold,
// and the names the portal gives. Reading the files and the database is sirene-import.service.ts's.

/** The columns the import reads; INSEE's stock files have more (the header's order does not matter). */
export const UNIT_COLUMNS = [
  'siren',
  'statutDiffusionUniteLegale',
  'etatAdministratifUniteLegale',
  'denominationUniteLegale',
  'prenom1UniteLegale',
  'nomUniteLegale',
] as const;

export const ESTABLISHMENT_COLUMNS = [
  'siren',
  'siret',
  'statutDiffusionEtablissement',
  'etatAdministratifEtablissement',
  'enseigne1Etablissement',
  'denominationUsuelleEtablissement',
  'libelleCommuneEtablissement',
] as const;

export type UnitColumn = (typeof UNIT_COLUMNS)[number];
export type EstablishmentColumn = (typeof ESTABLISHMENT_COLUMNS)[number];

/** Spec §3 fallbacks: a SIREN without a name reads 'SIREN {code}', a SIRET 'Sans nom'. */
export const sirenFallbackName = (siren: string) => `SIREN ${siren}`;
export const SIRET_FALLBACK_NAME = 'Sans nom';

/** A malformed file: the import stops, names the file and the line, and changes nothing. */
export class SireneFileError extends Error {
  readonly file: string;
  readonly line: number;
  readonly reason: string;
  constructor(file: string, line: number, reason: string) {
    super(`${file}, ligne ${line} : ${reason}`);
    this.file = file;
    this.line = line;
    this.reason = reason;
    this.name = 'SireneFileError';
  }
}

/** A legal unit as staged: its name already decided. */
export interface StagedUnit {
  siren: string;
  name: string;
  /** The name when it comes from Sirene (not a fallback): its establishments without a name of their own take it. */
  publishedName: string | null;
  line: number;
}

/** An establishment as staged: its own name (sign or usual name), its town, whether it may be published and is closed. */
export interface StagedEstablishment {
  siret: string;
  siren: string;
  /** enseigne1Etablissement, else denominationUsuelleEtablissement; null when neither (or not for publication). */
  ownName: string | null;
  /** null when not for publication. */
  town: string | null;
  /** statutDiffusionEtablissement = O: its names and address may be shown. */
  published: boolean;
  closed: boolean;
  line: number;
}

const SIREN = /^[0-9]{9}$/;
const SIRET = /^[0-9]{14}$/;
/** O: published; P: partly (a natural person's identity and address withheld); N: not published (files before 2023). */
const DIFFUSION = new Set(['O', 'P', 'N']);
const UNIT_STATES = new Set(['A', 'C']);
const ESTABLISHMENT_STATES = new Set(['A', 'F']);

/** Index of each needed column in a header row, or an error naming the missing ones (line 1). */
export function columnIndexes<C extends string>(file: string, header: readonly string[], needed: readonly C[]): Record<C, number> {
  // A UTF-8 byte order mark may precede the first name.
  const names = header.map((name, i) => (i === 0 ? name.replace(/^\uFEFF/, '') : name).trim());
  const missing = needed.filter((column) => !names.includes(column));
  if (missing.length > 0) throw new SireneFileError(file, 1, `colonne(s) absente(s) de l'en-tête : ${missing.join(', ')}`);
  return Object.fromEntries(needed.map((column) => [column, names.indexOf(column)])) as Record<C, number>;
}

const text = (value: string | undefined) => (value ?? '').trim();

/** A SIREN of the members' file, or an error naming its line. */
export function memberSiren(file: string, line: number, value: string): string {
  const siren = text(value).replace(/\s+/g, '');
  if (!SIREN.test(siren)) throw new SireneFileError(file, line, `SIREN invalide « ${value} » (9 chiffres attendus)`);
  return siren;
}

/** A row of StockUniteLegale, checked (every row, member or not), with the name the portal gives it. */
export function stagedUnit(file: string, line: number, row: readonly string[], at: Record<UnitColumn, number>): StagedUnit {
  const siren = text(row[at.siren]);
  if (!SIREN.test(siren)) throw new SireneFileError(file, line, `siren invalide « ${siren} » (9 chiffres attendus)`);
  const diffusion = text(row[at.statutDiffusionUniteLegale]);
  if (!DIFFUSION.has(diffusion)) throw new SireneFileError(file, line, `statutDiffusionUniteLegale inconnu « ${diffusion} » (O, P ou N attendu)`);
  const state = text(row[at.etatAdministratifUniteLegale]);
  if (!UNIT_STATES.has(state)) throw new SireneFileError(file, line, `etatAdministratifUniteLegale inconnu « ${state} » (A ou C attendu)`);
  const publishedName = unitPublishedName(diffusion, row, at);
  return { siren, name: publishedName ?? sirenFallbackName(siren), publishedName, line };
}

/**
 * denominationUniteLegale; else, for a natural person, 'prenom1UniteLegale nomUniteLegale'; else none (the
 * fallback 'SIREN {code}'). A unit not for publication (statut P or N) has none: its identity may not be shown.
 */
function unitPublishedName(diffusion: string, row: readonly string[], at: Record<UnitColumn, number>): string | null {
  if (diffusion !== 'O') return null;
  const denomination = text(row[at.denominationUniteLegale]);
  if (denomination) return denomination;
  const person = [text(row[at.prenom1UniteLegale]), text(row[at.nomUniteLegale])].filter(Boolean).join(' ');
  return person || null;
}

/** A row of StockEtablissement, checked (every row, member or not). Its name is decided by the merge, which knows its unit's. */
export function stagedEstablishment(file: string, line: number, row: readonly string[], at: Record<EstablishmentColumn, number>): StagedEstablishment {
  const siren = text(row[at.siren]);
  if (!SIREN.test(siren)) throw new SireneFileError(file, line, `siren invalide « ${siren} » (9 chiffres attendus)`);
  const siret = text(row[at.siret]);
  if (!SIRET.test(siret)) throw new SireneFileError(file, line, `siret invalide « ${siret} » (14 chiffres attendus)`);
  if (!siret.startsWith(siren)) throw new SireneFileError(file, line, `le siret ${siret} ne commence pas par son siren ${siren}`);
  const diffusion = text(row[at.statutDiffusionEtablissement]);
  if (!DIFFUSION.has(diffusion)) throw new SireneFileError(file, line, `statutDiffusionEtablissement inconnu « ${diffusion} » (O, P ou N attendu)`);
  const state = text(row[at.etatAdministratifEtablissement]);
  if (!ESTABLISHMENT_STATES.has(state)) throw new SireneFileError(file, line, `etatAdministratifEtablissement inconnu « ${state} » (A ou F attendu)`);
  const published = diffusion === 'O';
  const ownName = published ? text(row[at.enseigne1Etablissement]) || text(row[at.denominationUsuelleEtablissement]) || null : null;
  const town = published ? text(row[at.libelleCommuneEtablissement]) || null : null;
  return { siret, siren, ownName, town, published, closed: state === 'F', line };
}

/** What an import changes (or, in a dry run, would change). */
export interface SireneImportCounts {
  sirensAdded: number;
  sirensRenamed: number;
  sirensNoLongerMembers: number;
  sirensBackToMembers: number;
  siretsAdded: number;
  siretsRenamed: number;
  siretsClosed: number;
  siretsReopened: number;
}

export const noChange = (counts: SireneImportCounts) => Object.values(counts).every((n) => n === 0);
