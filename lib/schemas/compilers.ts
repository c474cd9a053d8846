import AjvCompiler from '@fastify/ajv-compiler';
import SerializerSelector from '@fastify/fast-json-stringify-compiler';
import { Ajv, type Options as AjvOptions, type ValidateFunction } from 'ajv';
import standalone from 'ajv/dist/standalone/index.js';
import { compiledFor, lazyCompiledFor, record, recording, schemaKey } from './compiled.ts';

interface RouteSchema {
  schema?: unknown;
}
type RouteCompiler = (route: RouteSchema) => unknown;
type CompilerFactory = (externalSchemas?: unknown, options?: unknown) => RouteCompiler;
type StoreFunction = (route: RouteSchema, code: string) => void;

/**
 * Fastify's own compilers (@fastify/ajv-compiler, @fastify/fast-json-stringify-compiler), asking
 * the build's table first; while the build records, their standalone modes write the code.
 */
function withCompiled(
  name: string,
  make: (store: StoreFunction | undefined) => unknown,
  lookUp: (key: string) => unknown = compiledFor,
): CompilerFactory {
  return (externalSchemas, options) => {
    // As text now: the standalone compilers add their own settings to `options` later.
    const optionsKey = JSON.stringify([externalSchemas, options]);
    let compile: RouteCompiler | undefined;
    return (route) => {
      const key = schemaKey(name, optionsKey, route.schema);
      const compiled = lookUp(key);
      if (compiled) return compiled;
      const store: StoreFunction | undefined = recording()
        ? (stored, code) => record(schemaKey(name, optionsKey, stored.schema), code)
        : undefined;
      compile ??= (make(store) as CompilerFactory)(externalSchemas, options);
      return compile(route);
    };
  };
}

/** The `schemaController.compilersFactory` option of Fastify. */
export const compilersFactory = {
  buildValidator: withCompiled('fastify-ajv', (storeFunction) =>
    storeFunction ? AjvCompiler.StandaloneValidator({ readMode: false, storeFunction }) : AjvCompiler(),
  ) as unknown as AjvCompiler.BuildCompilerFromPool,
  buildSerializer: withCompiled(
    'fast-json-stringify',
    (storeFunction) =>
      storeFunction
        ? SerializerSelector.StandaloneSerializer({ readMode: false, storeFunction })
        : SerializerSelector(),
    lazyCompiledFor,
  ) as unknown as SerializerSelector.SerializerFactory,
};

const instances = new Map<string, Ajv>();

/**
 * A validator from one of the service's own Ajv instances (the configuration's, the API's): the
 * build's code when it has it, else compiled now by an instance made on first use.
 */
export function ajvValidator<T = unknown>(name: string, options: AjvOptions, schema: object): ValidateFunction<T> {
  const key = schemaKey(name, options, schema);
  const compiled = compiledFor<ValidateFunction<T>>(key);
  if (compiled) return compiled;
  let ajv = instances.get(name);
  if (!ajv) {
    ajv = new Ajv(recording() ? { ...options, code: { ...options.code, source: true } } : options);
    instances.set(name, ajv);
  }
  const validate = ajv.compile<T>(schema);
  if (recording()) record(key, standalone.default(ajv, validate));
  return validate;
}
