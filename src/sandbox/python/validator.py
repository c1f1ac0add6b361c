# Allow-list validator for engineer-written hook source (protocol.md section 5.1), run inside Pyodide.
#
# Re-derived from the published contract, not copied: it accepts what the original compile_hook accepts and
# rejects what it rejects, and additionally rejects syntax newer than Python 3.10 (the oldest Python the
# original supports) because the original's deny-list never saw it. Every reason starts with a stable phrase
# that names the rule. This file is executed in its own namespace; `validate_source` is its entry point.

import ast
import io
import re
import sys
import tokenize
import warnings

MAX_SOURCE_CHARS = 8000
MAX_AST_NODES = 1200
MAX_HELPERS = 5
MAX_STRING_CHARS = 700
BASELINE_VERSION = (3, 10)

SAFE_BUILTIN_NAMES = (
    'abs', 'all', 'any', 'bool', 'dict', 'enumerate', 'Exception', 'filter', 'float', 'int', 'isinstance',
    'len', 'list', 'map', 'max', 'min', 'range', 'reversed', 'round', 'set', 'sorted', 'str', 'sum', 'tuple',
    'zip',
)
SAFE_GLOBAL_NAMES = ('math', 're', 'SequenceMatcher')
RESERVED_HELPER_NAMES = frozenset(SAFE_BUILTIN_NAMES + SAFE_GLOBAL_NAMES + ('hook',))

FORBIDDEN_NAMES = frozenset((
    'breakpoint', 'classmethod', 'compile', 'delattr', 'dir', 'eval', 'exec', 'exit', 'getattr', 'globals',
    'help', 'input', 'locals', 'memoryview', 'object', 'open', 'property', 'quit', 'setattr', 'staticmethod',
    'super', 'type', 'vars', '__import__',
))

# Node types the original forbids by name.
FORBIDDEN_NODES = frozenset((
    'AsyncFunctionDef', 'Await', 'ClassDef', 'Delete', 'Global', 'Import', 'ImportFrom', 'Lambda', 'Nonlocal',
    'Raise', 'With', 'AsyncWith', 'While', 'Yield', 'YieldFrom',
))

# Node types that did not exist in Python 3.10: the original's deny-list cannot have judged them.
NEWER_NODES = frozenset((
    'TryStar', 'TypeAlias', 'TypeVar', 'ParamSpec', 'TypeVarTuple', 'TemplateStr', 'Interpolation',
))

# The Python 3.10 grammar minus the forbidden nodes: everything else is rejected.
ALLOWED_NODES = frozenset((
    'Module',
    'FunctionDef', 'Return', 'Assign', 'AugAssign', 'AnnAssign', 'For', 'If', 'Try', 'Assert', 'Expr',
    'Pass', 'Break', 'Continue', 'Match',
    'BoolOp', 'NamedExpr', 'BinOp', 'UnaryOp', 'IfExp', 'Dict', 'Set', 'ListComp', 'SetComp', 'DictComp',
    'GeneratorExp', 'Compare', 'Call', 'FormattedValue', 'JoinedStr', 'Constant', 'Attribute', 'Subscript',
    'Starred', 'Name', 'List', 'Tuple', 'Slice',
    'Load', 'Store', 'Del',
    'And', 'Or',
    'Add', 'Sub', 'Mult', 'MatMult', 'Div', 'Mod', 'Pow', 'LShift', 'RShift', 'BitOr', 'BitXor', 'BitAnd',
    'FloorDiv',
    'Invert', 'Not', 'UAdd', 'USub',
    'Eq', 'NotEq', 'Lt', 'LtE', 'Gt', 'GtE', 'Is', 'IsNot', 'In', 'NotIn',
    'comprehension', 'ExceptHandler', 'arguments', 'arg', 'keyword',
    'match_case', 'MatchValue', 'MatchSingleton', 'MatchSequence', 'MatchMapping', 'MatchClass', 'MatchStar',
    'MatchAs', 'MatchOr',
))

# protocol.md section 3.6: a household verb, then later a standalone integer (checked lower-cased, collapsed).
ALFWORLD_INSTANCE_RE = re.compile(
    r'\b(?:go to|take|pick up|put|open|close|toggle|clean|heat|cool|slice|examine|use)\b.*\b\d+\b',
    re.IGNORECASE,
)
_WHITESPACE_RE = re.compile(r'\s+')


class Rejected(Exception):
    pass


def _shorten(text, limit=60):
    return text if len(text) <= limit else text[:limit] + '...'


def _check_name(name):
    if name.startswith('_'):
        raise Rejected('hook uses a name starting with "_": %r' % name)
    if name in FORBIDDEN_NAMES:
        raise Rejected('hook uses forbidden name %r' % name)


def _check_attribute(attr):
    if attr.startswith('_'):
        raise Rejected('hook uses an attribute starting with "_": %r' % attr)
    if attr in FORBIDDEN_NAMES:
        raise Rejected('hook uses forbidden attribute %r' % attr)


