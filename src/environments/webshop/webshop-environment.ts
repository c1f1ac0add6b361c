import { existsSync } from 'node:fs';
import path from 'node:path';

import { fileSplitLabel } from '../../config/data-file.js';
import type { ChatMessage, TaskRef, ToolCall, ToolSpec } from '../../episode/index.js';
import { ConfigError } from '../../episode/index.js';
import { type ActResult, type EpisodeSource, type ToolEpisode, type HookPoint, type ParsedCall, type TargetProtocol, parseToolCall } from '../environment.js';
import { createTaskManifestBuilder } from './identity-manifest.js';
import { hasHumanInstructions, WEBSHOP_FILES, type GoalMode } from './load-catalogue.js';
import { createWebShopSession, type WebShopSession, type WebShopStepResult } from './session.js';
import { loadWebShopEngine, type WebShopEngine } from './webshop-engine.js';
import { buildWebShopHookContext, WebShopEpisodeState, type WebShopActionView } from './webshop-hook-context.js';
import {
  actionResultMessage,
  buildWebShopSystemPrompt,
  initialObservationMessage,
  loadWebShopProtocol,
  observationMessage,
  patchWebShopToolDescriptions,
  renderAvailableActions,
  WEBSHOP_TEXT_ONLY_NUDGE,
  type WebShopProtocol,
} from './webshop-prompts.js';
import { buildWebShopTextUserPrompt, loadWebShopTextProtocol, renderWebShopTextTurn, type WebShopTextProtocol } from './webshop-text-prompts.js';

export interface WebShopEnvironmentOptions {
  /** The data folder holding `webshop/` and `agentbench_prompts.json` (see `resolveDataDir`), or the `webshop/` folder itself. */
  dataDir: string;
  /** Goal set: `human` needs `items_human_ins.json`; default human when that file exists, else synthetic. */
  goals?: GoalMode;
  /** Goal shuffle seed (233 by default). */
  goalSeed?: number;
  /** Rounds per episode; default from the prompts file: 20 for fc (protocol.md §7.1), 10 for v0.2. */
  maxRounds?: number;
  /** fc (default, tools) or v0.2 (text). */
  protocol?: TargetProtocol;
  /** An engine already loaded for the same data (shared with a simulated target, say). */
  engine?: WebShopEngine;
  /** Human instructions to build the goals from (`items_human_ins.json` format); the split is then `file:<name>`. */
  humanInstructionsFile?: string;
}

const TOOL_NAMES = new Set(['search_action', 'click_action']);

/** The `webshop/` folder of a data folder (or the folder itself when it holds the catalogue). */
export function resolveWebShopDataDir(dataDir: string): string {
  if (existsSync(path.join(dataDir, WEBSHOP_FILES.catalogue))) return dataDir;
  return path.join(dataDir, 'webshop');
}

const engines = new Map<string, WebShopEngine>();

/**
 * Loads (once per process and settings) the engine for a data folder. `humanInstructionsFile` (a file in
 * the format of `items_human_ins.json`, anywhere) gives the human goals instead of the data folder's own.
 */
export function loadSharedWebShopEngine(dataDir: string, goals?: GoalMode, goalSeed?: number, humanInstructionsFile?: string): WebShopEngine {
  const dir = resolveWebShopDataDir(dataDir);
  if (humanInstructionsFile !== undefined && goals === 'synthetic') {
    throw new ConfigError({ message: 'A WebShop goals file (--data) holds human instructions; it cannot be played with --goals synthetic.', field: 'goals' });
  }
  const mode = humanInstructionsFile !== undefined ? 'human' : (goals ?? (hasHumanInstructions(dir) ? 'human' : 'synthetic'));
  const human = humanInstructionsFile === undefined ? null : path.resolve(humanInstructionsFile);
  const key = JSON.stringify([path.resolve(dir), mode, goalSeed ?? null, human]);
  let engine = engines.get(key);
  if (!engine) {
    engine = loadWebShopEngine({ dataDir: dir, goals: mode, ...(goalSeed === undefined ? {} : { goalSeed }), ...(human !== null ? { files: { humanInstructions: human } } : {}) });
    engines.set(key, engine);
  }
  return engine;
}

/** What one env step gave, for the loop. */
export interface WebShopActOutcome {
  observation: string;
  reward: number;
  done: boolean;
  detail: Record<string, unknown>;
}

/**
 * What the WebShop loop needs beyond `ToolEpisode` (protocol.md §4.2): the observation messages,
 * the raw-value wrapping of actions, env steps by action string, the text-only nudge, per-episode tool
 * hints, and a ctx that also shows the action being decided.
 */
