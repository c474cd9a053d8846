import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errorResponseSchema, HttpError } from '../../contract/http-error.ts';
import { jsonApiScope } from '../../lib/json-api.ts';
import { launchProblemCodes } from '../../contract/play.ts';
import { play } from '../../lib/auth/operations.ts';
import { errorResponses, operationRoute } from './schemas.ts';

const verifyBodySchema = {
  type: 'object',
  additionalProperties: false,
  properties: { token: { type: 'string' } },
  required: ['token'],
} as const;

export const untilErrorSchema = {
  type: 'object',
  properties: { ...errorResponseSchema.properties, until: { type: 'string', format: 'date-time' } },
  required: [...errorResponseSchema.required, 'until'],
} as const;

const verifiedSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    valid: { type: 'boolean', const: true },
    user: {
      type: 'object',
      additionalProperties: false,
      properties: { id: { type: 'string' }, displayName: { type: 'string' } },
      required: ['id', 'displayName'],
    },
    session: {
      type: 'object',
      additionalProperties: false,
      properties: {
        id: { type: 'string' },
        startedAt: { type: 'string', format: 'date-time' },
        locale: { type: 'string' },
      },
      required: ['id', 'startedAt', 'locale'],
    },
  },
  required: ['valid', 'user', 'session'],
} as const;

const errors = errorResponses(400, 401, 404, 409, 410, 413, 415, 429, 500);

const verifyFailures = {
  invalid: [400, launchProblemCodes.invalid, 'The launch token is malformed or its signature is wrong.'],
  unknown: [404, launchProblemCodes.unknown, 'No such launch token was issued.'],
  used: [409, launchProblemCodes.used, 'The launch token has already been used.'],
  expired: [410, launchProblemCodes.expired, 'The launch token has expired.'],
  foreign: [403, launchProblemCodes.foreign, 'This launch token belongs to another player.'],
} as const;

function sameSecret(presented: string, expected: string): boolean {
  // Hashes have one length, so the comparison takes the same time whatever was sent.
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(presented), digest(expected));
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Who verifies a launch token: the play destination (its key), or a player (their session). */
    launchVerifier?: { kind: 'destination' } | { kind: 'player'; userId: string };
  }
}

/** Play's 403: PLAY_SELF_EXCLUDED with `until`, or EMAIL_NOT_VERIFIED (REQUIRE_VERIFIED_EMAIL_FOR_PLAY) without. */
const forbiddenSchema = {
  type: 'object',
  properties: untilErrorSchema.properties,
  required: [...errorResponseSchema.required],
} as const;

/** 403 PLAY_SELF_EXCLUDED and 409 SELF_EXCLUSION_ACTIVE carry the end of the break. */
export function sendUntilError(reply: FastifyReply, statusCode: number, code: string, message: string, until: string) {
  return reply.code(statusCode).send({ statusCode, code, message, until });
}

/** Play, and the destination's server-to-server check of a launch token (decision 0007). */
export default async function playRoutes(scope: FastifyInstance) {
  const app = jsonApiScope(scope);

  app.post(
    '/',
    {
      preHandler: app.accounts.requireUser,
      ...operationRoute(play, {
        200: { type: 'object', properties: { url: { type: 'string' } }, required: ['url'] },
        403: forbiddenSchema,
        ...errors,
      }),
    },
    async (request, reply) => {
      const started = await play.run(request, reply, request.body);
      if (!started.ok && started.code === 'EMAIL_NOT_VERIFIED') {
        throw new HttpError(
          403,
          'EMAIL_NOT_VERIFIED',
          'Confirm your email address before you play: use the link we sent you.',
        );
      }
      if (!started.ok)
        return sendUntilError(
          reply,
          403,
          'PLAY_SELF_EXCLUDED',
          'You are taking a break from play until it ends.',
          started.until,
        );
      return { url: started.url };
    },
  );

  const limitVerify = app.rateLimits.perIp('play-verify-ip', app.rateLimits.settings.playVerifyPerIp, {
    label: 'play-verify',
    message: (seconds) => `Too many verifications. Try again in ${seconds} seconds.`,
  });

  /**
   * Only the destination (PLAY_VERIFY_KEY) or the player the token was issued to may spend it;
   * anyone else holding one (it travels in a URL) is refused before it is looked at.
   */
  async function authorizeVerify(request: FastifyRequest) {
    const presented = app.accounts.bearerToken(request);
    const key = app.config.playVerifyKey;
    if (presented && key && sameSecret(presented, key)) {
      request.launchVerifier = { kind: 'destination' };
      return;
    }
    const player = presented ? await app.accounts.userFromToken(presented) : null;
    if (!player) {
      throw new HttpError(
        401,
        'PLAY_VERIFY_UNAUTHORIZED',
        'Send the play destination key (or your session) as a Bearer token.',
        undefined,
        {
          'www-authenticate': 'Bearer',
        },
      );
    }
    request.launchVerifier = { kind: 'player', userId: player.id };
  }

  app.post(
    '/verify',
    {
      // Authenticated by authorizeVerify (the destination's key or the player's session).
      config: { auth: false },
      onRequest: limitVerify,
      preValidation: authorizeVerify,
      schema: { body: verifyBodySchema, response: { 200: verifiedSchema, 403: errorResponseSchema, ...errors } },
    },
    async (request) => {
      const verifier = request.launchVerifier;
      const result = await app.play.service.verify(
        request.body.token,
        verifier?.kind === 'player' ? { player: verifier.userId } : {},
      );
      if (result.ok) return result.launch;
      const [status, code, message] = verifyFailures[result.reason];
      throw new HttpError(status, code, message);
    },
  );
}
