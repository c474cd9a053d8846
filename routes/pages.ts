import type { FastifyInstance, FastifyRequest } from 'fastify';
import { cookieNames } from '../contract/cookies.ts';
import { isFlashCode } from '../contract/flash.ts';
import type { Locale } from '../contract/locales.ts';
import { preferredLocale } from '../lib/accept.ts';
import { isBotRequest } from '../lib/bots.ts';
import { refusedCharset } from '../lib/json-api.ts';
import { isSameOrigin } from '../lib/same-origin.ts';
import { checkFormText } from '../lib/text.ts';

const payloadSuffix = '/_payload.json';

/** Every GET no other route claims is a page or its `_payload.json`; every POST a page's form. */
export default async function pageRoutes(app: FastifyInstance) {
  const { config } = app;

  app.get('/*', async (request, reply) => {
    const [pathname = '/', search = ''] = request.url.split(/\?(.*)/s);

    if (pathname === payloadSuffix || pathname.endsWith(payloadSuffix)) {
      return app.pages.sendPayload(request, reply, pathname.slice(0, -payloadSuffix.length) || '/');
    }

    if (pathname === '/' && shouldOfferThai(request)) {
      return reply.header('vary', 'Accept-Language, Cookie').redirect(search ? `/th?${search}` : '/th', 302);
    }

    // A one-shot notice after a form posted without JavaScript ("You are signed in"): read once.
    const flash = request.cookies[cookieNames.flash];
    if (flash !== undefined) reply.clearCookie(cookieNames.flash, { path: '/' });
    return app.pages.sendDocument(request, reply, {
      flash: flash !== undefined && isFlashCode(flash) ? flash : undefined,
    });
  });

  // Only this scope parses urlencoded bodies: the JSON API keeps answering 415. As bytes, so bytes
  // that are not UTF-8 (raw, or escaped as %FF) are refused (plugins/form-actions.ts), not stored.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'buffer' }, (request, body, done) => {
    const refused = refusedCharset(request.headers['content-type']);
    if (refused) {
      done(refused, undefined);
      return;
    }
    const bytes = typeof body === 'string' ? Buffer.from(body) : body;
    request.formTextProblem = checkFormText(bytes);
    done(null, bytes.toString('utf8'));
  });
  app.post('/*', async (request, reply) => {
    if (!isSameOrigin(request, config.publicUrl, config.trustProxy !== false)) {
      return reply.code(403).send({
        statusCode: 403,
        code: 'CROSS_ORIGIN_FORM',
        message: 'Forms may only be posted from this site.',
      });
    }
    return app.pages.sendDocument(request, reply, { form: typeof request.body === 'string' ? request.body : '' });
  });
}

/** First visit to `/` from a browser preferring Thai, with no language chosen yet. */
function shouldOfferThai(request: FastifyRequest): boolean {
  if (isBotRequest(request) || request.cookies[cookieNames.language] !== undefined) return false;
  return preferredLocale(request.headers['accept-language']) === ('th' satisfies Locale);
}
