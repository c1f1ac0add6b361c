import { readFileSync } from 'node:fs';
import path from 'node:path';

import { ConfigError } from '../../episode/index.js';
import { parseDomain, type PddlDomain } from './pddl/parse-domain.js';
import { parseTwl2, type Twl2Grammar } from './twl2/parse-twl2.js';

/**
 * Which ALFWorld text an engine speaks.
 * - `2.1.1`: what AgentBench's agents saw (AgentBench's `alfred.pddl`/`alfred.twl2`): "put X in/on Y",
 *   "You put the X in/on the Y.", "You arrive at loc N.", no `help`, sinks of SinkType cannot clean.
 * - `2.1.2`: the logic embedded in the shipped game files (ALFWorld's patch): "move X to Y",
 *   "You move the X to the Y.", "You arrive at R.", a `help` command, SinkType may clean.
 */
export type AlfworldWording = '2.1.1' | '2.1.2';

export const ALFWORLD_WORDINGS: readonly AlfworldWording[] = ['2.1.1', '2.1.2'];

/** The folder under `<dataDir>/alfworld/logic/` holding each wording's domain and grammar. */
export const ALFWORLD_LOGIC_FOLDERS: Readonly<Record<AlfworldWording, string>> = {
  '2.1.1': 'agentbench',
  '2.1.2': 'game-embedded-2.1.2',
};

/** A parsed domain and text grammar for one wording. Immutable; share one across all games. */
export interface AlfworldLogic {
  wording: AlfworldWording;
  domain: PddlDomain;
  grammar: Twl2Grammar;
}

export type AlfworldLogicSet = Readonly<Record<AlfworldWording, AlfworldLogic>>;

export function isAlfworldWording(value: unknown): value is AlfworldWording {
  return value === '2.1.1' || value === '2.1.2';
}

/** Validates a user-supplied wording (a flag or config value named `field`). */
export function parseAlfworldWording(value: string, field = 'wording'): AlfworldWording {
  if (!isAlfworldWording(value)) throw new ConfigError({ message: `Unknown ALFWorld wording '${value}'.`, field, allowed: ALFWORLD_WORDINGS });
  return value;
}

/** Reads and parses both wordings' `alfred.pddl` and `alfred.twl2` from `<dataDir>/alfworld/logic/`. */
export function loadAlfworldLogic(dataDir: string): AlfworldLogicSet {
  const load = (wording: AlfworldWording): AlfworldLogic => {
    const folder = path.join(dataDir, 'alfworld', 'logic', ALFWORLD_LOGIC_FOLDERS[wording]);
    const domainFile = path.join(folder, 'alfred.pddl');
    const grammarFile = path.join(folder, 'alfred.twl2');
    return parseAlfworldLogic(wording, readText(domainFile), readText(grammarFile), { domain: domainFile, grammar: grammarFile });
  };
  return { '2.1.1': load('2.1.1'), '2.1.2': load('2.1.2') };
}

/**
 * Parses a domain and grammar pair and checks that they fit together: every domain action has a
 * template in the grammar, and the grammar has the `intro` and `task` rules a game's first text needs.
 */
export function parseAlfworldLogic(wording: AlfworldWording, domainText: string, grammarText: string, where: { domain: string; grammar: string }): AlfworldLogic {
  const domain = parseDomain(domainText, where.domain);
  const grammar = parseTwl2(grammarText, where.grammar);
  const missing = domain.actions.filter((a) => !grammar.actions.has(a.name)).map((a) => a.name);
  if (missing.length > 0) {
    throw new ConfigError({ message: `${where.grammar}: no template for the domain action(s) ${missing.join(', ')}.`, field: where.grammar });
  }
  for (const rule of ['intro', 'task']) {
    if (!grammar.rules.has(rule)) throw new ConfigError({ message: `${where.grammar}: the grammar has no '${rule}' rule.`, field: where.grammar });
  }
  return { wording, domain, grammar };
}

function readText(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (cause) {
    throw new ConfigError({ message: `Cannot read ALFWorld logic file ${file}: ${(cause as Error).message}`, field: 'dataDir', cause });
  }
}
