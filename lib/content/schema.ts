import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import * as ajvFormats from 'ajv-formats';

/** Article slugs, author slugs, path segments. */
export const slugPattern = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

const descriptionMaxLength = 200;

export interface PageFrontmatter {
  title: string;
  description: string;
  /** An author slug: `content/authors/{author}.{locale}.md` must exist. */
  author: string;
  /** `YYYY-MM-DD`. */
  published: string;
  /** Not before `published`. */
  updated?: string;
  tags: string[];
  /** Among the section pages; lower first. */
  order?: number;
  draft: boolean;
  /** Open Graph image: a root-relative path or an https URL. */
  image?: string;
}

/** Frontmatter of `content/authors/{slug}.{locale}.md`; the body is the bio. */
export interface AuthorFrontmatter {
  name: string;
  role: string;
  avatar: string;
}

const date = { type: 'string', format: 'date' } as const;

const pageFrontmatterSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['title', 'description', 'author', 'published'],
  properties: {
    title: { type: 'string', minLength: 1, maxLength: 150 },
    description: { type: 'string', minLength: 1, maxLength: descriptionMaxLength },
    author: { type: 'string', pattern: slugPattern.source },
    published: date,
    updated: date,
    tags: {
      type: 'array',
      items: { type: 'string', minLength: 1, maxLength: 40 },
      uniqueItems: true,
      default: [],
    },
    order: { type: 'integer' },
    draft: { type: 'boolean', default: false },
    image: { type: 'string', pattern: '^(/(?!/)|https://)\\S+$' },
  },
} as const;

const authorFrontmatterSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'role', 'avatar'],
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 80 },
    role: { type: 'string', minLength: 1, maxLength: 120 },
    avatar: { type: 'string', pattern: '^\\S{1,3}$' },
  },
} as const;

type AddFormats = (ajv: Ajv, formats: string[]) => Ajv;
// ajv-formats is CommonJS: under NodeNext its default export may arrive wrapped once more.
const addFormats = (ajvFormats as unknown as { default: AddFormats | { default: AddFormats } }).default;
const applyFormats: AddFormats = typeof addFormats === 'function' ? addFormats : addFormats.default;

// Compiled when content is first parsed: a start that reads the build's snapshot never is.
let validators: { page: ValidateFunction<PageFrontmatter>; author: ValidateFunction<AuthorFrontmatter> } | undefined;
function frontmatterValidators() {
  if (!validators) {
    const ajv = new Ajv({ allErrors: true, useDefaults: true, strict: true });
    applyFormats(ajv, ['date']);
    validators = {
      page: ajv.compile<PageFrontmatter>(pageFrontmatterSchema),
      author: ajv.compile<AuthorFrontmatter>(authorFrontmatterSchema),
    };
  }
  return validators;
}

/** Worded for the person who edits the file. */
export interface FieldProblem {
  /** Or `frontmatter` / `body` for the file as a whole. */
  field: string;
  message: string;
}

const typeNames: Record<string, string> = {
  string: 'text',
  integer: 'a whole number',
  number: 'a number',
  boolean: 'true or false',
  array: 'a list',
  object: 'a mapping',
};

function describe(error: ErrorObject, schema: { properties: Record<string, unknown> }, data: unknown): FieldProblem {
  const params = error.params as Record<string, unknown>;
  if (error.keyword === 'required') {
    const field = String(params.missingProperty);
    return { field, message: `"${field}" is required` };
  }
  if (error.keyword === 'additionalProperties') {
    const field = String(params.additionalProperty);
    const known = Object.keys(schema.properties).join(', ');
    return { field, message: `"${field}" is not a known field (known fields: ${known})` };
  }
  const segments = error.instancePath.split('/').slice(1);
  const field = segments[0] ?? 'frontmatter';
  const quoted = `"${field}"`;
  const property = schema.properties[field] as { format?: string; items?: unknown } | undefined;
  if (property?.format === 'date') return { field, message: `${quoted} must be a date (YYYY-MM-DD)` };
  const inItem = segments.length > 1 ? ' (every item)' : '';
  switch (error.keyword) {
    case 'type':
      if (property?.items && segments.length === 1) return { field, message: `${quoted} must be a list of words` };
      return { field, message: `${quoted}${inItem} must be ${typeNames[String(params.type)] ?? String(params.type)}` };
    case 'maxLength': {
      const value = (data as Record<string, unknown>)[field];
      const length = typeof value === 'string' ? ` (it has ${value.length})` : '';
      return { field, message: `${quoted}${inItem} must be at most ${String(params.limit)} characters${length}` };
    }
    case 'minLength':
      return { field, message: `${quoted}${inItem} must not be empty` };
    case 'uniqueItems':
      return { field, message: `${quoted} lists the same value twice` };
    case 'pattern':
      if (field === 'author')
        return { field, message: `${quoted} must be an author slug (lowercase words joined by "-")` };
      if (field === 'avatar') return { field, message: `${quoted} must be 1 to 3 initials without spaces` };
      if (field === 'image') return { field, message: `${quoted} must be a root-relative path (/...) or an https URL` };
      return { field, message: `${quoted} has the wrong format` };
    default:
      return { field, message: `${quoted} ${error.message ?? 'is invalid'}` };
  }
}

function problemsOf(
  errors: ErrorObject[] | null | undefined,
  schema: { properties: Record<string, unknown> },
  data: unknown,
): FieldProblem[] {
  if (!errors?.length) return [];
  const byField = new Map<string, FieldProblem>();
  for (const error of errors) {
    if (error.instancePath === '' && error.keyword === 'type') {
      return [{ field: 'frontmatter', message: 'the frontmatter must be a mapping of fields (key: value)' }];
    }
    const problem = describe(error, schema, data);
    if (!byField.has(problem.field)) byField.set(problem.field, problem);
  }
  return [...byField.values()];
}

export type Checked<T> = { ok: true; value: T } | { ok: false; problems: FieldProblem[] };

/** Fills the defaults too. */
export function checkPageFrontmatter(data: unknown): Checked<PageFrontmatter> {
  const copy = structuredClone(data ?? {});
  const validatePage = frontmatterValidators().page;
  if (!validatePage(copy)) return { ok: false, problems: problemsOf(validatePage.errors, pageFrontmatterSchema, copy) };
  const value = copy;
  if (value.updated !== undefined && value.updated < value.published) {
    return {
      ok: false,
      problems: [
        {
          field: 'updated',
          message: `"updated" (${value.updated}) must not be before "published" (${value.published})`,
        },
      ],
    };
  }
  return { ok: true, value };
}

export function checkAuthorFrontmatter(data: unknown): Checked<AuthorFrontmatter> {
  const copy = structuredClone(data ?? {});
  const validateAuthor = frontmatterValidators().author;
  if (!validateAuthor(copy)) {
    return { ok: false, problems: problemsOf(validateAuthor.errors, authorFrontmatterSchema, copy) };
  }
  return { ok: true, value: copy };
}
