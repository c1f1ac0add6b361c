/**
 * The world: a small key-value store (string keys, string values) and the tools that work on it. Every
 * reply starts with a word that says what it is (`VALUE`, `KEYS`, `OK`, `ERROR`), so a reply that does not
 * is harness text (a hook's block), which the simulated target relies on.
 */
import type { ToolSpec } from 'harness-r1';

export const FINAL_TOOL = 'submit';

export const KV_TOOLS: ToolSpec[] = [
  {
    name: 'get',
    description: 'Read the value of one key.',
    parameters: { type: 'object', properties: { key: { type: 'string', description: 'the key' } }, required: ['key'] },
  },
  {
    name: 'put',
    description: 'Set a key to a value (creates the key, or overwrites its value).',
    parameters: {
      type: 'object',
      properties: { key: { type: 'string', description: 'the key' }, value: { type: 'string', description: 'the new value' } },
      required: ['key', 'value'],
    },
  },
  {
    name: 'delete',
    description: 'Remove one key.',
    parameters: { type: 'object', properties: { key: { type: 'string', description: 'the key' } }, required: ['key'] },
  },
  {
    name: 'list_keys',
    description: 'List the keys, sorted; with a prefix, only the keys that start with it.',
    parameters: { type: 'object', properties: { prefix: { type: 'string', description: 'only keys starting with this text (optional)' } } },
  },
  {
    name: FINAL_TOOL,
    description: 'Give the final answer and end the task (for a task that only changes the store, submit "done").',
    parameters: { type: 'object', properties: { answer: { type: 'string', description: 'the answer' } }, required: ['answer'] },
  },
];

export const TOOL_NAMES: readonly string[] = KV_TOOLS.map((t) => t.name);

/** What one store operation gave: the reply text and whether it was an error. */
export interface StoreReply {
  text: string;
  isError: boolean;
}

const ok = (text: string): StoreReply => ({ text, isError: false });
const error = (text: string): StoreReply => ({ text: `ERROR ${text}`, isError: true });

/** The store of one episode. */
export class KvStore {
  private readonly data: Map<string, string>;
  reads = 0;
  writes = 0;
  deletes = 0;

  constructor(initial: Readonly<Record<string, string>>) {
    this.data = new Map(Object.entries(initial));
  }

  /** The store's contents, keys sorted. */
  snapshot(): Record<string, string> {
    return Object.fromEntries([...this.data.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  }

  /** Runs one non-final tool; arguments are checked here, the agent's mistakes are error replies. */
  run(tool: string, args: Record<string, unknown>): StoreReply {
    const key = args.key;
    switch (tool) {
      case 'get':
        if (typeof key !== 'string') return error('get needs {"key": "<key>"}.');
        this.reads++;
        return this.data.has(key) ? ok(`VALUE ${JSON.stringify(this.data.get(key))}`) : error(`no key ${JSON.stringify(key)}.`);
      case 'put': {
        const value = args.value;
        if (typeof key !== 'string' || key === '' || (typeof value !== 'string' && typeof value !== 'number')) {
          return error('put needs {"key": "<key>", "value": "<value>"}.');
        }
        this.writes++;
        this.data.set(key, String(value));
        return ok(`OK put ${JSON.stringify(key)}`);
      }
      case 'delete':
        if (typeof key !== 'string') return error('delete needs {"key": "<key>"}.');
        if (!this.data.has(key)) return error(`no key ${JSON.stringify(key)}.`);
        this.deletes++;
        this.data.delete(key);
        return ok(`OK deleted ${JSON.stringify(key)}`);
      case 'list_keys': {
        const prefix = args.prefix ?? '';
        if (typeof prefix !== 'string') return error('list_keys takes {"prefix": "<text>"} or no arguments.');
        this.reads++;
        return ok(`KEYS ${JSON.stringify(Object.keys(this.snapshot()).filter((k) => k.startsWith(prefix)))}`);
      }
      default:
        return error(`there is no tool ${JSON.stringify(tool)}.`);
    }
  }
}

/** Whether a reply text is one the store writes (as opposed to harness text). */
export function isStoreReply(text: string): boolean {
  return /^(?:VALUE|KEYS|OK|ERROR) /.test(text);
}
