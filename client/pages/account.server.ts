import { keptValues } from '../../contract/form-state.ts';
import { localePath, type Locale } from '../../contract/locales.ts';
import { loginThenBackTo } from '../../contract/login-path.ts';
import type { FormActionArgs, FormActionResult } from '../../contract/page-data.ts';
import { isSelfExclusionPeriod } from '../../contract/play.ts';
import type { FastifyReply, FastifyRequest } from 'fastify';
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
const selfExclusion: Intent = async ({ locale, fields }, request): Promise<FormActionResult> => {
  const period = fields.period ?? '';
  if (!isSelfExclusionPeriod(period)) {
    return {
      ok: false,
      status: 400,
      values: { period },
      errors: { period: period === '' ? 'required' : 'invalid_value' },
    };
  }
  if (fields.step !== 'confirm') return { ok: false, status: 200, values: { period, step: 'confirm' }, errors: {} };
  const result = await request.server.play.service.selfExclude(request.user.id, period);
  if (!result.ok) return { ok: false, status: 409, values: { period }, errors: {}, message: 'SELF_EXCLUSION_ACTIVE' };
  return { ok: true, redirect: accountPath(locale) };
};

/** Through `app.accountSettings`, as the JSON API; a refusal keeps what was typed (never a password). */
const settingsIntents: Record<string, Intent> = {
  async resendVerification({ locale }, request) {
    await request.server.emailVerification.resend(request);
    return done(locale, 'verification-sent');
  },
  async profile({ locale, fields }, request) {
    const user = await request.server.accountSettings.updateProfile(request, {
      displayName: fields.displayName ?? '',
      locale: fields.locale ?? '',
    });
    return { ...done(locale, 'profile-saved'), user };
  },
  async password({ locale, fields }, request) {
    await request.server.accountSettings.changePassword(
      request,
      fields.currentPassword ?? '',
      fields.newPassword ?? '',
    );
    return done(locale, 'password-changed');
  },
  async email({ locale, fields }, request) {
    await request.server.accountSettings.requestEmailChange(
      request,
      fields.currentPassword ?? '',
      fields.newEmail ?? '',
    );
    return done(locale, 'email-change-sent');
  },
  async endSession({ locale, fields }, request) {
    await request.server.accountSettings.endSession(request, fields.sessionId ?? '');
    return done(locale, 'session-ended');
  },
  async endOtherSessions({ locale }, request) {
    await request.server.accountSettings.endOtherSessions(request);
    return done(locale, 'other-sessions-ended');
  },
  async deleteAccount({ locale, fields }, request, reply) {
    await request.server.accountSettings.deleteAccount(request, fields.password ?? '');
    request.server.accounts.clearSessionCookie(request, reply);
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
  if (intent === 'selfExclusion') return selfExclusion(args, signedIn, reply);
  const run = Object.hasOwn(settingsIntents, intent) ? settingsIntents[intent] : undefined;
  if (!run) return { ok: false, status: 400, values: { intent: '' }, errors: {}, message: 'UNKNOWN_INTENT' };
  try {
    return await run(args, signedIn, reply);
  } catch (error) {
    return formFailure(error, { intent, ...keptValues(Object.entries(fields), ['intent']) }, reply);
  }
};

export const loader = ((app, args) => app.accountSettings.accountPage(args)) satisfies PageLoader;
