import { frShell } from './fr-shell';

/** The texts of /workflows (the machines' charts): loaded with that page only, not with every screen's fr.ts. */
export const frWorkflows = {
  ...frShell.workflows,
  title: 'Workflows',
  intro:
    'Les machines à états qui pilotent les écrans du portail, dessinées à partir de leur définition, avec leurs états, leurs événements et la couverture de leurs tests de modèle.',
  listLabel: 'Machines',
  screens: 'Écrans',
  machineId: 'Identifiant',
  tests: 'Tests de modèle',
  coverage: (paths: number, states: string, transitions: string) => `${paths} chemins générés ; états atteints ${states} ; transitions prises ${transitions}`,
  ratio: (part: number, total: number) => `${part}/${total} (${total === 0 ? 100 : Math.floor((part * 100) / total)} %)`,
  noModel: 'Aucun test de modèle',
  chartLabel: (title: string) => `Diagramme d'états : ${title}`,
  chartLoading: 'Dessin du diagramme...',
  chartFailed: (message: string) => `Le diagramme n'a pas pu être dessiné : ${message}`,
  download: 'Télécharger le SVG',
  downloadOf: (title: string) => `Télécharger le SVG : ${title}`,
  statesTable: 'États',
  eventsTable: 'Événements',
  columns: { state: 'État', event: 'Événement', id: 'Identifiant', nature: 'Nature', actor: 'Acteur invoqué', transitions: 'Transitions' },
  missing: '—',
  /** Issue 24: the figures of the server's lifecycle machines, drawn on their charts and in a table. */
  figures: {
    period: 'Période',
    periodOption: (days: number) => `${days} derniers jours`,
    loading: 'Chargement des chiffres...',
    failed: (message: string) => `Les chiffres n'ont pas pu être chargés : ${message}`,
    statesCaption: (title: string) => `Nombre actuel par état : ${title}`,
    /** When a state's items no longer exist once in it (a deleted account): it is counted over the period. */
    statesPeriodCaption: (title: string, states: string, days: number) =>
      `Nombre actuel par état, sauf « ${states} » : ceux des ${days} derniers jours (ils n'existent plus une fois dans cet état) : ${title}`,
    /** A move the portal keeps no record of. */
    unrecorded: 'non enregistré',
    unrecordedNote: '« non enregistré » : le portail ne garde pas trace de ce passage.',
    /** On the chart: a state counted over the period. */
    statePeriod: (count: number, days: number) => `${count.toLocaleString('fr-FR')} en ${days} j`,
    transitionsCaption: (title: string, days: number) => `Transitions des ${days} derniers jours : ${title}`,
    /** Under the transitions' caption: what the median measures. */
    medianNote: 'Durée médiane : le temps passé dans l’état de départ avant la transition.',
    columns: { state: 'État', count: 'Nombre', transitionEvent: 'Transition (événement)', median: 'Durée médiane' },
    start: 'Entrée (création)',
    none: '—',
    exportCsv: 'Télécharger les chiffres (CSV)',
    exportDescription: (title: string, days: number) => `Les chiffres de « ${title} » sur ${days} jours au format CSV (Excel, LibreOffice)`,
    /** On the chart: a state's count now, an arrow's count over the period and its median. */
    stateNow: (count: number) => `${count.toLocaleString('fr-FR')} actuellement`,
    arrowCount: (count: number, days: number) => `${count.toLocaleString('fr-FR')} en ${days} j`,
    arrowMedian: (duration: string) => `médiane ${duration}`,
  },
} as const;