export interface WebShopEpisodeDriver extends ToolEpisode {
  /** `search[raw]` / `click[raw]` for the two tools, undefined for any other name. */
  defaultAction(tool: string, rawValue: unknown): string | undefined;
  /** A hook action kept if bracketed, else wrapped as `search[…]` for search_action and `click[…]` otherwise. */
  wrapAction(action: string, tool: string): string;
  /** Runs an action string on the env and updates the page state. */
  step(action: string): WebShopActOutcome;
  /** Records a text-only turn: ctx.observation becomes the nudge, which the next observation message shows. */
  noteTextOnlyObservation(): void;
  /** Appends the on_init tool hint (and the built-in H3 text) to both tool descriptions of this episode. */
  applyToolHint(hint: string): void;
  initialMessage(): string;
  /** The next turn's message body for an action (tool message) or for none (user message). */
  observationMessage(action: string | undefined): string;
  contextFor(point: HookPoint, view?: WebShopActionView): Record<string, unknown>;
}

/**
 * What the v0.2 text loop needs on top: the opening messages (the reference prompt with the on_init
 * effects, "Ok.", the one-shot) and the per-turn user message for the current page. No tools are offered.
 */
export interface WebShopTextEpisodeDriver extends WebShopEpisodeDriver {
  openingMessages(init: { skills: string[]; toolHints: string[] }): ChatMessage[];
  /** `Observation:\n<page>\n\nAvailable Actions:\n<dict>` for the current page. */
  turnMessage(): string;
}

/** WebShop over the TypeScript engine: one session per episode, graded by the env's purchase reward. */
export function createWebShopEnvironment(options: WebShopEnvironmentOptions & { protocol: 'v0.2' }): EpisodeSource<WebShopTextEpisodeDriver>;
export function createWebShopEnvironment(options: WebShopEnvironmentOptions & { protocol?: 'fc' }): EpisodeSource<WebShopEpisodeDriver>;
export function createWebShopEnvironment(options: WebShopEnvironmentOptions): EpisodeSource<WebShopEpisodeDriver> | EpisodeSource<WebShopTextEpisodeDriver>;
export function createWebShopEnvironment(options: WebShopEnvironmentOptions): EpisodeSource<WebShopEpisodeDriver | WebShopTextEpisodeDriver> {
  const mode = options.protocol ?? 'fc';
  if (mode !== 'fc' && mode !== 'v0.2') throw new ConfigError({ message: `Unknown WebShop protocol '${String(mode)}'.`, field: 'protocol', allowed: ['fc', 'v0.2'] });
  const engine = options.engine ?? loadSharedWebShopEngine(options.dataDir, options.goals, options.goalSeed, options.humanInstructionsFile);
  const protocol = loadWebShopProtocol(options.dataDir);
  const text = mode === 'v0.2' ? loadWebShopTextProtocol(options.dataDir) : undefined;
  const maxRounds = options.maxRounds ?? (text ? text.maxRounds : protocol.maxRounds);
  if (!Number.isInteger(maxRounds) || maxRounds < 1) {
    throw new ConfigError({ message: `maxRounds must be a positive integer, got ${maxRounds}.`, field: 'maxRounds' });
  }
  const manifestOf = createTaskManifestBuilder(engine);
  const goals = engine.goalSet.goals;
  const split = options.humanInstructionsFile !== undefined ? fileSplitLabel(options.humanInstructionsFile) : engine.goalSet.mode;
  return {
    bench: 'webshop',
    split,
    size: goals.length,
    async openEpisode(index) {
      if (!Number.isInteger(index) || !goals[index]) {
        throw new ConfigError({ message: `WebShop goal index ${index} is outside 0..${goals.length - 1}.`, field: 'tasks' });
      }
      const session = createWebShopSession({ engine, sessionId: `episode-${index}` });
      const first = session.reset(index);
      const manifest = manifestOf(index);
      const info = { goalSeed: engine.goalSet.goalSeed, webshopTaskManifest: manifest };
      const task = { bench: 'webshop', split, index };
      return text ? new WebShopTextEpisode(task, session, first, protocol, maxRounds, info, text) : new WebShopEpisode(task, session, first, protocol, maxRounds, info);
    },
    close: async () => {},
  };
}

class WebShopEpisode implements WebShopEpisodeDriver {
  readonly info: Record<string, unknown>;
  private episodeTools: ToolSpec[];
  protected readonly state: WebShopEpisodeState;
  private readonly initialObservation: string;
  private readonly initialActions: string;

  constructor(
    readonly task: TaskRef,
    private readonly session: WebShopSession,
    first: WebShopStepResult,
    private readonly protocol: WebShopProtocol,
    readonly maxRounds: number,
    info: Record<string, unknown>,
  ) {
    this.info = info;
    this.episodeTools = structuredClone(protocol.tools);
    this.state = new WebShopEpisodeState(first.observation, first.hasSearchBar, first.clickables);
    this.initialObservation = first.observation;
    this.initialActions = renderAvailableActions(first.hasSearchBar, first.clickables);
  }

  get tools(): ToolSpec[] {
    return this.episodeTools;
  }

  systemPrompt(init: { skills: string[]; toolHints: string[] }): string {
    return buildWebShopSystemPrompt(this.protocol.systemPrompt, init.skills);
  }

