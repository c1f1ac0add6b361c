/**
 * The text the baseline strategies add to a target's conversation. Each request a strategy makes carries a
 * marker on its first line, so a simulated target (and a reader of the records) can tell a critique or a
 * reflection request from a benchmark turn. The wording is ours; what is protocol is listed per prompt:
 * the critic's JSON reply shape (`verdict` keep|revise, `issue`, `suggested_action`) is the one the release's
 * Self-Refine agent parses, and the strategies' order of calls follows its client agents.
 */
import type { ToolSpec } from '../../episode/index.js';

export const REACT_MARKER = '[strategy:react]';
export const CRITIQUE_MARKER = '[strategy:self_refine:critique]';
export const REFINE_MARKER = '[strategy:self_refine:refine]';
export const REFLECT_MARKER = '[strategy:reflection:reflect]';
export const MEMORY_MARKER = '[strategy:reflection:memory]';

/** Appended to the system prompt on every turn: a visible thought, then exactly one action. */
export function reactBlock(textProtocol: boolean): string {
  const action = textProtocol
    ? 'then write exactly one action in the format the task asks for.'
    : 'then make exactly one structured tool call (in tool_calls, never as text) with one of the provided tools.';
  return [
    REACT_MARKER,
    'Work in the ReAct pattern on every step.',
    'Thought: first write a short piece of reasoning about the task, what happened so far and the latest observation, aimed at the very next decision.',
    `Action: ${action} Do not invent actions that are not available and do not act twice in one step.`,
    'Observation: the result of the action comes back as the next message; then write the next Thought and Action, until the task is done. Use the final-answer or finish action when there is one.',
    'An action without a Thought before it does not follow this pattern.',
  ].join('\n');
}

/** One line per tool: its name and description. */
export function toolSummary(tools: readonly ToolSpec[] | undefined): string {
  if (!tools || tools.length === 0) return '- (no tools: actions are written as text)';
  return tools.map((t) => (t.description.trim() ? `- ${t.name}: ${t.description.trim()}` : `- ${t.name}`)).join('\n');
}

/** The critic's request: judge the not-yet-executed candidate, answer with one JSON object (protocol shape). */
export function critiquePrompt(candidate: string, tools: readonly ToolSpec[] | undefined): string {
  return [
    CRITIQUE_MARKER,
    'Review the candidate next action below before it is carried out. It has not been executed: none of its effects have happened.',
    'Judge it against the task, the conversation so far, the latest observation and the available actions. Name a concrete mistake only if there is one.',
    'Answer with a single JSON object and nothing else:',
    '{"verdict":"keep|revise","issue":"the concrete mistake, or an empty string","suggested_action":"a short correction, or an empty string"}',
    'Use "keep" only when the candidate is a valid and sensible next action. Do not call a tool and do not answer the task yourself.',
    '',
    'Available tools:',
    toolSummary(tools),
    '',
    'Candidate action:',
    candidate,
  ].join('\n');
}

/** The refiner's request: one corrected action, using the critic's feedback. */
export function refinePrompt(candidate: string, feedback: string, textProtocol: boolean): string {
  return [
    REFINE_MARKER,
    'Improve the candidate action using the reviewer feedback below. The candidate has not been executed.',
    textProtocol ? 'Write exactly one valid action in the format the task asks for, and nothing that is not part of it.' : 'Make exactly one valid tool call from the provided tools and no plain-text answer.',
    '',
    'Candidate action:',
    candidate,
    '',
    'Reviewer feedback:',
    feedback,
  ].join('\n');
}

/** After a failed episode: ask for a short reflection on why it failed and what to do differently. */
export function reflectPrompt(ending: string, tools: readonly ToolSpec[] | undefined): string {
  return [
    REFLECT_MARKER,
    `The attempt above did not complete the task (${ending}). You will try the same task again from the start.`,
    'Write a short reflection for that second attempt: what the attempt established, where it went wrong (a mistake, a loop, a constraint it missed), and a concrete plan for doing better.',
    'Answer in plain text. Do not call a tool and do not give the final answer.',
    '',
    'Available tools:',
    toolSummary(tools),
  ].join('\n');
}

/** The reflection as memory in the second episode's system prompt. */
export function memoryBlock(reflection: string): string {
  return [
    MEMORY_MARKER,
    'An earlier full attempt at this same task failed. The reflection written after it is below; use it as private guidance for this attempt.',
    'Check it against what you observe now, and do not assume any action has happened unless it appears in this conversation.',
    '<previous_attempt_reflection>',
    reflection.trim(),
    '</previous_attempt_reflection>',
  ].join('\n');
}

export const TRAJECTORY_REFLECT_MARKER = '[strategy:trajectory_reflection:reflect]';
export const TRAJECTORY_ACT_MARKER = '[strategy:trajectory_reflection:act]';

/** Before every action of Trajectory Reflection: a private reflection on the trajectory so far (no tools). */
export function trajectoryReflectPrompt(tools: readonly ToolSpec[] | undefined): string {
  return [
    TRAJECTORY_REFLECT_MARKER,
    'Before the next action, think back over this task: the request, every action taken so far and what each one returned.',
    'Say briefly what is already known, whether anything went wrong (a mistake, a loop, a requirement not yet met), and what the best next step is.',
    'This reflection is private and is not an action: answer in plain text, do not call a tool and do not give the final answer.',
    '',
    'Available tools:',
    toolSummary(tools),
  ].join('\n');
}

/** The action request that follows it: the reflection as guidance, then exactly one action. */
export function trajectoryActPrompt(reflection: string, textProtocol: boolean): string {
  return [
    TRAJECTORY_ACT_MARKER,
    'Choose the next action with the help of the private reflection below. It is your own guidance, not something the environment said, and nothing it proposes has been carried out.',
    textProtocol ? 'Write exactly one action in the format the task asks for.' : 'Make exactly one tool call from the provided tools and no plain-text answer.',
    '',
    '<private_reflection>',
    reflection.trim(),
    '</private_reflection>',
  ].join('\n');
}
