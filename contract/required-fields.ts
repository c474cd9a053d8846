/**
 * The fields a form cannot be sent without, by the page's form action (and, on the account page,
 * the form's `intent`). With JavaScript the browser says "required" at once, without a round trip;
 * the server checks the same fields and stays the authority (test/ssr/required-fields.test.ts
 * fails if the two part ways).
 */
export const requiredFields: Readonly<Record<string, readonly string[]>> = {
  login: ['email', 'password'],
  register: ['email', 'password', 'displayName'],
  forgotPassword: ['email'],
  'account:profile': ['displayName'],
  'account:email': ['newEmail', 'currentPassword'],
  'account:password': ['currentPassword', 'newPassword'],
  'account:deleteAccount': ['password'],
};

/** `{ field: 'required' }` for each required field sent empty, or null. */
export function missingFields(action: string, form: { get(name: string): unknown }): Record<string, 'required'> | null {
  const intent = form.get('intent');
  const names = requiredFields[typeof intent === 'string' ? `${action}:${intent}` : action] ?? [];
  const missing = names.filter((name) => {
    const value = form.get(name);
    return typeof value !== 'string' || value === '';
  });
  return missing.length ? Object.fromEntries(missing.map((name) => [name, 'required'] as const)) : null;
}
