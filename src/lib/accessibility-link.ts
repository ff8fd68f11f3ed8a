import type { AppConfig } from '../app-config';
import { frShell as fr } from '../i18n/fr-shell';

/** The path of the portal's own statement (routes/accessibility.tsx). */
export const ACCESSIBILITY_STATEMENT_PATH = '/accessibilite';

/**
 * RGAA's required mention, 'Accessibilité : non conforme' by default, in the footer of every page: it leads to the
 * organization's statement when ACCESSIBILITY_STATEMENT_URL is set, else to the portal's own.
 */
export function accessibilityLink({ accessibility }: Pick<AppConfig, 'accessibility'>): { label: string; href: string } {
  return { label: fr.shell.footer.accessibility(accessibility.compliance), href: accessibility.statementUrl ?? ACCESSIBILITY_STATEMENT_PATH };
}
