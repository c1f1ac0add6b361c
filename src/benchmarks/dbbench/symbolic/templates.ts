/**
 * The hook template library of the symbolic engineer (DBBench).
 *
 * Templates are TypeScript string builders rather than `.py` files, so they ship with the compiled
 * package (tsc copies no `.py`) and stay next to the signatures that select them. Each hook is a fixed
 * Python skeleton with placeholders, filled from per-signature fragments:
 *
 * | skeleton | placeholder | filled with |
 * |---|---|---|
 * | `ON_INIT_SKELETON` | `{{SKILLS}}` | a Python list of skill strings (at most 5) |
 * | | `{{TOOL_HINT}}` | a Python string: one checklist sentence |
 * | `ON_POST_STEP_SKELETON` | `{{HELPERS}}` | helper functions the stage conditions need |
 * | | `{{STAGES}}` | an `if/elif` chain setting `stage` (first match wins) |
 * | `MAKE_PRE_HINT_SKELETON` | `{{CANDIDATES}}` | appends `[stage, round]` candidates raised before the model call |
 * | | `{{MESSAGES}}` | a Python dict stage → message (expressions may use `tbl`) |
 * | `ON_BEFORE_ACTION_SKELETON` | `{{HELPERS}}` | `block` plus the helpers the guards need |
 * | | `{{COMMIT_GUARDS}}`, `{{SQL_GUARDS}}` | one `if out is None and (cond): out = block(...)` per guard |
 *
 * Names the fragments may use. on_post_step: `s` state, `p` predicates, `t` task, `low` (the SQL just
 * run, lower-cased, whitespace collapsed), `tbl` (the sanitized table name), `err` (the result was an
 * error). make_pre_hint: `s`, `p`, `tbl`, `rnd` (the round about to be played), `cands`. on_before_action:
 * `a` action, `s`, `p`, `t`, `tbl`, `raw` (the SQL as sent), `low` (it, normalized), `last` (the previous
 * SQL, normalized), `answers` (the committed values as strings), `nb`.
 *
 * Every hook keeps to protocol.md §5.1: only top-level defs, ≤ 5 helpers, no imports, loops bounded by
 * the input, `re.search`/`re.findall` only, string literals ≤ 700 characters, no task ids or values.
 */
import { BLOCK_HELPER, pyStr } from '../../../engineer/symbolic/python-kit.js';
import type { SignatureId } from './signatures.js';

/** Python helpers, by name. `\x60` is the backtick inside Python strings. */
export const PY_HELPERS = {
  /** The (multi-word) table name written without backticks, or with its spaces turned into `_`. */
  bare: String.raw`def bare(low, tbl):
    if not re.search(r'[\s-]', tbl.strip()):
        return False
    words = re.findall(r'[^\W_]+', tbl.lower())
    if len(words) < 2:
        return False
    pat = r'(^|[^\x60\w])' + r'[\s_-]+'.join([re.escape(w) for w in words]) + r'(?![^\W_])'
    return re.search(pat, low) is not None`,
  /** A literal of the statement that the question writes with more capitals, or the same number formatted otherwise. */
  fixed: String.raw`def fixed(v, q):
    if len(v) < 2:
        return False
    if re.search(r'[^\W\d_]', v):
        if v in q:
            return False
        i = q.lower().find(v.lower())
        if i < 0:
            return False
        return len(re.findall('[A-Z]', q[i:i + len(v)])) > len(re.findall('[A-Z]', v))
    if not re.search(r'^-?\d[\d,]*(\.\d+)?$', v):
        return False
    c = v.replace(',', '')
    c = c.rstrip('0').rstrip('.') if '.' in c else c
    nums = re.findall(r'\d+(?:,\d{3})*(?:\.\d+)?', q)[:40]
    if v in nums:
        return False
    for n in nums:
        m = n.replace(',', '')
        m = m.rstrip('0').rstrip('.') if '.' in m else m
        if m == c:
            return True
    return False`,
  /** A committed value that the last result shows in another case or dash style, but never as written. */
  cellcase: String.raw`def cellcase(v, res):
    v = v.strip()
    qt = "['\"]"
    if len(v) < 2 or re.search(qt + re.escape(v) + qt, res):
        return False
    d = v.replace('-', '\u2013')
    if d != v and re.search(qt + re.escape(d) + qt, res):
        return True
    return re.search(r'[^\W\d_]', v) is not None and re.search('(?i)' + qt + re.escape(v) + qt, res) is not None`,
  /** Returns a block effect unless this guard already blocked `cap` times in the episode. */
  block: BLOCK_HELPER,
} as const;
export type HelperName = keyof typeof PY_HELPERS;

