import type { EngineerBenchmark } from '../../../engineer/engineer.js';
import { EVIDENCE_MARKER, outputContract } from '../../../engineer/engineer-prompt.js';
import { DBBENCH_SYMBOLIC } from '../symbolic/dbbench-symbolic.js';
import { DBBENCH_EVIDENCE_FORMAT, DBBENCH_SANITIZE_MODE, renderDbBenchEvidence } from './dbbench-evidence.js';
import { DBBENCH_EVIDENCE_LIMITS, type DbBenchEvidenceLimits } from './dbbench-evidence-limits.js';
import { DBBENCH_TEMPLATES } from './prompt-templates.js';
import { buildRevisionContext } from './revision-context.js';

/**
 * DBBench as engineers see it: the original's evidence layout and budgets, the `dbbench_life_multihook_v1`
 * prompt texts (prefill: scope line, prefill sentence, patch format and contract, the DBBench runtime
 * context, the marker and the evidence; full: the stricter no-leak system text and the full output
 * contract), its own second-pass section and the symbolic engineer's DBBench signatures.
 */
export const DBBENCH_ENGINEER: EngineerBenchmark = {
  name: 'dbbench',
  title: 'DBBench',
  packet: {
    format: DBBENCH_EVIDENCE_FORMAT,
    defaultLimits: DBBENCH_EVIDENCE_LIMITS,
    sanitize: DBBENCH_SANITIZE_MODE,
    render: (selection, limits) => renderDbBenchEvidence(selection, limits as DbBenchEvidenceLimits, DBBENCH_SANITIZE_MODE),
  },
  prompt: {
    schemaStyle: 'dbbench_life_multihook_v1',
    texts(prefill, evidence) {
      const schema = DBBENCH_TEMPLATES.render('dbbench-schema.v1.md', { output_contract: outputContract(prefill) });
      return {
        system: DBBENCH_TEMPLATES.render(prefill ? 'dbbench-system-prefill.v1.md' : 'dbbench-system-full.v1.md'),
        user: DBBENCH_TEMPLATES.render(prefill ? 'dbbench-user-prefill.v1.md' : 'dbbench-user-full.v1.md', {
          schema,
          runtime_context: DBBENCH_TEMPLATES.render('dbbench-runtime-context.v1.md'),
          evidence_marker: EVIDENCE_MARKER,
          evidence,
        }),
      };
    },
  },
  revisionContext: (previous) => buildRevisionContext(previous),
  symbolic: DBBENCH_SYMBOLIC,
};
