import type { FastifyError, FastifyRequest } from 'fastify';
import { HttpError } from '../../contract/http-error.ts';
import type { FieldCode, FieldErrors } from '../auth/validation.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * A route's own field rules, past its body schema (registration's). When the schema refuses a
     * body they run too, so one answer names every problem.
     */
    bodyFieldChecks?: (body: Record<string, unknown>) => FieldErrors;
  }
}

type SchemaIssue = NonNullable<FastifyError['validation']>[number];

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** 400 VALIDATION_FAILED with a field code per refused field. */
export function validationFailed(fields: FieldErrors): HttpError {
  return new HttpError(400, 'VALIDATION_FAILED', 'Some fields are missing or invalid.', fields);
}

/** Ajv's findings as the API's stable field codes; `data` is what was validated (the body). */
export function fieldsFromSchemaErrors(issues: readonly SchemaIssue[], data: unknown): FieldErrors {
  const fields: FieldErrors = {};
  for (const issue of issues) {
    const params = issue.params;
    let field = issue.instancePath.replace(/^\//, '').split('/')[0] || 'body';
    let code: FieldCode;
    switch (issue.keyword) {
      case 'required':
        field = String(params.missingProperty);
        code = 'required';
        break;
      case 'additionalProperties':
        field = String(params.additionalProperty);
        code = 'unknown_field';
        break;
      case 'type':
        code = field === 'body' && (data === undefined || data === null) ? 'required' : 'invalid_type';
        break;
      case 'enum':
        code = isObject(data) && data[field] === '' ? 'required' : 'invalid_value';
        break;
      case 'maxLength':
        code = 'too_long';
        break;
      case 'minLength':
        code = params.limit === 1 ? 'required' : 'too_short';
        break;
      default:
        code = 'invalid_value';
    }
    fields[field] ??= code;
  }
  return fields;
}

/**
 * The answer to a request its route's schema refused (plugins/app/errors.ts): the schema's findings,
 * after the route's own field checks for a body (`config.bodyFieldChecks`).
 */
export function schemaRefusal(request: FastifyRequest, error: FastifyError): HttpError {
  const context = error.validationContext ?? 'body';
  const data = { body: request.body, querystring: request.query, params: request.params, headers: request.headers }[
    context
  ];
  const checks = request.routeOptions.config.bodyFieldChecks;
  const own = context === 'body' && checks && isObject(data) ? checks(data) : {};
  return validationFailed({ ...own, ...fieldsFromSchemaErrors(error.validation ?? [], data) });
}
