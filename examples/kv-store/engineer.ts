/**
 * kv-store as engineers see it: the markdown trace packet (with the generic runtime signals), the prompt
 * texts pinned in `prompts/` (one system text; one user text, which opens with a line on the prefilled
 * thinking block under `prefill_think_patch`), the trace revision context for `improve --revise`, and no
 * symbolic rules of its own, so the symbolic engineer answers with its generic part.
 */
import {
  buildTraceRevisionContext,
  codeRules,
  definePromptTemplates,
  EVIDENCE_MARKER,
  genericSignalLines,
  outputContract,
  promptsDirOf,
  tracePacketRenderer,
  type EngineerBenchmark,
  type TracePacketLimits,
  type TraceStyle,
} from 'harness-r1';

import { KV_BENCH } from './episode.js';

export const KV_PACKET_LIMITS: Readonly<TracePacketLimits> = Object.freeze({
  maxTraces: 12,
  maxObservationChars: 800,
  maxAssistantChars: 400,
  maxApproxTokens: 12000,
});

const STYLE: TraceStyle = {
  bench: KV_BENCH,
  name: 'kv-store',
  noLeak: 'Keep the patch free of anything specific to these tasks: no key names, values, answers or task numbers taken from the traces.',
  signals: (episode) => genericSignalLines(episode),
};

/** The prompt texts; editing one changes its digest, and loading it then fails until it is pinned again. */
export const KV_TEMPLATES = definePromptTemplates(promptsDirOf(import.meta.url), {
  'kv-system.v1.md': 'a302ebed4ff5c303a362e15b2c59d994b8b60fa96a35b72a5bfc803a9106c8c0',
  'kv-user.v1.md': '09c4d9ba874b79883a9b5d2ada69ea13221319e6ffdc382180f3050fa5440a8d',
});

const PREFILL_NOTE = 'Your thinking block is already open: continue it briefly, close it with </think>, then write the <patch> block.\n\n';

export const KV_ENGINEER: EngineerBenchmark = {
  name: KV_BENCH,
  title: 'kv-store',
  packet: tracePacketRenderer(STYLE, KV_PACKET_LIMITS),
  prompt: {
    schemaStyle: 'kv_store_code_hooks_v1',
    texts(prefill, evidence) {
      return {
        system: KV_TEMPLATES.render('kv-system.v1.md'),
        user: KV_TEMPLATES.render('kv-user.v1.md', {
          prefill_note: prefill ? PREFILL_NOTE : '',
          output_contract: outputContract(prefill),
          code_rules: codeRules(),
          evidence_marker: EVIDENCE_MARKER,
          evidence,
        }),
      };
    },
  },
  revisionContext: (previous, input) => buildTraceRevisionContext(STYLE, previous, { taskIndices: input.taskIndices, sectionLimits: KV_PACKET_LIMITS }),
};
