import path from 'node:path';

import { writeArtifact } from '../run-dir/artifact-file.js';
import { renderReportCharts } from './charts.js';
import { loadRunArtifacts, type RunArtifacts } from '../run-dir/read-run.js';
import { renderReport } from './render-report.js';

/** Where a run's report goes unless told otherwise. */
export const REPORT_FILE_NAME = 'report.html';

export interface WriteReportOptions {
  /** An improve run directory or a plain run directory. */
  runDir: string;
  /** The HTML file to write (default `<runDir>/report.html`). */
  out?: string;
  /** Clock for the footer's "generated" time. */
  now?: () => Date;
}

export interface WriteReportResult {
  file: string;
  artifacts: RunArtifacts;
  bytes: number;
}

/**
 * Reads a run's stored artifacts, renders its charts offline and writes the one-file HTML report
 * (whole or not at all). Used by `harness-r1 report` and at the end of `improve`.
 */
export async function writeReport(options: WriteReportOptions): Promise<WriteReportResult> {
  const artifacts = loadRunArtifacts(options.runDir);
  const charts = await renderReportCharts(artifacts);
  const page = renderReport(artifacts, charts, { generatedAt: (options.now ?? (() => new Date()))().toISOString() });
  const file = path.resolve(options.out ?? path.join(options.runDir, REPORT_FILE_NAME));
  writeArtifact(file, page);
  return { file, artifacts, bytes: Buffer.byteLength(page) };
}
