// Fixed material of the demo seed (docs/demo-data.md). seed.ts draws from it.
import type { RoleType } from '../db/schema.ts';

/** Every seeded date is relative to this instant, never to the clock. */
export const REFERENCE_DATE = new Date('2026-11-01T09:00:00Z');

export const DEMO_PASSWORD = 'Demo-Portail-2026';

export const PERMISSIONS: readonly { code: string; label: string }[] = [
  { code: 'USER_LIST', label: 'Consulter la liste des utilisateurs' },
  { code: 'USER_CREATE', label: 'Créer des utilisateurs et demander des administrateurs' },
  { code: 'USER_DELETE', label: 'Supprimer définitivement des utilisateurs' },
  { code: 'B2C_USER_DISABLE', label: 'Désactiver les comptes de connexion' },
  { code: 'ORG_LIST', label: 'Rechercher et sélectionner des organisations' },
];

export interface RoleSeed {
  code: string;
  name: string;
  type: RoleType;
  color: string;
  permissions: readonly string[];
}

/** The known role codes of spec §3, in this order (a fresh database numbers them 1 to 11). */
export const ROLES: readonly RoleSeed[] = [
  { code: 'ADHESION', name: 'Adhésion', type: 'EXTERNAL', color: '#0EA5E9', permissions: [] },
  { code: 'DECIDEUR_SIGNATAIRE', name: 'Décideur signataire', type: 'EXTERNAL', color: '#6366F1', permissions: [] },
  { code: 'ADMIN_OPCO', name: 'Administrateur OPCO ("Admin OPCO")', type: 'INTERNAL', color: '#DC2626', permissions: [] },
  { code: 'GESTIONNAIRE_ESAT', name: 'Gestionnaire ESAT', type: 'EXTERNAL', color: '#14B8A6', permissions: [] },
  {
    code: 'ADMIN_ADHERENT',
    name: 'Administrateur adhérent ("Admin Adhérent")',
    type: 'INTERNAL',
    color: '#7C3AED',
    permissions: ['USER_LIST', 'USER_CREATE', 'ORG_LIST'],
  },
  { code: 'RESSOURCE_HUMAINE', name: 'Ressources humaines', type: 'EXTERNAL', color: '#16A34A', permissions: [] },
  { code: 'CE_CSE_SIEGE', name: 'CE / CSE du siège', type: 'EXTERNAL', color: '#EA580C', permissions: [] },
  { code: 'CABINET_COMPTABLE', name: 'Cabinet comptable', type: 'EXTERNAL', color: '#A16207', permissions: [] },
  { code: 'GESTIONNAIRE_ALTERNANCE', name: 'Gestionnaire alternance', type: 'EXTERNAL', color: '#DB2777', permissions: [] },
  { code: 'COMPTABLE', name: 'Comptable', type: 'EXTERNAL', color: '#CA8A04', permissions: [] },
  { code: 'GESTIONNAIRE', name: 'Gestionnaire', type: 'EXTERNAL', color: '#2563EB', permissions: ['USER_LIST'] },
];

export interface Town {
  city: string;
  postalCode: string;
}

export type RegionKey =
  | 'rhone'
  | 'loire-atlantique'
  | 'gironde'
  | 'nord'
  | 'bouches-du-rhone'
  | 'haute-garonne'
  | 'bretagne'
  | 'alsace'
  | 'herault'
  | 'isere';

export interface Region {
  /** First two digits of landlines there (01 to 05). */
  phonePrefix: string;
  towns: readonly Town[];
}

/** "69003 Lyon; 69100 Villeurbanne" → towns. */
function towns(list: string): Town[] {
  return list.split(';').map((entry) => {
    const trimmed = entry.trim();
    const space = trimmed.indexOf(' ');
    return { postalCode: trimmed.slice(0, space), city: trimmed.slice(space + 1) };
  });
}

