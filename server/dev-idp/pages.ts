/** The local provider's pages: plain HTML, French, no script but the logout auto-submit. */

export interface DemoAccountLine {
  email: string;
  label: string;
}

const escapeMap: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => escapeMap[c] ?? c);
}

const STYLE = `
  *{box-sizing:border-box}
  body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#f1f5f9;color:#0f172a;line-height:1.5}
  main{max-width:28rem;margin:3rem auto;padding:0 1rem}
  .card{background:#fff;border-radius:.75rem;box-shadow:0 1px 3px rgba(15,23,42,.15);padding:2rem}
  h1{font-size:1.5rem;margin:0 0 .25rem}
  p.lead{margin:0 0 1.5rem;color:#475569}
  label{display:block;font-weight:600;margin:1rem 0 .25rem}
  input{width:100%;padding:.625rem .75rem;border:1px solid #94a3b8;border-radius:.5rem;font-size:1rem}
  input:focus{outline:3px solid #2563eb;outline-offset:1px;border-color:#2563eb}
  button{margin-top:1.5rem;width:100%;padding:.75rem;border:0;border-radius:.5rem;background:#1d4ed8;color:#fff;font-size:1rem;font-weight:600;cursor:pointer}
  button:hover{background:#1e40af}
  button:focus-visible{outline:3px solid #0f172a;outline-offset:2px}
  .error{margin:0 0 1rem;padding:.75rem;border-radius:.5rem;background:#fef2f2;color:#991b1b;border:1px solid #fecaca}
  .demo{margin-top:1.5rem;font-size:.875rem;color:#334155}
  .demo h2{font-size:1rem;margin:0 0 .5rem}
  .demo ul{padding-left:1.25rem;margin:.25rem 0}
  code{background:#e2e8f0;padding:0 .25rem;border-radius:.25rem}
  a{color:#1d4ed8}
  .skip{position:absolute;left:.5rem;top:-3rem;padding:.5rem;border-radius:.25rem;background:#fff;color:#1e3a8a}
  .skip:focus{top:.5rem}
  main:focus{outline:none}
`;

function layout(title: string, body: string, head = ''): string {
  return `<!doctype html>
<html lang="fr">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · Portail Habilitations</title>
<style>${STYLE}</style>
${head}
</head>
<body><a class="skip" href="#contenu">Aller au contenu</a><main id="contenu" tabindex="-1">${body}</main></body>
</html>`;
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

export function messagePage(title: string, message: string, link: string, linkLabel = 'Retour au portail'): string {
  return layout(title, `<div class="card"><h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p><p><a href="${escapeHtml(link)}">${escapeHtml(linkLabel)}</a></p></div>`);
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
