/**
 * The server's answer to a form sent with nothing typed, by page id (and `intent`): the browser
 * gives it at once only then (test/ssr/required-fields.test.ts keeps the two equal).
 */
export const emptyFormErrors: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  login: { email: 'required', password: 'required' },
  registration: {
    email: 'required',
    displayName: 'required',
    password: 'required',
    acceptTerms: 'must_accept',
    confirmAge: 'must_accept',
  },
  'forgot-password': { email: 'required' },
  'account:email': { newEmail: 'required', currentPassword: 'required' },
  'account:password': { currentPassword: 'required', newPassword: 'required' },
  'account:deleteAccount': { password: 'required' },
};

/** The server's answer to this form if nothing was typed in it (and the form is one listed above), else null. */
export function answerToEmptyForm(page: string, form: { get(name: string): unknown }): Record<string, string> | null {
  const intent = form.get('intent');
  const errors = emptyFormErrors[typeof intent === 'string' ? `${page}:${intent}` : page];
  if (!errors) return null;
  const typed = Object.keys(errors).some((name) => {
    const value = form.get(name);
    return typeof value === 'string' && value !== '';
  });
  return typed ? null : { ...errors };
}