export const REGIONS: Record<RegionKey, Region> = {
  rhone: {
    phonePrefix: '04',
    towns: towns(
      '69003 Lyon; 69100 Villeurbanne; 69300 Caluire-et-Cuire; 69200 Vénissieux; 69500 Bron; 69120 Vaulx-en-Velin; 69700 Givors; 69600 Oullins; 69160 Tassin-la-Demi-Lune; 69130 Écully; 69330 Meyzieu; 69140 Rillieux-la-Pape',
    ),
  },
  'loire-atlantique': {
    phonePrefix: '02',
    towns: towns(
      '44000 Nantes; 44400 Rezé; 44800 Saint-Herblain; 44600 Saint-Nazaire; 44700 Orvault; 44120 Vertou; 44470 Carquefou; 44220 Couëron; 44500 La Baule-Escoublac; 44210 Pornic; 44190 Clisson; 44150 Ancenis',
    ),
  },
  gironde: {
    phonePrefix: '05',
    towns: towns(
      "33000 Bordeaux; 33700 Mérignac; 33600 Pessac; 33400 Talence; 33130 Bègles; 33500 Libourne; 33120 Arcachon; 33140 Villenave-d'Ornon; 33310 Lormont; 33290 Blanquefort; 33210 Langon; 33340 Lesparre-Médoc",
    ),
  },
  nord: {
    phonePrefix: '03',
    towns: towns(
      "59000 Lille; 59100 Roubaix; 59200 Tourcoing; 59650 Villeneuve-d'Ascq; 59140 Dunkerque; 59300 Valenciennes; 59500 Douai; 59400 Cambrai; 59600 Maubeuge; 59280 Armentières; 59150 Wattrelos; 59190 Hazebrouck",
    ),
  },
  'bouches-du-rhone': {
    phonePrefix: '04',
    towns: towns(
      '13005 Marseille; 13100 Aix-en-Provence; 13400 Aubagne; 13500 Martigues; 13300 Salon-de-Provence; 13800 Istres; 13200 Arles; 13127 Vitrolles; 13600 La Ciotat; 13700 Marignane; 13120 Gardanne; 13140 Miramas',
    ),
  },
  'haute-garonne': {
    phonePrefix: '05',
    towns: towns(
      "31000 Toulouse; 31770 Colomiers; 31170 Tournefeuille; 31700 Blagnac; 31600 Muret; 31130 Balma; 31800 Saint-Gaudens; 31270 Cugnaux; 31520 Ramonville-Saint-Agne; 31240 L'Union; 31320 Castanet-Tolosan; 82000 Montauban",
    ),
  },
  bretagne: {
    phonePrefix: '02',
    towns: towns(
      '35000 Rennes; 29200 Brest; 29000 Quimper; 56100 Lorient; 56000 Vannes; 22000 Saint-Brieuc; 35400 Saint-Malo; 22300 Lannion; 35300 Fougères; 35500 Vitré; 29600 Morlaix; 56300 Pontivy',
    ),
  },
  alsace: {
    phonePrefix: '03',
    towns: towns(
      '67000 Strasbourg; 68100 Mulhouse; 68000 Colmar; 67500 Haguenau; 67300 Schiltigheim; 67400 Illkirch-Graffenstaden; 67600 Sélestat; 67700 Saverne; 68500 Guebwiller; 68300 Saint-Louis; 67210 Obernai; 67120 Molsheim',
    ),
  },
  herault: {
    phonePrefix: '04',
    towns: towns(
      "34000 Montpellier; 34500 Béziers; 34200 Sète; 34400 Lunel; 34300 Agde; 34700 Lodève; 34110 Frontignan; 34170 Castelnau-le-Lez; 34970 Lattes; 34130 Mauguio; 34120 Pézenas; 34800 Clermont-l'Hérault",
    ),
  },
  isere: {
    phonePrefix: '04',
    towns: towns(
      "38000 Grenoble; 38130 Échirolles; 38400 Saint-Martin-d'Hères; 38500 Voiron; 38200 Vienne; 38300 Bourgoin-Jallieu; 38240 Meylan; 38600 Fontaine; 38090 Villefontaine; 38170 Seyssinet-Pariset; 38920 Crolles; 38220 Vizille",
    ),
  },
};

