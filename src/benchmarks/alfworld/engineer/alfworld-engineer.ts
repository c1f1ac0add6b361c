import type { EngineerBenchmark } from '../../../engineer/engineer.js';
import { codeRules, EVIDENCE_MARKER, outputContract } from '../../../engineer/engineer-prompt.js';
import { tracePacketRenderer, type TracePacketLimits, type TraceStyle } from '../../../engineer/trace-packet.js';
import { buildTraceRevisionContext } from '../../../engineer/trace-revision-context.js';
import { ALFWORLD_SYMBOLIC } from '../symbolic/alfworld-symbolic.js';
import { alfworldSignalLines } from './alfworld-signals.js';
import { createInstanceMasker } from './mask-instances.js';
import { ALFWORLD_TEMPLATES } from './prompt-templates.js';

/** ALFWorld's trace-packet budgets (`harness_r1_trace_packet.py`). */
export const ALFWORLD_PACKET_LIMITS: Readonly<TracePacketLimits> = Object.freeze({
  maxTraces: 20,
  maxObservationChars: 350,
  maxAssistantChars: 200,
  maxApproxTokens: 12000,
});

export const ALFWORLD_TRACE_STYLE: TraceStyle = {
  bench: 'alfworld',
  name: 'ALFWorld',
  noLeak:
    'Keep the patch free of anything specific to these tasks: no task numbers, no answers, and no numbered object or receptacle instances such as "sinkbasin 1" or "cabinet 4"; pick exact commands from the admissible list at run time. In the traces below, instance numbers are masked: within one trace, each distinct instance of a name has its own letter (cabinet [a], cabinet [b]); the agent saw numbers.',
  signals: alfworldSignalLines,
  masker: createInstanceMasker,
};

/**
 * ALFWorld as engineers see it: the markdown trace packet with instance numbers masked, the
 * `alfworld_life_multihook_v1` prompt texts (one wording, the full think/patch one, for both protocols —
 * only the assistant prefill differs, so the completion is still parsed by the protocol's extractor), the
 * trace revision context and the symbolic engineer's ALFWorld signatures.
 */
export const ALFWORLD_ENGINEER: EngineerBenchmark = {
  name: 'alfworld',
  title: 'ALFWorld',
  packet: tracePacketRenderer(ALFWORLD_TRACE_STYLE, ALFWORLD_PACKET_LIMITS),
  prompt: {
    schemaStyle: 'alfworld_life_multihook_v1',
    texts(_prefill, evidence) {
      const schema = ALFWORLD_TEMPLATES.render('alfworld-schema.v1.md', { output_contract: outputContract(false), code_rules: codeRules() });
      return {
        system: ALFWORLD_TEMPLATES.render('alfworld-system.v1.md'),
        user: ALFWORLD_TEMPLATES.render('alfworld-user.v1.md', { schema, evidence_marker: EVIDENCE_MARKER, evidence }),
      };
    },
  },
  revisionContext: (previous, input) => buildTraceRevisionContext(ALFWORLD_TRACE_STYLE, previous, { taskIndices: input.taskIndices, sectionLimits: ALFWORLD_PACKET_LIMITS }),
  symbolic: ALFWORLD_SYMBOLIC,
};
