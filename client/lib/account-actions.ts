import { redirect } from 'react-router';
import { localePath, type Locale } from '../../contract/locales.ts';
import { loginThenBackTo } from '../../contract/login-path.ts';
import type { FormState } from '../../contract/page-data.ts';
import { clearPayloadCache } from '../router/payload.ts';
import type { PublicUser } from '../../contract/page-data.ts';
import { api } from './api.ts';
import { setFlash } from './flash.ts';
import { formStateFromError } from './form-state.ts';
import { formText } from './form-text.ts';
import { setCurrentUser } from './user-cache.ts';

/** The last submission's state if it came from the form with this intent ("take a break" has none). */
export function formStateFor(actionData: unknown, intent: string): FormState | undefined {
  const state = actionData as FormState | undefined;
  if (!state || typeof state !== 'object' || !state.values) return undefined;
  return (state.values.intent ?? 'selfExclusion') === intent ? state : undefined;
}

type Intent = (form: FormData, locale: Locale) => Promise<string>;

/**
 * The account page's forms with JavaScript, by intent: each calls the API and names what it did
 * (`?done=...`), as the server's form actions do without JavaScript (routes/forms/account.ts).
 */
const intents: Record<string, Intent> = {
  async resendVerification() {
    await api('/account/verification', { method: 'POST' });
    return 'verification-sent';
  },
  async profile(form) {
    const { user } = await api<{ user: PublicUser }>('/account/profile', {
      method: 'PATCH',
      body: { displayName: formText(form, 'displayName'), locale: formText(form, 'locale') },
    });
    await setCurrentUser(user);
    return 'profile-saved';
  },
  async password(form) {
    await api('/account/password', {
      method: 'POST',
      body: { currentPassword: formText(form, 'currentPassword'), newPassword: formText(form, 'newPassword') },
    });
    return 'password-changed';
  },
  async email(form) {
    await api('/account/email', {
      method: 'POST',
      body: { currentPassword: formText(form, 'currentPassword'), newEmail: formText(form, 'newEmail') },
    });
    return 'email-change-sent';
  },
  async endSession(form) {
    await api(`/account/sessions/${encodeURIComponent(formText(form, 'sessionId'))}`, { method: 'DELETE' });
    return 'session-ended';
  },
  async endOtherSessions() {
    await api('/account/sessions', { method: 'DELETE' });
    return 'other-sessions-ended';
  },
};

/** Deleting the account ends on the home page, logged out, with a notice. */
async function deleteAccount(form: FormData, locale: Locale): Promise<Response> {
  await api('/account', { method: 'DELETE', body: { password: formText(form, 'password') } });
  await setCurrentUser(null);
  setFlash('accountDeleted');
  clearPayloadCache();
  return redirect(localePath(locale, '/'));
}

export async function accountIntentAction(
  intent: string,
  locale: Locale,
  form: FormData,
): Promise<FormState | Response> {
  const accountPath = localePath(locale, '/account');
  const run = Object.hasOwn(intents, intent) ? intents[intent] : intent === 'deleteAccount' ? 'delete' : undefined;
  if (!run) return { values: { intent }, errors: {}, message: 'UNKNOWN' };
  const values: Record<string, string> = { intent };
  for (const [name, value] of form) {
    // Typed values come back after an error; passwords never do.
    if (typeof value === 'string' && !/password/i.test(name)) values[name] = value;
  }
  try {
    if (run === 'delete') return await deleteAccount(form, locale);
    const done = await run(form, locale);
    // The page's data changed: the next load must ask the server, not reuse the payload just shown.
    clearPayloadCache();
    return redirect(`${accountPath}?done=${done}`);
  } catch (error) {
    if ((error as { statusCode?: number }).statusCode === 401) {
      return redirect(loginThenBackTo(locale, accountPath));
    }
    return formStateFromError(error, values);
  }
}