export interface EmployerSeed {
  name: string;
  /** Mail domain of its staff. */
  domain: string;
  region: RegionKey;
  /** Number of establishments (SIRET), 1 to 12. */
  sites: number;
  /** Sheltered-work employers: the only ones whose staff hold GESTIONNAIRE_ESAT. */
  esat?: boolean;
}

export const CLINIQUE_DES_TILLEULS = 'Clinique des Tilleuls';
export const EHPAD_LES_GLYCINES = 'EHPAD Les Glycines';

export const EMPLOYERS: readonly EmployerSeed[] = [
  { name: CLINIQUE_DES_TILLEULS, domain: 'clinique-des-tilleuls.fr', region: 'rhone', sites: 4 },
  { name: EHPAD_LES_GLYCINES, domain: 'ehpad-les-glycines.fr', region: 'loire-atlantique', sites: 3 },
  { name: 'Centre hospitalier des Trois Vallées', domain: 'ch-trois-vallees.fr', region: 'isere', sites: 8 },
  { name: "Polyclinique de l'Estuaire", domain: 'polyclinique-estuaire.fr', region: 'loire-atlantique', sites: 2 },
  { name: 'EHPAD Résidence Les Magnolias', domain: 'residence-magnolias.fr', region: 'gironde', sites: 5 },
  { name: 'SSIAD Vivre à Domicile', domain: 'ssiad-vivre-a-domicile.fr', region: 'nord', sites: 6 },
  { name: 'IME Les Peupliers', domain: 'ime-les-peupliers.fr', region: 'alsace', sites: 2 },
  { name: 'ESAT Les Ateliers du Lac', domain: 'esat-ateliers-du-lac.fr', region: 'isere', sites: 3, esat: true },
  { name: 'Centre de rééducation Les Cèdres', domain: 'reeducation-les-cedres.fr', region: 'herault', sites: 2 },
  { name: "Maison d'accueil spécialisée Les Oliviers", domain: 'mas-les-oliviers.fr', region: 'bouches-du-rhone', sites: 1 },
  { name: 'Fondation Horizon Santé', domain: 'fondation-horizon-sante.fr', region: 'bretagne', sites: 12 },
  { name: 'Clinique psychiatrique Les Sources', domain: 'clinique-les-sources.fr', region: 'haute-garonne', sites: 3 },
  { name: 'Hôpital privé des Coteaux', domain: 'hp-des-coteaux.fr', region: 'gironde', sites: 4 },
  { name: 'Association Aide et Soins à Domicile du Nord', domain: 'asad-nord.fr', region: 'nord', sites: 9 },
  { name: 'EHPAD Le Clos des Vignes', domain: 'clos-des-vignes.fr', region: 'herault', sites: 2 },
  { name: 'ESAT Le Moulin Vert', domain: 'esat-moulin-vert.fr', region: 'bretagne', sites: 2, esat: true },
  { name: 'Centre de santé mutualiste du Rhône', domain: 'csm-rhone.fr', region: 'rhone', sites: 7 },
  { name: 'SESSAD Les Petits Pas', domain: 'sessad-petits-pas.fr', region: 'haute-garonne', sites: 1 },
  { name: "Foyer d'accueil médicalisé L'Escale", domain: 'fam-escale.fr', region: 'alsace', sites: 1 },
  { name: 'Clinique du Parc', domain: 'clinique-du-parc.fr', region: 'bouches-du-rhone', sites: 3 },
  { name: "EHPAD Les Jardins d'Automne", domain: 'jardins-automne.fr', region: 'nord', sites: 4 },
  { name: 'Centre de dialyse Aquitaine Santé', domain: 'dialyse-aquitaine.fr', region: 'gironde', sites: 6 },
  { name: 'Institut médico-éducatif Arc-en-Ciel', domain: 'ime-arc-en-ciel.fr', region: 'rhone', sites: 2 },
  { name: 'Groupe hospitalier mutualiste des Alpes', domain: 'ghm-alpes.fr', region: 'isere', sites: 10 },
  { name: 'SSIAD du Pays de Retz', domain: 'ssiad-pays-de-retz.fr', region: 'loire-atlantique', sites: 2 },
  { name: 'EHPAD Résidence Saint-Joseph', domain: 'residence-saint-joseph.fr', region: 'alsace', sites: 3 },
  { name: "Association Handicap et Travail d'Occitanie", domain: 'handicap-travail-occitanie.fr', region: 'haute-garonne', sites: 5, esat: true },
  { name: 'Centre médico-psychologique Les Sablons', domain: 'cmp-les-sablons.fr', region: 'herault', sites: 1 },
  { name: "Clinique mutualiste de la Presqu'île", domain: 'clinique-presquile.fr', region: 'bretagne', sites: 3 },
  { name: 'Hospitalisation à domicile Provence', domain: 'had-provence.fr', region: 'bouches-du-rhone', sites: 4 },
];

