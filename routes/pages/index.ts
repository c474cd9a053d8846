import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { cookieNames } from '../../contract/cookies.ts';
import { type FlashCode, isFlashCode } from '../../contract/flash.ts';
import type { HttpError } from '../../contract/http-error.ts';
import { locales } from '../../contract/locales.ts';
import { encodeRedirectLocation } from '../../contract/navigation-guard.ts';
import { renderErrorLog, unexpectedError } from '../../contract/page-error.ts';
import type { FormActionResult } from '../../contract/page-data.ts';
import { redirectParam } from '../../contract/route-middleware.ts';
import { pageName, pageRoutes as routeTable } from '../../contract/routes.ts';
import { acceptsHtml, wantsJson } from '../../lib/accept.ts';
import { isBotRequest } from '../../lib/bots.ts';
import { readBuildInfo } from '../../lib/build-info.ts';
import { isDatabaseFault } from '../../lib/db/unavailable.ts';
import { matchesIfNoneMatch } from '../../lib/etag.ts';
import { refusedCharset } from '../../lib/json-api.ts';
import { payloadOf, serialisePayload } from '../../lib/pages/payload.ts';
import {
  pageOf,
  pagePatterns,
  payloadSuffix,
  type PageRequest,
  type PageRouteConfig,
} from '../../lib/pages/page-request.ts';
import { personalRequest } from '../../lib/page-cache-key.ts';
import { anonymousAudience, homeVaries, offersThai, pageHeaders } from '../../lib/pages/page-headers.ts';
import { loadPage, type PageOutcome, type PageTarget, type PipelineParts } from '../../lib/pages/pipeline.ts';
import { renderStateOf, type Visit } from '../../lib/pages/render-state.ts';
import { isSameOrigin, originOf } from '../../lib/same-origin.ts';
import { cookieSecurity } from '../../lib/cookie-security.ts';
import { malformedFormState, PostedForm } from './posted-form.ts';
import { addressRefusals, formRefusals } from './refusals.ts';
import { loadServerHalves } from './server-halves.ts';

/**
 * Each page's document, `_payload.json` and form, a route each, all through one pipeline
 * (lib/pages/pipeline.ts) with the page's server half (its loader and action); app.renderer only
 * turns the outcome into HTML.
 */
