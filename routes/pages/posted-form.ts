import type { FormState } from '../../contract/page-data.ts';
import { checkFormText, type FormTextProblem, malformedTextCode } from '../../lib/text.ts';

/** A urlencoded form as posted: its fields (the last value of a repeated name) and any bytes that are not UTF-8. */
export class PostedForm {
  constructor(
    readonly fields: Record<string, string>,
    readonly problem: FormTextProblem | null,
  ) {}

  /** Parses a page's form body once, as bytes: text that is not UTF-8 is refused, never stored. */
  static read(bytes: Buffer): PostedForm {
    const fields: Record<string, string> = {};
    for (const [name, value] of new URLSearchParams(bytes.toString('utf8'))) fields[name] = value;
    return new PostedForm(fields, checkFormText(bytes));
  }

  /** A page's POST body: the parsed form, or nothing a form could have sent (no body, JSON). */
  static of(body: unknown): PostedForm {
    return body instanceof PostedForm ? body : new PostedForm({}, null);
  }
}

/** Bytes that are not UTF-8 read as U+FFFD: the action never runs; values stay, but no secrets. */
export function malformedFormState(fields: Record<string, string>, problem: FormTextProblem): FormState {
  const values: Record<string, string> = {};
  for (const [name, value] of Object.entries(fields)) {
    if (!problem.fields.includes(name) && !/password|token/i.test(name) && !name.includes('\ufffd'))
      values[name] = value;
  }
  return {
    values,
    errors: Object.fromEntries(problem.fields.map((name) => [name, malformedTextCode])),
    ...(problem.unnamed || problem.fields.length === 0 ? { message: 'MALFORMED_TEXT' } : {}),
  };
}
