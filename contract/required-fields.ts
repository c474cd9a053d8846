/**
 * What the server answers a form sent with nothing typed in it, by the page's form action (and, on
 * the account page, the form's `intent`): each field's error code. With JavaScript the browser
 * gives this answer at once, without a round trip, but only when nothing was typed, where it is
 * the server's own answer (test/ssr/required-fields.test.ts holds the two together). Anything
 * typed goes to the server, the authority on what is wrong with it.
 */
export const emptyFormErrors: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  login: { email: 'required', password: 'required' },
  register: {
    email: 'required',
    displayName: 'required',
    password: 'required',
    acceptTerms: 'must_accept',
    confirmAge: 'must_accept',
  },
  forgotPassword: { email: 'required' },
  'account:email': { newEmail: 'required', currentPassword: 'required' },
  'account:password': { currentPassword: 'required', newPassword: 'required' },
  'account:deleteAccount': { password: 'required' },
};

/** The server's answer to this form if nothing was typed in it (and the form is one listed above), else null. */
export function answerToEmptyForm(action: string, form: { get(name: string): unknown }): Record<string, string> | null {
  const intent = form.get('intent');
  const errors = emptyFormErrors[typeof intent === 'string' ? `${action}:${intent}` : action];
  if (!errors) return null;
  const typed = Object.keys(errors).some((name) => {
    const value = form.get(name);
    return typeof value === 'string' && value !== '';
  });
  return typed ? null : { ...errors };
}
