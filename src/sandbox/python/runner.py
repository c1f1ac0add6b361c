# Hook runtime inside Pyodide (protocol.md sections 4.1, 5.2, 5.3): compiles validated hooks into per-episode
# namespaces that hold only the original's 25 builtins plus math, re and SequenceMatcher, runs one hook per call
# with a deep-copied attribute-access ctx and the episode's live nb, counts the hook's lines, and turns the result
# into JSON text for the host.
#
# The interpreter is not the security boundary (the OS process is), but it is hardened so that a hook cannot
# reach this namespace, other episodes, or the host bridge:
# - this namespace is never registered in sys.modules and no object handed to hook code was defined here;
# - an audit hook, armed only while hook code runs, blocks frame access (gi_frame, tb_frame, ...), imports
#   other than lazy codec imports, and every OS-level event (sys.settrace stays allowed; hook code cannot reach `sys`);
# - `re` and `math` are per-episode facades without module attributes (the real `re` exposes `re.enum.sys`)
#   and without `re.RegexFlag`; SequenceMatcher and re.Scanner are per-episode copies of the classes;
# - every other object a hook can change is shared by the worker's episodes: the classes, functions and enum
#   members reachable from the hook namespace (`re.error.x = 1` would reach the next episode). They are found
#   at start-up by walking everything reachable through names hook code may use, their attribute state is
#   recorded, and it is restored after every call of a hook that assigns or deletes an attribute (the only
#   way validated code can change them; a reachable mutable container would force a restore after every
#   call, and there is none);
# - host paths (the worker script's path in `os.environ['_']`, `sys.executable`, `sys.orig_argv`) are removed
#   before any hook runs, since read-only format-string walks reach `sys` and `os` through module globals.
#
# Names injected by the worker before this file runs: check_tree, Rejected, SAFE_BUILTIN_NAMES, PYTHON_VERSION.

import ast
import builtins
import difflib
import functools
import hashlib
import json
import math
import re
import reprlib
import sys
import types
import warnings
import weakref

HOOK_FILENAME = '<hook>'
MAX_RESULT_DEPTH = 100
MAX_RESULT_ITEMS = 200000
JSON_SAFE_INT = 2 ** 53
CACHE_LIMIT = 256

warnings.simplefilter('ignore')

_settings = {'line_budget': 2000, 'max_result_chars': 1000000, 'unvalidated': False}
_guard = {'armed': False}
_compiled = {}  # (benchmark, source) -> (code object, AST node count), or the rejection reason (str)
_episodes = {}  # episode id -> _Episode

_SAFE_BUILTINS = {name: getattr(builtins, name) for name in SAFE_BUILTIN_NAMES}


class LineBudgetExceeded(BaseException):
    """Raised by the tracer; a BaseException so that `except Exception` in a hook cannot swallow it."""


class SandboxViolation(BaseException):
    """Raised by the audit hook when hook code reaches for something outside the sandbox."""


class _BadResult(Exception):
    pass


# ctx objects: a dict subclass with attribute reads. Defined in a namespace of its own so that even a
# format-string read of its methods' globals (`'{0.__getattr__.__globals__}'.format(ctx)`) reveals nothing.
_attrdict_namespace = {
    '__builtins__': {'KeyError': KeyError, 'AttributeError': AttributeError, 'dict': dict,
                     '__build_class__': builtins.__build_class__},
    '__name__': 'sandbox',
}
exec(
    'class AttrDict(dict):\n'
    '    def __getattr__(self, name):\n'
    '        try:\n'
    '            return self[name]\n'
    '        except KeyError:\n'
    '            raise AttributeError(name) from None\n',
    _attrdict_namespace,
)
AttrDict = _attrdict_namespace['AttrDict']
del _attrdict_namespace


# ----------------------------------------------------------------------------------------------- audit hook

