import { isUtf8 } from 'node:buffer';

/*
 * Lone surrogates and bytes that are not UTF-8 become U+FFFD wherever Node converts them, so two
 * different inputs would become one stored value. These find them first, to be refused.
 */

export const malformedTextCode = 'malformed_text';

// With the `u` flag a surrogate pair is one code point: only a lone surrogate matches.
const loneSurrogate = /\p{Cs}/u;

/** No lone surrogate (String.prototype.isWellFormed, ES2024). */
export function isWellFormedText(value: string): boolean {
  return !loneSurrogate.test(value);
}

/** Well-formed and without U+FFFD, which in a password or a name stands for text broken on its way here. */
export function isExactText(value: string): boolean {
  return isWellFormedText(value) && !value.includes('\ufffd');
}

/** Marks in a row on one character: Thai stacks a vowel and a tone (ผู้); more is Zalgo, not a name. */
export const maxMarksInARow = 4;

const tooManyMarks = new RegExp(`\\p{M}{${maxMarksInARow + 1},}`, 'u');

export function hasTooManyMarks(value: string): boolean {
  return tooManyMarks.test(value);
}

/** Top-level fields holding ill-formed text at any depth (`body`: the body itself); iterative, for deep nesting. */
export function malformedJsonFields(body: unknown): string[] {
  const found = new Set<string>();
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

/** Decoded as UTF-8, with each byte outside a well-formed sequence replaced by `replacement`. */
export function replaceInvalidUtf8(bytes: Buffer, replacement: string): string {
  let text = '';
  let start = 0;
  let index = 0;
  while (index < bytes.length) {
    const byte = bytes[index]!;
    const length =
      byte < 0x80
        ? 1
        : byte >= 0xc2 && byte <= 0xdf
          ? 2
          : byte >= 0xe0 && byte <= 0xef
            ? 3
            : byte >= 0xf0 && byte <= 0xf4
              ? 4
              : 0;
    if (
      length === 1 ||
      (length > 1 && index + length <= bytes.length && isUtf8(bytes.subarray(index, index + length)))
    ) {
      index += length;
      continue;
    }
    text += bytes.toString('utf8', start, index) + replacement;
    index += 1;
    start = index;
  }
  return text + bytes.toString('utf8', start);
}

export interface FormTextProblem {
  fields: string[];
  /** A field's name is not UTF-8 itself, so it cannot be named. */
  unnamed: boolean;
}

const percentEscape = /%([0-9A-Fa-f]{2})/g;

function formBytes(part: string): Buffer {
  return Buffer.from(
    part.replace(/\+/g, ' ').replace(percentEscape, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))),
    'latin1',
  );
}

/** Names and values, percent-decoded, must be UTF-8: the form parsers put U+FFFD in their place silently. */
export function checkFormText(body: Buffer): FormTextProblem | null {
  // Without an escape every field is valid too: '&', '=' and '+' never occur inside a multi-byte sequence.
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
