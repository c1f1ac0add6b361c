import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import regexp from 'eslint-plugin-regexp';

/**
 * The dependency direction of src/ (SPEC §2 and the house style), as import rules. Each entry names the
 * folders a layer must not import; a relative import whose path passes through one of them is refused.
 * The composition root (`app/`) and the CLI wire everything; nothing imports the CLI; only the composition
 * root, the CLI and test support import the concrete benchmarks; the runtime imports only interfaces.
 */
const FOLDERS = [
  'episode', 'python', 'config', 'statistics', 'models', 'environments', 'hooks', 'store', 'task-splits', 'runtime', 'sandbox',
  'patch', 'engineer', 'run-dir', 'benchmark', 'evaluation', 'experiments', 'training', 'serving', 'report', 'benchmarks', 'app', 'cli', 'testing',
];
const LAYERS = {
  episode: FOLDERS.filter((f) => f !== 'episode'),
  python: FOLDERS.filter((f) => !['python', 'episode'].includes(f)),
  config: FOLDERS.filter((f) => !['config', 'episode'].includes(f)),
  statistics: FOLDERS.filter((f) => !['statistics', 'episode', 'python'].includes(f)),
  models: FOLDERS.filter((f) => !['models', 'episode', 'python', 'config'].includes(f)),
  environments: FOLDERS.filter((f) => !['environments', 'episode', 'python', 'config'].includes(f)),
  hooks: FOLDERS.filter((f) => !['hooks', 'episode', 'python'].includes(f)),
  store: FOLDERS.filter((f) => !['store', 'episode', 'python', 'config'].includes(f)),
  'task-splits': FOLDERS.filter((f) => !['task-splits', 'episode', 'python', 'config'].includes(f)),
  runtime: FOLDERS.filter((f) => !['runtime', 'episode', 'python', 'environments', 'hooks', 'models'].includes(f)),
  sandbox: FOLDERS.filter((f) => !['sandbox', 'episode', 'python', 'hooks'].includes(f)),
  patch: FOLDERS.filter((f) => !['patch', 'episode', 'python', 'hooks'].includes(f)),
  engineer: FOLDERS.filter((f) => !['engineer', 'episode', 'python', 'models', 'hooks', 'patch'].includes(f)),
  'run-dir': FOLDERS.filter((f) => !['run-dir', 'episode', 'python', 'config', 'store', 'engineer', 'patch', 'hooks'].includes(f)),
  benchmark: ['run-dir', 'sandbox', 'evaluation', 'experiments', 'training', 'serving', 'report', 'benchmarks', 'app', 'cli', 'testing'],
  evaluation: ['experiments', 'training', 'serving', 'report', 'benchmarks', 'app', 'cli', 'testing'],
  experiments: ['serving', 'report', 'benchmarks', 'app', 'cli', 'testing'],
  training: ['serving', 'report', 'benchmarks', 'app', 'cli', 'testing'],
  serving: ['experiments', 'report', 'benchmarks', 'app', 'cli', 'testing'],
  report: ['training', 'serving', 'benchmarks', 'app', 'cli', 'testing'],
  benchmarks: ['evaluation', 'experiments', 'training', 'serving', 'report', 'app', 'cli', 'testing'],
  app: ['cli', 'testing'],
  cli: ['testing'],
};

function layerRules(folder, forbidden) {
  return {
    files: [`src/${folder}/**/*.ts`],
    ignores: ['**/*.test.ts', '**/*.fixture.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: `^\\.\\.?/(?:\\.\\./)*(?:${forbidden.join('|')})(?:/|\\.js$)`,
              message: `src/${folder} must not import ${forbidden.join(', ')} (dependency direction: SPEC §2, src/README.md).`,
            },
          ],
        },
      ],
    },
  };
}

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'runs/**', 'src/sandbox/python/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // Regexes in src/ run on model, hook and engineer text: none may backtrack or rescan super-linearly.
    files: ['src/**/*.ts'],
    ignores: ['**/*.test.ts', '**/*.fixture.ts'],
    plugins: { regexp },
    rules: {
      'regexp/no-super-linear-backtracking': ['error', { report: 'potential' }],
      'regexp/no-super-linear-move': ['error', { report: 'potential', ignoreSticky: false, ignorePartial: false }],
    },
  },
  ...Object.entries(LAYERS).map(([folder, forbidden]) => layerRules(folder, forbidden)),
  {
    // A benchmark outside src/ is a user's module: it reaches harness-r1 through the package, never by path.
    files: ['examples/**/*.ts', 'examples/**/*.js'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ regex: '(?:^|/)src/', message: 'An example imports harness-r1 by its package name, not by a path into src/.' }] }],
    },
  },
);
