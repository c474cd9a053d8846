import type { FastifyReply, FastifyRequest } from 'fastify';
import { negotiateEncoding, varyWithAcceptEncoding } from './encoding.ts';
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