_ALLOWED_LAZY_IMPORTS = ('encodings', 'stringprep', 'unicodedata', '_codecs_', '_multibytecodec')
_BLOCKED_EVENTS = frozenset((
    'object.__getattr__', 'object.__setattr__', 'object.__delattr__', 'sys._getframe',
    'sys._getframemodulename', 'sys._current_frames', 'sys._current_exceptions', 'sys.addaudithook', 'sys.excepthook', 'sys.unraisablehook',
    'sys.set_asyncgen_hooks_firstiter', 'sys.set_asyncgen_hooks_finalizer', 'builtins.input',
    'builtins.breakpoint', 'code.__new__', 'function.__new__', 'setopencodehook', 'time.sleep',
))
_BLOCKED_PREFIXES = (
    'os.', 'subprocess.', 'socket.', 'shutil.', 'ctypes.', 'pty.', 'fcntl.', 'mmap.', 'marshal.', 'pickle.',
    'gc.', 'sys.monitoring', 'cpython.', 'resource.', 'signal.', 'syslog.', 'tempfile.', 'glob.', 'sqlite3.',
    'urllib.', 'http.', 'ftplib.', 'smtplib.', 'poplib.', 'imaplib.', 'nntplib.', 'webbrowser.', 'pdb.',
    'winreg.', 'msvcrt.', 'ensurepip.', 'shelve.', 'dbm.', 'pyodide', 'js',
)


def _stdlib_path(value):
    return isinstance(value, str) and value.startswith('/lib/python')


def _audit(event, args):
    if not _guard['armed']:
        return
    if event == 'import':
        name = args[0] if args else ''
        if isinstance(name, str) and name.startswith(_ALLOWED_LAZY_IMPORTS):
            return
        raise SandboxViolation('import of %r is blocked' % (name,))
    if event == 'open':
        if args and _stdlib_path(args[0]):
            return
        raise SandboxViolation('open() is blocked')
    if event == 'compile':
        if len(args) > 1 and _stdlib_path(args[1]):
            return
        raise SandboxViolation('compile() is blocked')
    if event == 'exec':
        code = args[0] if args else None
        if _stdlib_path(getattr(code, 'co_filename', None)):
            return
        raise SandboxViolation('exec() is blocked')
    if event in ('os.listdir', 'os.scandir'):
        if args and _stdlib_path(args[0]):
            return
        raise SandboxViolation('%s is blocked' % event)
    if event == 'object.__getattr__':
        raise SandboxViolation('access to %r is blocked' % (args[1] if len(args) > 1 else '?',))
    if event in _BLOCKED_EVENTS or event.startswith(_BLOCKED_PREFIXES):
        raise SandboxViolation('%s is blocked' % event)


# ------------------------------------------------------------------------------------------- hook namespaces

# Shared Python classes a hook could reach through a facade and whose class attributes drive behaviour:
# `re.RegexFlag.value = 0` would silently disable re.I for every episode of the worker (tested), so it is left
# out; `re.Scanner` is copied per episode like SequenceMatcher.
_FACADE_EXCLUDED = {'re': frozenset(('RegexFlag',))}
_FACADE_COPIED = {'re': frozenset(('Scanner',))}


def _module_facade(module):
    facade = types.ModuleType(module.__name__)
    excluded = _FACADE_EXCLUDED.get(module.__name__, frozenset())
    copied = _FACADE_COPIED.get(module.__name__, frozenset())
    for name in dir(module):
        if name.startswith('_') or name in excluded:
            continue
        value = getattr(module, name)
        if isinstance(value, types.ModuleType):
            continue
        setattr(facade, name, _class_copy(value) if name in copied else value)
    return facade


def _class_copy(cls):
    namespace = {k: v for k, v in cls.__dict__.items() if k not in ('__dict__', '__weakref__')}
    return type(cls.__name__, cls.__bases__, namespace)


def _episode_globals_factory():
    shared = {
        'math': _module_facade(math),
        're': _module_facade(re),
        'SequenceMatcher': _class_copy(difflib.SequenceMatcher),
    }
    escape = _settings['unvalidated']

    def make():
        namespace = dict(shared)
        namespace['__builtins__'] = dict(builtins.__dict__) if escape else dict(_SAFE_BUILTINS)
        return namespace
    return make


def _assigns_attributes(tree):
    """Whether hook code assigns or deletes an attribute anywhere (`x.a = v`, `x.a += v`, `del x.a`)."""
    return any(isinstance(node, ast.Attribute) and isinstance(node.ctx, (ast.Store, ast.Del)) for node in ast.walk(tree))


