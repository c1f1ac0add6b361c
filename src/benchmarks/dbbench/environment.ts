import { createDbBenchEnvironment, type DbBenchEnvironmentOptions } from '../../environments/dbbench/dbbench-environment.js';
import { playWith, type Environment } from '../../runtime/environment.js';
import { playToolCalling } from '../../runtime/tool-calling-loop.js';

/** DBBench tasks played with AgentBench's function-calling loop. */
export function dbBenchEnvironment(options: DbBenchEnvironmentOptions): Environment {
  return playWith(createDbBenchEnvironment(options), playToolCalling);
}
