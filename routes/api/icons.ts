import type { FastifyInstance, FastifyReply, FastifySchemaValidationError } from 'fastify';
import { matchesIfNoneMatch } from '../../lib/etag.ts';
import { errorResponseSchema, HttpError } from '../../contract/http-error.ts';
import {
  collectionFromParam,
  ICON_NAME_PATTERN,
  MAX_ICONS_PER_REQUEST,
  MAX_NAME_LENGTH,
  parseIconsQuery,
} from '../../contract/icon-names.ts';
import { type IconAnswer, noStore } from '../../lib/icons/answer.ts';

export const ICON_CACHE_CONTROL = 'public, max-age=604800, stale-while-revalidate=86400';

function invalid(message: string): HttpError {
  return new HttpError(400, 'INVALID_ICON_REQUEST', message, undefined, noStore);
}

/** The schema's refusal as this route's own 400, worded as Fastify words it ("querystring/icons must ..."). */
const schemaErrorFormatter = (issues: FastifySchemaValidationError[], dataVar: string) =>
  invalid(
    `Invalid icon request: ${issues.map((issue) => `${dataVar}${issue.instancePath} ${issue.message ?? ''}`).join(', ')}`,
  );

const iconsRouteSchema = {
  params: {
    type: 'object',
    properties: {
      collection: {
        type: 'string',
        maxLength: MAX_NAME_LENGTH + '.json'.length,
        pattern: `${ICON_NAME_PATTERN.slice(0, -1)}\\.json$`,
      },
    },
    required: ['collection'],
  },
  querystring: {
    type: 'object',
    properties: {
      // A comma-separated list; repeated `icons=` params join.
      icons: {
        type: 'array',
        items: { type: 'string', minLength: 1, maxLength: MAX_ICONS_PER_REQUEST * (MAX_NAME_LENGTH + 1) },
        minItems: 1,
        maxItems: MAX_ICONS_PER_REQUEST,
      },
    },
    required: ['icons'],
  },
  response: {
    200: {
      description: 'IconifyJSON subset of the collection',
      type: 'object',
      properties: {
        prefix: { type: 'string' },
        icons: { type: 'object', additionalProperties: true },
        aliases: { type: 'object', additionalProperties: true },
        not_found: { type: 'array', items: { type: 'string' } },
        lastModified: { type: 'number' },
        width: { type: 'number' },
        height: { type: 'number' },
        left: { type: 'number' },
        top: { type: 'number' },
      },
      required: ['prefix', 'icons'],
    },
    304: { description: 'Not modified', type: 'null' },
    400: errorResponseSchema,
    404: errorResponseSchema,
    429: errorResponseSchema,
    502: errorResponseSchema,
    503: errorResponseSchema,
    504: errorResponseSchema,
  },
} as const;

function send(reply: FastifyReply, answer: IconAnswer, ifNoneMatch: string | undefined) {
  if (!answer.found) throw new HttpError(404, answer.code, answer.message, undefined, noStore);
  reply.header('cache-control', ICON_CACHE_CONTROL).header('etag', answer.etag);
  if (matchesIfNoneMatch(ifNoneMatch, answer.etag)) return reply.code(304).send();
  return reply.type('application/json; charset=utf-8').send(answer.body);
}

/**
 * What @nuxt/icon's client asks its server for. Only a request that would make a new upstream
 * call counts against its address's limit (decision 0027).
 */
export default async function iconRoutes(app: FastifyInstance) {
  const limitUpstream = app.rateLimits.perIp('icon-upstream-ip', app.rateLimits.settings.iconUpstreamPerIp, {
    label: 'icon-upstream',
    message: (seconds) => `Too many icon requests for the icon service. Try again in ${seconds} seconds.`,
  });
  app.get<{ Params: { collection: string }; Querystring: { icons?: unknown } }>(
    '/api/_nuxt_icon/:collection',
    // Icons are the same for everybody: a Bearer header (the API client sends one) is never looked up.
    { schema: iconsRouteSchema, schemaErrorFormatter, config: { auth: false } },
    async (request, reply) => {
      // Anything that goes wrong below must not be cached by browsers or proxies.
      reply.header('cache-control', 'no-store');
      const collection = collectionFromParam(request.params.collection);
      if (!collection) throw invalid('Invalid icon collection name.');
      const parsed = parseIconsQuery(request.query.icons);
      if (!parsed.ok) throw invalid(parsed.reason);
      const answer = await app.icons.answer(request.log, collection, parsed.names, {
        beforeUpstream: () => limitUpstream(request),
      });
      return send(reply, answer, request.headers['if-none-match']);
    },
  );
}
