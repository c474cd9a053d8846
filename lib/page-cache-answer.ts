import type { FastifyReply, FastifyRequest } from 'fastify';
import { type Encoding, negotiateEncoding, varyWithAcceptEncoding } from './encoding.ts';
import type { PageEntry } from './page-cache.ts';

type HeaderList = Array<readonly [name: string, value: string]>;

/**
 * An entry's headers in one encoding, for hits and the miss that filled it alike: the stored ones,
 * the ETag, Vary with Accept-Encoding when compressible, and Content-Encoding with a body.
 */
function entryHeaders(entry: PageEntry, encoding: Encoding, withBody: boolean): HeaderList {
  const compressible = entry.encodingFor('br') !== 'identity';
  const vary = compressible ? varyWithAcceptEncoding(entry.headers.vary) : entry.headers.vary;
  const list: HeaderList = [];
  for (const [name, value] of Object.entries(entry.headers))
    if (name !== 'vary' && value !== undefined) list.push([name, value]);
  if (vary !== undefined) list.push(['vary', vary]);
  list.push(['etag', entry.etag(encoding)]);
  if (withBody && encoding !== 'identity') list.push(['content-encoding', encoding]);
  return list;
}

/** Sets the entry's headers for the encoding this request takes, without a body's; returns that encoding. */
export function describeEntry(request: FastifyRequest, reply: FastifyReply, entry: PageEntry, withBody = false) {
  const encoding = entry.encodingFor(negotiateEncoding(request.headers['accept-encoding']));
  for (const [name, value] of entryHeaders(entry, encoding, withBody)) reply.header(name, value);
  return encoding;
}

/** The entry's body in the encoding this request takes, with its headers. */
export async function storedBody(request: FastifyRequest, reply: FastifyReply, entry: PageEntry): Promise<Buffer> {
  return entry.body(describeEntry(request, reply, entry, true));
}

/**
 * A hit's whole answer in one encoding, made once: the body and `writeHead`'s flat header list
 * (fixed headers, the request id to fill at `idIndex`, `X-Cache: HIT`, the entry's headers).
 */
export interface HitAnswer {
  body: Buffer;
  /** 200: with Content-Encoding and Content-Length. */
  ok: readonly string[];
  /** 304: neither. */
  notModified: readonly string[];
  idIndex: number;
}

const hitAnswers = new WeakMap<PageEntry, Partial<Record<Encoding, HitAnswer>>>();

/** `undefined` while the entry's bytes in that encoding are not made yet (`storedBody` makes them). */
export function hitAnswer(entry: PageEntry, accepted: Encoding): HitAnswer | undefined {
  const encoding = entry.encodingFor(accepted);
  let answers = hitAnswers.get(entry);
  const made = answers?.[encoding];
  if (made) return made;
  const body = entry.madeBody(encoding);
  if (!body) return undefined;
  const common: string[] = [];
  for (const [name, value] of entry.fixedHeaders) common.push(name, value);
  const idIndex = common.length + 1;
  common.push('x-request-id', '', 'x-cache', 'HIT');
  const flat = (list: HeaderList) => list.flatMap(([name, value]) => [name, value]);
  const answer: HitAnswer = {
    body,
    ok: [...common, ...flat(entryHeaders(entry, encoding, true)), 'content-length', String(body.length)],
    notModified: [...common, ...flat(entryHeaders(entry, encoding, false))],
    idIndex,
  };
  answers ??= {};
  answers[encoding] = answer;
  hitAnswers.set(entry, answers);
  return answer;
}
