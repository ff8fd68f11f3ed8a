// The portal's own page where a person confirms a new e-mail address, through the single-use link sent there
// (server/features/users/users-email.service.ts). Served by the portal whatever the identity provider.
// Opening the link changes nothing (mail scanners open links): the page asks for a click, which posts the form.
import type { FastifyInstance } from 'fastify';
import { escapeHtml, htmlPage, messagePage } from '../core/html-page.ts';
import { DomainError } from '../core/errors.ts';
import { EMAIL_CHANGE_MESSAGES, EMAIL_CONFIRMATION_PATH } from '../features/users/users-email.service.ts';
import type { Services } from '../features/services.ts';

const SIGN_IN = '/authentication/sign-in';

export function emailConfirmationPage(input: { token: string; email: string }): string {
  return htmlPage(
    'Confirmez votre nouvelle adresse',
    `<div class="card">
<h1>Confirmez votre nouvelle adresse</h1>
<p class="lead">Nouvelle adresse de connexion : <strong>${escapeHtml(input.email)}</strong></p>
<p>Une fois l'adresse confirmée, vous vous connecterez au Portail Habilitations avec elle ; vos sessions ouvertes seront fermées.</p>
<form method="post" action="${EMAIL_CONFIRMATION_PATH}">
<input type="hidden" name="token" value="${escapeHtml(input.token)}">
<button type="submit">Confirmer cette adresse</button>
</form>
</div>`,
  );
}

export async function registerEmailConfirmation(app: FastifyInstance, services: Pick<Services, 'users'>): Promise<void> {
  const invalid = () => messagePage('Lien invalide', EMAIL_CHANGE_MESSAGES.invalidLink, SIGN_IN, 'Aller à la connexion');
  await app.register(async (scope) => {
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 4_096 }, (_req, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(String(body))));
    });

    scope.get<{ Querystring: { token?: string } }>(EMAIL_CONFIRMATION_PATH, async (request, reply) => {
      reply.type('text/html').header('cache-control', 'no-store').header('referrer-policy', 'no-referrer');
      const token = typeof request.query.token === 'string' ? request.query.token : '';
      const change = await services.users.emailChangeOf(token);
      if (!change) return reply.code(400).send(invalid());
      return reply.send(emailConfirmationPage({ token, email: change.email }));
    });

    scope.post<{ Body: Record<string, string> | undefined }>(EMAIL_CONFIRMATION_PATH, async (request, reply) => {
      reply.type('text/html').header('cache-control', 'no-store').header('referrer-policy', 'no-referrer');
      const token = String(request.body?.token ?? '');
      try {
        const { email } = await services.users.confirmEmailChange(token, request.log);
        request.log.info('e-mail change confirmed through its link');
        return reply.send(messagePage('Adresse confirmée', `Votre nouvelle adresse est confirmée. Connectez-vous désormais avec ${email}.`, SIGN_IN, 'Se connecter'));
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        if (error.kind === 'notFound') return reply.code(400).send(invalid());
        const status = error.kind === 'conflict' ? 409 : 503;
        return reply.code(status).send(messagePage('Adresse non confirmée', error.message, SIGN_IN, 'Aller à la connexion'));
      }
    });
  });
}
