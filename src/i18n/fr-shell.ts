/**
 * The texts of the first screen (sign-in, shell, /dashboard, landing and 404 pages): the files drawn at first
 * paint import these only, so that the texts of the other screens load with them (fr.ts includes these).
 */
export const frShell = {
  app: {
    name: 'Portail Habilitations',
    loading: 'Chargement...',
  },
  shell: {
    nav: {
      home: 'Accueil',
      admin: 'Habilitation des administrateurs',
      users: 'Gestion des utilisateurs',
      journal: 'Journal des modifications',
      retention: 'Durées de conservation',
      profile: 'Mon profil',
      signOut: 'Déconnexion',
      label: 'Navigation principale',
      collapse: 'Réduire le menu',
      expand: 'Déplier le menu',
      menu: 'Menu',
      closeMenu: 'Fermer le menu',
    },
    greeting: (name: string) => `Bonjour ${name}`,
    memberArea: 'Espace Adhérent / Webservices',
    skipToContent: 'Aller au contenu',
    signedInAs: 'Connecté en tant que',
    footer: {
      legal: 'Mentions légales',
      personalData: 'Données personnelles',
      terms: "Conditions générales d'utilisation",
      cookies: 'Gestion des cookies',
      /** RGAA's required mention (ACCESSIBILITY_COMPLIANCE). */
      accessibility: (level: 'non' | 'partiellement' | 'totalement') => `Accessibilité : ${level} conforme`,
    },
    profile: {
      email: 'Adresse email',
      type: "Type d'utilisateur",
      backOffice: 'Back-office',
      organization: 'Adhérent',
      organizations: 'Organisations et rôles',
      permissions: 'Permissions',
      none: 'Aucune',
    },
  },
  dashboard: {
    title: 'Accueil',
    intro: 'Bienvenue sur le portail de gestion des habilitations des utilisateurs de vos organisations.',
    memberAreaText: 'Accédez à vos services adhérent et aux webservices.',
    shortcuts: 'Accès rapides',
    /** Issue 24: the card of the work that waits (its lines: fr-home.ts, loaded with it). */
    work: 'À traiter',
    workLoading: 'Chargement de ce qui est à traiter...',
  },
  landing: {
    title: 'Portail Habilitations',
    intro:
      "Gérez les comptes des utilisateurs de vos établissements, leurs accès aux organisations adhérentes (SIREN, SIRET), leurs rôles et les demandes de droits d'administrateur.",
    signIn: 'Se connecter',
    goToPortal: 'Accéder au portail',
  },
  auth: {
    signingIn: 'Redirection vers la page de connexion...',
    completing: 'Connexion en cours...',
    signingOut: 'Déconnexion en cours...',
    accountDisabled: 'Votre compte est désactivé.',
  },
  notFound: {
    title: 'Oops! Page not found',
    text: "La page que vous cherchez n'existe pas ou a été déplacée.",
    home: "Retour à l'accueil",
  },
  workflows: {
    shortcut: 'Workflows : les diagrammes des machines à états',
  },
} as const;
