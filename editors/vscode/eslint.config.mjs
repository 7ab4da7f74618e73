// ESLint flat config: typescript-eslint's type-aware recommended rules.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'out/', 'node_modules/', '*.vsix'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
  },
  {
    files: ['test/**/*.ts'],
    rules: {
      // node:test's describe() and it() return promises the runner awaits.
      '@typescript-eslint/no-floating-promises': [
        'error',
        { allowForKnownSafeCalls: [{ from: 'package', package: 'node:test', name: ['describe', 'it', 'before', 'after'] }] },
      ],
    },
  },
  {
    // The pure modules must run under plain Node (the unit tests do): no
    // VS Code API in them.
    files: ['src/**/*.ts', 'test/**/*.ts'],
    ignores: ['src/extension.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            { name: 'vscode', message: 'Only src/extension.ts may use the VS Code API; keep this module pure.' },
          ],
          patterns: [
            {
              group: ['vscode-languageclient', 'vscode-languageclient/*'],
              message: 'Only src/extension.ts may use vscode-languageclient (it needs VS Code).',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.mjs'],
    languageOptions: {
      globals: { process: 'readonly', console: 'readonly', Buffer: 'readonly', structuredClone: 'readonly' },
    },
  },
);
