/**
 * The portal's few server-made pages (the local provider's sign-in and set-up pages, the e-mail confirmation page):
 * plain HTML in French, one look, no script. Pure: strings in, a string out.
 */

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
  .card{overflow-wrap:anywhere}
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

export function htmlPage(title: string, body: string, head = ''): string {
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

export function messagePage(title: string, message: string, link: string, linkLabel = 'Retour au portail'): string {
  return htmlPage(title, `<div class="card"><h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p><p><a href="${escapeHtml(link)}">${escapeHtml(linkLabel)}</a></p></div>`);
}

