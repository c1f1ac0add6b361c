import { groundApplicableActions, type GroundAction } from './actions.js';
import type { PddlDomain } from './pddl/parse-domain.js';
import { renderCommand } from './render-observation.js';
import type { CsgSymbol } from './twl2/csg-symbols.js';
import type { DeriveContext } from './twl2/derive-text.js';
import type { Twl2Grammar } from './twl2/parse-twl2.js';

/** The commands available in a state: the executable action behind each text, and the sorted list. */
export interface CommandTable {
  /** Command text to the action it runs (the first grounding with that text, as TextWorld picks). */
  byCommand: ReadonlyMap<string, GroundAction>;
  /** The admissible commands: every applicable grounding rendered, de-duplicated and sorted. */
  admissible: readonly string[];
}

/** Renders command texts for one game, caching those whose text cannot change during the game. */
export interface CommandRenderer {
  render(ground: GroundAction): string;
}

/**
 * A command's text depends only on names when its template has no query, or queries only static facts
 * (the go-to template lists the receptacle at the destination); those texts are cached per grounding.
 */
export function createCommandRenderer(domain: PddlDomain, ctx: DeriveContext): CommandRenderer {
  const cacheable = new Set(domain.actions.filter((a) => isStaticTemplate(ctx.grammar, a.name, domain.staticPredicates)).map((a) => a.name));
  const cache = new Map<string, string>();
  return {
    render(ground) {
      if (!cacheable.has(ground.action.name)) return renderCommand(ground, ctx);
      let text = cache.get(ground.key);
      if (text === undefined) {
        text = renderCommand(ground, ctx);
        cache.set(ground.key, text);
      }
      return text;
    },
  };
}

/**
 * TextWorld's admissible commands: `sorted(set(rendered commands))`. The groundings are solved from scratch
 * unless `groundings` supplies them (a `GroundingCache` gives the same list).
 */
export function buildCommandTable(
  domain: PddlDomain, ctx: DeriveContext, renderer: CommandRenderer, groundings: GroundAction[] = groundApplicableActions(domain, ctx.world),
): CommandTable {
  const byCommand = new Map<string, GroundAction>();
  for (const ground of groundings) {
    const command = renderer.render(ground);
    if (!byCommand.has(command)) byCommand.set(command, ground);
  }
  return { byCommand, admissible: [...byCommand.keys()].sort() };
}

function isStaticTemplate(grammar: Twl2Grammar, actionName: string, staticPredicates: ReadonlySet<string>): boolean {
  const template = grammar.actions.get(actionName)?.template ?? [];
  const isStatic = (s: CsgSymbol): boolean => {
    if (s.kind === 'text') return true;
    if (s.kind === 'rule' || s.expression.kind === 'rule') return false;
    if (!s.given) return true;
    const f = s.given.formula;
    return f.kind === 'and' && f.parts.every((p) => p.kind === 'atom' && staticPredicates.has(p.predicate));
  };
  return template.every(isStatic);
}
