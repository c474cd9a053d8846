// `npm run lint`: ESLint with type information (typescript-eslint), React's hook rules for the
// browser code. Why these rules and not others: docs/decisions/0028-lint-and-format.md.
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'builds/', 'bench/results/', 'screenshots/', 'test/.tmp/', 'coverage/', 'data/'] },
  js.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      globals: { ...globals.node, ...globals.browser },
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // Fastify plugins and hooks, tap subtests and react-router loaders are async by contract,
      // whether or not they await anything.
      '@typescript-eslint/require-await': 'off',
      // tap runs a subtest whether or not its promise is awaited.
      '@typescript-eslint/no-floating-promises': [
        'error',
        { allowForKnownSafePromises: [{ from: 'package', name: 'PromiseWithSubtest', package: '@tapjs/core' }] },
      ],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      // Callbacks hand over errors typed unknown (autocannon's, an AbortSignal's reason).
      '@typescript-eslint/prefer-promise-reject-errors': [
        'error',
        { allowThrowingAny: true, allowThrowingUnknown: true },
      ],
      // react-router's loaders and actions throw redirects and data responses by design.
      '@typescript-eslint/only-throw-error': [
        'error',
        {
          allow: [
            { from: 'lib', name: 'Response' },
            { from: 'package', package: 'react-router', name: ['DataWithResponseInit', 'UNSAFE_DataWithResponseInit'] },
          ],
        },
      ],
    },
  },
  {
    // Tests read answers they assert on (`response.json()` is `any`): their shape is what is tested;
    // they also pass methods to stand-ins and print values whatever they are.
    files: ['test/**'],
    rules: {
      '@typescript-eslint/unbound-method': 'off',
      '@typescript-eslint/no-base-to-string': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    // The rules of hooks; the plugin's React Compiler rules are not ours to follow (no compiler here).
    files: ['client/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' },
  },
  {
    // A source file holds one concern: past 300 lines (blank and comment lines count), split it by what
    // it holds. Tests are exempt: a file of one subject's cases reads the same at any length.
    files: ['**/*.{ts,tsx,js,mjs}'],
    ignores: ['test/**'],
    rules: { 'max-lines': ['error', { max: 300, skipBlankLines: false, skipComments: false }] },
  },
  { files: ['**/*.{js,mjs}'], ...tseslint.configs.disableTypeChecked },
);
