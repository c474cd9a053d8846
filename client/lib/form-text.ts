/** A text field of a submitted form; `fallback` when it is missing (a form has no files here). */
export function formText(form: FormData, name: string, fallback = ''): string {
  const value = form.get(name);
  return typeof value === 'string' ? value : fallback;
}
