import { keptValues } from '../../contract/form-state.ts';
import { localePath, type Locale } from '../../contract/locales.ts';
import { loginThenBackTo } from '../../contract/login-path.ts';
import type { FormActionArgs, FormActionResult } from '../../contract/page-data.ts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  changePassword,
  checkBody,
  deleteAccount,
  endSession,
  formBody,
  perform,
  requestEmailChange,
  selfExclude,
  updateProfile,
} from '../../lib/auth/operations.ts';
import { type FormAction, formFailure, type PageLoader } from '../../lib/pages/page-server.ts';

/** One form of the account page, told apart by its `intent` field; the user is signed in. */
type Intent = (
  args: FormActionArgs,
  request: FastifyRequest & { user: object },
  reply: FastifyReply,
) => Promise<FormActionResult>;

const accountPath = (locale: Locale) => localePath(locale, '/account');
const done = (locale: Locale, what: string): FormActionResult => ({
  ok: true,
  redirect: `${accountPath(locale)}?done=${what}`,
});

/** "Take a break": first the period, then (it cannot be undone) the confirmation. */
const selfExclusion: Intent = async ({ locale, fields }, request, reply) => {
  const body = { period: fields.period ?? '' };
  checkBody(selfExclude, body);
  if (fields.step !== 'confirm') return { ok: false, status: 200, values: { ...body, step: 'confirm' }, errors: {} };
  const result = await perform(selfExclude, request, reply, body);
  if (!result.ok) return { ok: false, status: 409, values: body, errors: {}, message: 'SELF_EXCLUSION_ACTIVE' };
  return { ok: true, redirect: accountPath(locale) };
};

/** As the JSON API; a refusal keeps what was typed (never a password). */
const intents: Record<string, Intent> = {
  selfExclusion,
  async resendVerification({ locale }, request) {
    await request.server.emailVerification.resend(request);
    return done(locale, 'verification-sent');
  },
  async profile({ locale, fields }, request, reply) {
    const user = await perform(updateProfile, request, reply, formBody(updateProfile, fields));
    return { ...done(locale, 'profile-saved'), user };
  },
  async password({ locale, fields }, request, reply) {
    await perform(changePassword, request, reply, formBody(changePassword, fields));
    return done(locale, 'password-changed');
  },
  async email({ locale, fields }, request, reply) {
    await perform(requestEmailChange, request, reply, formBody(requestEmailChange, fields));
    return done(locale, 'email-change-sent');
  },
  async endSession({ locale, fields }, request, reply) {
    await perform(endSession, request, reply, { id: fields.sessionId ?? '' });
    return done(locale, 'session-ended');
  },
  async endOtherSessions({ locale }, request) {
    await request.server.accountSettings.endOtherSessions(request);
    return done(locale, 'other-sessions-ended');
  },
  async deleteAccount({ locale, fields }, request, reply) {
    await perform(deleteAccount, request, reply, formBody(deleteAccount, fields));
    return { ok: true, redirect: localePath(locale, '/'), flash: 'accountDeleted', user: null };
  },
};

/**
 * Every form of the account page posts to `/account` with a hidden `intent`; without one it is
 * "take a break". Signed out, the visitor logs in and comes back.
 */
export const action: FormAction = async (args, request, reply) => {
  const { locale, fields } = args;
  if (!request.user) return { ok: true, redirect: loginThenBackTo(locale, accountPath(locale)) };
  const signedIn = request as FastifyRequest & { user: object };
  const intent = fields.intent ?? 'selfExclusion';
  const run = Object.hasOwn(intents, intent) ? intents[intent] : undefined;
  if (!run) return { ok: false, status: 400, values: { intent: '' }, errors: {}, message: 'UNKNOWN_INTENT' };
  try {
    return await run(args, signedIn, reply);
  } catch (error) {
    const kept = { intent, ...keptValues(Object.entries(fields), ['intent']) };
    return formFailure(error, intent === 'selfExclusion' ? { period: fields.period ?? '' } : kept, reply);
  }
};

export const loader = ((app, args) => app.accountSettings.accountPage(args)) satisfies PageLoader;
