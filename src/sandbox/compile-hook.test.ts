import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { resolveDataDir } from '../config/data-dir.js';
import { compileHook } from './compile-hook.js';
import { createSandboxPool, type SandboxPool } from './worker-pool.js';

let pool: SandboxPool;

beforeAll(async () => {
  pool = createSandboxPool({ size: 1 });
  await pool.ready();
});

afterAll(async () => {
  await pool.close();
});

const hook = (body: string): string => `def hook(ctx, nb):\n${body}`;

async function reason(source: string, benchmark?: string): Promise<string> {
  const verdict = await compileHook(pool, source, { numberedInstances: benchmark?.toLowerCase() === 'alfworld' });
  if (verdict.ok) throw new Error(`expected a rejection, got nodeCount=${verdict.nodeCount}`);
  return verdict.reason;
}

async function accepts(source: string, benchmark?: string): Promise<number> {
  const verdict = await compileHook(pool, source, { numberedInstances: benchmark?.toLowerCase() === 'alfworld' });
  if (!verdict.ok) throw new Error(`expected acceptance, got: ${verdict.reason}`);
  return verdict.nodeCount;
}

/** Every add_code_hook in the original release's patch corpus was valid there, so it must be valid here. */
function corpusHooks(): Array<{ file: string; hook: string; code: string; benchmark: string }> {
  const root = path.join(resolveDataDir(), 'patches');
  const files: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.json')) files.push(full);
    }
  };
  walk(root);
  const hooks: Array<{ file: string; hook: string; code: string; benchmark: string }> = [];
  for (const file of files) {
    const patch = JSON.parse(readFileSync(file, 'utf8')) as { benchmark?: string; actions?: Array<{ type?: string; hook?: string; code?: string }> };
    for (const action of patch.actions ?? []) {
      if (action.type === 'add_code_hook' && typeof action.code === 'string') {
        hooks.push({ file: path.relative(root, file), hook: action.hook ?? '', code: action.code, benchmark: patch.benchmark ?? '' });
      }
    }
  }
  return hooks;
}

