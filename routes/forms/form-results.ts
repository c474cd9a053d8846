import type { FastifyReply, FastifyRequest } from 'fastify';
import { cookieNames } from '../../contract/cookies.ts';
import type { FlashCode } from '../../contract/flash.ts';
import { HttpError } from '../../contract/http-error.ts';
import type { FormActionResult } from '../../contract/page-data.ts';

/** An API error as the form shows it (429 keeps its Retry-After); anything else propagates. */
export function formFailure(error: unknown, values: Record<string, string>, reply: FastifyReply): FormActionResult {
  if (!(error instanceof HttpError)) throw error;
  if (error.headers) reply.headers(error.headers);
  return {
    ok: false,
    status: error.statusCode,
    values,
    errors: error.fields ?? {},
    ...(error.fields ? {} : { message: error.code }),
  };
}

/** The one-shot notice of the next page (routes/pages.ts reads and clears it): a minute is plenty for a redirect. */
export function setFlash(request: FastifyRequest, reply: FastifyReply, code: FlashCode): void {
  reply.setCookie(cookieNames.flash, code, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: request.protocol === 'https',
    maxAge: 60,
  });
}
