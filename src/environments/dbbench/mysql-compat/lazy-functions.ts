import type Database from 'better-sqlite3';

import { registerContextMysqlFunctions, registerSharedMysqlFunctions, type FunctionContext, type FunctionTarget } from './functions.js';

/** A `mysql_*` name as the rewritten SQL (and DDL passed through) writes it. */
const FUNCTION_NAME = /mysql_[a-z0-9_]+/gi;

/** How to define one function on a connection. */
type Definition = (db: Database.Database) => void;

/** Records the definitions a registration makes instead of making them, by lower-cased name. */
function recordDefinitions(register: (target: FunctionTarget) => void): Map<string, Definition> {
  const definitions = new Map<string, Definition>();
  const recorder = {
    function: (name: string, options: Database.RegistrationOptions, fn: (...params: unknown[]) => unknown) => {
      definitions.set(name.toLowerCase(), (db) => db.function(name, options, fn));
      return recorder;
    },
    aggregate: (name: string, options: Parameters<Database.Database['aggregate']>[1]) => {
      definitions.set(name.toLowerCase(), (db) => db.aggregate(name, options));
      return recorder;
    },
  };
  register(recorder as unknown as FunctionTarget);
  return definitions;
}

/** The functions that do not read their connection, recorded once per process and defined on any connection. */
let shared: Map<string, Definition> | undefined;

/**
 * The `mysql_*` functions of one connection, each defined when a statement first names it. Defining all
 * of them costs about 0.3 ms per connection, more than most of an episode's statements; an episode uses a
 * handful. Recording them costs too (a closure per function), so the ones that do not read the connection
 * are recorded once per process and only the few that do (its database name, id, row counts, the tick)
 * per connection. A statement can also reach a function it does not name (a view, trigger or index
 * defined before this connection existed, in a database rebuilt from an image): SQLite reports that as
 * "no such function" when it prepares the statement, before anything runs, so the caller defines all and
 * prepares again ({@link defineAll}). The functions and their options are the same either way.
 */
export class LazyMysqlFunctions {
  readonly #db: Database.Database;
  readonly #shared: Map<string, Definition>;
  readonly #own: Map<string, Definition>;
  readonly #defined = new Set<string>();

  constructor(db: Database.Database, ctx: FunctionContext) {
    this.#db = db;
    this.#shared = shared ??= recordDefinitions(registerSharedMysqlFunctions);
    this.#own = recordDefinitions((target) => registerContextMysqlFunctions(target, ctx));
  }

  /** Defines the functions `sql` names that are not defined yet (a name inside a string literal is harmless). */
  defineNamedIn(sql: string): void {
    if (this.#left() === 0 || !sql.includes('mysql_')) return;
    for (const [name] of sql.matchAll(FUNCTION_NAME)) this.#define(name.toLowerCase());
  }

  /** Defines every function not defined yet; false when there was none left (so a retry cannot help). */
  defineAll(): boolean {
    if (this.#left() === 0) return false;
    for (const name of this.#shared.keys()) this.#define(name);
    for (const name of this.#own.keys()) this.#define(name);
    return true;
  }

  #left(): number {
    return this.#shared.size + this.#own.size - this.#defined.size;
  }

  #define(name: string): void {
    if (this.#defined.has(name)) return;
    const define = this.#own.get(name) ?? this.#shared.get(name);
    if (!define) return;
    this.#defined.add(name);
    define(this.#db);
  }
}