export type Gender = 'F' | 'M';

export const FIRST_NAMES: readonly { name: string; gender: Gender }[] = [
  ...[
    'Élodie', 'Hélène', 'Camille', 'Chloé', 'Léa', 'Manon', 'Inès', 'Zoé', 'Anaïs', 'Gaëlle', 'Maëlle', 'Céline',
    'Mélanie', 'Sophie', 'Nathalie', 'Isabelle', 'Sandrine', 'Véronique', 'Aurélie', 'Émilie', 'Margaux', 'Clémence',
    'Océane', 'Noémie', 'Bérénice', 'Laëtitia', 'Françoise', 'Thérèse', 'Agnès', 'Solène', 'Marie-Claire', 'Anne-Sophie',
  ].map((name) => ({ name, gender: 'F' as const })),
  ...[
    'Jérôme', 'François', 'Loïc', 'Benoît', 'Frédéric', 'Stéphane', 'Sébastien', 'Théo', 'Lucas', 'Hugo', 'Mathéo',
    'Noël', 'Raphaël', 'Gaël', 'Jérémy', 'Cédric', 'Hervé', 'Joël', 'Grégoire', 'Étienne', 'Rémi', 'Aurélien',
    'Maxime', 'Nicolas', 'Julien', 'Thomas', 'Jean-Marc', 'Pierre-Yves', 'Yannick', 'Mickaël', 'Anthony', 'Guillaume',
  ].map((name) => ({ name, gender: 'M' as const })),
];

export const LAST_NAMES: readonly string[] = [
  'Lefèvre', 'Dubois', 'Martin', 'Bernard', 'Moreau', 'Laurent', 'Girard', 'Bonnet', 'Mercier', 'Faure', 'Rousseau',
  'Fontaine', 'Chevalier', 'Lemaître', 'Gérard', 'Dupré', 'Lévêque', 'Prévost', 'Hébert', 'Le Goff', 'Le Gall',
  'Ménard', 'Brunet', 'Blanchard', 'Gauthier', 'Perrot', 'Barbier', 'Leclerc', 'Rivière', 'Aubert', 'Bouvier',
  'Carré', 'Renaud', 'Colin', 'Vidal', 'Marchal', 'Deschamps', 'Huet', 'Guérin', 'Boyer', 'Roux', 'Robin',
  'Clément', 'Masson', 'Lacroix', 'Béranger', 'Villeneuve', 'Da Silva', 'Nguyen', 'Benali', 'Haddad', "N'Diaye",
  'Diallo', 'Ferreira', 'Petitjean', 'Saint-Martin', "D'Almeida", 'Kerouédan', 'Lebrun', 'Texier',
];

/** [masculine, feminine] forms. */
export type JobTitle = readonly [string, string];

