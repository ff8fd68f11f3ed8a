/**
 * The accessibility statement /accessibilite (issue 23), after the RGAA model statement: what the level declares,
 * what the test suite proves, the known non-compliances, contact and remedies. Its date is the day this text was
 * last checked against the tests it names: change it with them.
 */
export type ComplianceLevel = 'non' | 'partiellement' | 'totalement';

export const frAccessibility = {
  title: "Déclaration d'accessibilité",
  back: "Retour à l'accueil",
  commitment:
    "L'organisme qui exploite le Portail Habilitations s'engage à rendre ses services numériques accessibles, conformément à l'article 47 de la loi n° 2005-102 du 11 février 2005.",
  scope: (origin: string) => `Cette déclaration d'accessibilité s'applique au Portail Habilitations (${origin}).`,
  compliance: {
    heading: 'État de conformité',
    text: {
      non: "Le Portail Habilitations est non conforme avec le RGAA 4.1 (référentiel général d'amélioration de l'accessibilité) : aucun audit de conformité n'a encore été réalisé.",
      partiellement: "Le Portail Habilitations est partiellement conforme avec le RGAA 4.1, selon l'audit de conformité réalisé, en raison des non-conformités énumérées ci-dessous.",
      totalement: "Le Portail Habilitations est totalement conforme avec le RGAA 4.1, selon l'audit de conformité réalisé.",
    } satisfies Record<ComplianceLevel, string>,
  },
  tests: {
    heading: 'Ce que vérifient les tests automatiques',
    intro:
      "À chaque modification du portail, ses tests vérifient dans un navigateur Chromium les points suivants. Ils ne remplacent pas un audit RGAA : un outil automatique ne contrôle qu'une partie des critères.",
    items: [
      "Aucune erreur détectable par axe-core (règles WCAG 2.1 niveaux A et AA) sur chaque écran, pour chaque profil de démonstration qui y accède : connexion, listes, formulaires et leurs erreurs, fenêtres de confirmation, pages d'erreur, cette page et «\u00a0Durées de conservation\u00a0». Chaque écran a aussi sa langue (français), son titre, une zone principale et un lien d'évitement.",
      'Tout au clavier, sans souris : connexion, lien «\u00a0Aller au contenu\u00a0», menu, filtres, actions sur les utilisateurs, décisions sur les demandes, assistant de création complet ; la position du focus est vérifiée à chaque étape.',
      "Petits écrans et zoom : à 320 px de large et à 200 % de zoom, aucune page ne défile horizontalement et les actions des tableaux restent accessibles ; les listes sont aussi parcourues au clavier sur un téléphone de 375 px.",
    ],
  },
  issues: {
    heading: 'Contenus non accessibles',
    intro: 'Non-conformités et limites connues :',
    items: [
      "Le portail n'a pas été essayé avec un lecteur d'écran (NVDA, JAWS, VoiceOver).",
      'Le message «\u00a0Votre compte est désactivé\u00a0» est une alerte du navigateur.',
      'Les menus et info-bulles sont affichés hors des zones de la page (règle de bonne pratique, hors WCAG).',
      "Les onglets SIREN et SIRET de la page de modification passent d'un titre de niveau 1 à un titre de niveau 3 (règle de bonne pratique, hors WCAG).",
    ],
  },
  established: {
    heading: 'Établissement de cette déclaration',
    date: 'Cette déclaration a été établie le 27 novembre 2026.',
    technologies: 'Technologies utilisées : HTML5, CSS, JavaScript, WAI-ARIA.',
    tools: 'Outils de vérification : axe-core avec Playwright dans Chromium, tests au clavier automatisés.',
  },
  contact: {
    heading: "Retour d'information et contact",
    text: "Si vous n'arrivez pas à accéder à un contenu ou à un service, contactez-nous pour être orienté vers une alternative accessible ou obtenir le contenu sous une autre forme.",
    email: 'Envoyer un message :',
  },
  remedies: {
    heading: 'Voies de recours',
    text:
      "Si vous constatez un défaut d'accessibilité vous empêchant d'accéder à un contenu ou une fonctionnalité du portail, que vous nous le signalez et que vous ne parvenez pas à obtenir une réponse de notre part, vous êtes en droit de faire parvenir vos doléances ou une demande de saisine au Défenseur des droits. Plusieurs moyens sont à votre disposition :",
    form: 'Écrire un message au Défenseur des droits',
    formUrl: 'https://formulaire.defenseurdesdroits.fr/',
    delegate: 'Contacter le délégué du Défenseur des droits dans votre région',
    delegateUrl: 'https://www.defenseurdesdroits.fr/saisir/delegues',
    mail: 'Envoyer un courrier par la poste (gratuit, ne pas mettre de timbre) : Défenseur des droits, Libre réponse 71120, 75342 Paris CEDEX 07.',
  },
  newWindow: ' (nouvelle fenêtre)',
} as const;