describe('compileHook: what the original accepts', () => {
  it('accepts every code hook of the original patch corpus and records the Python version', async () => {
    const hooks = corpusHooks();
    expect(hooks.length).toBeGreaterThanOrEqual(40);
    for (const h of hooks) {
      const verdict = await compileHook(pool, h.code, { numberedInstances: h.benchmark === 'alfworld' });
      expect({ file: h.file, hook: h.hook, verdict: verdict.ok ? 'ok' : verdict.reason }).toEqual({ file: h.file, hook: h.hook, verdict: 'ok' });
      expect(verdict.pythonVersion).toMatch(/^3\.\d+\.\d+$/);
    }
  });

  it('accepts the constructs the contract lists as allowed', async () => {
    const source = [
      'def norm(text, lower=True, limit=None, *rest, sep=" ", **extra):',
      '    text = str(text)',
      '    return text.lower() if lower else text',
      '',
      'def hook(ctx, nb):',
      '    total = 0',
      '    for i, x in enumerate(ctx.get("items", [])):',
      '        if i > 3:',
      '            break',
      '        elif x is None:',
      '            continue',
      '        total += 1',
      '    words = [w for w in norm(ctx.get("text")).split() if w]',
      '    seen = {w: len(w) for w in words}',
      '    lengths = set(len(w) for w in words)',
      '    assert total >= 0',
      '    if (n := len(words)) > 1:',
      '        pass',
      '    note: str = "x"',
      '    match ctx.get("kind"):',
      '        case "a" | "b":',
      '            total += 1',
      '        case {"k": v, **others}:',
      '            total += 2',
      '        case [first, *tail]:',
      '            total += 3',
      '        case str(s) if s:',
      '            total += 4',
      '        case _:',
      '            pass',
      '    try:',
      '        ratio = SequenceMatcher(None, "abc", "abd").ratio()',
      '    except Exception as err:',
      '        ratio = 0.0',
      '    found = re.search(r"\\d+", "a12")',
      '    head = words[1:3]',
      '    return {"message": f"{n} {total!r} {ratio:.2f} {math.floor(1.5)} {head} {seen} {lengths} {note}"}',
      '',
    ].join('\n');
    expect(await accepts(source)).toBeGreaterThan(100);
  });

  it('counts ast.walk nodes including Load/Store contexts, up to exactly 1200', async () => {
    // Module, FunctionDef, arguments, arg ctx, arg nb = 5; each `x = 1` adds Assign, Name, Store, Constant = 4.
    const body = (assignments: number, passes: number): string => hook('    x = 1\n'.repeat(assignments) + '    pass\n'.repeat(passes));
    expect(await accepts(body(298, 3))).toBe(1200);
    expect(await reason(body(298, 4))).toBe('hook code has 1201 AST nodes; at most 1200 are allowed');
  });

  it('limits the source to 8000 characters and string constants to 700', async () => {
    const base = hook('    return None\n');
    expect(await accepts(base + '#'.repeat(8000 - base.length))).toBeGreaterThan(0);
    expect(await reason(base + '#'.repeat(8001 - base.length))).toBe('hook code exceeds 8000 characters');
    expect(await accepts(hook(`    return {"message": "${'a'.repeat(700)}"}\n`))).toBeGreaterThan(0);
    expect(await reason(hook(`    return {"message": "${'a'.repeat(701)}"}\n`))).toBe('hook string constant exceeds 700 characters');
  });

  it('allows five helpers, not six', async () => {
    const helpers = (n: number): string => Array.from({ length: n }, (_, i) => `def h${i}(x):\n    return x\n`).join('\n');
    await accepts(`${helpers(5)}\n${hook('    return h0(1)\n')}`);
    expect(await reason(`${helpers(6)}\n${hook('    return h0(1)\n')}`)).toBe('hook code may contain at most 5 helper functions');
  });

  it('applies the ALFWorld numbered-instance rule to string literals only for alfworld', async () => {
    const source = hook('    return {"message": "go to page 2"}\n');
    expect(await reason(source, 'alfworld')).toMatch(/^hook string constant names a numbered ALFWorld instance/);
    expect(await reason(hook('    return {"message": "Take   the apple  3"}\n'), 'ALFWorld')).toMatch(/numbered ALFWorld instance/);
    await accepts(source, 'webshop');
    await accepts(source, 'dbbench');
    await accepts(source);
    await accepts(hook('    return {"message": "go to the counter"}\n'), 'alfworld');
  });
});

