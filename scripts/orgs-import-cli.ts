// The arguments, the help and the summary of `npm run orgs:import` (scripts/orgs-import.ts), apart so that tests read them.
import { parseArgs } from 'node:util';
import type { SireneFiles, SireneImportResult } from '../server/features/organizations/sirene-import.service.ts';

export const HELP = `Import des organisations depuis le répertoire Sirene de l'INSEE

  npm run orgs:import -- --units StockUniteLegale.csv --establishments StockEtablissement.csv --members membres.csv [--dry-run]

  --units FICHIER            StockUniteLegale (CSV UTF-8, noms de colonnes de l'INSEE)
  --establishments FICHIER   StockEtablissement (CSV UTF-8, noms de colonnes de l'INSEE)
  --members FICHIER          SIREN des adhérents : un par ligne, ou CSV avec une colonne « siren »
  --dry-run                  affiche ce qui changerait, sans rien modifier
  --help                     cette aide

Seules les unités et établissements des adhérents sont gardés. Un SIREN qui quitte le fichier des adhérents
est gardé avec ses utilisateurs, marqué non adhérent ; un SIRET fermé (état F) est gardé, marqué « Fermé ».
Rien n'est jamais supprimé. Tout est appliqué en une transaction : une ligne mal formée arrête l'import
(fichier et ligne nommés, code de sortie 1) et rien n'est modifié. Relancer l'import ne change rien.

Base : DATABASE_URL (PostgreSQL) comme le serveur, sinon PGlite dans DATA_DIR/pglite (DATA_DIR : .data par
défaut ; arrêter alors le serveur, PGlite n'accepte qu'un processus). Les migrations sont appliquées d'abord.`;

export type ImportCommand = { kind: 'help' } | { kind: 'import'; files: SireneFiles; dryRun: boolean };

/** The command line, or an Error whose message says what is wrong (French, as the help). */
export function parseImportArgs(argv: readonly string[]): ImportCommand {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: {
        units: { type: 'string' },
        establishments: { type: 'string' },
        members: { type: 'string' },
        'dry-run': { type: 'boolean', default: false },
        help: { type: 'boolean', default: false },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new Error(`Arguments invalides : ${(error as Error).message}. Voir --help.`, { cause: error });
  }
  if (values.help) return { kind: 'help' };
  const missing = (['units', 'establishments', 'members'] as const).filter((name) => !values[name]);
  if (missing.length > 0) throw new Error(`Option(s) manquante(s) : ${missing.map((name) => `--${name}`).join(', ')}. Voir --help.`);
  return { kind: 'import', files: { units: values.units!, establishments: values.establishments!, members: values.members! }, dryRun: values['dry-run'] };
}

const n = (value: number) => value.toLocaleString('fr-FR');

/** What the import changed, or would change (dry run): the same lines either way. */
export function formatSummary(result: SireneImportResult, seconds: number): string {
  const c = result.counts;
  const verb = result.dryRun ? 'changerait (simulation, rien n’est modifié)' : result.changed ? 'a changé' : 'n’a rien changé (déjà à jour)';
  const lines = [
    `Lu : ${n(result.read.members)} SIREN adhérents ; ${n(result.read.units)} unités légales (${n(result.read.memberUnits)} d'adhérents) ; ` +
      `${n(result.read.establishments)} établissements (${n(result.read.memberEstablishments)} d'adhérents), en ${seconds.toFixed(1)} s.`,
    `L'import ${verb} :`,
    `  SIREN ajoutés : ${n(c.sirensAdded)}`,
    `  SIREN renommés : ${n(c.sirensRenamed)}`,
    `  SIREN devenus non adhérents : ${n(c.sirensNoLongerMembers)}`,
    `  SIREN redevenus adhérents : ${n(c.sirensBackToMembers)}`,
    `  SIRET ajoutés : ${n(c.siretsAdded)}`,
    `  SIRET renommés : ${n(c.siretsRenamed)}`,
    `  SIRET fermés : ${n(c.siretsClosed)}`,
    `  SIRET rouverts : ${n(c.siretsReopened)}`,
  ];
  if (result.membersMissingFromUnits > 0) {
    lines.push(`Attention : ${n(result.membersMissingFromUnits)} SIREN adhérent(s) absent(s) du fichier des unités légales (ni ajoutés ni renommés).`);
  }
  return lines.join('\n');
}
