import type Database from 'better-sqlite3';

import { registerMysqlFunctions, type FunctionContext, type FunctionTarget } from './functions.js';

/** A `mysql_*` name as the rewritten SQL (and DDL passed through) writes it. */
const FUNCTION_NAME = /mysql_[a-z0-9_]+/gi;

/**
 * The `mysql_*` functions of one connection, each defined when a statement first names it. Defining all
 * of them costs about 0.3 ms per connection, more than most of an episode's statements; an episode uses a
 * handful. A statement can also reach a function it does not name (a view, trigger or index defined
 * before this connection existed, in a database rebuilt from an image): SQLite reports that as "no such
 * function" when it prepares the statement, before anything runs, so the caller defines all and prepares
 * again ({@link defineAll}). The functions and their options are the same either way.
 */
export class LazyMysqlFunctions {
  readonly #pending = new Map<string, () => void>();

  constructor(db: Database.Database, ctx: FunctionContext) {
    const recorder = {
      function: (name: string, options: Database.RegistrationOptions, fn: (...params: unknown[]) => unknown) => {
        this.#pending.set(name.toLowerCase(), () => db.function(name, options, fn));
        return recorder;
      },
      aggregate: (name: string, options: Parameters<Database.Database['aggregate']>[1]) => {
        this.#pending.set(name.toLowerCase(), () => db.aggregate(name, options));
        return recorder;
      },
    };
    registerMysqlFunctions(recorder as unknown as FunctionTarget, ctx);
  }

  /** Defines the functions `sql` names that are not defined yet (a name inside a string literal is harmless). */
  defineNamedIn(sql: string): void {
    if (this.#pending.size === 0 || !sql.includes('mysql_')) return;
    for (const [name] of sql.matchAll(FUNCTION_NAME)) this.#define(name.toLowerCase());
  }

  /** Defines every function not defined yet; false when there was none left (so a retry cannot help). */
  defineAll(): boolean {
    if (this.#pending.size === 0) return false;
    for (const name of [...this.#pending.keys()]) this.#define(name);
    return true;
  }

  #define(name: string): void {
    const define = this.#pending.get(name);
    if (!define) return;
    this.#pending.delete(name);
    define();
  }
}