export const ON_INIT_SKELETON = `def hook(ctx, nb):
    nb['blocks'] = {}
    nb['hinted'] = {}
    return {'skills': {{SKILLS}}, 'tool_hint': {{TOOL_HINT}}}
`;

export const ON_POST_STEP_SKELETON = `{{HELPERS}}def hook(ctx, nb):
    s = ctx.get('state') or {}
    p = ctx.get('predicates') or {}
    t = ctx.get('task') or {}
    d = ctx.get('dbbench') or {}
    low = ' '.join(str(s.get('last_sql') or '').lower().split()).rstrip(';').strip()
    tbl = str(t.get('target_table') or '')
    err = bool(s.get('last_result_was_error'))
    stage = ''
{{STAGES}}
    nb['stage'] = stage
    nb['stage_round'] = int(d.get('round') or 0)
    return None
`;

export const MAKE_PRE_HINT_SKELETON = `def hook(ctx, nb):
    s = ctx.get('state') or {}
    p = ctx.get('predicates') or {}
    t = ctx.get('task') or {}
    d = ctx.get('dbbench') or {}
    tbl = str(t.get('target_table') or '')
    rnd = int(d.get('round') or 0)
    cands = []
    if nb.get('stage'):
        cands.append([str(nb.get('stage')), int(nb.get('stage_round') or 0)])
{{CANDIDATES}}
    msgs = {{MESSAGES}}
    log = nb.get('hinted') or {}
    for c in cands:
        msg = msgs.get(c[0])
        seen = log.get(c[0]) or [0, -99]
        if msg and seen[0] < 2 and c[1] - seen[1] >= 3:
            log[c[0]] = [seen[0] + 1, c[1]]
            nb['hinted'] = log
            return {'message': msg}
    return None
`;

export const ON_BEFORE_ACTION_SKELETON = `{{HELPERS}}def hook(ctx, nb):
    a = ctx.get('action') or {}
    s = ctx.get('state') or {}
    p = ctx.get('predicates') or {}
    t = ctx.get('task') or {}
    tbl = str(t.get('target_table') or '')
    raw = str(a.get('query') or '')
    low = ' '.join(raw.lower().split()).rstrip(';').strip()
    last = ' '.join(str(s.get('last_sql') or '').lower().split()).rstrip(';').strip()
    answers = [str(x) for x in (a.get('answers') or [])]
    out = None
    if a.get('tool') == 'commit_final_answer':
{{COMMIT_GUARDS}}
    elif a.get('tool') == 'execute_sql':
{{SQL_GUARDS}}
    return out
`;

export interface StageFragment {
  /** Stage name, also the key of its message. */
  stage: string;
  /** Python condition over the hook's names (see the module comment). */
  condition: string;
  helpers?: HelperName[];
}

export interface GuardFragment {
  tool: 'commit_final_answer' | 'execute_sql';
  /** Key of the guard's block counter in `nb['blocks']`. */
  key: string;
  /** How many times per episode the guard may block; after that the call goes through. */
  cap: number;
  condition: string;
  /** A Python expression giving the message. */
  message: string;
  helpers?: HelperName[];
}

/** What one signature contributes to each hook. */
export interface SignatureTemplate {
  signature: SignatureId;
  /** Short name of the fix, used in the patch description. */
  fix: string;
  /** on_init skill, in general words. */
  skill: string;
  /** A clause of the on_init tool hint checklist. */
  toolHint: string;
  /** on_post_step: a stage tracked after each executed statement. */
  postStage?: StageFragment;
  /** make_pre_hint: a stage raised from the state before the model call (`rnd` is its round). */
  preStage?: StageFragment;
  /** make_pre_hint messages of this signature's stages (Python expressions). */
  messages?: Record<string, string>;
  /** on_before_action: narrow blocks. */
  guards?: GuardFragment[];
}

const READ_SQL = String.raw`re.search(r'^(select|with)\b', low)`;