export const JOB_TITLES = {
  director: ["Directeur d'établissement", "Directrice d'établissement"],
  hrDirector: ['Directeur des ressources humaines', 'Directrice des ressources humaines'],
  hr: ['Gestionnaire RH', 'Gestionnaire RH'],
  payroll: ['Responsable paie', 'Responsable paie'],
  recruiter: ['Chargé de recrutement', 'Chargée de recrutement'],
  training: ['Responsable formation', 'Responsable formation'],
  apprenticeship: ["Chargé de l'alternance", "Chargée de l'alternance"],
  accountant: ['Comptable', 'Comptable'],
  cfo: ['Directeur administratif & financier', 'Directrice administrative & financière'],
  chartered: ['Expert-comptable', 'Experte-comptable'],
  works: ['Élu CSE', 'Élue CSE'],
  secretary: ['Assistant de direction', 'Assistante de direction'],
  nurse: ['Infirmier coordinateur', 'Infirmière coordinatrice'],
  healthManager: ['Cadre de santé', 'Cadre de santé'],
  quality: ['Responsable qualité', 'Responsable qualité'],
  workshop: ["Moniteur d'atelier", "Monitrice d'atelier"],
  educator: ['Chef de service éducatif', 'Cheffe de service éducatif'],
  admin: ['Responsable administratif', 'Responsable administrative'],
} as const satisfies Record<string, JobTitle>;

export type JobTitleKey = keyof typeof JOB_TITLES;

/** Job titles that fit the first role a person holds. */
export const JOB_TITLES_BY_ROLE: Record<string, readonly JobTitleKey[]> = {
  ADMIN_ADHERENT: ['director', 'hrDirector', 'cfo', 'admin'],
  RESSOURCE_HUMAINE: ['hr', 'payroll', 'recruiter', 'training', 'hrDirector'],
  GESTIONNAIRE: ['admin', 'secretary', 'healthManager', 'quality', 'training'],
  COMPTABLE: ['accountant', 'payroll', 'cfo'],
  CABINET_COMPTABLE: ['chartered', 'accountant'],
  GESTIONNAIRE_ALTERNANCE: ['apprenticeship', 'training'],
  DECIDEUR_SIGNATAIRE: ['director', 'cfo', 'healthManager'],
  ADHESION: ['admin', 'secretary', 'accountant'],
  CE_CSE_SIEGE: ['works'],
  GESTIONNAIRE_ESAT: ['workshop', 'educator', 'admin'],
};

/** Relative frequency of the EXTERNAL roles among ordinary users. */
export const EXTERNAL_ROLE_WEIGHTS: readonly [string, number][] = [
  ['GESTIONNAIRE', 20],
  ['RESSOURCE_HUMAINE', 20],
  ['COMPTABLE', 12],
  ['GESTIONNAIRE_ALTERNANCE', 12],
  ['DECIDEUR_SIGNATAIRE', 8],
  ['ADHESION', 8],
  ['CE_CSE_SIEGE', 5],
  ['CABINET_COMPTABLE', 5],
  ['GESTIONNAIRE_ESAT', 15], // ESAT employers only
];

export const STREETS: readonly string[] = [
  'rue des Lilas', 'avenue Jean Jaurès', 'boulevard Victor Hugo', 'place de la République', 'rue Pasteur',
  'chemin des Vignes', 'allée des Acacias', 'avenue de la Libération', 'rue du Général Leclerc', 'impasse des Mimosas',
  'rue de la Gare', 'rue Nationale', 'avenue des Peupliers', 'rue Émile Zola', 'rue du Moulin', "rue de l'Hôpital",
  'boulevard des Belges', 'rue Saint-Michel', 'avenue du Maréchal Foch', 'rue des Écoles',
];

export const REJECTION_REASONS: readonly string[] = [
  "Le demandeur n'est pas habilité à représenter cet employeur.",
  "SIREN erroné : la structure indiquée ne correspond pas à l'employeur.",
  'Un administrateur est déjà désigné pour ce SIREN.',
  "Adresse email personnelle : merci d'utiliser une adresse professionnelle.",
  'Demande en doublon, déjà traitée par le service relation adhérents.',
  'Justificatif de délégation de pouvoir manquant.',
  "La personne a quitté l'établissement selon l'employeur.",
  'Le rôle demandé ne correspond pas aux fonctions déclarées.',
];

/** The reason one requester of the demo gave when cancelling their request (the others gave none). */
export const CANCELLATION_REASON = 'Demande faite en double : une autre demande est en cours pour cette personne.';
