import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { FormActionArgs, FormActionResult } from '../contract/page-data.ts';

/** Handles a page's form posted without JavaScript; may set cookies on the reply. */
export type FormAction = (args: FormActionArgs, request: FastifyRequest, reply: FastifyReply) => Promise<FormActionResult>;

/**
 * The named server-side form actions the route table points at (`action: 'login'`). With
 * JavaScript the page submits to the JSON API instead; both paths end in the same service calls.
 */
class FormActionRegistry {
  readonly #actions = new Map<string, FormAction>();

  define(name: string, action: FormAction): void {
    if (this.#actions.has(name)) throw new Error(`Form action '${name}' is defined twice.`);
    this.#actions.set(name, action);
  }

  get(name: string): FormAction | undefined {
    return this.#actions.get(name);
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    formActions: FormActionRegistry;
  }
}

export default fp(
  async (app) => {
    app.decorate('formActions', new FormActionRegistry());
  },
  { name: 'form-actions' },
);
