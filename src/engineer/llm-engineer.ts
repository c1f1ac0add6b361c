/**
 * The single-shot LLM engineer of Harness-R1 (protocol.md §1.3 step 3, §2.7): one chat completion per
 * batch, on the prompt of `engineer-prompt.ts`.
 *
 * With `prefill_think_patch` the request ends with an assistant message `<think>\n` that the server must
 * continue rather than answer. The ChatModel does not do that by itself: the caller must create it with
 * `createOpenAICompatibleModel({ ..., continueFinalMessage: true })` (vLLM/SGLang then get
 * `continue_final_message: true, add_generation_prompt: false`), and for Qwen-style thinking templates
 * `chatTemplateKwargs: { enable_thinking: true }`; the reference also sends `top_p: 1.0` (`extraBody`).
 * Without `continueFinalMessage`, the server opens a new assistant turn after the prefill and the answer
 * usually starts with its own `<think>`, which the prefill extractor rejects.
 *
 * Expected failures are values: a request that fails after the model's retries, or an answer that stays
 * empty after one more try, gives `{ status: 'request_failed' }` (scored as no patch). Only
 * misconfiguration throws. The prompt, packet and revision context are those of `input.benchmark`.
 */
import { isModelCallError, type ChatModel, type ChatResponse } from '../models/chat-model.js';
import { reassembleEngineerText, type ReassembleOptions } from '../patch/index.js';
import type { ChatMessage } from '../episode/index.js';
import type { Engineer, EngineerInput, EngineerResult, EngineerUsage } from './engineer.js';
import { buildEngineerPrompt, type EngineerPromptProtocol } from './engineer-prompt.js';
import type { PacketLimits } from './engineer.js';
import type { PreviousAttempt } from './previous-attempt.js';

export const DEFAULT_ENGINEER_MAX_TOKENS = 12288;
export const DEFAULT_ENGINEER_TEMPERATURE = 0;

export interface LlmEngineerOptions {
  model: ChatModel;
  protocol: EngineerPromptProtocol;
  /** Response budget. Default 12288 (the reference eval and RL setting). */
  maxTokens?: number;
  /** Default 0 (reference eval). RL rollouts use 0.7. */
  temperature?: number;
  /**
   * A previous attempt for the second pass (§2.8): one attempt, or a lookup by batch. When it yields an
   * attempt, the revision context is appended after the evidence.
   */
  revision?: PreviousAttempt | ((input: EngineerInput) => PreviousAttempt | undefined);
  /**
   * Further tries when the answer is empty (no content and no reasoning). Default 1, as the original's
   * SQL-benchmark evaluator.
   */
  emptyResponseRetries?: number;
  /**
   * How reasoning and content are joined when the server splits them (§2.3). `prefill_aware` (default)
   * rebuilds `reasoning + "\n</think>\n" + content` for the prefill protocol, as the original's trace-benchmark
   * evaluators do; `dbbench_original` (the original's variant name) reproduces its SQL-benchmark evaluator,
   * whose prefill answers then start with `<think>` and are rejected.
   */
  reassembly?: 'prefill_aware' | 'dbbench_original';
  /** Failure-packet budget overrides; keys of another benchmark's budgets are ignored. */
  packetLimits?: Partial<PacketLimits>;
  signal?: AbortSignal;
  /** Default `llm:<model label>`. */
  label?: string;
  /**
   * With `prefill_think_patch`: the same server asked without the prefill extensions. When the server
   * refuses the prefill request itself (HTTP 400, 404, 405, 415 or 422: hosted APIs and servers that
   * reject `continue_final_message`, `add_generation_prompt` or `chat_template_kwargs`), the engineer
   * switches to the release's `full_think_patch` protocol on this model — no prefill, the model writes
   * `<think>…</think><patch>…</patch>` itself — for that batch and every later one, and says so in the notes.
   */
  fullThinkFallback?: ChatModel;
  /** Shared by an engineer and its revisions: set once the server refused the prefill request. */
  switchState?: { refusal?: string };
}

/** HTTP statuses by which a server refuses a request's shape (fields, roles), not its load. */
const REFUSAL_STATUSES = new Set([400, 404, 405, 415, 422]);

type Attempt = EngineerResult & { refusal?: string };

function isEmpty(text: string): boolean {
  return text.trim() === '';
}

export function createLlmEngineer(options: LlmEngineerOptions): Engineer {
  const state = options.switchState ?? {};
  const first = createSingleProtocolEngineer(options);
  const fallback = options.fullThinkFallback;
  if (fallback === undefined || options.protocol !== 'prefill_think_patch') return { ...first, propose: async (input) => stripRefusal(await first.propose(input)) };
  const full = createSingleProtocolEngineer({ ...options, model: fallback, protocol: 'full_think_patch' });
  const switchNote = () => `the engineer server refused the prefill request (${state.refusal}); full_think_patch protocol used instead (no prefill, no chat-template extensions)`;
  return {
    label: first.label,
    kind: 'llm',
    revise: (previous) => createLlmEngineer({ ...options, revision: previous, switchState: state }),
    async propose(input) {
      let refused: EngineerUsage | undefined;
      if (state.refusal === undefined) {
        const result: Attempt = await first.propose(input);
        if (result.refusal === undefined) return stripRefusal(result);
        state.refusal = result.refusal;
        refused = result.usage;
      }
      // The refused request was a model call too: it counts in this answer's cost.
      const answer = stripRefusal(await full.propose(input));
      const result = refused && answer.usage ? { ...answer, usage: addUsage(refused, answer.usage) } : answer;
      if (result.status === 'ok') return { ...result, notes: [switchNote(), ...(result.notes ?? [])] };
      return { ...result, detail: `${result.detail} (after: ${switchNote()})` };
    },
  };
}

