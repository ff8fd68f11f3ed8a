import { useEffect } from 'react';
import { frShell as fr } from '../i18n/fr-shell';

/** The title of the screen shown last: only it is put back when something else changes the title. */
let owner: symbol | null = null;

/**
 * Each screen names itself in the browser tab, and keeps that name: MSAL's redirect handling, when it ends,
 * puts back the title it found when it started (the bare app name of index.html) over the screen's own.
 */
export function useDocumentTitle(title: string): void {
  useEffect(() => {
    const wanted = `${title} · ${fr.app.name}`;
    const me = Symbol(title);
    owner = me;
    const apply = () => {
      if (owner === me && document.title !== wanted) document.title = wanted;
    };
    apply();
    const element = document.querySelector('title');
    const observer = element && typeof MutationObserver !== 'undefined' ? new MutationObserver(apply) : null;
    if (element) observer?.observe(element, { childList: true, characterData: true, subtree: true });
    return () => {
      observer?.disconnect();
      if (owner === me) owner = null;
    };
  }, [title]);
}
