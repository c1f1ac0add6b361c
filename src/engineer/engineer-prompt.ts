/**
 * The engineer prompt (protocol.md §2.1–2.2): exactly two messages, system then user. For DBBench with
 * `prefill_think_patch` the user message is: scope line, prefill sentence, patch format and contract,
 * "DBBench Runtime Context", the marker line `Observed no-harness rollout evidence:`, the evidence, and
 * optionally the second-pass revision context. `full_think_patch` sends the format (with the full output
 * contract), the runtime context, the marker and the evidence, with the stricter no-leak system text.
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
import { buildRevisionContext, type PreviousAttempt } from './revision-context.js';

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

/** Assembles the prompt around an evidence text. Throws EngineerFormatUnavailableError for WebShop/ALFWorld. */
export function renderEngineerPrompt(options: RenderEngineerPromptOptions): EngineerPrompt {
  const { bench, protocol } = options;
  if (bench !== 'dbbench') throw new EngineerFormatUnavailableError(bench, 'engineer prompt');
  const prefill = protocol === 'prefill_think_patch';
  const system = renderPromptTemplate(prefill ? 'dbbench-system-prefill.v1.md' : 'dbbench-system-full.v1.md');
  const schema = renderPromptTemplate('dbbench-schema.v1.md', {
    output_contract: renderPromptTemplate(prefill ? 'output-contract-prefill.v1.md' : 'output-contract-full.v1.md'),
  });
  const body = renderPromptTemplate(prefill ? 'dbbench-user-prefill.v1.md' : 'dbbench-user-full.v1.md', {
    schema,
    runtime_context: renderPromptTemplate('dbbench-runtime-context.v1.md'),
    evidence_marker: EVIDENCE_MARKER,
    evidence: options.evidence,
  });
  const user = options.revisionContext === undefined ? body : `${body}\n\n${options.revisionContext}`;
  return {
    version: PROMPT_VERSION,
    bench,
    protocol,
    schemaStyle: DBBENCH_SCHEMA_STYLE,
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
  /** Budget overrides of the failure packet (defaults are the original's). */
  packetLimits?: Partial<PacketLimitsByBench['dbbench']>;
  /** A previous attempt on this batch: adds the second-pass revision context. */
  previous?: PreviousAttempt;
}

/** The failure packet of a batch and the prompt built around it. */
export function buildEngineerPrompt(input: EngineerInput, options: BuildEngineerPromptOptions): { prompt: EngineerPrompt; packet: FailurePacket } {
  if (!hasPacketFormat(input.bench)) throw new EngineerFormatUnavailableError(input.bench, 'engineer prompt');
  const packet = buildFailurePacket(input as EngineerInput & { bench: 'dbbench' }, { limits: options.packetLimits });
  const prompt = renderEngineerPrompt({
    bench: input.bench,
    protocol: options.protocol,
    evidence: packet.text,
    ...(options.previous === undefined ? {} : { revisionContext: buildRevisionContext(options.previous) }),
  });
  return { prompt, packet };
}
