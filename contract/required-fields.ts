/** A page's answer to its empty form, by `intent` ('' for none), which the browser gives at once. */
export type EmptyFormErrors = Readonly<Record<string, Readonly<Record<string, string>>>>;

/** That answer if nothing was typed in this form (test/ssr/required-fields.test.ts: as the server's). */
export function answerToEmptyForm(
  byIntent: EmptyFormErrors | undefined,
  form: { get(name: string): unknown },
): Record<string, string> | null {
  const intent = form.get('intent');
  const errors = byIntent?.[typeof intent === 'string' ? intent : ''];
  if (!errors) return null;
  const typed = Object.keys(errors).some((name) => {
    const value = form.get(name);
    return typeof value === 'string' && value !== '';
  });
  return typed ? null : { ...errors };
}
