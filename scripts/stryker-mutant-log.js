// A Stryker reporter plugin for `npm run mutate`: appends one line per mutant to the file named by
// STRYKER_MUTANT_LOG as soon as the mutant is tested, so a run stopped part-way still names its survivors
// (Stryker's own reports and incremental file are written only when the whole run ends).
/* global process */
import { appendFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { declareClassPlugin, PluginKind } from '@stryker-mutator/api/plugin';

class MutantLogReporter {
  constructor() {
    this.file = process.env.STRYKER_MUTANT_LOG;
    if (this.file) writeFileSync(this.file, '');
  }

  onMutantTested(result) {
    if (!this.file) return;
    const where = `${path.relative(process.cwd(), result.fileName)}:${result.location.start.line}:${result.location.start.column + 1}`;
    appendFileSync(this.file, `${result.status} ${where} ${result.mutatorName}${result.static ? ' (static)' : ''} → ${result.replacement.replace(/\s+/g, ' ').slice(0, 100)}\n`);
  }
}
MutantLogReporter.inject = [];

export const strykerPlugins = [declareClassPlugin(PluginKind.Reporter, 'mutant-log', MutantLogReporter)];
