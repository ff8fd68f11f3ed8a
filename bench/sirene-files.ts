// The generated Sirene stock files of the import benchmark (npm run bench:sirene): StockUniteLegale and
// StockEtablissement with INSEE's full column sets (as tests/fixtures/sirene/), and a members' file.
// Deterministic: the same files for the same sizes. Written as a stream: memory stays flat whatever the size.
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import path from 'node:path';
import { makeSiren, makeSiret } from '../rules/codes.ts';
import { BENCH_FIRST_NAMES, BENCH_LAST_NAMES, EMPLOYER_NAMES } from './french-data.ts';

export const UNIT_HEADER =
  'siren,statutDiffusionUniteLegale,unitePurgeeUniteLegale,dateCreationUniteLegale,sigleUniteLegale,sexeUniteLegale,prenom1UniteLegale,prenom2UniteLegale,prenom3UniteLegale,prenom4UniteLegale,prenomUsuelUniteLegale,pseudonymeUniteLegale,identifiantAssociationUniteLegale,trancheEffectifsUniteLegale,anneeEffectifsUniteLegale,dateDernierTraitementUniteLegale,nombrePeriodesUniteLegale,categorieEntreprise,anneeCategorieEntreprise,dateDebut,etatAdministratifUniteLegale,nomUniteLegale,nomUsageUniteLegale,denominationUniteLegale,denominationUsuelle1UniteLegale,denominationUsuelle2UniteLegale,denominationUsuelle3UniteLegale,categorieJuridiqueUniteLegale,activitePrincipaleUniteLegale,nomenclatureActivitePrincipaleUniteLegale,nicSiegeUniteLegale,economieSocialeSolidaireUniteLegale,societeMissionUniteLegale,caractereEmployeurUniteLegale,activitePrincipaleNAF25UniteLegale'.split(',');

export const ESTABLISHMENT_HEADER =
  'siren,nic,siret,statutDiffusionEtablissement,dateCreationEtablissement,trancheEffectifsEtablissement,anneeEffectifsEtablissement,activitePrincipaleRegistreMetiersEtablissement,dateDernierTraitementEtablissement,etablissementSiege,nombrePeriodesEtablissement,complementAdresseEtablissement,numeroVoieEtablissement,indiceRepetitionEtablissement,dernierNumeroVoieEtablissement,indiceRepetitionDernierNumeroVoieEtablissement,typeVoieEtablissement,libelleVoieEtablissement,codePostalEtablissement,libelleCommuneEtablissement,libelleCommuneEtrangerEtablissement,distributionSpecialeEtablissement,codeCommuneEtablissement,codeCedexEtablissement,libelleCedexEtablissement,codePaysEtrangerEtablissement,libellePaysEtrangerEtablissement,identifiantAdresseEtablissement,coordonneeLambertAbscisseEtablissement,coordonneeLambertOrdonneeEtablissement,complementAdresse2Etablissement,numeroVoie2Etablissement,indiceRepetition2Etablissement,typeVoie2Etablissement,libelleVoie2Etablissement,codePostal2Etablissement,libelleCommune2Etablissement,libelleCommuneEtranger2Etablissement,distributionSpeciale2Etablissement,codeCommune2Etablissement,codeCedex2Etablissement,libelleCedex2Etablissement,codePaysEtranger2Etablissement,libellePaysEtranger2Etablissement,dateDebut,etatAdministratifEtablissement,enseigne1Etablissement,enseigne2Etablissement,enseigne3Etablissement,denominationUsuelleEtablissement,activitePrincipaleEtablissement,nomenclatureActivitePrincipaleEtablissement,caractereEmployeurEtablissement,activitePrincipaleNAF25Etablissement'.split(',');

const TOWNS: readonly (readonly [string, string, string])[] = [
  ['75011', 'PARIS 11', '75111'],
  ['69003', 'LYON 3E ARRONDISSEMENT', '69383'],
  ['13005', 'MARSEILLE 5E ARRONDISSEMENT', '13205'],
  ['31000', 'TOULOUSE', '31555'],
  ['44000', 'NANTES', '44109'],
  ['59000', 'LILLE', '59350'],
  ['67000', 'STRASBOURG', '67482'],
  ['33000', 'BORDEAUX', '33063'],
  ['35000', 'RENNES', '35238'],
  ['21000', 'DIJON', '21231'],
  ['76000', 'ROUEN', '76540'],
  ['63000', 'CLERMONT-FERRAND', '63113'],
];

export interface SireneFilesSpec {
  /** Establishment rows (StockEtablissement), e.g. 1,000,000. */
  establishments: number;
  /** Establishments per legal unit. */
  perUnit: number;
  /** Share of the legal units listed in the members' file (1: all of them). */
  memberShare: number;
}

export interface GeneratedSireneFiles {
  units: string;
  establishments: string;
  members: string;
  counts: { units: number; establishments: number; members: number; bytes: number };
}

