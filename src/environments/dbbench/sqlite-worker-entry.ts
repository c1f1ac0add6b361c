import { createHash } from 'node:crypto';
import { lstatSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** How to start a database process: the script to fork and the Node options it needs. */
export interface SqliteWorkerEntry {
  file: string;
  execArgv: string[];
}

let resolved: Promise<SqliteWorkerEntry> | null = null;

/**
 * The database process's entry, worked out once per process:
 * - compiled (`dist/`): `sqlite-worker.js` as it is;
 * - from TypeScript sources (tsx, vitest): `sqlite-worker.ts` and what it imports, bundled into one
 *   JavaScript file with the esbuild that tsx itself uses. Starting a process through tsx's loader costs
 *   about a second of CPU (mostly the loader itself), which every pooled process and every replacement
 *   after a kill would pay; the bundle starts like plain JavaScript. The bundle is written, named by its
 *   content hash, to a folder only this user can write; if bundling fails, processes start through tsx's
 *   loader instead.
 */
export function sqliteWorkerEntry(): Promise<SqliteWorkerEntry> {
  resolved ??= resolveEntry();
  return resolved;
}

async function resolveEntry(): Promise<SqliteWorkerEntry> {
  if (!import.meta.url.endsWith('.ts')) return { file: fileURLToPath(new URL('./sqlite-worker.js', import.meta.url)), execArgv: [] };
  const source = fileURLToPath(new URL('./sqlite-worker.ts', import.meta.url));
  const requireHere = createRequire(import.meta.url);
  const tsxRoot = path.dirname(requireHere.resolve('tsx/package.json'));
  try {
    return { file: await bundle(source, tsxRoot), execArgv: [] };
  } catch {
    return { file: source, execArgv: ['--import', pathToFileURL(path.join(tsxRoot, 'dist', 'loader.mjs')).href] };
  }
}

interface EsbuildApi {
  build(options: Record<string, unknown>): Promise<{ outputFiles: { contents: Uint8Array }[] }>;
  stop(): Promise<void> | void;
}

async function bundle(source: string, tsxRoot: string): Promise<string> {
  // The esbuild that tsx depends on, resolved from tsx's own folder.
  const esbuild = createRequire(path.join(tsxRoot, 'package.json'))('esbuild') as EsbuildApi;
  const nativeModule = pathToFileURL(createRequire(import.meta.url).resolve('better-sqlite3')).href;
  try {
    const result = await esbuild.build({
      entryPoints: [source],
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      write: false,
      logLevel: 'silent',
      plugins: [
        {
          name: 'native-module-in-place',
          // The bundle lives outside the project: load the native module from where it is installed.
          setup(build: { onResolve(options: { filter: RegExp }, callback: () => { path: string; external: boolean }): void }) {
            build.onResolve({ filter: /^better-sqlite3$/ }, () => ({ path: nativeModule, external: true }));
          },
        },
      ],
    });
    const code = result.outputFiles[0]!.contents;
    const name = `sqlite-worker-${createHash('sha256').update(code).digest('hex').slice(0, 16)}.mjs`;
    const file = path.join(privateFolder(), name);
    if (!existsSync(file)) {
      const partial = `${file}.${process.pid}.partial`;
      writeFileSync(partial, code, { mode: 0o600 });
      renameSync(partial, file);
    }
    return file;
  } finally {
    await esbuild.stop();
  }
}

/**
 * `<tmp>/harness-r1-<uid>`, created owner-only; it is used only if it is a real folder owned by this user
 * that nobody else can write. Otherwise a fresh private folder, removed when this process exits.
 */
function privateFolder(): string {
  const uid = process.getuid?.();
  if (uid !== undefined) {
    const shared = path.join(tmpdir(), `harness-r1-${uid}`);
    try {
      mkdirSync(shared, { mode: 0o700 });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const stat = lstatSync(shared);
    if (stat.isDirectory() && !stat.isSymbolicLink() && stat.uid === uid && (stat.mode & 0o077) === 0) return shared;
  }
  const own = mkdtempSync(path.join(tmpdir(), 'harness-r1-'));
  process.once('exit', () => rmSync(own, { recursive: true, force: true }));
  return own;
}
