import { readFileSync } from 'node:fs';
import path from 'node:path';

import { PROJECT_ROOT } from '../config/data-dir.js';

/** The `version` of the project's `package.json` (the same file from the sources and from `dist/`). */
export function packageVersion(): string {
  const manifest = JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8')) as { version?: unknown };
  return String(manifest.version);
}
