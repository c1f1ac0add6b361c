/**
 * Chat vocabulary shared by models, environments and the runtime. It follows the OpenAI chat format
 * because every target server speaks it; nothing here depends on a particular client library.
 */

/** One structured tool call as returned by a model. `arguments` is the raw JSON text the model sent. */
export interface ToolCall {
  id: string;
  name: string;
  arguments: string;
}

export type ChatMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string | null; toolCalls?: ToolCall[]; reasoning?: string }
  | { role: 'tool'; toolCallId: string; content: string };

/** A function tool offered to the model (JSON-schema parameters, as in the OpenAI `tools` field). */
export interface ToolSpec {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

export function systemMessage(content: string): ChatMessage {
  return { role: 'system', content };
}

export function userMessage(content: string): ChatMessage {
  return { role: 'user', content };
}

export function toolMessage(toolCallId: string, content: string): ChatMessage {
  return { role: 'tool', toolCallId, content };
}