/** A deterministic draw in [0, 1) from a number (no state: any row can be made alone). */
function draw(n: number, salt: number): number {
  let x = Math.imul(n ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(salt + 1, 0xc2b2ae35);
  x ^= x >>> 16;
  x = Math.imul(x, 0x7feb352d);
  x ^= x >>> 15;
  return (x >>> 0) / 4294967296;
}

const pick = <T,>(list: readonly T[], n: number, salt: number): T => list[Math.floor(draw(n, salt) * list.length)]!;
const csvField = (value: string) => (/[",\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);

function line(header: readonly string[], values: Record<string, string>): string {
  return `${header.map((column) => csvField(values[column] ?? '')).join(',')}\n`;
}

async function writeAll(file: string, header: readonly string[], rows: (write: (line: string) => Promise<void>) => Promise<void>): Promise<number> {
  const out = createWriteStream(file);
  let bytes = 0;
  const write = async (text: string) => {
    bytes += Buffer.byteLength(text);
    if (!out.write(text)) await once(out, 'drain');
  };
  await write(`${header.join(',')}\n`);
  await rows(write);
  out.end();
  await once(out, 'finish');
  return bytes;
}

const sirenOf = (unit: number) => makeSiren(String(10_000_000 + unit * 7).slice(-8));

export async function generateSireneFiles(dir: string, spec: SireneFilesSpec): Promise<GeneratedSireneFiles> {
  const unitCount = Math.ceil(spec.establishments / spec.perUnit);
  const files = { units: path.join(dir, 'StockUniteLegale.csv'), establishments: path.join(dir, 'StockEtablissement.csv'), members: path.join(dir, 'membres.csv') };
  const isMember = (unit: number) => draw(unit, 7) < spec.memberShare;
  const person = (unit: number) => draw(unit, 1) < 0.2;
  let bytes = 0;

  bytes += await writeAll(files.units, UNIT_HEADER, async (write) => {
    for (let unit = 0; unit < unitCount; unit += 1) {
      const diffusion = draw(unit, 2) < 0.02 ? 'P' : 'O';
      const values: Record<string, string> = {
        siren: sirenOf(unit),
        statutDiffusionUniteLegale: diffusion,
        dateCreationUniteLegale: '2001-01-01',
        trancheEffectifsUniteLegale: '12',
        anneeEffectifsUniteLegale: '2023',
        dateDernierTraitementUniteLegale: '2025-06-14T08:12:44',
        nombrePeriodesUniteLegale: '2',
        categorieEntreprise: 'PME',
        anneeCategorieEntreprise: '2023',
        dateDebut: '2012-01-01',
        etatAdministratifUniteLegale: draw(unit, 3) < 0.05 ? 'C' : 'A',
        categorieJuridiqueUniteLegale: person(unit) ? '1000' : '9220',
        activitePrincipaleUniteLegale: '87.10A',
        nomenclatureActivitePrincipaleUniteLegale: 'NAFRev2',
        nicSiegeUniteLegale: makeSiret(sirenOf(unit), 1).slice(9),
        caractereEmployeurUniteLegale: 'O',
      };
      if (diffusion === 'P') Object.assign(values, { prenom1UniteLegale: '[ND]', nomUniteLegale: '[ND]' });
      else if (person(unit)) Object.assign(values, { prenom1UniteLegale: pick(BENCH_FIRST_NAMES, unit, 4)[0].toUpperCase(), nomUniteLegale: pick(BENCH_LAST_NAMES, unit, 5)[0].toUpperCase() });
      else values.denominationUniteLegale = `${pick(EMPLOYER_NAMES, unit, 6).toUpperCase()} ${unit}`;
      await write(line(UNIT_HEADER, values));
    }
  });

  bytes += await writeAll(files.establishments, ESTABLISHMENT_HEADER, async (write) => {
    for (let row = 0; row < spec.establishments; row += 1) {
      const unit = Math.floor(row / spec.perUnit);
      const siren = sirenOf(unit);
      const siret = makeSiret(siren, (row % spec.perUnit) + 1);
      const [postalCode, town, townCode] = pick(TOWNS, row, 8);
      const diffusion = draw(row, 9) < 0.02 ? 'P' : 'O';
      const values: Record<string, string> = {
        siren,
        nic: siret.slice(9),
        siret,
        statutDiffusionEtablissement: diffusion,
        dateCreationEtablissement: '2012-01-01',
        trancheEffectifsEtablissement: '11',
        anneeEffectifsEtablissement: '2023',
        dateDernierTraitementEtablissement: '2025-06-14T08:12:44',
        etablissementSiege: row % spec.perUnit === 0 ? 'true' : 'false',
        nombrePeriodesEtablissement: '2',
        numeroVoieEtablissement: String(1 + (row % 120)),
        typeVoieEtablissement: 'RUE',
        libelleVoieEtablissement: 'DE LA REPUBLIQUE',
        codePostalEtablissement: diffusion === 'P' ? '[ND]' : postalCode,
        libelleCommuneEtablissement: diffusion === 'P' ? '[ND]' : town,
        codeCommuneEtablissement: townCode,
        dateDebut: '2012-01-01',
        etatAdministratifEtablissement: draw(row, 10) < 0.1 ? 'F' : 'A',
        enseigne1Etablissement: draw(row, 11) < 0.3 ? `EHPAD ${pick(EMPLOYER_NAMES, row, 12).toUpperCase()}` : '',
        activitePrincipaleEtablissement: '87.10A',
        nomenclatureActivitePrincipaleEtablissement: 'NAFRev2',
        caractereEmployeurEtablissement: 'O',
      };
      await write(line(ESTABLISHMENT_HEADER, values));
    }
  });

  let members = 0;
  bytes += await writeAll(files.members, ['siren'], async (write) => {
    for (let unit = 0; unit < unitCount; unit += 1) {
      if (!isMember(unit)) continue;
      members += 1;
      await write(`${sirenOf(unit)}\n`);
    }
  });

  return { ...files, counts: { units: unitCount, establishments: spec.establishments, members, bytes } };
}
