import { transcode } from 'node:buffer';

/**
 * Below this length Node's own encoder is about as fast (measured on Node 20 and 24: even at 1,024
 * characters); from 2,048 the conversion below is 1.4–1.9× faster, and 3.5× at 16,384.
 */
const transcodeFromLength = 2048;

/**
 * A string's UTF-8 bytes, the same as `Buffer.from(text)`, faster for a page. Node's
 * `Buffer.from` encodes through V8 character by character: 0.10–0.15 ms for a 27 KB page on this
 * project's machines (Node 20 and 24), 5–8 % of an uncached page's CPU. Copying the UTF-16 code
 * units out (one copy) and converting them with ICU's converter takes 0.02–0.03 ms. ICU refuses an
 * unpaired surrogate, which `Buffer.from` writes as U+FFFD, and a Node built without ICU has no
 * converter: both take Node's way.
 */
export function utf8Bytes(text: string): Buffer {
  if (text.length < transcodeFromLength) return Buffer.from(text);
  try {
    return transcode(Buffer.from(text, 'utf16le'), 'utf16le', 'utf8');
  } catch {
    return Buffer.from(text);
  }
}
