/**
 * A role's label as people read it (spec §3): a name may carry its display label as a quoted
 * part in parentheses, e.g. `Administrateur adhérent ("Admin Adhérent")` reads 'Admin Adhérent'.
 */
export function roleDisplayLabel(name: string): string {
  const quoted = /\(\s*["“«]\s*([^"”»]+?)\s*["”»]\s*\)/.exec(name);
  return quoted?.[1] ?? name.trim();
}
