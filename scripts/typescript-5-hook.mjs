/**
 * A module hook for code generators that print through the TypeScript 5 compiler API
 * (@hey-api/openapi-ts): TypeScript 7, the project's compiler, is native and has no such API, so
 * their `import ts from 'typescript'` gets TypeScript 5.9, installed under the alias
 * `typescript-5-api`. Everything else keeps TypeScript 7. Load with `--import` or `import()`.
 */
import { register } from 'node:module';

const hook = `
export async function resolve(specifier, context, next) {
  if (specifier === 'typescript' && context.parentURL && context.parentURL.includes('/@hey-api/')) {
    return next('typescript-5-api', context);
  }
  return next(specifier, context);
}`;

register(`data:text/javascript,${encodeURIComponent(hook)}`);
