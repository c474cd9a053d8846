import { domainToASCII } from 'node:url';
import { isLocale, type Locale } from '../../contract/locales.ts';
import { isCommonPassword } from './common-passwords.ts';
import { hasTooManyMarks, isExactText, isWellFormedText } from '../text.ts';

/** Field error codes, stable across releases: the API sends them and pages translate them. */
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
  /** A lone surrogate, bytes that were not UTF-8, or U+FFFD where text must be exact. */
  | 'malformed_text'
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
  /** The JSON schema's bound, before the rules above give a precise code. */
  stringHardMax: 1024,
} as const;

/** Code points, not UTF-16 units: an emoji or a Thai character counts once. */
export function codePointLength(value: string): number {
  let count = 0;
  for (const _ of value) count += 1;
  return count;
}

/** Trimmed, NFC, lower-case, domain as `xn--` ASCII. A malformed address just never matches. */
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
 * Text PasswordHasher.hash would refuse gets `malformed_text` here.
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

// Control, format (bidi overrides, zero-width characters), surrogate, private-use and unassigned
// code points, and line and paragraph separators: none belongs in a name shown to others.
const forbiddenInDisplayName = /[\p{C}\p{Zl}\p{Zp}]/u;

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
  email: string;
  password: string;
  displayName: string;
  locale: Locale;
}

export type Validated<T> = { ok: true; value: T } | { ok: false; fields: FieldErrors };

/** Every registration rule, one code per field, all fields at once. */
export function validateRegistration(
  input: Partial<Record<keyof RegistrationInput, unknown>>,
): Validated<Registration> {
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
