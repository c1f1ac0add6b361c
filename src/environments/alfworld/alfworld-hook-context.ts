import { isJsSpaceCode } from '../../python/text-scan.js';
import { ALFWORLD_FAMILY_OF, type AlfworldTaskType } from './task-families.js';

/** What the task text says is to be moved and where (protocol.md §4.3 `task.*`); empty when it cannot be read. */
export interface AlfworldTaskInfo {
  task_type: string;
  target_type: string;
  destination_type: string;
}

/** Reads the target and destination types from the goal ("put a clean mug in coffeemachine."). */
export function parseAlfworldTask(taskType: AlfworldTaskType, goal: string): AlfworldTaskInfo {
  const text = goal.toLowerCase().trim();
  const patterns = [
    /^(?:clean|heat|cool) (?:a|an|some|the) (\w+) and put it (?:in|on) (?:a |an |the |some )?(\w+)/,
    /^find two (\w+) and put them (?:in|on) (?:a |an |the |some )?(\w+)/,
    /^put (?:a|an|some|two|the) (?:clean |hot |cool )?(\w+) (?:in|on) (?:a |an |the |some )?(\w+)/,
    /^look at (\w+) under (?:the )?(\w+)/,
    /^examine (?:the )?(\w+) with (?:the )?(\w+)/,
  ];
  for (const p of patterns) {
    const m = p.exec(text);
    if (m) return { task_type: ALFWORLD_FAMILY_OF[taskType], target_type: m[1] ?? '', destination_type: m[2] ?? '' };
  }
  return { task_type: ALFWORLD_FAMILY_OF[taskType], target_type: '', destination_type: '' };
}

/** "cabinet 6" → "cabinet": `name.replace(/\s+\d+$/, '')` as a scan from the end. */
export function entityType(name: string): string {
  let digits = name.length;
  while (digits > 0 && isDigitCode(name.charCodeAt(digits - 1))) digits--;
  if (digits === name.length) return name;
  let space = digits;
  while (space > 0 && isJsSpaceCode(name.charCodeAt(space - 1))) space--;
  return space === digits ? name : name.slice(0, space);
}

function isDigitCode(code: number): boolean {
  return code >= 0x30 && code <= 0x39;
}

/**
 * `text.split(/,\s*(?:and\s+)?|\s+and\s+/)` as one forward scan. The regex retries `\s+and` at every
 * position of a whitespace run that is not followed by `and`, which is quadratic in the run's length;
 * here each run is measured once and skipped whole when no separator starts in it.
 */
export function splitListedItems(text: string): string[] {
  const parts: string[] = [];
  let pieceStart = 0;
  let i = 0;
  const skipSpace = (at: number): number => {
    while (at < text.length && isJsSpaceCode(text.charCodeAt(at))) at++;
    return at;
  };
  const andAt = (at: number): boolean => text.startsWith('and', at) && isJsSpaceCode(text.charCodeAt(at + 3));
  while (i < text.length) {
    const code = text.charCodeAt(i);
    if (code === 0x2c) {
      let end = skipSpace(i + 1);
      if (andAt(end)) end = skipSpace(end + 3);
      parts.push(text.slice(pieceStart, i));
      pieceStart = end;
      i = end;
    } else if (isJsSpaceCode(code)) {
      const runEnd = skipSpace(i);
      if (andAt(runEnd)) {
        const end = skipSpace(runEnd + 3);
        parts.push(text.slice(pieceStart, i));
        pieceStart = end;
        i = end;
      } else {
        i = runEnd;
      }
    } else {
      i++;
    }
  }
  parts.push(text.slice(pieceStart));
  return parts;
}

const RECENT = 10;

/**
 * The episode's runtime trackers behind the ALFWorld ctx: histories, counters and a world model rebuilt
 * from executed actions and observations. The reference runtime is unpublished; these follow its field
 * contract (protocol.md §4.3, §10 item 9).
 */
export class AlfworldEpisodeState {
  readonly task: AlfworldTaskInfo;
  observation: string;
  admissible: string[];
  readonly lastActions: string[] = [];
  readonly lastObservations: string[] = [];
  invalidActionCount = 0;
  currentLocation = '';
  readonly inventory: string[] = [];
  readonly objectAt = new Map<string, string>();
  readonly visited = new Set<string>();
  readonly receptacles: string[];
  readonly placedItems: string[] = [];
  readonly placedLocations: string[] = [];
  lampLocation = '';

  constructor(taskType: AlfworldTaskType, goal: string, initialObservation: string, admissible: string[]) {
    this.task = parseAlfworldTask(taskType, goal);
    this.observation = initialObservation;
    this.admissible = [...admissible];
    const around = /you see (.*?)\.(?:\n|$)/.exec(initialObservation);
    this.receptacles = around ? listedEntities(around[1] ?? '') : [];
  }

