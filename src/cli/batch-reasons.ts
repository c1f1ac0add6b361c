import type { ImproveSummary } from '../evaluation/improve/improve-run.js';
import { ImproveRunDir } from '../run-dir/improve-run-dir.js';

/**
 * One line per batch that scored 0 because the engineer's request failed or its patch was refused, with the
 * reason recorded in the batch's result: the terminal says why, not only the run directory.
 */
export function batchReasons(runDir: string, summary: ImproveSummary): string[] {
  const run = new ImproveRunDir(runDir);
  const lines: string[] = [];
  for (const b of summary.batches) {
    if (b.status !== 'engineer_request_failed_treated_as_no_patch' && b.status !== 'invalid_patch_treated_as_no_patch') continue;
    const result = run.batch(b.tag).readResult();
    const reason = b.status === 'invalid_patch_treated_as_no_patch' ? result?.rejection : result?.notes[0];
    if (reason) lines.push(`${b.tag}: ${b.status === 'invalid_patch_treated_as_no_patch' ? 'patch refused' : 'engineer request failed'}: ${oneLine(reason)}`);
  }
  return lines;
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 300 ? `${flat.slice(0, 300)}…` : flat;
}
