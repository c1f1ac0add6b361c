// What a build of `src/` was made from: the number of source files and the newest modification time among
// them. The build writes it into `dist/`; the bin compares it with the tree as it is now and runs the
// compiled code only when they agree (an edit, a new or a deleted file sends it back to the sources).
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

/** Files under `src/` that the build reads: sources and run-time assets, not tests or docs. */
export function isBuildInput(relative) {
  if (/\.test\.ts$/.test(relative) || (relative.endsWith('.md') && !relative.split(path.sep).includes('prompts'))) return false;
  return !path.basename(relative).startsWith('.');
}

export function sourceStamp(srcDir) {
  let files = 0;
  let newestMs = 0;
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (isBuildInput(path.relative(srcDir, full))) {
        files++;
        newestMs = Math.max(newestMs, statSync(full).mtimeMs);
      }
    }
  };
  walk(srcDir);
  return { files, newestMs };
}

export const STAMP_FILE = 'build-stamp.json';

/** Whether `<root>/dist` was built from `<root>/src` as it is now (its stamp agrees with the tree). */
export function builtFromCurrentSources(root) {
  const file = path.join(root, 'dist', STAMP_FILE);
  if (!existsSync(file)) return false;
  try {
    const built = JSON.parse(readFileSync(file, 'utf8'));
    const now = sourceStamp(path.join(root, 'src'));
    return built.files === now.files && built.newestMs === now.newestMs;
  } catch {
    return false;
  }
}
