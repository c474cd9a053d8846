import { domainToASCII } from 'node:url';
import { isLocale, type Locale } from '../../contract/locales.ts';
import { isCommonPassword } from './common-passwords.ts';
import { hasTooManyMarks, isExactText, isWellFormedText } from '../text.ts';

/**
 * Machine codes for field errors, stable across releases: the API answers
 * `{ code: 'VALIDATION_FAILED', fields: { email: 'invalid_email' } }` and pages translate the code.
 */
export type FieldCode =
  | 'required'
  | 'invalid_type'
  | 'unknown_field'
  | 'invalid_value'
  | 'invalid_email'
  | 'too_short'
  | 'too_long'
  | 'common_password'
  | 'same_as_email'
  | 'invalid_characters'
  | 'must_accept'
  | 'incorrect_password'
  | 'same_as_current'
  | 'taken'
  /** A lone surrogate, bytes that were not UTF-8 (lib/text.ts), or U+FFFD where text must be exact. */
  | 'malformed_text'
  /** More than lib/text.ts's maxMarksInARow combining marks on one character of a name. */
  | 'too_many_marks';

export type FieldErrors = Record<string, FieldCode>;

export const limits = {
  emailMax: 254,
  emailLocalPartMax: 64,
  /** Counted in code points. */
  passwordMin: 8,
  passwordMax: 128,
  /** Counted in code points, after trimming. */
  displayNameMax: 50,
  /** What the JSON schema lets through at most, before the rules above give a precise code. */
  stringHardMax: 1024,
} as const;

/** Code points, not UTF-16 units: an emoji or a Thai character counts once. */
export function codePointLength(value: string): number {
  let count = 0;
  for (const _ of value) count += 1;
  return count;
}

/**
 * The form an email is stored and looked up in: trimmed, NFC, lower-case, domain in ASCII
 * (an internationalized domain becomes its `xn--` form, so both spellings are one account).
 * Never fails: a malformed address still normalizes, it just never matches a stored one.
 */
export function normalizeEmail(raw: string): string {
  const lowered = raw.normalize('NFC').trim().toLowerCase();
  const at = lowered.lastIndexOf('@');
  if (at < 0) return lowered;
  const domain = lowered.slice(at + 1);
  const ascii = /^[\x21-\x7e]*$/.test(domain) ? domain : domainToASCII(domain);
  return ascii ? `${lowered.slice(0, at)}@${ascii}` : lowered;
}