describe('compileHook: what the original rejects', () => {
  const cases: Array<[string, string, string | RegExp]> = [
    ['empty source', '   \n', 'hook code must be a non-empty string'],
    ['syntax error', 'def hook(ctx, nb)\n    return 1\n', /^invalid syntax: /],
    ['top-level assignment', `X = 1\n${hook('    return X\n')}`, 'hook code may contain only top-level function definitions (found Assign)'],
    ['module docstring', `"""doc"""\n${hook('    return 1\n')}`, 'hook code may contain only top-level function definitions (found Expr)'],
    ['top-level import', `import re\n${hook('    return 1\n')}`, 'hook uses forbidden syntax: Import'],
    ['no hook', 'def helper(ctx, nb):\n    return 1\n', "hook code must define exactly one function named 'hook'"],
    ['two hooks', `${hook('    return 1\n')}\n${hook('    return 2\n')}`, "hook code defines 'hook' more than once"],
    ['helper starting with _', `def _h():\n    return 1\n\n${hook('    return 1\n')}`, 'helper name must not start with "_": \'_h\''],
    ['forbidden helper name', `def getattr():\n    return 1\n\n${hook('    return 1\n')}`, "helper name is forbidden: 'getattr'"],
    ['helper shadowing a builtin', `def len(x):\n    return 1\n\n${hook('    return 1\n')}`, "helper name shadows a safe builtin or global: 'len'"],
    ['helper shadowing re', `def re(x):\n    return 1\n\n${hook('    return 1\n')}`, "helper name shadows a safe builtin or global: 're'"],
    ['duplicate helper', `def h():\n    return 1\n\ndef h():\n    return 2\n\n${hook('    return 1\n')}`, "duplicate helper name 'h'"],
    ['decorator', `def d(f):\n    return f\n\n@d\n${hook('    return 1\n')}`, "decorators are not allowed (function 'hook')"],
    ['return annotation', 'def hook(ctx, nb) -> dict:\n    return {}\n', "return annotations are not allowed (function 'hook')"],
    ['hook with one parameter', 'def hook(ctx):\n    return 1\n', 'hook must take exactly (ctx, nb)'],
    ['hook with renamed parameters', 'def hook(c, n):\n    return 1\n', 'hook must take exactly (ctx, nb)'],
    ['hook with a default', 'def hook(ctx, nb=None):\n    return 1\n', 'hook must take exactly (ctx, nb)'],
    ['hook with *args', 'def hook(ctx, nb, *args):\n    return 1\n', 'hook must take exactly (ctx, nb)'],
    ['hook with keyword-only nb', 'def hook(ctx, *, nb):\n    return 1\n', 'hook must take exactly (ctx, nb)'],
    ['hook with positional-only parameters', 'def hook(ctx, nb, /):\n    return 1\n', 'hook must take exactly (ctx, nb)'],
    ['hook with annotations', 'def hook(ctx: dict, nb):\n    return 1\n', 'hook must take exactly (ctx, nb)'],
    ['helper parameter starting with _', `def h(_x):\n    return 1\n\n${hook('    return 1\n')}`, 'helper argument must not start with "_": \'_x\''],
    ['forbidden helper parameter', `def h(type):\n    return 1\n\n${hook('    return 1\n')}`, "helper argument is forbidden: 'type'"],
    ['annotated helper parameter', `def h(x: int):\n    return 1\n\n${hook('    return 1\n')}`, "argument annotations are not allowed ('x' in 'h')"],
    ['list default', `def h(x=[]):\n    return 1\n\n${hook('    return 1\n')}`, "helper defaults must be str, int, float, bool or None constants (in 'h')"],
    ['negative default (a UnaryOp, not a Constant)', `def h(x=-1):\n    return 1\n\n${hook('    return 1\n')}`, /^helper defaults must be/],
    ['nested def', hook('    def inner():\n        return 1\n    return inner()\n'), "nested functions are not allowed ('inner')"],
    ['lambda', hook('    return (lambda: 1)()\n'), 'hook uses forbidden syntax: Lambda'],
    ['while', hook('    while False:\n        pass\n'), 'hook uses forbidden syntax: While'],
    ['raise', hook('    raise ValueError()\n'), 'hook uses forbidden syntax: Raise'],
    ['with', hook('    with ctx:\n        pass\n'), 'hook uses forbidden syntax: With'],
    ['del', hook('    del nb["x"]\n'), 'hook uses forbidden syntax: Delete'],
    ['global', hook('    global X\n'), 'hook uses forbidden syntax: Global'],
    ['nonlocal', hook('    nonlocal X\n'), 'hook uses forbidden syntax: Nonlocal'],
    ['yield', hook('    yield 1\n'), 'hook uses forbidden syntax: Yield'],
    ['yield from', hook('    yield from [1]\n'), 'hook uses forbidden syntax: YieldFrom'],
    ['class', `class K:\n    pass\n\n${hook('    return 1\n')}`, 'hook uses forbidden syntax: ClassDef'],
    ['async def', 'async def hook(ctx, nb):\n    return 1\n', 'hook uses forbidden syntax: AsyncFunctionDef'],
    ['await', hook('    await ctx\n'), 'hook uses forbidden syntax: Await'],
    ['async for', hook('    async for x in ctx:\n        pass\n'), 'hook uses unsupported syntax: AsyncFor'],
    ['break outside a loop (a compile-time error)', hook('    break\n'), "invalid syntax: 'break' outside loop (line 2)"],
    ['import inside the hook', hook('    import os\n'), 'hook uses forbidden syntax: Import'],
    ['from-import inside the hook', hook('    from os import path\n'), 'hook uses forbidden syntax: ImportFrom'],
    ['try/else', hook('    try:\n        x = 1\n    except Exception:\n        x = 2\n    else:\n        x = 3\n'), 'try statements may not have else or finally blocks'],
    ['try/finally', hook('    try:\n        x = 1\n    finally:\n        x = 2\n'), 'try statements may not have else or finally blocks'],
    ['bare except', hook('    try:\n        x = 1\n    except:\n        x = 2\n'), 'try/except handlers must be exactly "except Exception"'],
    ['except ValueError', hook('    try:\n        x = 1\n    except ValueError:\n        x = 2\n'), 'try/except handlers must be exactly "except Exception"'],
    ['except a tuple', hook('    try:\n        x = 1\n    except (Exception,):\n        x = 2\n'), 'try/except handlers must be exactly "except Exception"'],
    ['except alias starting with _', hook('    try:\n        x = 1\n    except Exception as _e:\n        x = 2\n'), "exception alias is not a legal name: '_e'"],
    ['forbidden name', hook('    return getattr(ctx, "x")\n'), "hook uses forbidden name 'getattr'"],
    ['name starting with _', hook('    return __builtins__\n'), 'hook uses a name starting with "_": \'__builtins__\''],
    ['dunder attribute', hook('    return ctx.__class__\n'), 'hook uses an attribute starting with "_": \'__class__\''],
    ['re.compile', hook('    return re.compile("a")\n'), "hook uses forbidden attribute 'compile'"],
    ['forbidden attribute name', hook('    return ctx.type\n'), "hook uses forbidden attribute 'type'"],
  ];
  for (const [label, source, expected] of cases) {
    it(`rejects ${label}`, async () => {
      const text = await reason(source);
      if (typeof expected === 'string') expect(text).toBe(expected);
      else expect(text).toMatch(expected);
    });
  }
});

