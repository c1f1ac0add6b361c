import { describe, expect, it } from 'vitest';
import { ConfigError } from '../episode/index.js';
import { BenchmarkRegistry } from '../benchmarks/registry.js';
import { resolveTarget } from './resolve-target.js';
import { resolveDataDir } from '../config/data-dir.js';

const registry = new BenchmarkRegistry();
const dataDir = resolveDataDir();

async function refusal(spec: string): Promise<ConfigError> {
  try {
    const target = await resolveTarget(spec, { dataDir, registry });
    await target.close();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error(`expected '${spec}' to be refused`);
}

describe('resolveTarget for simulated targets', () => {
  it('refuses a benchmark without a simulated target and names the ones that exist', async () => {
    const error = await refusal('sim:swebench');
    expect(error.message).toContain("There is no simulated target for 'swebench'");
    expect(error.allowed).toEqual(['sim:dbbench', 'sim:alfworld', 'sim:webshop']);
  });

  it("leaves a simulation's own parameters to the benchmark, which names the allowed ones", async () => {
    const error = await refusal('sim:dbbench?rate=1');
    expect(error.message).toContain("Unknown parameter 'rate' in the sim:dbbench spec");
    expect(error.allowed).toEqual(expect.arrayContaining(['seed', 'faults', 'comply', 'split']));
  });

  it('checks the latency every simulation shares', async () => {
    expect((await refusal('sim:webshop?latency_ms=-5')).message).toContain('latency_ms must be an integer number of milliseconds');
  });

  it('serves a known simulation and says it is simulated', async () => {
    const target = await resolveTarget('sim:alfworld?seed=3', { dataDir, registry });
    try {
      expect(target.model.simulated).toBe(true);
      expect(target.model.label).toBe('sim:alfworld?seed=3 (simulated target)');
    } finally {
      await target.close();
    }
  });
});