/** The library, one template per signature, in composition order. */
export const SIGNATURE_TEMPLATES: Readonly<Record<SignatureId, SignatureTemplate>> = Object.freeze({
  unquoted_identifier: {
    signature: 'unquoted_identifier',
    fix: 'backtick-quote names with spaces',
    skill:
      'Table and column names that contain spaces or punctuation must be wrapped in backticks exactly as listed, e.g. SELECT `Col Name` FROM `Table Name`. Never drop the backticks, use double quotes, or replace spaces with underscores.',
    toolHint: 'wrap every table or column name that contains spaces or punctuation in backticks, exactly as listed',
    postStage: { stage: 'quote', condition: String.raw`err and (bare(low, tbl) or (p.get('syntax_error') and '\x60' not in low))`, helpers: ['bare'] },
    messages: {
      quote: String.raw`'The last statement failed. A table or column name with spaces or punctuation must be wrapped in backticks exactly as listed, for example \x60' + tbl + '\x60. Do not drop the backticks or replace spaces with underscores.'`,
    },
    guards: [
      {
        tool: 'execute_sql',
        key: 'bare_name',
        cap: 2,
        condition: 'bare(low, tbl)',
        message: String.raw`'This statement names the table without backticks. A name with spaces or punctuation must be wrapped in backticks exactly as listed, for example \x60' + tbl + '\x60; do not replace spaces with underscores.'`,
        helpers: ['bare'],
      },
    ],
  },
  unknown_column: {
    signature: 'unknown_column',
    fix: 'use column names exactly as listed',
    skill:
      'Use column names exactly as the table information lists them (run DESCRIBE on the table when unsure) and wrap them in backticks. Never guess, abbreviate or rename a column.',
    toolHint: 'use column names exactly as listed (DESCRIBE the table when unsure)',
    postStage: { stage: 'columns', condition: "p.get('unknown_column_error')" },
    messages: {
      columns: pyStr(
        'That column does not exist. Run DESCRIBE on the table, then copy the column names exactly as listed, in backticks; do not guess or rename columns.',
      ),
    },
  },
  commit_before_sql: {
    signature: 'commit_before_sql',
    fix: 'run SQL before committing',
    skill: 'Always run at least one SQL query on the table before committing. The answer must come from the database, never from memory or a guess.',
    toolHint: 'run SQL on the table before committing',
    guards: [
      {
        tool: 'commit_final_answer',
        key: 'no_sql',
        cap: 2,
        condition: "p.get('commit_before_sql') or not (s.get('sql_count') or 0)",
        message: pyStr(
          'No SQL has been run yet. Run at least one query on the table first: the answer has to come from the database, not from a guess.',
        ),
      },
    ],
  },
  empty_commit_on_question: {
    signature: 'empty_commit_on_question',
    fix: 'commit query results, not an empty list',
    skill:
      'When the task is a question, commit the values your SELECT returned, in the requested shape. An empty answer list is only right for tasks that change the data.',
    toolHint: 'for a question, commit the values your query returned rather than an empty list',
    guards: [
      {
        tool: 'commit_final_answer',
        key: 'empty_answer',
        cap: 2,
        condition: "not p.get('mutation_task') and not [x for x in answers if x.strip()]",
        message: pyStr(
          'An empty answer list does not answer this question. Run a SELECT that returns the requested value and commit the values it returns.',
        ),
      },
    ],
  },
  give_up_after_error: {
    signature: 'give_up_after_error',
    fix: 'fix and retry after an error',
    skill:
      'When a statement returns an error, read the message, fix the query (names, quoting, syntax) and run it again. Do not commit a guess or an empty answer after an error.',
    toolHint: 'after an error, fix the query and retry instead of committing',
    postStage: { stage: 'error', condition: 'err' },
    messages: {
      error: pyStr('The last query returned an error. Read the message, fix the query and run it again; do not commit a guess after an error.'),
    },
    guards: [
      {
        tool: 'commit_final_answer',
        key: 'after_error',
        cap: 2,
        condition: "s.get('last_result_was_error')",
        message: pyStr(
          'The last query returned an error, so there is no result to commit yet. Fix the query (names, quoting, syntax) and run it again, then commit the values it returns.',
        ),
      },
    ],
  },
  repeated_sql: {
    signature: 'repeated_sql',
    fix: 'do not repeat the same query',
    skill: 'Do not send the same query twice in a row: the result will not change. Use the result you already have to answer, or write a different query.',
    toolHint: 'never send the same query twice in a row',
    postStage: { stage: 'repeat', condition: "p.get('repeated_sql')" },
    messages: {
      repeat: pyStr(
        'You sent the same query again and its result does not change. Use the result you already have to answer, or write a different query.',
      ),
    },
    guards: [
      {
        tool: 'execute_sql',
        key: 'same_sql',
        cap: 3,
        condition: 'low and low == last',
        message: pyStr(
          'This exact query was just run and its result is above; running it again gives the same result. Use that result to answer, or write a different query.',
        ),
      },
    ],
  },
  text_only_turns: {
    signature: 'text_only_turns',
    fix: 'call a tool every turn',
    skill: 'Every turn must call a tool: execute_sql to run one SQL statement, or commit_final_answer to give the final answer. Do not answer in plain text.',
    toolHint: 'call a tool in every turn',
    preStage: { stage: 'textonly', condition: "(s.get('text_only_streak') or 0) >= 1" },
    messages: {
      textonly: pyStr('Each turn must call a tool: use execute_sql to run one SQL statement, or commit_final_answer to give the final answer.'),
    },
  },
  mutation_without_write: {
    signature: 'mutation_without_write',
    fix: 'execute the requested change before committing',
    skill:
      'When the task asks to insert, update or delete data, execute that INSERT, UPDATE or DELETE statement on the table before committing; inspecting the table alone changes nothing.',
    toolHint: 'for a data change, execute the INSERT, UPDATE or DELETE before committing',
    preStage: { stage: 'mutate', condition: "p.get('mutation_task') and p.get('mutation_not_attempted') and (s.get('sql_count') or 0) >= 2" },
    messages: {
      mutate: pyStr('This task asks to change the table. Once you know the columns, execute the INSERT, UPDATE or DELETE statement itself, then commit.'),
    },
    guards: [
      {
        tool: 'commit_final_answer',
        key: 'no_write',
        cap: 2,
        condition: "p.get('mutation_task') and p.get('mutation_not_attempted')",
        message: pyStr(
          'This task asks to change the table, but no INSERT, UPDATE or DELETE statement has been executed. Execute the change with execute_sql first, then commit.',
        ),
      },
    ],
  },
  empty_result_commit: {
    signature: 'empty_result_commit',
    fix: 'check filters after an empty result',
    skill:
      'An empty SELECT result usually means a filter value does not match the stored text. Look at the distinct values of that column (spelling, case, punctuation) and adjust the filter before answering.',
    toolHint: 'when a query returns no rows, check the filter values before answering',
    postStage: { stage: 'empty', condition: `p.get('last_result_empty') and not p.get('mutation_task') and ${READ_SQL}` },
    messages: {
      empty: pyStr(
        'The query returned no rows. A filter value probably does not match the stored text: look at the distinct values of that column (spelling, case, punctuation) and adjust the filter.',
      ),
    },
    guards: [
      {
        tool: 'commit_final_answer',
        key: 'after_empty',
        cap: 1,
        condition: `not p.get('mutation_task') and p.get('last_result_empty') and re.search(r'^(select|with)\\b', last)`,
        message: pyStr(
          'The last query returned no rows, so there is nothing to commit yet. Check the filter values against the stored values (spelling, case, punctuation) with a broader query, then commit.',
        ),
      },
    ],
  },
  literal_altered: {
    signature: 'literal_altered',
    fix: 'keep values exactly as written',
    skill:
      'Keep literal values exactly as written in the question (same case, spelling, punctuation and number format) in SQL statements, and commit values exactly as the database returns them, with no extra words.',
    toolHint: 'keep literal values exactly as written in the question and commit values exactly as returned',
    guards: [
      {
        tool: 'execute_sql',
        key: 'literal',
        cap: 1,
        condition: String.raw`p.get('mutation_task') and re.search(r'^(insert|update|delete|replace)\b', low) and [v for v in re.findall(r"'((?:[^'\\]|\\.)*)'", raw)[:20] if fixed(v, str(t.get('description') or ''))]`,
        message: pyStr(
          'A value in this statement is not written the way the question writes it. Keep literal values exactly as written in the question (same capitalisation, punctuation and number format), then send the statement again.',
        ),
        helpers: ['fixed'],
      },
      {
        tool: 'commit_final_answer',
        key: 'answer_form',
        cap: 1,
        condition: String.raw`not p.get('mutation_task') and [x for x in answers[:10] if re.search(r'^\s*(the\s+)?(final\s+)?answer\s*(is\b|:)', x.lower()) or cellcase(x, str(s.get('last_result') or ''))]`,
        message: pyStr(
          'Commit each value exactly as the query returned it: the same case, punctuation and format, with no extra words around it.',
        ),
        helpers: ['cellcase'],
      },
    ],
  },
});

