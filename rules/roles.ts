/**
 * A role's label as people read it (spec §3): a name may carry its display label as a quoted
 * part in parentheses, e.g. `Administrateur adhérent ("Admin Adhérent")` reads 'Admin Adhérent'.
 */
export function roleDisplayLabel(name: string): string {
  const quoted = /\(\s*["“«]\s*([^"”»]+?)\s*["”»]\s*\)/.exec(name);
  return quoted?.[1] ?? name.trim();
}

/** Badge colours of the known role codes (spec §3); any other role is grey. ORG_ADMIN is ADMIN_ADHERENT's alias. */
export type RoleTone = 'blue' | 'indigo' | 'red' | 'teal' | 'purple' | 'pink' | 'orange' | 'amber' | 'lime' | 'yellow' | 'cyan' | 'grey';

const TONES: Record<string, RoleTone> = {
  ADHESION: 'blue',
  DECIDEUR_SIGNATAIRE: 'indigo',
  ADMIN_OPCO: 'red',
  GESTIONNAIRE_ESAT: 'teal',
  ADMIN_ADHERENT: 'purple',
  ORG_ADMIN: 'purple',
  RESSOURCE_HUMAINE: 'pink',
  CE_CSE_SIEGE: 'orange',
  CABINET_COMPTABLE: 'amber',
  GESTIONNAIRE_ALTERNANCE: 'lime',
  COMPTABLE: 'yellow',
  GESTIONNAIRE: 'cyan',
};

export function roleTone(code: string): RoleTone {
  return TONES[code] ?? 'grey';
}