def _parse(source):
    """ast.parse under the 3.10 grammar; newer syntax is reported as such, not as a plain syntax error."""
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        try:
            return ast.parse(source, filename='<hook>', feature_version=BASELINE_VERSION)
        except SyntaxError as old_error:
            try:
                ast.parse(source, filename='<hook>')
            except (SyntaxError, ValueError, MemoryError, RecursionError):
                raise Rejected('invalid syntax: %s (line %s)' % (old_error.msg, old_error.lineno)) from None
            raise Rejected('hook uses syntax newer than Python 3.10: %s' % old_error.msg) from None
        except (ValueError, MemoryError, RecursionError) as error:
            raise Rejected('invalid syntax: %s' % _shorten(str(error), 120)) from None


def _fstring_newer_syntax(source):
    """PEP 701 f-strings (3.12+) parse under feature_version=(3, 10); find them from the token stream."""
    if 'f' not in source.lower():
        return None
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(source).readline))
    except (tokenize.TokenError, SyntaxError, ValueError):
        return None
    start, middle, end = tokenize.FSTRING_START, tokenize.FSTRING_MIDDLE, tokenize.FSTRING_END
    quotes = []  # the quote sequence of each open f-string, outermost first
    for tok in tokens:
        if tok.type == start:
            if quotes:
                problem = _inner_string_problem(tok.string, quotes)
                if problem:
                    return problem
            quotes.append(tok.string.lstrip('rRfFbBuU'))
        elif tok.type == end:
            if quotes:
                quotes.pop()
        elif quotes:
            if tok.type == middle:
                if len(quotes) > 1:
                    problem = _inner_string_problem(tok.string, quotes[:-1])
                    if problem:
                        return problem
                continue
            if tok.type == tokenize.COMMENT:
                return 'comment inside an f-string expression'
            if tok.type in (tokenize.NL, tokenize.NEWLINE) and any(len(q) == 1 for q in quotes):
                return 'line break inside a single-quoted f-string expression'
            if tok.type == tokenize.STRING:
                problem = _inner_string_problem(tok.string, quotes)
                if problem:
                    return problem
    return None


def _inner_string_problem(text, outer_quotes):
    if '\\' in text:
        return 'backslash inside an f-string expression'
    for quote in outer_quotes:
        if quote in text:
            return 'f-string expression reuses the enclosing quote %s' % quote
    return None


def _check_module_body(tree):
    hook_count = 0
    helpers = []
    for stmt in tree.body:
        kind = type(stmt).__name__
        if kind in FORBIDDEN_NODES:
            raise Rejected('hook uses forbidden syntax: %s' % kind)
        if not isinstance(stmt, ast.FunctionDef):
            raise Rejected('hook code may contain only top-level function definitions (found %s)' % kind)
        if stmt.name == 'hook':
            hook_count += 1
        else:
            helpers.append(stmt)
    if hook_count == 0:
        raise Rejected("hook code must define exactly one function named 'hook'")
    if hook_count > 1:
        raise Rejected("hook code defines 'hook' more than once")
    if len(helpers) > MAX_HELPERS:
        raise Rejected('hook code may contain at most %d helper functions' % MAX_HELPERS)
    seen = set()
    for helper in helpers:
        name = helper.name
        if name.startswith('_'):
            raise Rejected('helper name must not start with "_": %r' % name)
        if name in FORBIDDEN_NAMES:
            raise Rejected('helper name is forbidden: %r' % name)
        if name in RESERVED_HELPER_NAMES:
            raise Rejected('helper name shadows a safe builtin or global: %r' % name)
        if name in seen:
            raise Rejected('duplicate helper name %r' % name)
        seen.add(name)


def _all_args(arguments):
    args = list(arguments.posonlyargs) + list(arguments.args) + list(arguments.kwonlyargs)
    if arguments.vararg is not None:
        args.append(arguments.vararg)
    if arguments.kwarg is not None:
        args.append(arguments.kwarg)
    return args


def _check_signature(func):
    if func.decorator_list:
        raise Rejected('decorators are not allowed (function %r)' % func.name)
    if func.returns is not None:
        raise Rejected('return annotations are not allowed (function %r)' % func.name)
    a = func.args
    if func.name == 'hook':
        plain = (
            not a.posonlyargs and a.vararg is None and not a.kwonlyargs and a.kwarg is None and not a.defaults
            and [p.arg for p in a.args] == ['ctx', 'nb'] and all(p.annotation is None for p in a.args)
        )
        if not plain:
            raise Rejected('hook must take exactly (ctx, nb)')
        return
    seen = set()
    for param in _all_args(a):
        if param.arg in seen:
            raise Rejected('duplicate argument name %r in %r' % (param.arg, func.name))
        seen.add(param.arg)
        if param.arg.startswith('_'):
            raise Rejected('helper argument must not start with "_": %r' % param.arg)
        if param.arg in FORBIDDEN_NAMES:
            raise Rejected('helper argument is forbidden: %r' % param.arg)
        if param.annotation is not None:
            raise Rejected('argument annotations are not allowed (%r in %r)' % (param.arg, func.name))
    for default in list(a.defaults) + [d for d in a.kw_defaults if d is not None]:
        scalar = isinstance(default, ast.Constant) and (
            default.value is None or type(default.value) in (str, int, float, bool)
        )
        if not scalar:
            raise Rejected('helper defaults must be str, int, float, bool or None constants (in %r)' % func.name)