def _compile(source, benchmark):
    """(code object, AST node count, assigns attributes) for a hook that passes section 5.1, or the rejection
    reason (str)."""
    key = (benchmark, source)
    cached = _compiled.get(key)
    if cached is not None:
        return cached
    try:
        if _settings['unvalidated']:
            result = (compile(source, HOOK_FILENAME, 'exec', dont_inherit=True), 0, True)
        else:
            tree, node_count = check_tree(source, benchmark)
            result = (compile(tree, HOOK_FILENAME, 'exec', dont_inherit=True), node_count, _assigns_attributes(tree))
        namespace = _episode_globals_factory()()
        exec(result[0], namespace)
        if not callable(namespace.get('hook')):
            result = 'hook must be callable'
    except Rejected as rejected:
        result = str(rejected)
    except SyntaxError as error:
        result = 'invalid syntax: %s (line %s)' % (error.msg, error.lineno)
    except (MemoryError, RecursionError, ValueError) as error:
        result = 'invalid syntax: %s' % _describe(error)
    if len(_compiled) >= CACHE_LIMIT:
        _compiled.pop(next(iter(_compiled)))
    _compiled[key] = result
    return result


class _Episode:
    __slots__ = ('nb', 'hooks', 'namespaces', 'restores')

    def __init__(self, hooks, namespaces, restores):
        self.nb = {}
        self.hooks = hooks
        self.namespaces = namespaces
        self.restores = restores  # per hook: whether shared state must be restored after its calls


# ------------------------------------------------------------------------------------------- shared state

# Values whose attributes cannot be set and that hold nothing else reachable.
_INERT_TYPES = (int, float, complex, str, bytes, bool, type(None), types.BuiltinFunctionType,
                types.MethodWrapperType, types.WrapperDescriptorType, types.MethodDescriptorType,
                types.GetSetDescriptorType, types.MemberDescriptorType, type(Ellipsis), type(NotImplemented))
_MUTABLE_CONTAINERS = (list, dict, set, bytearray)
_IMMUTABLE_TYPE_FLAG = 1 << 8  # Py_TPFLAGS_IMMUTABLETYPE: static types such as int or re.Pattern


def _reachable(roots):
    """Every object hook code can reach from `roots` through attribute names it may use (no leading
    underscore) and through container items. Modules are not followed: facades leave them out."""
    seen = {}
    stack = list(roots)
    while stack:
        obj = stack.pop()
        if id(obj) in seen or isinstance(obj, types.ModuleType):
            continue
        seen[id(obj)] = obj
        if isinstance(obj, _INERT_TYPES):
            continue
        if isinstance(obj, (tuple, list, set, frozenset)):
            stack.extend(obj)
        elif isinstance(obj, dict):
            stack.extend(obj.values())
        for name in dir(obj):
            if name.startswith('_'):
                continue
            try:
                stack.append(getattr(obj, name))
            except Exception:
                pass
    return list(seen.values())


def _has_mutable_attributes(obj):
    if isinstance(obj, type):
        return not obj.__flags__ & _IMMUTABLE_TYPE_FLAG
    return isinstance(getattr(obj, '__dict__', None), dict)


class _SharedState:
    """The attribute state (and container contents) of every shared object hook code can change, recorded
    once; `restore` puts back whatever a hook call changed."""

    def __init__(self, objects):
        self.types = []
        self.dicts = []
        self.containers = []
        for obj in objects:
            if isinstance(obj, _MUTABLE_CONTAINERS):
                self.containers.append((obj, obj.copy()))
            elif isinstance(obj, type):
                if not obj.__flags__ & _IMMUTABLE_TYPE_FLAG:
                    self.types.append((obj, dict(obj.__dict__)))
            elif isinstance(getattr(obj, '__dict__', None), dict):
                self.dicts.append((obj.__dict__, dict(obj.__dict__)))

    @property
    def size(self):
        return len(self.types) + len(self.dicts) + len(self.containers)

    def restore(self):
        changed = 0
        for cls, saved in self.types:
            current = cls.__dict__
            if len(current) == len(saved) and all(current.get(k, saved) is v for k, v in saved.items()):
                continue
            changed += 1
            for name in [k for k in current if k not in saved]:
                type.__delattr__(cls, name)
            for name, value in saved.items():
                if current.get(name, saved) is not value:
                    type.__setattr__(cls, name, value)
        for current, saved in self.dicts:
            if len(current) == len(saved) and all(current.get(k, saved) is v for k, v in saved.items()):
                continue
            changed += 1
            current.clear()
            current.update(saved)
        for container, saved in self.containers:
            if container == saved:
                continue
            changed += 1
            container.clear()
            if isinstance(container, dict):
                container.update(saved)
            elif isinstance(container, set):
                container.update(saved)
            else:
                container.extend(saved)
        return changed


_shared = None  # _SharedState, recorded by configure()


