import type { FastifyReply } from 'fastify';
import { HttpError } from '../../../contract/http-error.ts';
import { formStateFrom } from '../../../contract/form-state.ts';
import type { FormActionArgs, FormActionResult } from '../../../contract/page-data.ts';
import type { FastifyRequest } from 'fastify';

/** A page's form action: the same service calls as the JSON API; may set cookies on the reply. */
export type FormAction = (
  args: FormActionArgs,
  request: FastifyRequest,
  reply: FastifyReply,
) => Promise<FormActionResult>;

/** A service's refusal as the form shows it (429 keeps its Retry-After); anything else propagates. */
export function formFailure(error: unknown, values: Record<string, string>, reply: FastifyReply): FormActionResult {
  if (!(error instanceof HttpError)) throw error;
  if (error.headers) reply.headers(error.headers);
  return { ok: false, status: error.statusCode, ...formStateFrom(error, values) };
}