def _check_node(node, top_level_defs, benchmark):
    kind = type(node).__name__
    if kind in FORBIDDEN_NODES:
        raise Rejected('hook uses forbidden syntax: %s' % kind)
    if kind in NEWER_NODES:
        raise Rejected('hook uses syntax newer than Python 3.10: %s' % kind)
    if kind not in ALLOWED_NODES:
        raise Rejected('hook uses unsupported syntax: %s' % kind)
    if isinstance(node, ast.FunctionDef):
        if id(node) not in top_level_defs:
            raise Rejected('nested functions are not allowed (%r)' % node.name)
    elif isinstance(node, ast.Try):
        if node.orelse or node.finalbody:
            raise Rejected('try statements may not have else or finally blocks')
        if not node.handlers:
            raise Rejected('try statements need at least one except Exception handler')
        for handler in node.handlers:
            if not (isinstance(handler.type, ast.Name) and handler.type.id == 'Exception'):
                raise Rejected('try/except handlers must be exactly "except Exception"')
            if handler.name is not None:
                if handler.name.startswith('_') or handler.name in FORBIDDEN_NAMES:
                    raise Rejected('exception alias is not a legal name: %r' % handler.name)
    elif isinstance(node, ast.Name):
        _check_name(node.id)
    elif isinstance(node, ast.Attribute):
        _check_attribute(node.attr)
    elif isinstance(node, ast.Constant):
        if isinstance(node.value, str):
            if len(node.value) > MAX_STRING_CHARS:
                raise Rejected('hook string constant exceeds %d characters' % MAX_STRING_CHARS)
            if benchmark == 'alfworld':
                text = _WHITESPACE_RE.sub(' ', node.value.lower()).strip()
                if ALFWORLD_INSTANCE_RE.search(text):
                    raise Rejected('hook string constant names a numbered ALFWorld instance: %r' % _shorten(text))
    elif isinstance(node, ast.Subscript):
        index = node.slice
        if isinstance(index, ast.Starred) or (
            isinstance(index, ast.Tuple) and any(isinstance(e, ast.Starred) for e in index.elts)
        ):
            raise Rejected('hook uses syntax newer than Python 3.10: starred expression in a subscript')
    elif isinstance(node, ast.MatchClass):
        # A keyword sub-pattern `case C(attr=p)` reads `subject.attr`: the original never checked these names,
        # so `case C(__class__=c)` would bypass the attribute rule. Hold them to the attribute rule.
        for attr in node.kwd_attrs:
            _check_attribute(attr)
    elif isinstance(node, (ast.MatchAs, ast.MatchStar)):
        if node.name is not None:
            _check_name(node.name)
    elif isinstance(node, ast.MatchMapping):
        if node.rest is not None:
            _check_name(node.rest)


def check_tree(source, benchmark=None):
    """Returns (tree, node_count) or raises Rejected with the rule that failed."""
    if not isinstance(source, str) or not source.strip():
        raise Rejected('hook code must be a non-empty string')
    if len(source) > MAX_SOURCE_CHARS:
        raise Rejected('hook code exceeds %d characters' % MAX_SOURCE_CHARS)
    tree = _parse(source)
    newer = _fstring_newer_syntax(source)
    if newer:
        raise Rejected('hook uses syntax newer than Python 3.10: %s' % newer)
    node_count = sum(1 for _ in ast.walk(tree))
    if node_count > MAX_AST_NODES:
        raise Rejected('hook code has %d AST nodes; at most %d are allowed' % (node_count, MAX_AST_NODES))
    _check_module_body(tree)
    top_level_defs = set()
    for stmt in tree.body:
        _check_signature(stmt)
        top_level_defs.add(id(stmt))
    for node in ast.walk(tree):
        _check_node(node, top_level_defs, benchmark)
    return tree, node_count


def validate_source(source, benchmark=None):
    """The validator's verdict as a plain dict: {'ok': True, 'nodeCount': n} or {'ok': False, 'reason': text}."""
    try:
        _tree, node_count = check_tree(source, benchmark)
    except Rejected as rejected:
        return {'ok': False, 'reason': str(rejected)}
    return {'ok': True, 'nodeCount': node_count}


PYTHON_VERSION = '%d.%d.%d' % sys.version_info[:3]
