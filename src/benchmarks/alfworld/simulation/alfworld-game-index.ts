import { createAlfworldGame, type AlfworldGame } from '../../../environments/alfworld/alfworld-engine.js';
import { ConfigError } from '../../../episode/index.js';
import { alfworldGameFilePaths, loadAlfworldGamesFile, type AlfworldGameRecord } from '../../../environments/alfworld/load-games.js';
import { loadAlfworldLogic, type AlfworldLogicSet, type AlfworldWording } from '../../../environments/alfworld/load-logic.js';
import { agentBenchInitialObservation } from '../../../environments/alfworld/render-observation.js';

/**
 * Finds the game behind a first user message ("Here is your task. {observation} AVAILABLE ACTIONS: …", or
 * only the part before "AVAILABLE ACTIONS" when a v0.2 history reduction has cut it):
 * games with the same goal are opened and their initial observation and admissible list compared.
 * Results are cached per message text.
 */
export interface AlfworldGameIndex {
  /** Every shipped game whose first message is this one (trials of one scene can share it), in file order. */
  candidates(firstUserMessage: string): AlfworldGameRecord[];
  /** A game in its initial state (one cached instance per game and wording; reset on every call). */
  freshGame(game: AlfworldGameRecord, wording: AlfworldWording): AlfworldGame;
  /**
   * The same cached instance, for a caller that steps it across requests: as `owner` left it (`fresh` false)
   * when nobody else used it since, else reset and now owned by `owner` (`fresh` true: replay from the start).
   */
  claimGame(game: AlfworldGameRecord, wording: AlfworldWording, owner: object): { engine: AlfworldGame; fresh: boolean };
}

export function createAlfworldGameIndex(games: readonly AlfworldGameRecord[], logic: AlfworldLogicSet): AlfworldGameIndex {
  const byGoal = new Map<string, AlfworldGameRecord[]>();
  for (const g of games) {
    const key = g.goal.toLowerCase();
    const list = byGoal.get(key) ?? [];
    list.push(g);
    byGoal.set(key, list);
  }
  const intros = new Map<string, string>();
  const found = new Map<string, AlfworldGameRecord[]>();
  const engines = new Map<string, AlfworldGame>();
  /** Who stepped each cached instance last through `claimGame` (none after a `freshGame`). */
  const owners = new Map<string, object | undefined>();
  const engineFor = (game: AlfworldGameRecord, wording: AlfworldWording, key: string): AlfworldGame => {
    let engine = engines.get(key);
    if (!engine) {
      engine = createAlfworldGame(game, { wording, logic });
      engines.set(key, engine);
    }
    return engine;
  };
  /** Instances made for intros and not kept yet: a game that turns out to be a candidate keeps its own. */
  const introEngines = new Map<string, AlfworldGame>();
  const introOf = (g: AlfworldGameRecord, wording: AlfworldWording): string => {
    const key = `${wording}\u0000${g.id}`;
    let text = intros.get(key);
    if (text === undefined) {
      const engine = engines.get(key) ?? createAlfworldGame(g, { wording, logic });
      if (!engines.has(key)) introEngines.set(key, engine);
      owners.set(key, undefined);
      const reset = engine.reset();
      text = `Here is your task. ${agentBenchInitialObservation(reset.observation)} AVAILABLE ACTIONS: ${reset.admissible.join('\n')}`;
      intros.set(key, text);
    }
    return text;
  };
  return {
    candidates(message) {
      const cached = found.get(message);
      if (cached) return cached;
      const goal = /Your task is to: (.*?\.)/.exec(message)?.[1]?.toLowerCase();
      const wanted = message.trimEnd();
      // A v0.2 task message is cut at "AVAILABLE ACTIONS" once answered; then only the text before it is compared.
      const listed = message.includes(' AVAILABLE ACTIONS: ');
      const introText = (g: AlfworldGameRecord, wording: AlfworldWording): string => (listed ? introOf(g, wording) : (introOf(g, wording).split(' AVAILABLE ACTIONS: ')[0] ?? ''));
      const list = (goal === undefined ? [] : (byGoal.get(goal) ?? [])).filter((g) => introText(g, '2.1.1') === wanted || introText(g, '2.1.2') === wanted);
      // Candidates are stepped (when there are several) from the first request, in the wording assumed before any
      // reply tells it, 2.1.1, or the one that matched: the intro's instance is kept for that, saving a second
      // parse; the others are dropped, as before.
      for (const g of list.length > 1 ? list : []) {
        const key = `${introText(g, '2.1.1') === wanted ? '2.1.1' : '2.1.2'}\u0000${g.id}`;
        const engine = introEngines.get(key);
        if (engine !== undefined && !engines.has(key)) engines.set(key, engine);
      }
      introEngines.clear();
      found.set(message, list);
      return list;
    },
    freshGame(game, wording) {
      const key = `${wording}\u0000${game.id}`;
      const engine = engineFor(game, wording, key);
      owners.set(key, undefined);
      engine.reset();
      return engine;
    },
    claimGame(game, wording, owner) {
      const key = `${wording}\u0000${game.id}`;
      const engine = engineFor(game, wording, key);
      if (owners.get(key) === owner) return { engine, fresh: false };
      owners.set(key, owner);
      engine.reset();
      return { engine, fresh: true };
    },
  };
}

/**
 * The index over the games files a run plays (`--games`, first) and the shipped games. A shipped file that
 * cannot be read is left out: the target then does not know its games, and a run that plays them fails on
 * loading them itself, naming the file and line.
 */
export function loadAlfworldGameIndex(dataDir: string, gamesFiles: readonly string[] = []): AlfworldGameIndex {
  const given = gamesFiles.flatMap((file) => loadAlfworldGamesFile(file));
  const ids = new Set(given.map((g) => g.id));
  const shipped = alfworldGameFilePaths(dataDir).flatMap((file) => {
    try {
      return loadAlfworldGamesFile(file);
    } catch (error) {
      if (error instanceof ConfigError) return [];
      throw error;
    }
  });
  return createAlfworldGameIndex([...given, ...shipped.filter((g) => !ids.has(g.id))], loadAlfworldLogic(dataDir));
}
