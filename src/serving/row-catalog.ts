import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';

import { ConfigError } from '../episode/index.js';
import { canonicalJson } from '../evaluation/improve/rerun-cache-key.js';
import { readRows } from '../training/rows/export-rl.js';
import { releaseShapeProblems, type RlRow, type RlRowMetadata } from '../training/rows/rl-row.js';

const ROWS_FILE = 'rows.jsonl';

/** A row the service can reward, and the export folder its baseline run lives in. */
export interface CatalogRow {
  /** `benchmark/batch_tag/prompt_sha256`: how a request names its row. */
  key: string;
  row: RlRow;
  root: string;
}

/** What a request's metadata says about its row, checked against the row as exported. */
export type RowLookup =
  | { kind: 'found'; entry: CatalogRow }
  | { kind: 'unknown'; key: string }
  | { kind: 'mismatch'; entry: CatalogRow; fields: string[] };

export function rowKeyOf(m: Pick<RlRowMetadata, 'benchmark' | 'batch_tag' | 'prompt_sha256'>): string {
  return `${m.benchmark}/${m.batch_tag}/${m.prompt_sha256}`;
}

/**
 * The RL rows of one or more `export rl` folders (`<dir>/<benchmark>/rows.jsonl`; the mixed file repeats
 * them), found again by a request's metadata: its benchmark, batch tag and prompt digest name the row, and
 * every other field must be the exported one (a row whose metadata was edited is refused, naming the fields).
 */
export class RowCatalog {
  private readonly rows = new Map<string, CatalogRow>();

  static load(dirs: readonly string[]): RowCatalog {
    const catalog = new RowCatalog();
    for (const dir of dirs) {
      const root = path.resolve(dir);
      if (!existsSync(root)) throw new ConfigError({ message: `--rows ${dir}: no such folder.`, field: 'rows' });
      const files = readdirSync(root, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => path.join(root, d.name, ROWS_FILE)).filter((f) => existsSync(f)).sort();
      if (files.length === 0) throw new ConfigError({ message: `--rows ${dir}: no <benchmark>/${ROWS_FILE} in it; give a folder written by export rl --out.`, field: 'rows' });
      for (const file of files) {
        readRows(file).forEach((row, i) => {
          const problems = releaseShapeProblems(row);
          if (problems.length > 0 || typeof row.metadata.baseline_run !== 'string') {
            throw new ConfigError({ message: `--rows: line ${i + 1} of ${file} is not an RL row written by export rl (${problems.join('; ') || 'no baseline_run'}).`, field: 'rows' });
          }
          const key = rowKeyOf(row.metadata);
          if (!catalog.rows.has(key)) catalog.rows.set(key, { key, row, root });
        });
      }
    }
    return catalog;
  }

  get size(): number {
    return this.rows.size;
  }

  all(): CatalogRow[] {
    return [...this.rows.values()];
  }

  get(key: string): CatalogRow | undefined {
    return this.rows.get(key);
  }

  lookup(metadata: RlRowMetadata): RowLookup {
    const key = rowKeyOf(metadata);
    const entry = this.rows.get(key);
    if (!entry) return { kind: 'unknown', key };
    const stored = entry.row.metadata as unknown as Record<string, unknown>;
    const given = metadata as unknown as Record<string, unknown>;
    const fields = [...new Set([...Object.keys(stored), ...Object.keys(given)])].filter((f) => canonicalJson(stored[f] ?? null) !== canonicalJson(given[f] ?? null)).sort();
    return fields.length > 0 ? { kind: 'mismatch', entry, fields } : { kind: 'found', entry };
  }
}
