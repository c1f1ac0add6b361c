import { describe, expect, it } from 'vitest';

import { parseModelSpec } from './model-spec.js';
import { defaultReplay } from './replay-mode.js';

const modeOf = (spec: string) => defaultReplay(parseModelSpec(spec)).mode;

describe('defaultReplay', () => {
  it('is exact for simulated targets and servers declared deterministic', () => {
    expect(modeOf('sim:dbbench?seed=3')).toBe('exact');
    expect(modeOf('openai:http://127.0.0.1:8000/v1#m?deterministic=true')).toBe('exact');
  });

  it('is off for other servers and for scripted files (played by position, not by request)', () => {
    expect(modeOf('openai:http://127.0.0.1:8000/v1#m')).toBe('off');
    expect(modeOf('openai:http://127.0.0.1:8000/v1#m?deterministic=false')).toBe('off');
    expect(modeOf('scripted:turns.json')).toBe('off');
  });

  it('refuses a deterministic value that is not a boolean', () => {
    expect(() => parseModelSpec('openai:http://127.0.0.1:8000/v1#m?deterministic=maybe')).toThrow(/deterministic must be true or false/);
  });
});
