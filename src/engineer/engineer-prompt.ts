/**
 * The engineer prompt (protocol.md §2.1–2.2): exactly two messages, system then user. For DBBench with
 * `prefill_think_patch` the user message is: scope line, prefill sentence, patch format and contract,
 * "DBBench Runtime Context", the marker line `Observed no-harness rollout evidence:`, the evidence, and
 * optionally the second-pass revision context. `full_think_patch` sends the format (with the full output
 * contract), the runtime context, the marker and the evidence, with the stricter no-leak system text.
 * WebShop: scope line, (prefill sentence with `prefill_think_patch`), patch format, marker, packet.
 * ALFWorld: scope line, patch format, marker, packet, with the same full wording for both protocols.
 * Every benchmark may end with a second-pass revision context: DBBench's (`revision-context.ts`) or the
 * WebShop/ALFWorld one (`trace-revision-context.ts`).
 *
 * Everything before the marker is static for a given (PROMPT_VERSION, benchmark, protocol); its SHA-256
 * is returned so artifacts can prove that training and evaluation used the same prompt.
 */
import { InternalError, type ChatMessage } from '../episode/index.js';
import type { Benchmark } from '../patch/index.js';
import type { EngineerInput } from './engineer.js';
import { buildFailurePacket, EngineerFormatUnavailableError, hasPacketFormat, type FailurePacket } from './failure-packet.js';
import type { PacketLimitsByBench } from './packet-limits.js';
import { PROMPT_VERSION, renderPromptTemplate, sha256 } from './prompt-templates.js';
import { buildRevisionContext } from '../benchmarks/dbbench/engineer/revision-context.js';
import type { PreviousAttempt } from './previous-attempt.js';
import { buildTraceRevisionContext } from './trace-revision-context.js';

/** The literal line the evidence always follows; tools split prompts on it (§2.1). */
export const EVIDENCE_MARKER = 'Observed no-harness rollout evidence:';

/** The assistant prefill of `prefill_think_patch`: the completion continues an opened thinking block. */
export const PREFILL_THINK = '<think>\n';

export const ENGINEER_PROMPT_PROTOCOLS = ['prefill_think_patch', 'full_think_patch'] as const;
export type EngineerPromptProtocol = (typeof ENGINEER_PROMPT_PROTOCOLS)[number];

export function isEngineerPromptProtocol(value: string): value is EngineerPromptProtocol {
  return (ENGINEER_PROMPT_PROTOCOLS as readonly string[]).includes(value);
}

/** The schema style the DBBench text corresponds to in the original (`dbbench_life_multihook_v1`). */
export const DBBENCH_SCHEMA_STYLE = 'dbbench_life_multihook_v1';
/** The WebShop schema style of the active release (`webshop_life_multihook_v1`, 1–4 hooks). */
export const WEBSHOP_SCHEMA_STYLE = 'webshop_life_multihook_v1';
/** The ALFWorld schema style matching the reference examples (`alfworld_life_multihook_v1`, 2–4 hooks). */
export const ALFWORLD_SCHEMA_STYLE = 'alfworld_life_multihook_v1';

export const SCHEMA_STYLES: { readonly [B in Benchmark]: string } = {
  dbbench: DBBENCH_SCHEMA_STYLE,
  webshop: WEBSHOP_SCHEMA_STYLE,
  alfworld: ALFWORLD_SCHEMA_STYLE,
};

export interface EngineerPrompt {
  version: typeof PROMPT_VERSION;
  bench: Benchmark;
  protocol: EngineerPromptProtocol;
  schemaStyle: string;
  system: string;
  user: string;
  /** `[system, user]`: the prompt proper, as recorded in datasets. */
  messages: ChatMessage[];
  /** The assistant text the completion continues (`<think>\n` for prefill), else undefined. */
  prefill: string | undefined;
  /** SHA-256 of the system text and the user text up to and including the marker line. */
  staticPrefixSha256: string;
}

export interface RenderEngineerPromptOptions {
  bench: Benchmark;
  protocol: EngineerPromptProtocol;
  /** The failure packet text. */
  evidence: string;
  /** The second-pass revision section, appended after the evidence. */
  revisionContext?: string;
}

function outputContract(prefill: boolean): string {
  return renderPromptTemplate(prefill ? 'output-contract-prefill.v1.md' : 'output-contract-full.v1.md');
}

