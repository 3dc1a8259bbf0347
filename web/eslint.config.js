// ESLint for the web app (web/src) and, through tests/eslint.config.js, the black-box tests (tests/).
// `scripts/lint` runs it; `scripts/lint --fix` applies the fixes it can make.
import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import { importX } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import { defineConfig, globalIgnores } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import { apiPathArray, onePatternForQueries } from './eslint-query-pattern.js';

/** The feature folders under src/features/. Each may import only shared code and its own files. */
const FEATURES = readdirSync(new URL('./src/features', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

/**
 * Feature boundaries: a feature imports only components/, lib/, config/, api/ and its own folder;
 * shared code (components/, lib/, config/, api/) imports no feature and not app/. app/ composes the
 * features. Tests may also import the helpers in testing/.
 */
const boundaries = [
  ...FEATURES.map((feature) => ({
    target: `./src/features/${feature}`,
    from: './src/features',
    except: [`./${feature}`],
    message: 'A feature imports only components/, lib/, config/, api/ and its own files.',
  })),
  ...['components', 'lib', 'config', 'api'].map((shared) => ({
    target: `./src/${shared}`,
    from: ['./src/features', './src/app'],
    message: 'Shared code imports no feature and not app/.',
  })),
  {
    target: './src/features',
    from: './src/app',
    message: 'A feature imports only components/, lib/, config/, api/ and its own files.',
  },
];
const TESTS = ['src/**/*.test.{ts,tsx}', 'src/testing/**'];

const testHelpersOnlyInTests = {
  target: './src',
  from: './src/testing',
  message: 'testing/ holds helpers for tests only.',
};

export default defineConfig([
  // orval's generated client (scripts/generate) and the build output.
  globalIgnores(['dist/', 'src/api/', 'node_modules/']),
  {
    name: 'web/typescript',
    files: ['src/**/*.{ts,tsx}', '*.ts'],
    extends: [js.configs.recommended, tseslint.configs.recommended, reactHooks.configs.flat.recommended],
    plugins: { 'import-x': importX },
    languageOptions: { globals: { ...globals.browser } },
    settings: {
      // Without a parser for .ts files, import-x cannot read an imported module and no-cycle sees no cycle.
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.json' })],
    },
    rules: {
      'import-x/no-cycle': 'error',
      'import-x/no-self-import': 'error',
      'import-x/no-restricted-paths': ['error', { zones: [...boundaries, testHelpersOnlyInTests] }],
      'no-restricted-syntax': ['error', ...onePatternForQueries],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // Off: the code keeps the latest props and state in a ref during render (`ref.current = value`) so
      // socket handlers and timers registered once read current values; this rule (written for the React
      // Compiler, which this app does not use) flags every such line.
      'react-hooks/refs': 'off',
    },
  },
  {
    name: 'web/tests',
    files: TESTS,
    rules: {
      'import-x/no-restricted-paths': ['error', { zones: boundaries }],
      // Tests compare the request paths a screen fetched, so lists of '/api/...' strings are theirs to write.
      'no-restricted-syntax': ['error', ...onePatternForQueries.filter((rule) => rule !== apiPathArray)],
    },
  },
  {
    name: 'web/config-files',
    files: ['*.{js,ts}', 'scripts/**/*.{js,mjs}'],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    // The JavaScript rules for the plain .js/.mjs files (the .ts ones have them through typescript-eslint).
    name: 'web/javascript',
    files: ['*.js', 'scripts/**/*.{js,mjs}'],
    extends: [js.configs.recommended],
  },
]);

/** Plain JavaScript rules for the black-box tests (Node's test runner and Playwright); tests/eslint.config.js. */
export const testsConfig = defineConfig([
  globalIgnores(['node_modules/', 'artifacts/', 'test-results/']),
  {
    name: 'tests/javascript',
    files: ['**/*.{js,mjs}'],
    extends: [js.configs.recommended],
    languageOptions: { globals: { ...globals.node } },
    rules: {
      'no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // Functions passed to Playwright's page.evaluate and waitForFunction run in the browser.
    name: 'tests/browser',
    files: ['browser/**/*.{js,mjs}', 'bench/**/*.{js,mjs}', 'harness/relay.mjs'],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
  },
]);
