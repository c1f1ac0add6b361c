import type { ChatMessage, ToolSpec } from '../../episode/index.js';
import { isModelCallError, type ChatModel, type ChatRequest, type ChatResponse } from '../../models/chat-model.js';
import { critiquePrompt, refinePrompt } from './strategy-prompts.js';

/** Tokens the critic may spend (the release's default). */
export const CRITIQUE_MAX_TOKENS = 512;

/** Which action Self-Refine chose on a turn, and why (the release's decision names). */
export type RefineDecision =
  | 'critic_keep_draft'
  | 'refined_changed'
  | 'refined_unchanged'
  | 'draft_gate_refined_invalid'
  | 'draft_fallback_both_invalid'
  | 'draft_fallback_critic_error'
  | 'draft_fallback_critic_empty'
  | 'draft_fallback_refiner_error';

type Message = ChatResponse['message'];

/** The candidate as the critic and refiner see it: its text and its calls, without call ids. */
export function candidateText(message: Message): string {
  const out: Record<string, unknown> = {};
  if (message.content && message.content.trim()) out.content = message.content;
  if (message.toolCalls.length > 0) out.tool_calls = message.toolCalls.map((c) => ({ name: c.name, arguments: c.arguments }));
  return JSON.stringify(out);
}

function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** The critic's verdict: from its JSON object (fenced or inside text), else from a `"verdict": "…"` pair in the text. */
export function criticVerdict(text: string): 'keep' | 'revise' | undefined {
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  const object = start >= 0 && end > start ? parseObject(text.slice(start, end + 1)) : undefined;
  const raw = object ? object.verdict : /"verdict"\s*:\s*"(keep|revise)"/i.exec(text)?.[1];
  const verdict = typeof raw === 'string' ? raw.trim().toLowerCase() : undefined;
  return verdict === 'keep' || verdict === 'revise' ? verdict : undefined;
}

const JSON_TYPES: Record<string, (v: unknown) => boolean> = {
  string: (v) => typeof v === 'string',
  array: (v) => Array.isArray(v),
  object: (v) => typeof v === 'object' && v !== null && !Array.isArray(v),
  number: (v) => typeof v === 'number',
  integer: (v) => Number.isInteger(v),
  boolean: (v) => typeof v === 'boolean',
  null: (v) => v === null,
};

/**
 * Whether an action can be executed as it stands: in a tool protocol, a first call to a known tool whose
 * arguments are a JSON object meeting the tool's schema (required keys, no extra keys where forbidden, the
 * declared types); in a text protocol, some text. (The release also checks benchmark state such as the
 * listed actions; that is the benchmark's business and is left to the environment here.)
 */
export function actionValidity(message: Message, tools: readonly ToolSpec[] | undefined): { valid: boolean; reason: string } {
  if (!tools || tools.length === 0) return (message.content ?? '').trim() ? { valid: true, reason: 'text_action' } : { valid: false, reason: 'empty_text_action' };
  const call = message.toolCalls[0];
  if (!call) return { valid: false, reason: 'missing_tool_call' };
  const spec = tools.find((t) => t.name === call.name);
  if (!spec) return { valid: false, reason: 'unknown_tool' };
  const args = parseObject(call.arguments);
  if (!args) return { valid: false, reason: 'invalid_tool_arguments_json' };
  const schema = spec.parameters as { required?: unknown; properties?: Record<string, { type?: unknown }>; additionalProperties?: unknown };
  for (const key of Array.isArray(schema.required) ? schema.required : []) {
    if (typeof key === 'string' && !(key in args)) return { valid: false, reason: `missing_required_argument:${key}` };
  }
  const properties = schema.properties ?? {};
  if (schema.additionalProperties === false) {
    const extra = Object.keys(args).filter((k) => !(k in properties)).sort()[0];
    if (extra !== undefined) return { valid: false, reason: `unexpected_argument:${extra}` };
  }
  for (const [key, value] of Object.entries(args)) {
    const expected = properties[key]?.type;
    const types = Array.isArray(expected) ? expected : expected === undefined ? [] : [expected];
    if (types.length > 0 && !types.some((t) => typeof t === 'string' && (JSON_TYPES[t]?.(value) ?? true))) return { valid: false, reason: `argument_type:${key}` };
  }
  return { valid: true, reason: 'tool_schema_valid' };
}