describe('compileHook: syntax newer than the original knew', () => {
  const cases: Array<[string, string, RegExp]> = [
    ['except*', hook('    try:\n        x = 1\n    except* Exception:\n        x = 2\n'), /^hook uses syntax newer than Python 3\.10: Exception groups/],
    ['type alias', hook('    type X = int\n'), /^hook uses syntax newer than Python 3\.10: Type statement/],
    ['type parameters', 'def hook[T](ctx, nb):\n    return 1\n', /^hook uses syntax newer than Python 3\.10: Type parameter lists/],
    ['t-string', hook('    return t"{ctx}"\n'), /^hook uses syntax newer than Python 3\.10: t-strings/],
    ['except without parentheses', hook('    try:\n        x = 1\n    except ValueError, TypeError:\n        x = 2\n'), /^hook uses syntax newer than Python 3\.10: except expressions/],
    ['f-string reusing its quote', hook('    return f"{ctx["a"]}"\n'), /^hook uses syntax newer than Python 3\.10: f-string expression reuses the enclosing quote/],
    ['f-string with a backslash in an expression', hook('    return f"{\'\\n\'.join(ctx)}"\n'), /^hook uses syntax newer than Python 3\.10: backslash inside an f-string expression/],
    ['f-string with a comment', hook('    return f"""{ctx # note\n}"""\n'), /^hook uses syntax newer than Python 3\.10: comment inside an f-string expression/],
    ['starred subscript', hook('    return ctx[*nb]\n'), /^hook uses syntax newer than Python 3\.10: starred expression in a subscript/],
  ];
  for (const [label, source, expected] of cases) {
    it(`rejects ${label}`, async () => {
      expect(await reason(source)).toMatch(expected);
    });
  }

  it('still accepts 3.10 f-strings, including nested quotes of another kind', async () => {
    await accepts(hook('    return f"{ctx[\'a\']!r:>{10}} {f\'{nb}\'}"\n'));
    await accepts(hook("    return f'''{ctx[\"a\"]} and {'x'}'''\n"));
  });

  it('holds class patterns to the attribute rule, since keyword sub-patterns read attributes', async () => {
    const matcher = (pattern: string): string => hook(`    match ctx:\n        case ${pattern}:\n            return 1\n`);
    expect(await reason(matcher('dict(__class__=k)'))).toBe('hook uses an attribute starting with "_": \'__class__\'');
    expect(await reason(matcher('dict(compile=k)'))).toBe("hook uses forbidden attribute 'compile'");
    expect(await reason(matcher('[_x]'))).toBe('hook uses a name starting with "_": \'_x\'');
    expect(await reason(matcher('{"a": 1, **_rest}'))).toBe('hook uses a name starting with "_": \'_rest\'');
    await accepts(matcher('dict(items=k)'));
    await accepts(matcher('str(s)'));
  });
});
