import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'build/**',
      'packages/*/dist/**',
      'packages/sdkpp/build/**',
      'packages/sdkpp/build-deps/**',
      'packages/sdkpp/build-cross/**',
      'packages/sdkpp/prebuilds/**',
      'node_modules/**',
      'coverage/**',
      'docs/api/**',
      'build-deps/**',
      '.guide-snippets/**',
      'test-artifacts/**',
      'examples/*/dist/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.strictTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: {
          allowDefaultProject: ['*.js', '*.mjs', 'scripts/*.mjs', 'packages/*/scripts/*.mjs'],
        },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/restrict-template-expressions': [
        'error',
        { allowNumber: true, allowBoolean: true },
      ],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-extraneous-class': 'off',
      '@typescript-eslint/no-invalid-void-type': 'off',
      // Public entry points re-check what types promise: JS callers and the wire do not honour TS types.
      '@typescript-eslint/no-unnecessary-condition': 'off',
      '@typescript-eslint/no-unsafe-enum-comparison': 'off',
      '@typescript-eslint/no-confusing-void-expression': ['error', { ignoreArrowShorthand: true }],
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.object.name=/^(it|describe|test)$/][callee.property.name='skip']",
          message: 'Skipped tests rot: fix or delete.',
        },
      ],
    },
  },
  {
    // Client's methods are guarded after destroy() by kind: an async method rejects, any other throws
    // (packages/sdkpp/src/client/destroyGuard.ts), so a method that returns a Promise must be async to reject rather than throw.
    files: [
      'packages/sdkpp/src/client/Client.ts',
      'packages/sdkpp/src/client/ClientCore.ts',
      'packages/sdkpp/src/client/SocialClient.ts',
      'packages/sdkpp/src/client/LobbyClient.ts',
    ],
    rules: { '@typescript-eslint/promise-function-async': 'error' },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    // The Activity sample's page runs in a browser frame, not in Node.
    files: ['examples/activity/public/**/*.js'],
    languageOptions: {
      globals: {
        console: 'readonly',
        document: 'readonly',
        fetch: 'readonly',
        location: 'readonly',
        WebSocket: 'readonly',
      },
    },
  },
  prettier,
);
