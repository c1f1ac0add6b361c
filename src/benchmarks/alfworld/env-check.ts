import { resolveDataDir } from '../../config/data-dir.js';
import { ConfigError } from '../../episode/index.js';
import { loadAlfworldGamesFile } from '../../environments/alfworld/load-games.js';
import { ALFWORLD_WORDINGS, loadAlfworldLogic, parseAlfworldWording, type AlfworldWording } from '../../environments/alfworld/load-logic.js';
import { describeWalkthroughMiss, replayWalkthroughs, type WalkthroughReplayResult } from '../../environments/alfworld/replay-walkthroughs.js';
/** env check exits 0 whenever the check ran, whatever the count. */
const EXIT_OK = 0;

export interface EnvCheckAlfworldOptions {
  /** A games file in the shipped format (.jsonl or .jsonl.gz). */
  games: string;
  json?: boolean;
  /** `2.1.1`, `2.1.2` or `both` (the default). */
  wording?: string;
  /** Where `alfworld/logic/` lives; resolved like every data directory when omitted. */
  dataDir?: string;
}

/** Where the command writes its report; `process.stdout` by default. */
export interface TextSink {
  write(text: string): unknown;
}

/**
 * `harness-r1 env check alfworld --games FILE`: replays the expert walkthrough of every game in FILE and
 * prints `n/m won at last step` per wording, listing each miss. Exit 0 whenever it ran (the misses are the
 * result); a bad flag or unreadable file is a ConfigError (exit 2).
 */
export async function envCheckAlfworld(o: EnvCheckAlfworldOptions, out: TextSink = process.stdout): Promise<number> {
  if (!o.games) throw new ConfigError({ message: 'env check alfworld needs --games FILE (a .jsonl or .jsonl.gz games file).', field: 'games' });
  const wordings: readonly AlfworldWording[] = !o.wording || o.wording === 'both' ? ALFWORLD_WORDINGS : [parseWording(o.wording)];
  const games = loadAlfworldGamesFile(o.games);
  const logic = loadAlfworldLogic(resolveDataDir(o.dataDir));
  const progress = !o.json && process.stderr.isTTY;
  const results: WalkthroughReplayResult[] = [];
  for (const wording of wordings) {
    results.push(
      replayWalkthroughs({
        games,
        logic,
        wording,
        onProgress: ({ done, total }) => {
          if (progress) process.stderr.write(`\rreplaying ${wording} ${done}/${total}`);
        },
      }),
    );
    if (progress) process.stderr.write('\n');
  }
  if (o.json) {
    out.write(`${JSON.stringify({ file: o.games, results }, null, 2)}\n`);
  } else {
    for (const r of results) {
      out.write(`${r.wonAtLastStep}/${r.total} won at last step (wording ${r.wording}, ${o.games})\n`);
      for (const miss of r.misses) out.write(`  miss: ${describeWalkthroughMiss(miss)}\n`);
    }
  }
  // Exit 0 whenever the check ran, as `env check dbbench` does: the misses are the result, listed above.
  return EXIT_OK;
}

function parseWording(value: string): AlfworldWording {
  try {
    return parseAlfworldWording(value, 'wording');
  } catch {
    throw new ConfigError({ message: `Unknown --wording '${value}'.`, field: 'wording', allowed: [...ALFWORLD_WORDINGS, 'both'] });
  }
}