function firstCallOnly(response: ChatResponse): ChatResponse {
  const calls = response.message.toolCalls;
  return calls.length <= 1 ? response : { ...response, message: { ...response.message, toolCalls: [calls[0]!] } };
}

function signature(message: Message): string {
  const call = message.toolCalls[0];
  if (!call) return `text:${(message.content ?? '').trim()}`;
  const args = parseObject(call.arguments);
  return `${call.name}:${args ? JSON.stringify(args) : call.arguments}`;
}

const add = (a: ChatResponse['usage'], b: ChatResponse['usage'] | undefined) => ({ promptTokens: a.promptTokens + (b?.promptTokens ?? 0), completionTokens: a.completionTokens + (b?.completionTokens ?? 0) });

/**
 * Self-Refine on every turn, in the release's order: a draft action (with the tools), a critique of the draft
 * (no tools, at most 512 tokens) answered as a keep|revise verdict, and, unless the critic keeps a valid
 * draft, a refined action (with the tools) that replaces the draft when it is valid. A failing or empty
 * critic, a failing refiner or an invalid refinement fall back to the draft. The loop sees one turn: its
 * round count is unchanged, while the turn's usage sums the two or three calls and `calls` counts them.
 */
export function selfRefineModel(inner: ChatModel): ChatModel {
  return {
    label: inner.label,
    simulated: inner.simulated,
    async complete(request: ChatRequest): Promise<ChatResponse> {
      const { tools } = request;
      const textProtocol = !tools || tools.length === 0;
      const draft = await inner.complete(request);
      const draftCheck = actionValidity(draft.message, tools);
      const candidate = candidateText(draft.message);
      const side = (content: string): ChatMessage[] => [...request.messages, { role: 'user', content }];
      let calls = 1;
      let usage = draft.usage;
      let latencyMs = draft.latencyMs;
      let feedback = '';
      let criticError: string | undefined;
      try {
        const { toolChoice: _c, parallelToolCalls: _p, tools: _t, ...rest } = request;
        const critic = await inner.complete({ ...rest, messages: side(critiquePrompt(candidate, tools)), maxTokens: CRITIQUE_MAX_TOKENS });
        calls++;
        usage = add(usage, critic.usage);
        latencyMs += critic.latencyMs;
        feedback = (critic.message.content ?? '').trim();
      } catch (error) {
        if (!isModelCallError(error) || error.failure === 'aborted') throw error;
        criticError = error.message;
      }
      const verdict = criticVerdict(feedback);
      let selected = draft;
      let decision: RefineDecision;
      let refined: ChatResponse | undefined;
      let refinedCheck: { valid: boolean; reason: string } | undefined;
      let refinerError: string | undefined;
      if (criticError !== undefined || !feedback) {
        decision = criticError !== undefined ? 'draft_fallback_critic_error' : 'draft_fallback_critic_empty';
      } else if (verdict === 'keep' && draftCheck.valid) {
        decision = 'critic_keep_draft';
      } else {
        try {
          refined = await inner.complete({ ...request, messages: side(refinePrompt(candidate, feedback, textProtocol)) });
          calls++;
          usage = add(usage, refined.usage);
          latencyMs += refined.latencyMs;
          refinedCheck = actionValidity(refined.message, tools);
          if (refinedCheck.valid) {
            selected = refined;
            decision = signature(refined.message) === signature(draft.message) ? 'refined_unchanged' : 'refined_changed';
          } else {
            decision = draftCheck.valid ? 'draft_gate_refined_invalid' : 'draft_fallback_both_invalid';
          }
        } catch (error) {
          if (!isModelCallError(error) || error.failure === 'aborted') throw error;
          refinerError = error.message;
          decision = 'draft_fallback_refiner_error';
        }
      }
      const chosen = firstCallOnly(selected);
      return {
        ...chosen,
        usage,
        latencyMs,
        calls,
        strategy: {
          strategy: 'self_refine',
          decision,
          draft: candidate,
          draftValid: draftCheck.valid,
          draftReason: draftCheck.reason,
          ...(verdict ? { verdict } : {}),
          ...(feedback ? { feedback } : {}),
          ...(refined ? { refined: candidateText(refined.message), refinedValid: refinedCheck?.valid ?? false, refinedReason: refinedCheck?.reason } : {}),
          ...(criticError !== undefined ? { criticError } : {}),
          ...(refinerError !== undefined ? { refinerError } : {}),
        },
      };
    },
    ...(inner.close ? { close: () => inner.close!() } : {}),
  };
}
