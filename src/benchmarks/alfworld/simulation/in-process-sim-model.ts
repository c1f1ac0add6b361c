import { ModelCallError, type ChatModel, type ChatRequest, type ChatResponse } from '../../../models/chat-model.js';
import { fromWireToolCalls, toWireMessage, toWireTools } from '../../../models/wire-format.js';
import type { AlfworldSimHandler } from './wire-handler.js';

/**
 * The simulated ALFWorld target as an in-process ChatModel: each request goes through the same wire body
 * the HTTP path would send (OpenAI messages and tools), without a server. For tests and baselines.
 */
export function createAlfworldSimModel(handler: AlfworldSimHandler, label = 'sim:alfworld (simulated target)'): ChatModel {
  return {
    label,
    simulated: true,
    complete(request: ChatRequest): Promise<ChatResponse> {
      const body = { model: 'sim-alfworld', messages: request.messages.map(toWireMessage), tools: toWireTools(request.tools ?? []) };
      const completion = handler(body);
      const problem = completion.simulation.problem;
      if (problem) return Promise.reject(new ModelCallError({ message: problem.message, status: 400, retryable: false, failure: 'http_status' }));
      const choice = completion.choices[0];
      return Promise.resolve({
        message: { content: choice.message.content, toolCalls: fromWireToolCalls(choice.message.tool_calls) },
        finishReason: choice.finish_reason,
        usage: { promptTokens: completion.usage.prompt_tokens, completionTokens: completion.usage.completion_tokens },
        latencyMs: 0,
      });
    },
  };
}
