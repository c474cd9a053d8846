import type { FastifyReply, FastifyRequest } from 'fastify';
import { type Encoding, negotiateEncoding, varyWithAcceptEncoding } from './encoding.ts';
import type { PageEntry } from './page-cache.ts';

/** Sets the entry's ETag (and Vary) for the encoding this request takes; returns that encoding. */
export function describeEntry(request: FastifyRequest, reply: FastifyReply, entry: PageEntry) {
  const encoding = entry.encodingFor(negotiateEncoding(request.headers['accept-encoding']));
  reply.header('etag', entry.etag(encoding));
  if (entry.encodingFor('br') !== 'identity') reply.header('vary', varyWithAcceptEncoding(entry.headers.vary));
  return encoding;
}

/** The entry's body in the encoding this request takes, with its ETag, Vary and Content-Encoding. */
export async function storedBody(request: FastifyRequest, reply: FastifyReply, entry: PageEntry): Promise<Buffer> {
  const encoding = describeEntry(request, reply, entry);
  const body = await entry.body(encoding);
  if (encoding !== 'identity') reply.header('content-encoding', encoding);
  return body;
}

/**
 * A hit's whole answer in one encoding, made once per entry and encoding: the body and the header
 * lists `writeHead` takes (name, value, name, value ...), the request id's value left to fill at
 * `idIndex`. The same headers, in the same order, as `describeEntry` and `storedBody` give a hit
 * on top of the entry's fixed (security) headers, the request id and `X-Cache: HIT`.
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
  const vary = entry.encodingFor('br') !== 'identity' ? varyWithAcceptEncoding(entry.headers.vary) : undefined;
  for (const [name, value] of Object.entries(entry.headers) as [string, string][])
    common.push(name, name === 'vary' && vary !== undefined ? vary : value);
  common.push('etag', entry.etag(encoding));
  if (vary !== undefined && entry.headers.vary === undefined) common.push('vary', vary);
  const answer: HitAnswer = {
    body,
    ok: [
      ...common,
      ...(encoding === 'identity' ? [] : ['content-encoding', encoding]),
      'content-length',
      String(body.length),
    ],
    notModified: common,
    idIndex,
  };
  answers ??= {};
  answers[encoding] = answer;
  hitAnswers.set(entry, answers);
  return answer;
}