export default async function pageRoutes(app: FastifyInstance) {
  const { config } = app;
  const buildId = readBuildInfo(config.dev).id;
  const metrics = app.hasDecorator('metrics') ? app.metrics : undefined;
  const secureCookies = cookieSecurity(config.publicUrl);
  const serverHalves = await loadServerHalves(routeTable);

  /** Set before the answer is made; plugins/app/cache-headers.ts makes one that sets a cookie or fails `personal`. */
  function setPageHeaders(request: FastifyRequest, reply: FastifyReply) {
    const page = pageOf(request)!;
    const personal = request.user != null || personalRequest(request);
    reply.headers(pageHeaders(page, personal ? 'personal' : anonymousAudience(page, request, buildId)));
  }

  const pipelineFor = (request: FastifyRequest): PipelineParts => ({
    user: request.user ?? null,
    sessionId: request.sessionId ?? null,
    loadData: (route, args) => serverHalves.get(route)!.loader!(app, args),
    logError: (error, message) => request.log.error({ err: error }, message),
    exposeDetails: config.dev,
  });

  /** The render time by page, and the request metrics' route label: the page that answered, errors by status. */
  function observe(request: FastifyRequest, kind: 'document' | 'payload', started: number, outcome: PageOutcome) {
    if (!metrics) return;
    const page = outcome.type === 'redirect' ? 'other' : pageName(outcome.target.route.module);
    metrics.ssrRender.observe({ kind, page }, (performance.now() - started) / 1000);
    metrics.labelRoute(request, kind === 'payload' ? '/*/_payload.json' : `page:${page}`);
  }

  /** A page outcome as a document: the redirect, the error as JSON to a client asking for JSON, or HTML. */
  function sendDocument(request: FastifyRequest, reply: FastifyReply, outcome: PageOutcome, visit: Visit) {
    if (outcome.type === 'redirect') {
      return reply.redirect(encodeRedirectLocation(outcome.location), outcome.permanent ? 301 : 302);
    }
    setPageHeaders(request, reply);
    if (outcome.type === 'error' && wantsJson(request.headers.accept)) {
      return reply
        .code(outcome.status)
        .type('application/json; charset=utf-8')
        .send({ statusCode: outcome.error.statusCode, message: outcome.error.message });
    }
    return app.renderer.sendDocument(request, reply, renderStateOf(outcome, visit), outcome.target.route.module);
  }

  const visitOf = (request: FastifyRequest, url: URL, extra: Partial<Visit> = {}): Visit => ({
    url,
    user: request.user ?? null,
    isBot: isBotRequest(request),
    ...extra,
  });

  /** The page the route stands for, with the params Fastify read from the path (the catch-all's without the payload's suffix). */
  function targetOf(request: FastifyRequest, page: PageRequest): PageTarget {
    const params = request.params as Record<string, string>;
    const rest = params['*'];
    if (page.answer === 'payload' && rest !== undefined)
      return { ...page, params: { '*': rest.slice(0, -payloadSuffix.length) } };
    return { route: page.route, locale: page.locale, params };
  }

  async function getPayload(request: FastifyRequest, reply: FastifyReply) {
    const started = performance.now();
    const pathname = request.url.split('?', 1)[0]!;
    // A page's data depends on its path only: the query plays no part.
    const pagePath = pathname.slice(0, -payloadSuffix.length) || '/';
    const target = targetOf(request, pageOf(request)!);
    const outcome = await loadPage(target, new URL(pagePath, 'http://localhost'), pipelineFor(request));
    observe(request, 'payload', started, outcome);
    const payload = payloadOf(outcome, buildId);
    const { json, etag } = serialisePayload(payload);
    setPageHeaders(request, reply);
    if (payload.status === 200) {
      reply.header('etag', etag);
      if (matchesIfNoneMatch(request.headers['if-none-match'], etag)) return reply.code(304).send();
    }
    return reply.code(payload.status).send(json);
  }

  async function getDocument(request: FastifyRequest, reply: FastifyReply, page: PageRequest) {
    const started = performance.now();
    if (offersThai(page, request) && !isBotRequest(request)) {
      const search = request.url.split(/\?(.*)/s)[1];
      return reply
        .header('vary', homeVaries)
        .header('cache-control', 'no-cache')
        .redirect(search ? `/th?${search}` : '/th', 302);
    }
    // A one-shot notice after a form posted without JavaScript ("You are signed in"): read once.
    const flash = request.cookies[cookieNames.flash];
    if (flash !== undefined) reply.clearCookie(cookieNames.flash, { path: '/' });
    const url = new URL(request.url, 'http://localhost');
    const outcome = await loadPage(targetOf(request, page), url, pipelineFor(request));
    observe(request, 'document', started, outcome);
    return sendDocument(request, reply, outcome, visitOf(request, url, isFlashCode(flash) ? { flash } : {}));
  }

  // Every page of the route table, in each language, as a route of its own: its `config` is the
  // declaration every page concern reads (lib/pages/page-request.ts). The catch-all (content pages
  // and everything no page takes) answers its document and its payload on one pattern.
  for (const locale of locales) {
    for (const route of routeTable) {
      const patterns = pagePatterns(locale, route);
      const document: PageRequest = { route, locale, answer: 'document', pattern: patterns.document };
      const payload: PageRequest = { route, locale, answer: 'payload', pattern: patterns.payload };
      const config = (page: PageRouteConfig) => ({ auth: 'header-or-cookie' as const, page });
      // One route for all of an address's methods: Fastify's own HEAD route is one more (0054).
      const read = { method: ['GET', 'HEAD'], exposeHeadRoute: false };
      if (route.path === '*') {
        app.route({
          ...read,
          url: patterns.document,
          config: config({ page: document, payloadPage: payload }),
          handler: (request, reply) => {
            const page = pageOf(request)!;
            return page.answer === 'payload' ? getPayload(request, reply) : getDocument(request, reply, page);
          },
        });
        app.post(patterns.document, { config: config({ page: document }) }, postForm);
      } else {
        app.route({
          method: [...read.method, 'POST'],
          exposeHeadRoute: false,
          url: patterns.document,
          config: config({ page: document }),
          handler: (request, reply) =>
            request.method === 'POST' ? postForm(request, reply) : getDocument(request, reply, document),
        });
        app.route({ ...read, url: patterns.payload, config: config({ page: payload }), handler: getPayload });
      }
    }
  }

  // Only this scope parses urlencoded bodies: the JSON API keeps answering 415. As bytes, once, so
  // bytes that are not UTF-8 (raw, or escaped as %FF) are refused (posted-form.ts), not stored.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'buffer' }, (request, body, done) => {
    const refused = refusedCharset(request.headers['content-type']);
    if (refused) {
      done(refused, undefined);
      return;
    }
    done(null, PostedForm.read(typeof body === 'string' ? Buffer.from(body) : body));
  });

  const allowedOrigins = new Set(
    [...config.allowedExternalOrigins, ...(config.playUrl ? [config.playUrl] : [])].map((url) => originOf(url)),
  );
  /** As navigateTo: the Location stays on this site (no `//evil`), unless the action leaves it for PLAY_URL. */
  function leavesSite(result: FormActionResult & { ok: true }): boolean {
    const origin = result.external ? originOf(result.redirect) : undefined;
    return origin !== undefined && origin !== 'null' && allowedOrigins.has(origin);
  }

  /**
   * A form posted to its page. Without JavaScript: 303 to the next page, or the page again with
   * the form's errors. With JavaScript (Accept: application/json) the same action answers the
   * outcome as JSON, which the browser's router shows (client/router/form-post.ts).
   */
  async function postForm(request: FastifyRequest, reply: FastifyReply) {
    const json = wantsJson(request.headers.accept);
    if (!isSameOrigin(request, config.publicUrl, config.trustProxy !== false)) {
      const message = 'Forms may only be posted from this site.';
      if (json || !acceptsHtml(request.headers.accept))
        return reply.code(403).send({ statusCode: 403, code: 'CROSS_ORIGIN_FORM', message });
      // Nothing another site put in the form is shown back.
      return sendRefusedForm(request, reply, 403, 'CROSS_ORIGIN_FORM');
    }
    const url = new URL(request.url, 'http://localhost');
    const target = targetOf(request, pageOf(request)!);
    if (!target.route.action) return methodNotAllowed(request, reply, url, target, json);

    let result: FormActionResult;
    try {
      result = await runAction(request, reply, url, target, PostedForm.of(request.body));
    } catch (error) {
      // An outage or a full disk is answered 503 (plugins/app/errors.ts), as is any failure asked as JSON.
      if (isDatabaseFault(error) || json) throw error;
      request.log.error({ err: error }, renderErrorLog);
      const failed = { type: 'error', target, status: 500, error: unexpectedError(error, config.dev) } as const;
      return sendDocument(request, reply, failed, visitOf(request, url));
    }
    if (result.ok) {
      const external = leavesSite(result);
      const location = external ? result.redirect : encodeRedirectLocation(result.redirect);
      if (json) {
        return reply.header('cache-control', 'no-store').send({
          redirect: location,
          ...(external ? { external: true } : {}),
          ...(result.flash ? { flash: result.flash } : {}),
          ...(result.user !== undefined ? { user: result.user } : {}),
        });
      }
      if (result.flash) setFlash(reply, result.flash, secureCookies(request));
      // 303: the browser follows with a GET, so a reload never posts the form again.
      return reply.redirect(location, 303);
    }
    const { ok: _ok, status, ...state } = result;
    if (json) return reply.code(status).header('cache-control', 'no-store').send(state);
    const outcome = await loadPage(target, url, pipelineFor(request));
    return sendDocument(request, reply, outcome, visitOf(request, url, { action: { status, state } }));
  }

  /** A browser's form refused before its action ran: the page again, its message on the form, its fields empty. */
  async function sendRefusedForm(request: FastifyRequest, reply: FastifyReply, status: number, code: string) {
    const url = new URL(request.url, 'http://localhost');
    const target = targetOf(request, pageOf(request)!);
    const outcome = await loadPage(target, url, pipelineFor(request));
    const action = target.route.action ? { status, state: { values: {}, errors: {}, message: code } } : undefined;
    if (!action && outcome.type !== 'redirect') reply.code(status);
    return sendDocument(request, reply, outcome, visitOf(request, url, action ? { action } : {}));
  }

  // What is refused before a page's route runs (plugins/app/canonical-path.ts, the body parsers), as a
  // browser sees it: the page's form with its message, or the framed error for an address. Anything
  // else, and every client asking for JSON, goes to plugins/app/errors.ts.
  app.setErrorHandler(async (error: FastifyError, request, reply) => {
    const page = pageOf(request);
    if (page?.answer !== 'document' || !acceptsHtml(request.headers.accept)) throw error;
    const refusedAddress = addressRefusals[(error as { code?: string }).code ?? ''];
    if (refusedAddress) {
      const { statusCode, message } = error as unknown as HttpError;
      return app.renderer.sendRefused(request, reply, {
        statusCode,
        message,
        fatal: false,
        detail: { key: refusedAddress },
      });
    }
    const refusedForm = request.method === 'POST' ? formRefusals[error.code] : undefined;
    if (!refusedForm) throw error;
    return sendRefusedForm(request, reply, error.statusCode ?? 400, refusedForm);
  });

  /** The page's action, on a form whose text is well-formed. */
  function runAction(request: FastifyRequest, reply: FastifyReply, url: URL, target: PageTarget, form: PostedForm) {
    if (form.problem)
      return Promise.resolve({ ok: false, status: 400, ...malformedFormState(form.fields, form.problem) } as const);
    const args = { locale: target.locale, fields: form.fields, redirectTo: redirectParam(url) };
    return serverHalves.get(target.route)!.action!(args, request, reply);
  }

  /** A page without a form takes no posts. */
  function methodNotAllowed(request: FastifyRequest, reply: FastifyReply, url: URL, target: PageTarget, json: boolean) {
    reply.header('allow', 'GET, HEAD');
    const error = { statusCode: 405, message: 'Method Not Allowed', fatal: false };
    if (json) return reply.code(405).send({ statusCode: 405, code: 'METHOD_NOT_ALLOWED', message: error.message });
    return sendDocument(request, reply, { type: 'error', target, status: 405, error }, visitOf(request, url));
  }
}

/** The one-shot notice of the next page (the GET above reads and clears it): a minute is plenty for a redirect. */
function setFlash(reply: FastifyReply, code: FlashCode, secure: boolean): void {
  reply.setCookie(cookieNames.flash, code, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure,
    maxAge: 60,
  });
}
