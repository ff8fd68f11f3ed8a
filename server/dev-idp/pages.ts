/** The local provider's pages: plain HTML, French, no script but the logout auto-submit. */
import { escapeHtml, htmlPage as layout, messagePage } from '../core/html-page.ts';

export { messagePage };

export interface DemoAccountLine {
  email: string;
  label: string;
}

/** `mailbox`: link the local mailbox (absent in production); linked unless told otherwise. */
export function signInPage(input: { uid: string; email: string; error: string | null; demoAccounts: readonly DemoAccountLine[]; mailbox?: boolean }): string {
  const error = input.error ? `<p class="error" role="alert" id="sign-in-error">${escapeHtml(input.error)}</p>` : '';
  const describedBy = input.error ? ' aria-describedby="sign-in-error"' : '';
  const demo = input.demoAccounts.length
    ? `<section class="demo" aria-labelledby="demo-title"><h2 id="demo-title">Comptes de démonstration</h2>
<p>Mot de passe commun : <code>Demo-Portail-2026</code></p>
<ul>${input.demoAccounts.map((a) => `<li><code>${escapeHtml(a.email)}</code> : ${escapeHtml(a.label)}</li>`).join('')}</ul></section>`
    : '';
  return layout(
    'Connexion',
    `<div class="card">
<h1>Connexion</h1>
<p class="lead">Portail Habilitations : identifiez-vous pour continuer.</p>
${error}
<form method="post" action="/oidc/interaction/${escapeHtml(input.uid)}/login" novalidate>
<label for="email">Adresse email</label>
<input id="email" name="email" type="email" autocomplete="username" required value="${escapeHtml(input.email)}"${describedBy}${input.email ? '' : ' autofocus'}>
<label for="password">Mot de passe</label>
<input id="password" name="password" type="password" autocomplete="current-password" required${describedBy}${input.email ? ' autofocus' : ''}>
<button type="submit">Se connecter</button>
</form>
${demo}
${input.mailbox === false ? '' : `<p class="demo">Compte créé par le portail ? Son lien pour choisir un mot de passe est dans la <a href="/oidc/dev/mailbox">boîte d'envoi locale</a>.</p>`}
</div>`,
  );
}

export function logoutPage(form: string): string {
  return layout(
    'Déconnexion',
    `<div class="card"><h1>Déconnexion</h1><p class="lead">Déconnexion en cours…</p>${form}
<button type="submit" form="op.logoutForm" name="logout" value="yes" data-auto-submit>Se déconnecter</button></div>`,
    '<script src="/oidc/assets/auto-submit.js" defer></script>',
  );
}

/** The page of an account set-up link (server/dev-idp/account-setup.ts): the person chooses a password. */
export function accountSetupPage(input: { token: string; email: string; error: string | null }): string {
  const error = input.error ? `<p class="error" role="alert" id="setup-error">${escapeHtml(input.error)}</p>` : '';
  const describedBy = input.error ? ' aria-describedby="setup-error"' : ' aria-describedby="password-rule"';
  return layout(
    'Choisissez votre mot de passe',
    `<div class="card">
<h1>Choisissez votre mot de passe</h1>
<p class="lead">Compte : <strong>${escapeHtml(input.email)}</strong></p>
${error}
<form method="post" action="/oidc/account/setup" novalidate>
<input type="hidden" name="token" value="${escapeHtml(input.token)}">
<input type="text" name="username" autocomplete="username" value="${escapeHtml(input.email)}" hidden>
<label for="password">Mot de passe</label>
<input id="password" name="password" type="password" autocomplete="new-password" minlength="12" required autofocus${describedBy}>
<p id="password-rule" class="demo">Au moins 12 caractères.</p>
<label for="confirmation">Confirmez le mot de passe</label>
<input id="confirmation" name="confirmation" type="password" autocomplete="new-password" minlength="12" required>
<button type="submit">Enregistrer le mot de passe</button>
</form>
</div>`,
  );
}

const URL_IN_TEXT = /https?:\/\/[^\s<>"']+/g;
const PARIS_TIME = new Intl.DateTimeFormat('fr-FR', { dateStyle: 'short', timeStyle: 'short', timeZone: 'Europe/Paris' });

/** The local mailbox (server/dev-idp/dev-mailbox.ts): each e-mail's text, its links clickable. */
export function mailboxPage(input: { to: string; mails: readonly { id: number; createdAt: Date; recipient: string; subject: string; body: string; status: string }[] }): string {
  const linked = (text: string) => escapeHtml(text).replace(URL_IN_TEXT, (url) => `<a href="${url}">${url}</a>`);
  const items = input.mails
    .map(
      (m) => `<article class="card mail" aria-labelledby="mail-${m.id}">
<h2 id="mail-${m.id}">${escapeHtml(m.subject)}</h2>
<p class="meta">À ${escapeHtml(m.recipient)} · ${escapeHtml(PARIS_TIME.format(m.createdAt))}</p>
<pre>${linked(m.body)}</pre>
</article>`,
    )
    .join('\n');
  const empty = `<p class="card">${input.to ? `Aucun e-mail pour ${escapeHtml(input.to)}.` : 'Aucun e-mail.'}</p>`;
  return layout(
    "Boîte d'envoi locale",
    `<h1>Boîte d'envoi locale</h1>
<p class="lead">Les e-mails que le portail a préparés (les 50 derniers), consultables ici avec la connexion locale de développement.</p>
<form method="get" class="search"><label for="to">Destinataire</label><input id="to" name="to" type="email" value="${escapeHtml(input.to)}"><button type="submit">Filtrer</button></form>
${items || empty}`,
    '<style>main{max-width:48rem}.mail{margin-top:1rem}.mail h2{font-size:1.125rem;margin:0}.meta{color:#475569;margin:.25rem 0 .75rem}pre{white-space:pre-wrap;font-family:inherit;margin:0}.search{margin-bottom:1rem}</style>',
  );
}
