import nextVitals from 'eslint-config-next/core-web-vitals';
import nextTs from 'eslint-config-next/typescript';

const config = [
  ...nextVitals,
  ...nextTs,
  {
    ignores: ['.next/**', 'node_modules/**', 'lib/generated/**', 'next-env.d.ts', 'test-results/**', 'playwright-report/**', 'data/**'],
  },
  {
    // The engine runs identically in the browser and on the server: nothing from outside it.
    files: ['lib/engine/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: ['@/*', 'next/*', 'react', 'node:*'] }],
      'no-restricted-globals': ['error', 'window', 'document', 'Date', 'performance', 'setTimeout', 'setInterval'],
      'no-restricted-properties': ['error', { object: 'Math', property: 'random' }],
    },
  },
];

export default config;