/** The soft-hint fallback used when no signature recurs: general advice and a last-rounds reminder. */
export const SOFT_TEMPLATE = {
  skills: [
    'Work in small steps: look at the table, run the SQL that answers the task, then commit the values it returned. Wrap table and column names that contain spaces or punctuation in backticks.',
    'When a statement returns an error, fix it and run it again before committing.',
  ],
  toolHint: 'Run SQL before committing, quote names with spaces in backticks, and commit values exactly as the database returns them.',
  preStage: { stage: 'deadline', condition: "(s.get('remaining_rounds') or 99) <= 2 and (s.get('sql_count') or 0) > 0" } satisfies StageFragment,
  messages: {
    deadline: pyStr('Only a few rounds are left. If your results already answer the task, commit now; otherwise make the next statement count.'),
  },
};

function indent(code: string, spaces: number): string {
  const pad = ' '.repeat(spaces);
  return code
    .split('\n')
    .map((line) => (line === '' ? line : pad + line))
    .join('\n');
}

function helperBlock(names: Iterable<HelperName>): string {
  const unique = [...new Set(names)].sort((a, b) => Object.keys(PY_HELPERS).indexOf(a) - Object.keys(PY_HELPERS).indexOf(b));
  return unique.map((name) => `${PY_HELPERS[name]}\n\n\n`).join('');
}

