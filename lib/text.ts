import { isUtf8 } from 'node:buffer';

/*
 * Text that is not text: a lone UTF-16 surrogate (a JSON `\uD800` escape) has no UTF-8 form, and
 * bytes that are not UTF-8 have no characters. Node turns both into U+FFFD when it converts them
 * (decoding a body, hashing a password, writing to the database), so two different inputs would
 * become one stored value. Everything here finds them before that happens, so they can be refused.
 */

/** The field code of text that is not well-formed (pages translate it: locales `form.errors`). */
export const malformedTextCode = 'malformed_text';

// With the `u` flag a surrogate pair is one code point: only a lone surrogate matches.
const loneSurrogate = /\p{Cs}/u;

/** True when `value` is well-formed UTF-16: no lone surrogate (String.prototype.isWellFormed, ES2024). */
export function isWellFormedText(value: string): boolean {
  return !loneSurrogate.test(value);
}

/**
 * Well-formed, and without U+FFFD: the replacement character is what a lone surrogate or a byte
 * that was not UTF-8 becomes, so in a password or a name it stands for text that was broken on
 * its way here, and is refused rather than kept.
 */
export function isExactText(value: string): boolean {
  return isWellFormedText(value) && !value.includes('\ufffd');
}

/**
 * At most this many combining marks (Unicode category M) follow one another in a name: Thai
 * stacks at most a vowel and a tone mark on a consonant (ผู้, นํ้า), Vietnamese two accents, both
 * within it; "A" with 49 marks is a smear over the lines around it (Zalgo text), not a name.
 */
export const maxMarksInARow = 4;

const tooManyMarks = new RegExp(`\\p{M}{${maxMarksInARow + 1},}`, 'u');

/** True when some character of `value` carries more than `maxMarksInARow` combining marks. */
export function hasTooManyMarks(value: string): boolean {
  return tooManyMarks.test(value);
}

/**
 * The fields of a parsed JSON body that hold a string which is not well-formed (in a value at any
 * depth, or in a key), by top-level name; `body` when the body itself or a top-level key is one.
 * Iterative: a body nested thousands deep must not exhaust the stack.
 */
export function malformedJsonFields(body: unknown): string[] {
  const found = new Set<string>();
  /** True when `root` holds a string (or a key) that is not well-formed. */
  const holdsMalformed = (root: unknown): boolean => {
    const pending = [root];
    while (pending.length > 0) {
      const value = pending.pop();
      if (typeof value === 'string') {
        if (!isWellFormedText(value)) return true;
      } else if (typeof value === 'object' && value !== null) {
        for (const [key, item] of Object.entries(value)) {
          if (!isWellFormedText(key)) return true;
          pending.push(item);
        }
      }
    }
    return false;
  };
  if (typeof body === 'object' && body !== null && !Array.isArray(body)) {
    for (const [key, value] of Object.entries(body)) {
      if (!isWellFormedText(key)) found.add('body');
      else if (holdsMalformed(value)) found.add(key);
    }
  } else if (holdsMalformed(body)) {
    found.add('body');
  }
  return [...found];
}

/**
 * The bytes with every byte that is not part of a well-formed UTF-8 sequence replaced by
 * `replacement` (which the caller picks so that it stands out, e.g. a JSON escape of a lone
 * surrogate); the rest decoded as UTF-8.
 */
export function replaceInvalidUtf8(bytes: Buffer, replacement: string): string {
  let text = '';
  let start = 0;
  let index = 0;
  while (index < bytes.length) {
    const byte = bytes[index]!;
    const length = byte < 0x80 ? 1 : byte >= 0xc2 && byte <= 0xdf ? 2 : byte >= 0xe0 && byte <= 0xef ? 3 : byte >= 0xf0 && byte <= 0xf4 ? 4 : 0;
    if (length === 1 || (length > 1 && index + length <= bytes.length && isUtf8(bytes.subarray(index, index + length)))) {
      index += length;
      continue;
    }
    text += bytes.toString('utf8', start, index) + replacement;
    index += 1;
    start = index;
  }
  return text + bytes.toString('utf8', start);
}

/** What is wrong with the text of a form post (application/x-www-form-urlencoded), or null. */
export interface FormTextProblem {
  /** The fields (by name) whose value is not UTF-8 once percent-decoded. */
  fields: string[];
  /** True when the name of a field is not UTF-8 itself, so it cannot be named. */
  unnamed: boolean;
}

const percentEscape = /%([0-9A-Fa-f]{2})/g;

/** A urlencoded name or value as the bytes it stands for ('+' is a space, `%XX` a byte). */
function formBytes(part: string): Buffer {
  return Buffer.from(part.replace(/\+/g, ' ').replace(percentEscape, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))), 'latin1');
}

/**
 * Checks a urlencoded body as the bytes it came as: a field's name and value, once
 * percent-decoded (WHATWG's urlencoded parser), must be UTF-8, whether the bad bytes came raw or
 * as `%FF`. (The parsers that turn the body into fields replace bad bytes with U+FFFD silently.)
 */
export function checkFormText(body: Buffer): FormTextProblem | null {
  // Valid UTF-8 without a single escape: every field is valid too ('&', '=' and '+' are ASCII,
  // never inside a multi-byte sequence).
  if (isUtf8(body) && !body.includes(0x25)) return null;
  const fields = new Set<string>();
  let unnamed = false;
  for (const pair of body.toString('latin1').split('&')) {
    if (pair === '') continue;
    const equals = pair.indexOf('=');
    const name = formBytes(equals < 0 ? pair : pair.slice(0, equals));
    const value = formBytes(equals < 0 ? '' : pair.slice(equals + 1));
    if (!isUtf8(name)) unnamed = true;
    else if (!isUtf8(value)) fields.add(name.toString('utf8'));
  }
  return fields.size > 0 || unnamed ? { fields: [...fields], unnamed } : null;
}
