import { localePath } from '../../contract/locales.ts';
import { formBody, login, perform } from '../../lib/auth/operations.ts';
import { type FormAction, formFailure } from '../../lib/pages/page-server.ts';

export const action: FormAction = async ({ locale, fields, redirectTo }, request, reply) => {
  try {
    const session = await perform(login, request, reply, formBody(login, fields));
    return { ok: true, redirect: redirectTo ?? localePath(locale, '/'), flash: 'signedIn', user: session.user };
  } catch (error) {
    return formFailure(error, { email: fields.email ?? '' }, reply);
  }
};
