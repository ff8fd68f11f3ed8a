import { useEffect } from 'react';
import { frShell as fr } from '../i18n/fr-shell';

/** Each screen names itself in the browser tab. */
export function useDocumentTitle(title: string): void {
  useEffect(() => {
    document.title = `${title} · ${fr.app.name}`;
  }, [title]);
}