/** System text and user text (without revision context) of one benchmark and protocol. */
function renderBenchTexts(bench: Benchmark, prefill: boolean, evidence: string): { system: string; user: string } {
  switch (bench) {
    case 'dbbench': {
      const schema = renderPromptTemplate('dbbench-schema.v1.md', { output_contract: outputContract(prefill) });
      return {
        system: renderPromptTemplate(prefill ? 'dbbench-system-prefill.v1.md' : 'dbbench-system-full.v1.md'),
        user: renderPromptTemplate(prefill ? 'dbbench-user-prefill.v1.md' : 'dbbench-user-full.v1.md', {
          schema,
          runtime_context: renderPromptTemplate('dbbench-runtime-context.v1.md'),
          evidence_marker: EVIDENCE_MARKER,
          evidence,
        }),
      };
    }
    case 'webshop': {
      const schema = renderPromptTemplate('webshop-schema.v1.md', {
        output_contract: outputContract(prefill),
        code_rules: renderPromptTemplate('code-rules.v1.md'),
      });
      return {
        system: renderPromptTemplate(prefill ? 'webshop-system-prefill.v1.md' : 'webshop-system-full.v1.md'),
        user: renderPromptTemplate(prefill ? 'webshop-user-prefill.v1.md' : 'webshop-user-full.v1.md', {
          scope: renderPromptTemplate('webshop-scope.v1.md'),
          schema,
          evidence_marker: EVIDENCE_MARKER,
          evidence,
        }),
      };
    }
    case 'alfworld': {
      // ALFWorld has a single wording (the full think/patch one) whatever the protocol; only the
      // assistant prefill differs, so the completion can still be parsed by the protocol's extractor.
      const schema = renderPromptTemplate('alfworld-schema.v1.md', {
        output_contract: outputContract(false),
        code_rules: renderPromptTemplate('code-rules.v1.md'),
      });
      return {
        system: renderPromptTemplate('alfworld-system.v1.md'),
        user: renderPromptTemplate('alfworld-user.v1.md', { schema, evidence_marker: EVIDENCE_MARKER, evidence }),
      };
    }
  }
}

/**
 * Assembles the prompt around an evidence text; a revision context (§2.8), when given, follows the
 * evidence after a blank line.
 */
export function renderEngineerPrompt(options: RenderEngineerPromptOptions): EngineerPrompt {
  const { bench, protocol } = options;
  if (!hasPacketFormat(bench)) throw new EngineerFormatUnavailableError(bench, 'engineer prompt');
  const prefill = protocol === 'prefill_think_patch';
  const { system, user: body } = renderBenchTexts(bench, prefill, options.evidence);
  const user = options.revisionContext === undefined ? body : `${body}\n\n${options.revisionContext}`;
  return {
    version: PROMPT_VERSION,
    bench,
    protocol,
    schemaStyle: SCHEMA_STYLES[bench],
    system,
    user,
    messages: [
      { role: 'system', content: system },
      { role: 'user', content: user },
    ],
    prefill: prefill ? PREFILL_THINK : undefined,
    staticPrefixSha256: sha256(`${system}\n\u0000\n${staticPrefix(user)}`),
  };
}

const MARKER_LINE = new RegExp(`^${EVIDENCE_MARKER.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, 'm');

function staticPrefix(user: string): string {
  const split = splitAtEvidenceMarker(user);
  if (!split) throw new InternalError({ message: `The engineer prompt lost its marker line '${EVIDENCE_MARKER}'.` });
  return split.prefix;
}

/**
 * Splits a user text at the first marker line: `prefix` ends with the marker line itself, `rest` is what
 * follows it (without the line break). Undefined when there is no marker line, which the original treats
 * as an error (`align_prompt_prefix_to_reference`).
 */
export function splitAtEvidenceMarker(user: string): { prefix: string; rest: string } | undefined {
  const match = MARKER_LINE.exec(user);
  if (!match) return undefined;
  const end = match.index + EVIDENCE_MARKER.length;
  return { prefix: user.slice(0, end), rest: user.slice(end).replace(/^\n/, '') };
}

export interface BuildEngineerPromptOptions {
  protocol: EngineerPromptProtocol;
  /** Budget overrides of the failure packet (defaults are the original's); keys of another benchmark's budgets are ignored. */
  packetLimits?: Partial<PacketLimitsByBench[Benchmark]>;
  /** A previous attempt on this batch: adds the benchmark's second-pass revision context. */
  previous?: PreviousAttempt;
}

/** The failure packet of a batch and the prompt built around it. */
export function buildEngineerPrompt(input: EngineerInput, options: BuildEngineerPromptOptions): { prompt: EngineerPrompt; packet: FailurePacket } {
  if (!hasPacketFormat(input.bench)) throw new EngineerFormatUnavailableError(input.bench, 'engineer prompt');
  const packet = buildFailurePacket(input, { limits: options.packetLimits as Partial<PacketLimitsByBench[typeof input.bench]> | undefined });
  const prompt = renderEngineerPrompt({
    bench: input.bench,
    protocol: options.protocol,
    evidence: packet.text,
    ...(options.previous === undefined ? {} : { revisionContext: revisionContextOf(input, options.previous) }),
  });
  return { prompt, packet };
}

/** DBBench keeps its own section unchanged; WebShop and ALFWorld name tasks by their position in the batch. */
function revisionContextOf(input: EngineerInput, previous: PreviousAttempt): string {
  return input.bench === 'dbbench' ? buildRevisionContext(previous) : buildTraceRevisionContext(input.bench, previous, { taskIndices: input.taskIndices });
}
