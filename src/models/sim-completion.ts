/**
 * The chat.completion a simulated target answers with: the OpenAI shape plus a private `simulation` field
 * that says what the simulation did (the plan step behind a call) or why it could not play (`problem`,
 * answered with HTTP 400). `simHttpReply` drops the private field.
 */
export interface SimCompletion<Target extends string, Tag, Extra extends object = Record<never, never>> {
  id: string;
  object: 'chat.completion';
  created: number;
  model: string;
  system_fingerprint: string;
  choices: [
    {
      index: 0;
      message: { role: 'assistant'; content: string | null; tool_calls?: { id: string; type: 'function'; function: { name: string; arguments: string } }[] };
      finish_reason: 'tool_calls' | 'stop';
      logprobs: null;
    },
  ];
  usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
  simulation: { target: Target; taskKey?: string; tag?: Tag; problem?: { code: 'unknown_task' | 'bad_request'; message: string } } & Extra;
}

/** Token counts in the OpenAI `usage` shape. */
export function simUsage(prompt: number, completion: number): { prompt_tokens: number; completion_tokens: number; total_tokens: number } {
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
}

/**
 * The HTTP answer for a simulated completion: 200 with the OpenAI body (the private `simulation` field
 * removed), or 400 with an OpenAI-style error body when the target cannot play the request.
 */
export function simHttpReply<C extends { simulation: { problem?: { code: string; message: string } } }>(
  completion: C,
): { status: 200 | 400; body: Record<string, unknown> } {
  const { simulation, ...body } = completion;
  if (simulation.problem) {
    return { status: 400, body: { error: { message: simulation.problem.message, type: 'invalid_request_error', param: 'messages', code: simulation.problem.code } } };
  }
  return { status: 200, body };
}
