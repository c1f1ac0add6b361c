// `npm run build` (and `prepare`, so `npm ci` leaves a built tree): `src/` compiled to `dist/`, one
// JavaScript module per TypeScript module (esbuild, no bundling, no type check: `npm run typecheck` does
// that), with the run-time assets beside them (the sandbox's worker script and Python files, the prompt
// templates). Built into a fresh folder and swapped in, so a failed build leaves no half-written `dist/`.
/* global process, performance */
import { cpSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { STAMP_FILE, isBuildInput, sourceStamp } from '../bin/source-stamp.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const srcDir = path.join(root, 'src');
const distDir = path.join(root, 'dist');
const nextDir = path.join(root, `.dist-${process.pid}`);

// The esbuild that tsx (a dependency) uses, resolved from tsx's own folder.
const requireTsx = createRequire(createRequire(import.meta.url).resolve('tsx/package.json'));
const esbuild = requireTsx('esbuild');

function listInputs(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return listInputs(full);
    return isBuildInput(path.relative(srcDir, full)) ? [full] : [];
  });
}

const started = performance.now();
const stamp = sourceStamp(srcDir);
const inputs = listInputs(srcDir);
const modules = inputs.filter((file) => file.endsWith('.ts'));
const assets = inputs.filter((file) => !file.endsWith('.ts'));
rmSync(nextDir, { recursive: true, force: true });
try {
  await esbuild.build({
    entryPoints: modules,
    outdir: nextDir,
    outbase: srcDir,
    bundle: false,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: true,
    tsconfig: path.join(root, 'tsconfig.json'),
    logLevel: 'warning',
  });
  for (const file of assets) {
    const target = path.join(nextDir, path.relative(srcDir, file));
    mkdirSync(path.dirname(target), { recursive: true });
    cpSync(file, target);
  }
  writeFileSync(path.join(nextDir, STAMP_FILE), `${JSON.stringify(stamp)}\n`);
  rmSync(distDir, { recursive: true, force: true });
  renameSync(nextDir, distDir);
} finally {
  if (existsSync(nextDir)) rmSync(nextDir, { recursive: true, force: true });
}
process.stdout.write(`built dist/: ${modules.length} modules, ${assets.length} assets in ${Math.round(performance.now() - started)} ms\n`);
