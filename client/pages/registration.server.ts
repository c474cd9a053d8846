import { localePath } from '../../contract/locales.ts';
import { formBody, perform, register } from '../../lib/auth/operations.ts';
import { type FormAction, formFailure } from '../../lib/pages/page-server.ts';

export const action: FormAction = async ({ locale, fields, redirectTo }, request, reply) => {
  try {
    const session = await perform(register, request, reply, { ...formBody(register, fields), locale });
    return { ok: true, redirect: redirectTo ?? localePath(locale, '/'), flash: 'registered', user: session.user };
  } catch (error) {
    return formFailure(error, { email: fields.email ?? '', displayName: fields.displayName ?? '' }, reply);
  }
};