function fill(skeleton: string, values: Record<string, string>): string {
  return skeleton.replace(/\{\{([A-Z_]+)\}\}/g, (_, key: string) => {
    const value = values[key];
    if (value === undefined) throw new Error(`template placeholder {{${key}}} has no value`);
    return value;
  });
}

export function buildOnInit(skills: readonly string[], toolHint: string): string {
  const list = `[${skills.map(pyStr).join(', ')}]`;
  return fill(ON_INIT_SKELETON, { SKILLS: list, TOOL_HINT: pyStr(toolHint) });
}

export function buildOnPostStep(stages: readonly StageFragment[]): string {
  const chain = stages.map((st, i) => `${i === 0 ? 'if' : 'elif'} ${st.condition}:\n    stage = '${st.stage}'`).join('\n');
  return fill(ON_POST_STEP_SKELETON, { HELPERS: helperBlock(stages.flatMap((st) => st.helpers ?? [])), STAGES: indent(chain, 4) });
}

export function buildMakePreHint(preStages: readonly StageFragment[], messages: Readonly<Record<string, string>>): string {
  const candidates = preStages.map((st) => `if ${st.condition}:\n    cands.append(['${st.stage}', rnd])`).join('\n');
  const entries = Object.entries(messages).map(([stage, expr]) => `        '${stage}': ${expr},`);
  const dict = entries.length === 0 ? '{}' : `{\n${entries.join('\n')}\n    }`;
  return fill(MAKE_PRE_HINT_SKELETON, { CANDIDATES: indent(candidates, 4), MESSAGES: dict });
}

export function buildOnBeforeAction(guards: readonly GuardFragment[]): string {
  const render = (tool: GuardFragment['tool']) => {
    const lines = guards
      .filter((g) => g.tool === tool)
      .map((g) => `if out is None and (${g.condition}):\n    out = block(nb, '${g.key}', ${g.cap}, ${g.message})`);
    return indent(lines.length === 0 ? 'pass' : lines.join('\n'), 8);
  };
  return fill(ON_BEFORE_ACTION_SKELETON, {
    HELPERS: helperBlock(['block', ...guards.flatMap((g) => g.helpers ?? [])]),
    COMMIT_GUARDS: render('commit_final_answer'),
    SQL_GUARDS: render('execute_sql'),
  });
}
