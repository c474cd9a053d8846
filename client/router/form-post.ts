import { redirect } from 'react-router';
import { isFlashCode } from '../../contract/flash.ts';
import { formStateFrom, keptValues } from '../../contract/form-state.ts';
import { answerToEmptyForm, type EmptyFormErrors } from '../../contract/required-fields.ts';
import type { FormState, PublicUser } from '../../contract/page-data.ts';
import { loadApiClient } from '../lib/api.ts';
import { setFlash } from '../lib/flash.ts';
import { hardNavigate } from '../lib/navigation-state.ts';
import { setCurrentUser } from '../lib/user-cache.ts';
import { forgetPageData } from './payload.ts';

interface Done {
  redirect: string;
  external?: boolean;
  flash?: unknown;
  user?: PublicUser | null;
}

const isDone = (body: unknown): body is Done =>
  typeof body === 'object' && body !== null && typeof (body as Done).redirect === 'string';

const isFormState = (body: unknown): body is FormState =>
  typeof body === 'object' && body !== null && typeof (body as FormState).values === 'object';

/**
 * Every page's form with JavaScript: posted to the page's own address, where the server runs the
 * same action as without JavaScript and answers its outcome as JSON. A success goes where the action
 * says (with who is signed in now, and the next page's notice); a refusal is the form's state.
 */
export async function postForm(request: Request, emptyFormErrors?: EmptyFormErrors): Promise<FormState | Response> {
  const form = await request.formData();
  // A form sent with nothing typed in it gets the server's answer at once (the page declares it).
  const empty = answerToEmptyForm(emptyFormErrors, form);
  if (empty) return formStateFrom({ fields: empty }, keptValues(form));
  const body = new URLSearchParams();
  for (const [name, value] of form) if (typeof value === 'string') body.append(name, value);
  let answer: unknown;
  try {
    answer = (await (await loadApiClient()).postPageForm(request.url, body, request.signal))._data;
  } catch {
    return formStateFrom(null, keptValues(form));
  }
  if (!isDone(answer)) return isFormState(answer) ? answer : formStateFrom(answer, keptValues(form));
  if (answer.user !== undefined) await setCurrentUser(answer.user);
  if (isFlashCode(answer.flash)) setFlash(answer.flash);
  // What the pages show may have changed: the next load asks the server, not a payload kept earlier.
  forgetPageData();
  if (answer.external) {
    hardNavigate(answer.redirect);
    return new Promise<never>(() => undefined);
  }
  return redirect(answer.redirect);
}
