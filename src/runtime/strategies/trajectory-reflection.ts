import type { ChatMessage } from '../../episode/index.js';
import { isModelCallError, type ChatModel, type ChatRequest, type ChatResponse } from '../../models/chat-model.js';
import { REFLECTION_MAX_TOKENS } from './reflection.js';
import { candidateText } from './self-refine.js';
import { trajectoryActPrompt, trajectoryReflectPrompt } from './strategy-prompts.js';

/** How a Trajectory Reflection turn chose its action (the release's decision names). */
export type TrajectoryDecision = 'action_with_reflection' | 'action_without_reflection_error' | 'action_without_reflection_empty';

const add = (a: ChatResponse['usage'], b: ChatResponse['usage']) => ({ promptTokens: a.promptTokens + b.promptTokens, completionTokens: a.completionTokens + b.completionTokens });

/**
 * Step-level reflection, after the release's `reflection` client agent: on every turn one call without tools
 * (at most 512 tokens) reflects on the trajectory so far, then the action call carries that reflection as a
 * last user message. Both requests are ephemeral: only the chosen action (its first tool call) enters the
 * conversation, so the loop sees one turn with the two calls' usage summed. A failed or empty reflection
 * leaves the action call with the plain conversation. This is not the episode-level `reflection` strategy
 * (a second attempt after a failure, success@2): every figure of this one is success@1.
 */
export function trajectoryReflectionModel(inner: ChatModel): ChatModel {
  return {
    label: inner.label,
    simulated: inner.simulated,
    async complete(request: ChatRequest): Promise<ChatResponse> {
      const { toolChoice: _c, parallelToolCalls: _p, tools: _t, ...plain } = request;
      const side = (content: string): ChatMessage[] => [...request.messages, { role: 'user', content }];
      let reflection = '';
      let reflectionError: string | undefined;
      let reflectionUsage = { promptTokens: 0, completionTokens: 0 };
      let latencyMs = 0;
      let calls = 0;
      try {
        const reflected = await inner.complete({ ...plain, messages: side(trajectoryReflectPrompt(request.tools)), maxTokens: REFLECTION_MAX_TOKENS });
        calls++;
        reflectionUsage = reflected.usage;
        latencyMs += reflected.latencyMs;
        reflection = (reflected.message.content ?? '').trim();
      } catch (error) {
        if (!isModelCallError(error) || error.failure === 'aborted') throw error;
        reflectionError = error.message;
      }
      const textProtocol = !request.tools || request.tools.length === 0;
      const decision: TrajectoryDecision = reflection ? 'action_with_reflection' : reflectionError !== undefined ? 'action_without_reflection_error' : 'action_without_reflection_empty';
      const action = await inner.complete(reflection ? { ...request, messages: side(trajectoryActPrompt(reflection, textProtocol)) } : request);
      calls++;
      const toolCalls = action.message.toolCalls.length <= 1 ? action.message.toolCalls : [action.message.toolCalls[0]!];
      return {
        ...action,
        message: { ...action.message, toolCalls },
        usage: add(reflectionUsage, action.usage),
        latencyMs: latencyMs + action.latencyMs,
        calls,
        strategy: {
          strategy: 'trajectory_reflection',
          decision,
          ...(reflection ? { reflection } : {}),
          ...(reflectionError !== undefined ? { reflectionError } : {}),
          selected: candidateText({ ...action.message, toolCalls }),
          reflectionUsage,
          actionUsage: action.usage,
        },
      };
    },
    ...(inner.close ? { close: () => inner.close!() } : {}),
  };
}