  /** The post-step monitor: called after every environment step. */
  update(action: string, observation: string, admissible: string[]): void {
    const failed = observation.toLowerCase().includes('nothing happens');
    this.lastActions.push(action);
    this.lastObservations.push(observation);
    if (this.lastActions.length > RECENT) this.lastActions.shift();
    if (this.lastObservations.length > RECENT) this.lastObservations.shift();
    this.invalidActionCount = failed ? this.invalidActionCount + 1 : 0;
    this.observation = observation;
    this.admissible = [...admissible];
    if (failed) return;
    let m: RegExpExecArray | null;
    if ((m = /^go to (.+)$/.exec(action))) {
      this.currentLocation = m[1] ?? '';
      this.visited.add(this.currentLocation);
    } else if ((m = /^take (.+) from (.+)$/.exec(action))) {
      const obj = m[1] ?? '';
      this.inventory.push(obj);
      this.objectAt.delete(obj);
    } else if ((m = /^(?:put (.+) in\/on|move (.+) to) (.+)$/.exec(action))) {
      const obj = m[1] ?? m[2] ?? '';
      const where = m[3] ?? '';
      const i = this.inventory.indexOf(obj);
      if (i >= 0) this.inventory.splice(i, 1);
      this.objectAt.set(obj, where);
      if (entityType(where) === this.task.destination_type && entityType(obj) === this.task.target_type) {
        this.placedItems.push(obj);
        this.placedLocations.push(where);
      }
    }
    const seen = /(?:On the (.+?), you see|In it, you see) (.*?)\./.exec(observation);
    const where = seen?.[1] ?? this.currentLocation;
    if (seen && seen[2] !== 'nothing') {
      for (const obj of listedEntities(seen[2] ?? '')) {
        this.objectAt.set(obj, where);
        if (/^(desklamp|floorlamp)$/.test(entityType(obj))) this.lampLocation = where;
      }
    }
  }

  world(): Record<string, unknown> {
    const target = this.task.target_type;
    const found = [...this.objectAt.entries()].find(([o]) => entityType(o) === target);
    const held = this.inventory.some((o) => entityType(o) === target);
    const visited = [...this.visited].sort();
    return {
      current_location: this.currentLocation,
      inventory: [...this.inventory],
      object_at: Object.fromEntries(this.objectAt),
      visited,
      unvisited: this.receptacles.filter((r) => !this.visited.has(r)),
      target_found: target !== '' && (found !== undefined || held),
      target_location: found?.[1] ?? '',
      placed_count: this.placedItems.length,
      placed_items: [...this.placedItems],
      placed_locations: [...this.placedLocations],
      lamp_location: this.lampLocation,
    };
  }
}

/** "a cabinet 6, a cabinet 5, and a toaster 1" → ["cabinet 6", "cabinet 5", "toaster 1"]. */
function listedEntities(text: string): string[] {
  return splitListedItems(text)
    .map((s) => s.trim().replace(/^(?:a|an|the|some)\s+/, ''))
    .filter((s) => /^\w+ \d+$/.test(s));
}

function trailingRun(list: readonly string[], value: string): number {
  let n = 0;
  for (let i = list.length - 1; i >= 0 && list[i] === value; i--) n++;
  return n;
}

/** One ALFWorld call site (protocol.md §4.3) with what the loop knows there. */
export interface AlfworldHookPoint {
  hook: 'on_init' | 'make_pre_hint' | 'on_before_action' | 'on_post_step';
  /** Zero-based step index i. */
  step: number;
  remaining: number;
  maxStep: number;
  /** The agent's raw tool argument (empty before the first tool call of the step). */
  raw: string;
  /** The action after process_action and any forced action (empty when there is none). */
  finalAction: string;
}

/**
 * The ALFWorld ctx: `action`, `state`, `task`, `predicates`, `observation`, `admissible`, `output`, `step`,
 * `max_step`, `remaining_steps`, `history`, `world`. Nothing here comes from the walkthrough or the PDDL goal.
 */
export function buildAlfworldHookContext(point: AlfworldHookPoint, st: AlfworldEpisodeState): Record<string, unknown> {
  const normalized = point.finalAction !== '' ? point.finalAction.toLowerCase() : point.raw;
  const inAdmissible = st.admissible.includes(normalized);
  const lastObs = st.lastObservations.at(-1) ?? '';
  const lastAct = st.lastActions.at(-1) ?? '';
  const state = {
    nothing_happens_count: st.lastObservations.filter((o) => o.toLowerCase().includes('nothing happens')).length,
    repeated_observation_count: lastObs === '' ? 0 : trailingRun(st.lastObservations, lastObs),
    repeated_action_count: lastAct === '' ? 0 : trailingRun(st.lastActions, lastAct),
    invalid_action_count: st.invalidActionCount,
    remaining_steps: point.remaining,
  };
  const predicates = {
    action_not_admissible: !inAdmissible,
    nothing_happens_repeated: state.nothing_happens_count >= 2,
    same_observation_repeated: state.repeated_observation_count >= 2,
    same_action_repeated: state.repeated_action_count >= 2,
    remaining_steps_low: point.remaining <= 5,
  };
  return {
    action: { raw: point.raw, normalized, final_action: point.finalAction, in_admissible: inAdmissible },
    state,
    task: { ...st.task },
    predicates,
    observation: st.observation,
    admissible: [...st.admissible],
    output: point.raw,
    step: point.step,
    max_step: point.maxStep,
    remaining_steps: point.remaining,
    history: { last_actions: [...st.lastActions], last_observations: [...st.lastObservations] },
    world: st.world(),
  };
}
