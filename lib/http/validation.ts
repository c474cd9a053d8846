import type { FastifyError, FastifyRequest } from 'fastify';
import { HttpError } from '../../contract/http-error.ts';
import type { FieldCode, FieldErrors } from '../auth/validation.ts';

type SchemaIssue = NonNullable<FastifyError['validation']>[number];

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
        code = 'invalid_value';
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

/** The schema's findings on a route with `attachValidation`, or null when the schema passed. */
export function schemaErrorsOf(request: FastifyRequest): SchemaIssue[] | null {
  return request.validationError ? ((request.validationError.validation as SchemaIssue[] | undefined) ?? []) : null;
}