// RFC 5321 dot-atom local part, ASCII only (no quoted strings, no SMTPUTF8 local parts).
const localPartPattern = /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
const labelPattern = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/** The normalized email, or the code saying why it is not one. */
export function checkEmail(raw: unknown): { value: string } | { code: FieldCode } {
  if (raw === undefined || raw === null) return { code: 'required' };
  if (typeof raw !== 'string') return { code: 'invalid_type' };
  if (!isWellFormedText(raw)) return { code: 'malformed_text' };
  if (raw.trim() === '') return { code: 'required' };
  if (raw.length > limits.stringHardMax) return { code: 'too_long' };
  // An internationalized domain is a name too (stored as its xn-- form).
  if (hasTooManyMarks(raw.normalize('NFC'))) return { code: 'too_many_marks' };
  const value = normalizeEmail(raw);
  if (value.length > limits.emailMax) return { code: 'too_long' };
  const at = value.lastIndexOf('@');
  if (at <= 0) return { code: 'invalid_email' };
  const local = value.slice(0, at);
  const domain = value.slice(at + 1);
  if (local.length > limits.emailLocalPartMax || !localPartPattern.test(local)) return { code: 'invalid_email' };
  const labels = domain.split('.');
  const tld = labels.at(-1) ?? '';
  if (
    domain.length > 253 ||
    labels.length < 2 ||
    !labels.every((label) => labelPattern.test(label)) ||
    !/^(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/.test(tld)
  ) {
    return { code: 'invalid_email' };
  }
  return { value };
}

/**
 * Why a new password is refused, or null. `email` is the normalized email it must not equal.
 * Never one that is not well-formed, nor one holding U+FFFD: a lone surrogate is hashed as U+FFFD
 * (its UTF-8 form), so either would let a different password match (lib/auth/passwords.ts).
 */
export function checkNewPassword(password: unknown, email: string | null): FieldCode | null {
  if (password === undefined || password === null || password === '') return 'required';
  if (typeof password !== 'string') return 'invalid_type';
  if (!isExactText(password)) return 'malformed_text';
  const length = codePointLength(password);
  if (length < limits.passwordMin) return 'too_short';
  if (length > limits.passwordMax) return 'too_long';
  if (email) {
    const comparable = password.normalize('NFC').trim().toLowerCase();
    const local = email.slice(0, email.lastIndexOf('@'));
    if (comparable === email || comparable === local) return 'same_as_email';
  }
  if (isCommonPassword(password)) return 'common_password';
  return null;
}

// Control (Cc), format (Cf: bidi overrides and isolates, zero-width spaces and joiners, soft
// hyphen, BOM), lone surrogates (Cs), private use (Co) and unassigned (Cn) code points, and the
// line and paragraph separators: none belongs in a name shown to other people.
const forbiddenInDisplayName = /[\p{C}\p{Zl}\p{Zp}]/u;

/**
 * The display name as stored (trimmed, NFC), or the code saying why it is refused. Never text
 * that is not well-formed or holds U+FFFD (what broken text turns into), and at most
 * maxMarksInARow combining marks on a character.
 */
export function checkDisplayName(raw: unknown): { value: string } | { code: FieldCode } {
  if (raw === undefined || raw === null) return { code: 'required' };
  if (typeof raw !== 'string') return { code: 'invalid_type' };
  if (!isExactText(raw)) return { code: 'malformed_text' };
  if (raw.length > limits.stringHardMax) return { code: 'too_long' };
  const value = raw.normalize('NFC').trim();
  if (value === '') return { code: raw === '' ? 'required' : 'too_short' };
  if (forbiddenInDisplayName.test(value)) return { code: 'invalid_characters' };
  if (hasTooManyMarks(value)) return { code: 'too_many_marks' };
  if (codePointLength(value) > limits.displayNameMax) return { code: 'too_long' };
  return { value };
}

export interface RegistrationInput {
  email: string;
  password: string;
  displayName: string;
  locale: Locale;
  acceptTerms: boolean;
  confirmAge: boolean;
}

export interface Registration {
  /** Normalized. */
  email: string;
  password: string;
  /** Trimmed, NFC. */
  displayName: string;
  locale: Locale;
}

export type Validated<T> = { ok: true; value: T } | { ok: false; fields: FieldErrors };

/**
 * Every registration rule, one code per field, all fields at once. Takes unknown values so the
 * JSON API and the no-JavaScript form posts (strings, checkbox `on`) can share it.
 */
export function validateRegistration(input: Partial<Record<keyof RegistrationInput, unknown>>): Validated<Registration> {
  const fields: FieldErrors = {};
  const email = checkEmail(input.email);
  if ('code' in email) fields.email = email.code;
  const password = checkNewPassword(input.password, 'value' in email ? email.value : null);
  if (password) fields.password = password;
  const displayName = checkDisplayName(input.displayName);
  if ('code' in displayName) fields.displayName = displayName.code;
  if (input.locale === undefined || input.locale === null) fields.locale = 'required';
  else if (!isLocale(input.locale)) fields.locale = 'invalid_value';
  for (const name of ['acceptTerms', 'confirmAge'] as const) {
    const value = input[name];
    if (value === undefined || value === null) fields[name] = 'required';
    else if (typeof value !== 'boolean') fields[name] = 'invalid_type';
    else if (!value) fields[name] = 'must_accept';
  }
  if (Object.keys(fields).length > 0 || !('value' in email) || !('value' in displayName)) {
    return { ok: false, fields };
  }
  return {
    ok: true,
    value: {
      email: email.value,
      password: input.password as string,
      displayName: displayName.value,
      locale: input.locale as Locale,
    },
  };
}
