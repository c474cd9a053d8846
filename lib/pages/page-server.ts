import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { formStateFrom } from '../../contract/form-state.ts';
import { HttpError } from '../../contract/http-error.ts';
import { tokenProblemOf } from '../http/link-errors.ts';
import type { FormActionArgs, FormActionResult, PageDataArgs } from '../../contract/page-data.ts';

/** A page's data, for its document and its `_payload.json` alike; its page reads `typeof loader`. */
export type PageLoader = (app: FastifyInstance, args: PageDataArgs) => unknown;

/** A page's form action: the same service calls as the JSON API; may set cookies on the reply. */
export type FormAction = (
  args: FormActionArgs,
  request: FastifyRequest,
  reply: FastifyReply,
) => Promise<FormActionResult>;

export interface PageServerModule {
  loader?: PageLoader;
  action?: FormAction;
}

/** A service's refusal as the form shows it (429 keeps its Retry-After); anything else propagates. */
export function formFailure(error: unknown, values: Record<string, string>, reply: FastifyReply): FormActionResult {
  if (!(error instanceof HttpError)) throw error;
  if (error.headers) reply.headers(error.headers);
  return { ok: false, status: error.statusCode, ...formStateFrom(error, values) };
}

/** An emailed link that cannot be used: its page says why (`?problem=used`). */
export function linkFailure(error: unknown, page: string): FormActionResult | null {
  const problem = tokenProblemOf(error);
  return problem ? { ok: true, redirect: `${page}?problem=${problem}` } : null;
}
