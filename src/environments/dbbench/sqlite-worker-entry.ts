import { createHash } from 'node:crypto';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
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
 *   after a kill would pay; the bundle starts like plain JavaScript. The bundle is kept in a folder only
 *   this user can write, beside a list of the source files it was made from; the next run reuses it
 *   while none of them changed (see {@link cachedBundle}), so only the first run after an edit pays the
 *   bundling. If bundling fails, processes start through tsx's loader instead.
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
    return { file: (await cachedBundle(source, privateFolder(), tsxRoot)).file, execArgv: [] };
  } catch {
    return { file: source, execArgv: ['--import', pathToFileURL(path.join(tsxRoot, 'dist', 'loader.mjs')).href] };
  }
}

interface EsbuildApi {
  build(options: Record<string, unknown>): Promise<{ outputFiles: { contents: Uint8Array }[]; metafile: { inputs: Record<string, unknown> } }>;
  stop(): Promise<void> | void;
}

/** What a cached bundle was made from: each input file's size and modification time, and the bundle's name. */
interface BundleManifest {
  inputs: Record<string, [size: number, mtimeMs: number]>;
  bundle: string;
}

/**
 * `source` bundled into `folder`, reused from an earlier call (in this or another process) when every
 * input file of that bundle still has the size and modification time it had then. The manifest is named
 * after the source, the native module's location and esbuild's version, so a different checkout or
 * install never picks up another's bundle. `reused` tells whether esbuild ran.
 */
export async function cachedBundle(source: string, folder: string, tsxRoot: string): Promise<{ file: string; reused: boolean }> {
  // The esbuild that tsx depends on, resolved from tsx's own folder; loaded only if it has to run.
  const requireTsx = createRequire(path.join(tsxRoot, 'package.json'));
  const { version } = requireTsx('esbuild/package.json') as { version: string };
  const nativeModule = pathToFileURL(createRequire(import.meta.url).resolve('better-sqlite3')).href;
  const key = createHash('sha256').update(JSON.stringify([source, nativeModule, version])).digest('hex').slice(0, 16);
  const manifestFile = path.join(folder, `sqlite-worker-${key}.json`);
  const cached = readManifest(manifestFile);
  if (cached && unchanged(cached, folder)) return { file: path.join(folder, cached.bundle), reused: true };
  const esbuild = requireTsx('esbuild') as EsbuildApi;
  const workingDir = path.dirname(source);
  try {
    const result = await esbuild.build({
      entryPoints: [source],
      absWorkingDir: workingDir,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      write: false,
      metafile: true,
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
    const file = path.join(folder, name);
    if (!existsSync(file)) writeAtomically(file, code);
    const inputs: BundleManifest['inputs'] = {};
    for (const input of Object.keys(result.metafile.inputs)) {
      const full = path.resolve(workingDir, input);
      const stat = statSync(full);
      inputs[full] = [stat.size, stat.mtimeMs];
    }
    writeAtomically(manifestFile, JSON.stringify({ inputs, bundle: name } satisfies BundleManifest));
    return { file, reused: false };
  } finally {
    await esbuild.stop();
  }
}

function readManifest(file: string): BundleManifest | null {
  try {
    const manifest = JSON.parse(readFileSync(file, 'utf8')) as BundleManifest;
    return typeof manifest.bundle === 'string' && typeof manifest.inputs === 'object' && manifest.inputs !== null ? manifest : null;
  } catch {
    return null;
  }
}

function unchanged(manifest: BundleManifest, folder: string): boolean {
  if (path.basename(manifest.bundle) !== manifest.bundle || !existsSync(path.join(folder, manifest.bundle))) return false;
  const entries = Object.entries(manifest.inputs);
  if (entries.length === 0) return false;
  try {
    return entries.every(([file, [size, mtimeMs]]) => {
      const stat = statSync(file);
      return stat.size === size && stat.mtimeMs === mtimeMs;
    });
  } catch {
    return false; // an input was deleted
  }
}

function writeAtomically(file: string, data: Uint8Array | string): void {
  const partial = `${file}.${process.pid}.partial`;
  writeFileSync(partial, data, { mode: 0o600 });
  renameSync(partial, file);
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
