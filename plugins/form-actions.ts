import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { FormActionArgs, FormActionResult } from '../contract/page-data.ts';
import { type FormTextProblem, malformedTextCode } from '../lib/text.ts';

/** Handles a page's form posted without JavaScript; may set cookies on the reply. */
export type FormAction = (
  args: FormActionArgs,
  request: FastifyRequest,
  reply: FastifyReply,
) => Promise<FormActionResult>;

/** The form actions the route table names (`action: 'login'`); with JavaScript pages use the API. */
class FormActionRegistry {
  readonly #actions = new Map<string, FormAction>();

  define(name: string, action: FormAction): void {
    if (this.#actions.has(name)) throw new Error(`Form action '${name}' is defined twice.`);
    this.#actions.set(name, async (args, request, reply) => {
      const problem = request.formTextProblem;
      return problem ? malformedForm(args, problem) : action(args, request, reply);
    });
  }

  get(name: string): FormAction | undefined {
    return this.#actions.get(name);
  }
}

/** Bytes that are not UTF-8 read as U+FFFD: the action never runs; values stay, but no secrets. */
function malformedForm({ fields }: FormActionArgs, problem: FormTextProblem): FormActionResult {
  const values: Record<string, string> = {};
  for (const [name, value] of Object.entries(fields)) {
    if (!problem.fields.includes(name) && !/password|token/i.test(name) && !name.includes('\ufffd'))
      values[name] = value;
  }
  return {
    ok: false,
    status: 400,
    values,
    errors: Object.fromEntries(problem.fields.map((name) => [name, malformedTextCode])),
    ...(problem.unnamed || problem.fields.length === 0 ? { message: 'MALFORMED_TEXT' } : {}),
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    formActions: FormActionRegistry;
  }
  interface FastifyRequest {
    /** Set by routes/pages.ts. */
    formTextProblem: FormTextProblem | null;
  }
}

export default fp(
  async (app) => {
    app.decorate('formActions', new FormActionRegistry());
    app.decorateRequest('formTextProblem', null);
  },
  { name: 'form-actions' },
);