def _hook_roots():
    """The values of a hook namespace, as a fresh episode gets them."""
    namespace = _episode_globals_factory()()
    return list(namespace['__builtins__'].values()) + [
        v for k, v in namespace.items() if k != '__builtins__'] + [
        getattr(namespace[m], n) for m in ('math', 're') for n in dir(namespace[m]) if not n.startswith('_')]


def _record_shared_state():
    global _shared
    _shared = _SharedState([o for o in _reachable(_hook_roots()) if isinstance(o, _MUTABLE_CONTAINERS)
                            or _has_mutable_attributes(o)])


def _fingerprint_value(value):
    return '%s:%x' % (type(value).__name__, id(value))


def shared_state_fingerprint():
    """Diagnostics for tests: the attribute state of every module in sys.modules and of every class and
    function in their namespaces (names and value identities), as one text. Equal before and after an
    episode means the episode left nothing behind in shared objects."""
    lines = []
    for module_name in sorted(k for k in list(sys.modules) if isinstance(k, str)):
        module = sys.modules.get(module_name)
        namespace = getattr(module, '__dict__', None)
        if not isinstance(namespace, dict):
            continue
        for name in sorted(k for k in list(namespace) if isinstance(k, str)):
            value = namespace[name]
            lines.append('%s.%s=%s' % (module_name, name, _fingerprint_value(value)))
            if isinstance(value, types.ModuleType):
                continue
            try:
                inner = getattr(value, '__dict__', None)
                items = sorted(((k, v) for k, v in inner.items() if isinstance(k, str)), key=lambda kv: kv[0]) if isinstance(inner, (dict, types.MappingProxyType)) else []
            except Exception:
                continue
            for key, item in items:
                lines.append('%s.%s.%s=%s' % (module_name, name, key, _fingerprint_value(item)))
    digest = hashlib.sha256('\n'.join(lines).encode('utf-8', 'surrogatepass')).hexdigest()
    return json.dumps({'fingerprint': '%s (%d entries)' % (digest, len(lines)), 'shared': _shared.size if _shared else 0})


# ------------------------------------------------------------------------------------------------- running

# The line budget uses sys.monitoring events on the hooks' own code objects only: nothing else in the interpreter is
# instrumented, and arming the budget per call is two assignments (a global sys.settrace per call costs far more:
# switching tracing on and off re-instruments code). It counts what sys.settrace's 'line' events count in hook
# frames: every LINE event, plus a backward jump that stays on its line (a one-line loop; a jump to another
# line is followed by that line's LINE event).
_MONITOR = sys.monitoring
_TOOL = 4  # an unnamed tool id; nothing else in the worker uses sys.monitoring
# Lines left in the running call's budget. Disarmed (no call running) it is so large that it never runs out, so the
# LINE callback, called for every line of hook code, is one decrement and one comparison on a local.
_UNARMED = 1 << 62
_budget_left = [_UNARMED]
# id(hook code object) -> (weak reference to it, {bytecode offset: line}), filled when an episode opens and
# dropped when the code object dies. Keyed by identity: equal code objects (the same helper in two patches) are
# distinct objects with events of their own.
_line_maps = {}


def _on_line(code, line, left=_budget_left):
    left[0] -= 1
    if left[0] < 0:
        raise LineBudgetExceeded()


def _on_jump(code, source, target, left=_budget_left):
    # Only a backward jump that stays on its line is counted (a jump to another line is followed by that line's
    # LINE event). Whether a jump counts depends only on where it is, so every other jump location is switched
    # off for good after its first event (DISABLE is per code location and tool): it costs nothing afterwards.
    if target >= source:
        return _MONITOR.DISABLE
    entry = _line_maps.get(id(code))
    if entry is None or entry[0]() is not code:
        return None
    lines = entry[1]
    if lines.get(source) != lines.get(target):
        return _MONITOR.DISABLE
    left[0] -= 1
    if left[0] < 0:
        raise LineBudgetExceeded()
    return None


_MONITOR.use_tool_id(_TOOL, 'hook line budget')
_MONITOR.register_callback(_TOOL, _MONITOR.events.LINE, _on_line)
_MONITOR.register_callback(_TOOL, _MONITOR.events.JUMP, _on_jump)


def _forget_code(key, ref):
    entry = _line_maps.get(key)
    if entry is not None and entry[0] is ref:
        del _line_maps[key]


