import type { EngineerBenchmark } from '../../../engineer/engineer.js';
import { codeRules, EVIDENCE_MARKER, outputContract } from '../../../engineer/engineer-prompt.js';
import { tracePacketRenderer, type TracePacketLimits, type TraceStyle } from '../../../engineer/trace-packet.js';
import { buildTraceRevisionContext } from '../../../engineer/trace-revision-context.js';
import { WEBSHOP_SYMBOLIC } from '../symbolic/webshop-symbolic.js';
import { WEBSHOP_TEMPLATES } from './prompt-templates.js';
import { webShopSignalLines } from './webshop-signals.js';

/** WebShop's trace-packet budgets (`harness_r1_trace_packet.py`). */
export const WEBSHOP_PACKET_LIMITS: Readonly<TracePacketLimits> = Object.freeze({
  maxTraces: 20,
  maxObservationChars: 1200,
  maxAssistantChars: 600,
  maxApproxTokens: 18000,
});

export const WEBSHOP_TRACE_STYLE: TraceStyle = {
  bench: 'webshop',
  name: 'WebShop',
  noLeak:
    'Keep the patch free of anything specific to these tasks: no product ids, ASINs, exact product titles, task numbers or answers taken from the traces.',
  signals: webShopSignalLines,
};

/**
 * WebShop as engineers see it: the markdown trace packet, the `webshop_life_multihook_v1` prompt texts
 * (scope line, the prefill sentence with `prefill_think_patch`, patch format, marker, packet), the trace
 * revision context and the symbolic engineer's WebShop signatures.
 */
export const WEBSHOP_ENGINEER: EngineerBenchmark = {
  name: 'webshop',
  title: 'WebShop',
  packet: tracePacketRenderer(WEBSHOP_TRACE_STYLE, WEBSHOP_PACKET_LIMITS),
  prompt: {
    schemaStyle: 'webshop_life_multihook_v1',
    texts(prefill, evidence) {
      const schema = WEBSHOP_TEMPLATES.render('webshop-schema.v1.md', { output_contract: outputContract(prefill), code_rules: codeRules() });
      return {
        system: WEBSHOP_TEMPLATES.render(prefill ? 'webshop-system-prefill.v1.md' : 'webshop-system-full.v1.md'),
        user: WEBSHOP_TEMPLATES.render(prefill ? 'webshop-user-prefill.v1.md' : 'webshop-user-full.v1.md', {
          scope: WEBSHOP_TEMPLATES.render('webshop-scope.v1.md'),
          schema,
          evidence_marker: EVIDENCE_MARKER,
          evidence,
        }),
      };
    },
  },
  revisionContext: (previous, input) => buildTraceRevisionContext(WEBSHOP_TRACE_STYLE, previous, { taskIndices: input.taskIndices, sectionLimits: WEBSHOP_PACKET_LIMITS }),
  symbolic: WEBSHOP_SYMBOLIC,
};