function addUsage(a: EngineerUsage, b: EngineerUsage): EngineerUsage {
  return { modelCalls: a.modelCalls + b.modelCalls, promptTokens: a.promptTokens + b.promptTokens, completionTokens: a.completionTokens + b.completionTokens };
}

function stripRefusal(result: Attempt): EngineerResult {
  const { refusal: _refusal, ...rest } = result;
  return rest as EngineerResult;
}

function createSingleProtocolEngineer(options: LlmEngineerOptions): Omit<Engineer, 'propose'> & { propose(input: EngineerInput): Promise<Attempt> } {
  const maxTokens = options.maxTokens ?? DEFAULT_ENGINEER_MAX_TOKENS;
  const temperature = options.temperature ?? DEFAULT_ENGINEER_TEMPERATURE;
  const emptyRetries = Math.max(0, options.emptyResponseRetries ?? 1);
  const reassembly: ReassembleOptions = {
    protocol: options.protocol,
    variant: options.reassembly === 'dbbench_original' ? 'dbbench' : 'webshop_alfworld',
  };

  return {
    label: options.label ?? `llm:${options.model.label}`,
    kind: 'llm',
    revise: (previous) => createLlmEngineer({ ...options, revision: previous }),

    async propose(input: EngineerInput): Promise<EngineerResult> {
      // The second-pass revision context (§2.8), as the batch's benchmark writes it.
      const previous = typeof options.revision === 'function' ? options.revision(input) : options.revision;
      const { prompt, packet } = buildEngineerPrompt(input, {
        protocol: options.protocol,
        ...(options.packetLimits === undefined ? {} : { packetLimits: options.packetLimits }),
        ...(previous === undefined ? {} : { previous }),
      });
      const messages: ChatMessage[] = prompt.prefill === undefined ? prompt.messages : [...prompt.messages, { role: 'assistant', content: prompt.prefill }];
      const notes = [
        `prompt ${prompt.version} ${prompt.bench}/${prompt.protocol} static-prefix sha256 ${prompt.staticPrefixSha256}`,
        `packet ${packet.format}: ${packet.stats.included} of ${packet.stats.failures} failure traces, ${packet.stats.excluded.total} infrastructure-failed episode(s) excluded${packet.stats.truncated ? ', truncated' : ''}`,
      ];
      if (previous !== undefined) notes.push('second-pass revision context included');

      let response: ChatResponse | undefined;
      let text = '';
      const attempts = 1 + emptyRetries;
      const usage: EngineerUsage = { modelCalls: 0, promptTokens: 0, completionTokens: 0 };
      for (let attempt = 1; attempt <= attempts; attempt++) {
        usage.modelCalls++;
        try {
          response = await options.model.complete({ messages, temperature, maxTokens, ...(options.signal ? { signal: options.signal } : {}) });
        } catch (error) {
          if (!isModelCallError(error)) throw error;
          const refused = error.status !== undefined && REFUSAL_STATUSES.has(error.status);
          return {
            status: 'request_failed',
            detail: `engineer request failed: ${error.message}`,
            prompt: messages,
            usage,
            ...(refused ? { refusal: `HTTP ${error.status}${error.serverMessage ? `: ${error.serverMessage.slice(0, 200)}` : ''}` } : {}),
          };
        }
        usage.promptTokens += response.usage.promptTokens;
        usage.completionTokens += response.usage.completionTokens;
        text = reassembleEngineerText({ content: response.message.content, reasoning: response.message.reasoning ?? null }, reassembly);
        if (!isEmpty(text)) break;
        if (attempt < attempts) notes.push(`empty response on attempt ${attempt}; asked again`);
      }
      if (response === undefined || isEmpty(text)) {
        return { status: 'request_failed', detail: `engineer returned an empty response ${attempts} time(s)`, prompt: messages, usage };
      }
      if (response.finishReason === 'length') notes.push(`response stopped at max_tokens (${maxTokens})`);
      if (response.message.toolCalls.length > 0) notes.push(`response carried ${response.message.toolCalls.length} tool call(s); ignored`);
      return {
        status: 'ok',
        proposal: { kind: 'response', text, protocol: options.protocol },
        prompt: messages,
        raw: { content: response.message.content, ...(response.message.reasoning === undefined ? {} : { reasoning: response.message.reasoning }) },
        notes,
        usage,
      };
    },
  };
}
