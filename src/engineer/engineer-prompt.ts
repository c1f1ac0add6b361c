/**
 * The engineer prompt (protocol.md §2.1–2.2): exactly two messages, system then user. The benchmark's
 * prompt style writes both texts around the evidence, which always follows the marker line
 * `Observed no-harness rollout evidence:`; the benchmark's second-pass revision context, when asked for,
 * follows the evidence after a blank line.
 *
 * Everything before the marker is static for a given (PROMPT_VERSION, benchmark, protocol); its SHA-256
 * is returned so artifacts can prove that training and evaluation used the same prompt.
 */
import { InternalError, type ChatMessage } from '../episode/index.js';
import type { EngineerBenchmark, PacketLimits } from './engineer.js';
import type { EngineerInput } from './engineer.js';
import { buildFailurePacket, type FailurePacket } from './failure-packet.js';
import { ENGINE_TEMPLATES, PROMPT_VERSION, sha256 } from './prompt-templates.js';
import type { PreviousAttempt } from './previous-attempt.js';

/** The literal line the evidence always follows; tools split prompts on it (§2.1). */
export const EVIDENCE_MARKER = 'Observed no-harness rollout evidence:';

/** The assistant prefill of `prefill_think_patch`: the completion continues an opened thinking block. */
export const PREFILL_THINK = '<think>\n';

export const ENGINEER_PROMPT_PROTOCOLS = ['prefill_think_patch', 'full_think_patch'] as const;
export type EngineerPromptProtocol = (typeof ENGINEER_PROMPT_PROTOCOLS)[number];

export function isEngineerPromptProtocol(value: string): value is EngineerPromptProtocol {
  return (ENGINEER_PROMPT_PROTOCOLS as readonly string[]).includes(value);
}

export interface EngineerPrompt {
  version: typeof PROMPT_VERSION;
  bench: string;
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
  benchmark: EngineerBenchmark;
  protocol: EngineerPromptProtocol;
  /** The failure packet text. */
  evidence: string;
  /** The second-pass revision section, appended after the evidence. */
  revisionContext?: string;
}

/** The engine's output contract of a protocol, for benchmarks' schema texts. */
export function outputContract(prefill: boolean): string {
  return ENGINE_TEMPLATES.render(prefill ? 'output-contract-prefill.v1.md' : 'output-contract-full.v1.md');
}

/** The engine's rules for hook code, for benchmarks' schema texts. */
export function codeRules(): string {
  return ENGINE_TEMPLATES.render('code-rules.v1.md');
}

/**
 * Assembles the prompt around an evidence text; a revision context (§2.8), when given, follows the
 * evidence after a blank line.
 */
export function renderEngineerPrompt(options: RenderEngineerPromptOptions): EngineerPrompt {
  const { benchmark, protocol } = options;
  const prefill = protocol === 'prefill_think_patch';
  const { system, user: body } = benchmark.prompt.texts(prefill, options.evidence);
  const user = options.revisionContext === undefined ? body : `${body}\n\n${options.revisionContext}`;
  return {
    version: PROMPT_VERSION,
    bench: benchmark.name,
    protocol,
    schemaStyle: benchmark.prompt.schemaStyle,
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
  packetLimits?: Partial<PacketLimits>;
  /** A previous attempt on this batch: adds the benchmark's second-pass revision context. */
  previous?: PreviousAttempt;
}

/** The failure packet of a batch and the prompt built around it. */
export function buildEngineerPrompt(input: EngineerInput, options: BuildEngineerPromptOptions): { prompt: EngineerPrompt; packet: FailurePacket } {
  const packet = buildFailurePacket(input, options.packetLimits === undefined ? {} : { limits: options.packetLimits });
  const prompt = renderEngineerPrompt({
    benchmark: input.benchmark,
    protocol: options.protocol,
    evidence: packet.text,
    ...(options.previous === undefined ? {} : optionalRevision(revisionContextOf(input, options.previous))),
  });
  return { prompt, packet };
}

/** The benchmark's second-pass section; a benchmark without one gets none. */
function revisionContextOf(input: EngineerInput, previous: PreviousAttempt): string | undefined {
  return input.benchmark.revisionContext?.(previous, input);
}

function optionalRevision(text: string | undefined): { revisionContext?: string } {
  return text === undefined ? {} : { revisionContext: text };
}
