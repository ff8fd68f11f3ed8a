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
} as const;