  firstUserMessage(): string {
    return this.initialMessage();
  }

  initialMessage(): string {
    return initialObservationMessage(this.initialObservation, this.initialActions);
  }

  observationMessage(action: string | undefined): string {
    const actions = renderAvailableActions(this.state.hasSearchBar, this.state.clickables);
    return action === undefined ? observationMessage(this.state.observation, actions) : actionResultMessage(action, this.state.observation, actions);
  }

  hookContext(point: HookPoint): Record<string, unknown> {
    return this.contextFor(point);
  }

  contextFor(point: HookPoint, view?: WebShopActionView): Record<string, unknown> {
    return buildWebShopHookContext(point, this.state, this.maxRounds, view);
  }

  parseCall(call: ToolCall): ParsedCall | undefined {
    return parseToolCall(call);
  }


  hasTool(name: string): boolean {
    return TOOL_NAMES.has(name);
  }

  defaultAction(tool: string, rawValue: unknown): string | undefined {
    const raw = typeof rawValue === 'string' ? rawValue : rawValue === undefined || rawValue === null ? '' : JSON.stringify(rawValue);
    if (tool === 'search_action') return `search[${raw}]`;
    if (tool === 'click_action') return `click[${raw}]`;
    return undefined;
  }

  wrapAction(action: string, tool: string): string {
    if (action.includes('[') && action.endsWith(']')) return action;
    return tool === 'search_action' ? `search[${action}]` : `click[${action}]`;
  }

  step(action: string): WebShopActOutcome {
    const result = this.session.step(action);
    this.state.updateAfterStep(action, result);
    const detail: Record<string, unknown> = {};
    if (result.done) {
      const st = this.session.state();
      detail.purchasedAsin = st.asin;
      detail.selectedOptions = st.options;
      if (result.rewardInfo) detail.rewardInfo = result.rewardInfo;
    }
    return { observation: result.observation, reward: result.reward, done: result.done, detail };
  }

  async act(call: ParsedCall): Promise<ActResult> {
    const action = this.defaultAction(call.tool, call.firstValue);
    if (action === undefined) return { kind: 'observation', content: this.state.observation, status: 'invalid' };
    const out = this.step(action);
    if (out.done) return { kind: 'final', correct: out.reward >= 1, detail: { reward: out.reward, ...out.detail } };
    return { kind: 'observation', content: out.observation, status: 'executed' };
  }

  noteTextOnlyObservation(): void {
    this.state.noteTextOnly(WEBSHOP_TEXT_ONLY_NUDGE);
  }

  applyToolHint(hint: string): void {
    this.episodeTools = patchWebShopToolDescriptions(this.episodeTools, hint);
  }

  noteTextOnlyTurn(): void {
    this.noteTextOnlyObservation();
  }

  noteToolTurn(): void {}

  textOnlyNudge(): string {
    return WEBSHOP_TEXT_ONLY_NUDGE;
  }

  badArgumentsReply(): string {
    return this.state.observation;
  }

  unknownToolReply(): string {
    return this.state.observation;
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}

/**
 * A WebShop episode in the AgentBench v0.2 text protocol: the same session, page state and hook ctx as
 * the FC episode, no tools, and the reference's opening and turn messages.
 */
class WebShopTextEpisode extends WebShopEpisode implements WebShopTextEpisodeDriver {

  constructor(
    task: TaskRef,
    session: WebShopSession,
    first: WebShopStepResult,
    protocol: WebShopProtocol,
    maxRounds: number,
    info: Record<string, unknown>,
    private readonly text: WebShopTextProtocol,
  ) {
    super(task, session, first, protocol, maxRounds, info);
  }

  override get tools(): ToolSpec[] {
    return [];
  }

  /** The first user prompt (there is no system message in v0.2). */
  override systemPrompt(init: { skills: string[]; toolHints: string[] }): string {
    return buildWebShopTextUserPrompt(this.text.userPrompt, init.skills, init.toolHints);
  }

  override firstUserMessage(): string {
    return this.turnMessage();
  }

  override initialMessage(): string {
    return this.turnMessage();
  }

  override observationMessage(): string {
    return this.turnMessage();
  }

  /** Tool hints go into the first user prompt (see `openingMessages`); there are no tools to patch. */
  override applyToolHint(): void {}

  openingMessages(init: { skills: string[]; toolHints: string[] }): ChatMessage[] {
    return [
      { role: 'user', content: this.systemPrompt(init) },
      { role: 'assistant', content: this.text.agentReply },
      ...this.text.oneShot.map((m): ChatMessage => (m.role === 'user' ? { role: 'user', content: m.content } : { role: 'assistant', content: m.content })),
    ];
  }

  turnMessage(): string {
    return renderWebShopTextTurn(this.text.turnTemplate, this.state.observation, renderAvailableActions(this.state.hasSearchBar, this.state.clickables));
  }
}