def _instrument(namespace):
    """Turns on line and jump events for every code object of the hook's functions (and what they contain)."""
    pending = [v.__code__ for v in namespace.values() if isinstance(v, types.FunctionType)]
    while pending:
        code = pending.pop()
        entry = _line_maps.get(id(code))
        if entry is not None and entry[0]() is code:
            continue
        lines = {}
        for start, end, line in code.co_lines():
            for offset in range(start, end, 2):
                lines[offset] = line
        _line_maps[id(code)] = (weakref.ref(code, functools.partial(_forget_code, id(code))), lines)
        _MONITOR.set_local_events(_TOOL, code, _MONITOR.events.LINE | _MONITOR.events.JUMP)
        pending.extend(c for c in code.co_consts if isinstance(c, types.CodeType))


def _describe(error):
    name = type(error).__name__
    args = getattr(error, 'args', ())
    if len(args) == 1 and isinstance(args[0], str) and not isinstance(error, KeyError):
        text = args[0][:300]
    elif args:
        text = ', '.join(reprlib.repr(a) for a in args[:3])
    else:
        text = ''
    return '%s: %s' % (name, text) if text else name


def _fault(kind, message):
    return json.dumps({'fault': {'kind': kind, 'message': message}})


_ADDRESS_RE = re.compile(r' at 0x[0-9a-fA-F]+')


def _marker(value):
    try:
        text = reprlib.repr(value)
    except BaseException:
        text = '<unrepresentable>'
    return {'$pyType': type(value).__name__, 'pyRepr': _ADDRESS_RE.sub('', text)}


def _json_key(key):
    if isinstance(key, str):
        return str(key)
    if key is None or isinstance(key, (bool, int, float)):
        return json.dumps(key)  # what json.dumps itself does with such keys (True -> "true", 1 -> "1")
    return '$pyKey:' + _ADDRESS_RE.sub('', reprlib.repr(key))


def _jsonable(root):
    """An iterative copy of the result in JSON types, with non-JSON values replaced by clear markers."""
    holder = [None]
    stack = [(root, holder, 0, 0)]
    items = 0
    while stack:
        value, parent, slot, depth = stack.pop()
        items += 1
        if items > MAX_RESULT_ITEMS:
            raise _BadResult('result has more than %d values' % MAX_RESULT_ITEMS)
        if depth > MAX_RESULT_DEPTH:
            raise _BadResult('result is nested more than %d levels deep (or is cyclic)' % MAX_RESULT_DEPTH)
        if value is None or value is True or value is False:
            out = value
        elif isinstance(value, str):
            out = str(value)
        elif isinstance(value, bool):
            out = bool(value)
        elif isinstance(value, int):
            out = int(value) if -JSON_SAFE_INT <= value <= JSON_SAFE_INT else _big_int_marker(value)
        elif isinstance(value, float):
            out = float(value) if math.isfinite(value) else {'$pyType': 'float', 'pyRepr': repr(float(value))}
        elif isinstance(value, dict):
            out = {}
            for key, item in list(value.items()):
                stack.append((item, out, _json_key(key), depth + 1))
        elif isinstance(value, (list, tuple)):
            out = [None] * len(value)
            for index, item in enumerate(value):
                stack.append((item, out, index, depth + 1))
        else:
            out = _marker(value)
        parent[slot] = out
    return holder[0]


def _big_int_marker(value):
    try:
        text = str(value)
    except ValueError:
        text = 'int with %d bits' % value.bit_length()
    return {'$pyType': 'int', 'pyRepr': text[:200]}


# One decoder and one encoder for every call: `json.loads`/`json.dumps` with options build a new one (and its
# scanner) per call, which costs more than parsing a 1.7 KB ctx.
_CTX_DECODER = json.JSONDecoder(object_hook=AttrDict)
_RESULT_ENCODER = json.JSONEncoder(ensure_ascii=False, allow_nan=False, separators=(',', ':'))


def _serialize(result):
    try:
        text = _RESULT_ENCODER.encode({'raw': _jsonable(result)})
    except _BadResult as bad:
        return _fault('bad_result', str(bad))
    except MemoryError:
        return _fault('memory', 'MemoryError while converting the result')
    except Exception as error:
        return _fault('bad_result', 'result cannot be converted to JSON: %s' % _describe(error))
    if len(text) > _settings['max_result_chars']:
        return _fault('bad_result', 'result is %d characters of JSON; at most %d are delivered'
                      % (len(text), _settings['max_result_chars']))
    return text


