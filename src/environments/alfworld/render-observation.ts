import { bindingsOf, parameterTypes, type GroundAction } from './actions.js';
import type { Twl2Grammar } from './twl2/parse-twl2.js';
import { deriveText, expandRule, type DeriveContext } from './twl2/derive-text.js';

/** TextWorld's reply to any command that is not admissible; the state does not change. */
export const NOTHING_HAPPENS = 'Nothing happens.';

/**
 * The first text of a game: the grammar's `#intro#` ("-= Welcome to TextWorld, ALFRED! =-", a blank line,
 * the room, a blank line, "Your task is to: …").
 */
export function renderIntro(ctx: DeriveContext): string {
  return expandRule('intro', new Map(), new Map(), ctx);
}

/** The feedback of an executed action, derived on the state after it. */
export function renderFeedback(ground: GroundAction, ctx: DeriveContext): string {
  const action = grammarAction(ctx.grammar, ground);
  return deriveText(action.feedback, bindingsOf(ground), parameterTypes(ground.action), ctx);
}

/** The command text of a ground action ("take pencil 1 from desk 1"). */
export function renderCommand(ground: GroundAction, ctx: DeriveContext): string {
  const action = grammarAction(ctx.grammar, ground);
  return deriveText(action.template, bindingsOf(ground), parameterTypes(ground.action), ctx);
}

function grammarAction(grammar: Twl2Grammar, ground: GroundAction) {
  // parseAlfworldLogic checked that every domain action has a grammar entry.
  return grammar.actions.get(ground.action.name)!;
}

/**
 * AgentBench's initial observation: the intro without its first paragraph (the welcome banner), the
 * remaining paragraphs joined by single newlines ("You are in the middle of a room. …\nYour task is to: …").
 */
export function agentBenchInitialObservation(intro: string): string {
  return intro.split('\n\n').slice(1).join('\n');
}

/**
 * AgentBench v0.2's `process_ob`: drops a leading "You arrive at loc N. " (2.1.1 go-to feedback) so the
 * agent sees only the receptacle view. Other texts are returned unchanged.
 */
export function stripArrivalPrefix(observation: string): string {
  if (!observation.startsWith('You arrive at loc ')) return observation;
  return observation.slice(observation.indexOf('. ') + 2);
}
