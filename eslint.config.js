// ESLint (flat config): typescript-eslint with type information for the promise rules, and
// import-x for import cycles. `npm run lint`; part of `npm test`. No formatting rules here:
// Prettier formats (`npm run format:check`, also part of `npm test`; .prettierrc.json).
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'web/', 'coverage/', 'test-artifacts/', '.bench-out/', 'data/'] },
  {
    files: ['**/*.ts'],
    extends: [tseslint.configs.recommended],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { 'import-x': importX },
    settings: {
      // import-x parses the files an import leads to (to follow cycles) with the TypeScript parser.
      'import-x/extensions': ['.ts', '.js', '.mjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
      // Sources import './x.js' for './x.ts' (NodeNext): resolve them as TypeScript does.
      'import-x/resolver-next': [createNodeResolver({ extensionAlias: { '.js': ['.ts', '.js'] } })],
    },
    rules: {
      // node:test's describe/it return promises the runner itself awaits.
      '@typescript-eslint/no-floating-promises': [
        'error',
        { allowForKnownSafeCalls: [{ from: 'package', package: 'node:test', name: ['describe', 'it', 'test', 'suite', 'before', 'after', 'beforeEach', 'afterEach'] }] },
      ],
      '@typescript-eslint/no-misused-promises': 'error',
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      // A leading underscore marks a binding kept on purpose (a rest sibling dropped from an object).
      // One kysely build in the process: its values come from src/store/kysely.ts (the CommonJS build, see there).
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { paths: [{ name: 'kysely', allowTypeImports: true, message: "Import kysely's values from src/store/kysely.ts (one build per process); types may come from 'kysely'." }] },
      ],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true }],
    },
  },
  {
    // Tests read untyped JSON bodies and protocol messages.
    files: ['test/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);
