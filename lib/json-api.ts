import { isUtf8 } from 'node:buffer';
import type { JsonSchemaToTsProvider } from '@fastify/type-provider-json-schema-to-ts';
import type { ValidateFunction } from 'ajv';
import type { FastifyInstance } from 'fastify';
import { HttpError } from '../contract/http-error.ts';
import { ajvValidator } from './schemas/compilers.ts';
import { malformedJsonFields, malformedTextCode, replaceInvalidUtf8 } from './text.ts';

// Fastify's shared Ajv strips unknown properties and coerces "true" into true; the API must
// refuse both, so its routes validate with a strict instance instead.
const strictOptions = {
  allErrors: true,
  coerceTypes: false,
  removeAdditional: false,
  useDefaults: false,
  strict: true,
  allowUnionTypes: true,
} as const;

const validators = new WeakMap<object, ValidateFunction>();

/** The API's validator for `schema`, for a body that came another way (a page's form): found by hashing, so kept. */
export function apiValidator(schema: object): ValidateFunction {
  let validate = validators.get(schema);
  if (!validate) validators.set(schema, (validate = ajvValidator('api', strictOptions, schema)));
  return validate;
}

/**
 * JSON bodies only (an empty one counts as none), strictly validated; answers never cached. Returns
 * the scope typed by its schemas: a route's `request.body` (and params) is what its schema allows.
 */
export function jsonApiScope(app: FastifyInstance) {
  app.setValidatorCompiler(({ schema }) => apiValidator(schema));

  app.removeAllContentTypeParsers();
  const parseJson = app.getDefaultJsonParser('error', 'error');
  // As bytes: a string parser would have decoded bytes that are not UTF-8 into U+FFFD already.
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    const refused = refusedCharset(request.headers['content-type']);
    if (refused) {
      done(refused, undefined);
      return;
    }
    const bytes = typeof body === 'string' ? Buffer.from(body) : body;
    if (!isUtf8(bytes)) {
      done(notUtf8(bytes), undefined);
      return;
    }
    const json = bytes.toString('utf8');
    if (json.trim() === '') {
      done(null, undefined);
      return;
    }
    void parseJson(request, json, (error, parsed) => {
      if (error) {
        done(error, undefined);
        return;
      }
      // `\uD800` escapes decode to lone surrogates, which would become U+FFFD when stored or hashed.
      const malformed = malformedJsonFields(parsed);
      if (malformed.length > 0) done(malformedText(malformed), undefined);
      else done(null, parsed);
    });
  });

  // An API answer is for whoever asked: no cache keeps it.
  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'private, no-store');
  });
  return app.withTypeProvider<JsonSchemaToTsProvider>();
}

/** Bodies are read as UTF-8 (RFC 8259; forms are posted from UTF-8 pages): another charset is refused, not guessed. */
export function refusedCharset(contentType: string | undefined): HttpError | null {
  const charset = /;\s*charset\s*=\s*"?([^";\s]*)"?/i.exec(contentType ?? '')?.[1]?.toLowerCase();
  if (charset === undefined || charset === 'utf-8' || charset === 'utf8') return null;
  return new HttpError(415, 'UNSUPPORTED_MEDIA_TYPE', `Unsupported charset "${charset.slice(0, 40)}": send UTF-8.`);
}

export function malformedText(fields: string[]): HttpError {
  return new HttpError(
    400,
    'VALIDATION_FAILED',
    'Some fields hold text that is not well-formed: a lone surrogate, or bytes that are not UTF-8.',
    Object.fromEntries(fields.map((field) => [field, malformedTextCode])),
  );
}

/** Names the fields holding bad bytes, found by replacing each with a lone surrogate's escape. */
function notUtf8(bytes: Buffer): HttpError {
  try {
    const fields = malformedJsonFields(JSON.parse(replaceInvalidUtf8(bytes, '\\udfff')));
    if (fields.length > 0) return malformedText(fields);
  } catch {
    // Not JSON even then (bad bytes outside a string): the body as a whole is refused.
  }
  return new HttpError(400, 'MALFORMED_TEXT', 'The body is not valid UTF-8.');
}
