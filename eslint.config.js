// Lint: ESLint's and typescript-eslint's recommended rules, React hooks rules. Formatting is Prettier's.
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'dist',
      'data',
      '.e2e',
      'test-results',
      'playwright-report',
      // Prepared database images and the server bundle (scripts/build.ts)
      '.cache',
      'src/types/generated.ts',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
    },
  },
  // Boundaries (docs/ARCHITECTURE.md §2): src/schema/ is the isomorphic core and imports nothing
  // else from src/; the server imports only src/schema/ and src/types/ from src/, and nothing from
  // scripts/.
  {
    files: ['src/schema/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^\\.\\./(?!schema/|\\.\\./schemas/)',
              message: 'src/schema/ is the isomorphic core: import only from src/schema/ itself.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['server/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(\\.\\./)+src/(?!schema/|types/)',
              message: 'The server imports only src/schema/ and src/types/ from the web app.',
            },
            {
              regex: '^(\\.\\./)+scripts/',
              message: 'The server imports nothing from scripts/ (scripts import the server).',
            },
            {
              regex: '^(react|react-dom|react-admin|@mui/.*)$',
              message: 'The server does not import browser libraries.',
            },
          ],
        },
      ],
    },
  },
);