def _run(function, ctx_json, nb):
    try:
        ctx = _CTX_DECODER.decode(ctx_json)
    except Exception as error:
        return _fault('exception', 'ctx is not valid JSON: %s' % _describe(error))
    _budget_left[0] = _settings['line_budget']
    _guard['armed'] = not _settings['unvalidated']
    try:
        result = function(ctx, nb)
    finally:
        _guard['armed'] = False
        _budget_left[0] = _UNARMED
    return _serialize(result)


# ------------------------------------------------------------------------------------------- API for the host

def _scrub_host_paths(host_paths):
    """Removes every environment variable and interpreter setting that names a host path."""
    import os
    import posix

    def names_host(value):
        if isinstance(value, bytes):
            value = value.decode('utf-8', 'replace')
        return isinstance(value, str) and any(p in value for p in host_paths)

    for key in [k for k, v in os.environ.items() if names_host(v)]:
        del os.environ[key]
    for key in [k for k, v in posix.environ.items() if names_host(v)]:
        del posix.environ[key]
    for name in ('executable', '_base_executable'):
        if names_host(getattr(sys, name, None)):
            setattr(sys, name, '')
    sys.argv[:] = [a for a in sys.argv if not names_host(a)] or ['']
    if hasattr(sys, 'orig_argv'):
        sys.orig_argv = [a for a in sys.orig_argv if not names_host(a)]


def configure(settings_json):
    _settings.update(json.loads(settings_json))
    _scrub_host_paths([p for p in _settings.pop('host_paths', ()) if p])
    _record_shared_state()
    if not _settings['unvalidated']:
        sys.addaudithook(_audit)
    return json.dumps({'pythonVersion': PYTHON_VERSION, 'hardened': not _settings['unvalidated'],
                       'sharedObjects': _shared.size})


def validate(source, benchmark):
    """compile_hook(source, benchmark): the validator, then compile and the callable check (section 5.1)."""
    compiled = _compile(source, benchmark or None)
    if isinstance(compiled, str):
        return json.dumps({'ok': False, 'reason': compiled})
    return json.dumps({'ok': True, 'nodeCount': compiled[1]})


def open_episode(episode_id, sources_json, benchmark):
    """Installs the episode's hooks (already validated by the host; validated again here) and a fresh nb."""
    benchmark = benchmark or None
    sources = json.loads(sources_json)
    make_globals = _episode_globals_factory()
    hooks = []
    namespaces = []
    restores = []
    for source in sources:
        compiled = _compile(source, benchmark)
        restores.append(not isinstance(compiled, str) and (compiled[2] or bool(_shared.containers)))
        if isinstance(compiled, str):
            hooks.append(compiled)
            continue
        namespace = make_globals()
        exec(compiled[0], namespace)
        _instrument(namespace)
        hooks.append(namespace['hook'])
        namespaces.append(namespace)
    close_episode(episode_id)
    _episodes[episode_id] = _Episode(hooks, namespaces, restores)
    rejected = [i for i, h in enumerate(hooks) if isinstance(h, str)]
    return json.dumps({'ok': True, 'rejected': rejected})


def call_hook(episode_id, index, ctx_json):
    episode = _episodes.get(episode_id)
    if episode is None:
        return _fault('worker_crash', 'episode %s is not open in this worker' % episode_id)
    if not 0 <= index < len(episode.hooks):
        return _fault('exception', 'no hook at index %d' % index)
    function = episode.hooks[index]
    if isinstance(function, str):
        return _fault('compile', function)
    try:
        return _run(function, ctx_json, episode.nb)
    except LineBudgetExceeded:
        return _fault('line_budget', 'hook exceeded the %d-line budget' % _settings['line_budget'])
    except KeyboardInterrupt:
        return _fault('timeout', 'hook exceeded its wall-clock limit (interrupted)')
    except MemoryError:
        return _fault('memory', 'MemoryError: the hook ran out of sandbox memory')
    except SandboxViolation as violation:
        return _fault('exception', 'SandboxViolation: %s' % violation)
    except BaseException as error:
        return _fault('exception', _describe(error))
    finally:
        if episode.restores[index]:
            _restore_shared_state()


def _restore_shared_state():
    # A late wall-clock interrupt may land here; the restore is then simply run again.
    for _attempt in range(3):
        try:
            _shared.restore()
            return
        except KeyboardInterrupt:
            continue


def close_episode(episode_id):
    episode = _episodes.pop(episode_id, None)
    return len(_episodes)
