import { frShell as fr } from '../i18n/fr-shell';

/** The id of every page's main landmark, the target of the skip link. */
export const MAIN_CONTENT_ID = 'contenu';

/** The first stop of the keyboard on every page, in the shell or not: straight to the content. */
export function SkipLink() {
  return (
    <a href={`#${MAIN_CONTENT_ID}`} className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50 focus:rounded focus:bg-white focus:p-2 focus:text-brand-800">
      {fr.shell.skipToContent}
    </a>
  );
}
