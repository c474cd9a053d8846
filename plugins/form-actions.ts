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

/**
 * The named server-side form actions the route table points at (`action: 'login'`). With
 * JavaScript the page submits to the JSON API instead; both paths end in the same service calls.
 */
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

/**
 * A form whose text is not text (bytes that are not UTF-8, routes/pages.ts): the action never
 * runs, since its fields hold U+FFFD where those bytes were. 400, `malformed_text` on each such
 * field, `MALFORMED_TEXT` for the form when a field's name is the broken part; the other values
 * stay as typed (never a password or a link's token).
 */
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
    /** What is wrong with the text of the form this request posted, if anything (routes/pages.ts). */
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
