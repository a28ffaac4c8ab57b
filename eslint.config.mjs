import nextVitals from 'eslint-config-next/core-web-vitals';
import nextTs from 'eslint-config-next/typescript';

/** A Tailwind class naming a colour of the default scale (text-slate-500, bg-white, border-[#123456], …). */
const RAW_COLOUR_CLASS =
  '/(^|\\s|:)(bg|text|border|ring|fill|stroke|divide|accent|outline|decoration|from|to|via|shadow)-((slate|gray|zinc|neutral|stone|red|orange|amber|yellow|lime|green|emerald|teal|cyan|sky|blue|indigo|violet|purple|fuchsia|pink|rose)-[0-9]|white\\b|black\\b|\\[#)/';
// Import boundaries, kept by the linter rather than by review (tests/unit/lint-boundaries.test.ts
// lints a violation of each). A later config object replaces an earlier one's rule for the files
// both match, so each group below lists every restriction that applies to it.
const RELATIVE = { regex: '^\\.\\.?(/|$)', message: 'Import by the @/ path: one import style everywhere (lib/engine excepted: it stands alone).' };
// lib/engine/constants is the one inside file open to all: plain data with no imports, so a page
// that needs only a bound or the tick rate does not load the whole engine through the barrel.
const ENGINE_INSIDE = {
  regex: '^@/lib/engine/(?!constants$)',
  message: 'Import the engine through @/lib/engine (lib/engine/index.ts), its public surface (or @/lib/engine/constants for its constants).',
};
const SERVER = {
  regex: '^@/lib/server(/|$)',
  allowTypeImports: true,
  message: 'Browser code never imports lib/server (server pages read the data and pass it in as props); `import type` is fine.',
};
const CLIENT = {
  regex: '^@/lib/client(/|$)',
  allowTypeImports: true,
  message: 'Server pages and route handlers never import lib/client: shared helpers belong in lib/ui, lib/periods or lib/validations; `import type` is fine.',
};

const restrict = (...patterns) => ({ '@typescript-eslint/no-restricted-imports': ['error', { patterns }] });
const TS = ['**/*.ts', '**/*.tsx'];

const config = [
  ...nextVitals,
  ...nextTs,
  {
    ignores: ['.next/**', 'node_modules/**', 'lib/generated/**', 'next-env.d.ts', 'test-results/**', 'playwright-report/**', 'data/**'],
  },
  // Tests and benchmarks may reach into the engine's internals; they too import by @/.
  { files: TS, ignores: ['lib/engine/**'], rules: restrict(RELATIVE) },
  { files: ['app/**/*.ts', 'app/**/*.tsx'], rules: restrict(RELATIVE, ENGINE_INSIDE, CLIENT) },
  { files: ['lib/**/*.ts', 'scripts/**/*.ts', 'proxy.ts'], ignores: ['lib/engine/**', 'lib/client/**', 'lib/bot/**'], rules: restrict(RELATIVE, ENGINE_INSIDE) },
  // The bots' placement search predicts where the engine puts a piece with the engine's own
  // bitboard and kick tables, so it reads them directly, as tests do; it runs on either side.
  { files: ['lib/bot/**/*.ts'], rules: restrict(RELATIVE, SERVER, CLIENT) },
  { files: ['components/**/*.ts', 'components/**/*.tsx', 'lib/client/**/*.ts'], rules: restrict(RELATIVE, ENGINE_INSIDE, SERVER) },
  {
    // The engine runs identically in the browser and on the server: nothing from outside it.
    files: ['lib/engine/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: ['@/*', 'next/*', 'react', 'node:*'] }],
      'no-restricted-globals': ['error', 'window', 'document', 'Date', 'performance', 'setTimeout', 'setInterval'],
      'no-restricted-properties': ['error', { object: 'Math', property: 'random' }],
    },
  },
  {
    // Colours come from the palette tokens in app/globals.css (each checked for contrast in both
    // themes), not from Tailwind's raw colour scale, whose pairs nobody has checked.
    files: ['app/**/*.tsx', 'components/**/*.tsx'],
    rules: {
      'no-restricted-syntax': [
        'error',
        ...['Literal[value', 'TemplateElement[value.raw'].map((node) => ({
          selector: `${node}=${RAW_COLOUR_CLASS}]`,
          message: 'Use a palette token from app/globals.css (bg-canvas, text-muted, border-line, link, …), not a raw colour class.',
        })),
      ],
    },
  },
];

export default config;
