"""In-process reference for the sandbox bench: calls hooks the way the original runner does, in plain CPython.

Per call, as protocol.md section 5.2 describes: ctx deep-copied and wrapped for attribute access, a SIGALRM
interval timer armed on the main thread, a sys.settrace line budget counting every traced frame's lines, the
compiled function called in-process, the trace and timer restored, and the result normalised to a dict or None.

Reads one JSON document on stdin: {"calls": N, "warmup": W, "line_budget": 2000, "time_budget_s": 0.05,
"cases": [{"label": ..., "hook": ..., "code": ..., "ctx": {...}}]}. Prints one JSON line per case with the
sorted per-call times in milliseconds summarised as p50 / p99 / mean / max.
"""
import copy
import json
import math
import re
import signal
import sys
import threading
import time
from difflib import SequenceMatcher

SAFE = ('abs all any bool dict enumerate Exception filter float int isinstance len list map max min range '
        'reversed round set sorted str sum tuple zip').split()


class Attr(dict):
    def __getattr__(self, name):
        try:
            return self[name]
        except KeyError:
            raise AttributeError(name) from None


def wrap(value):
    if isinstance(value, dict):
        return Attr((k, wrap(v)) for k, v in value.items())
    if isinstance(value, list):
        return [wrap(v) for v in value]
    if isinstance(value, tuple):
        return tuple(wrap(v) for v in value)
    return value


class OverBudget(BaseException):
    pass


def build(code):
    import builtins
    namespace = {'__builtins__': {n: getattr(builtins, n) for n in SAFE},
                 'math': math, 're': re, 'SequenceMatcher': SequenceMatcher}
    exec(compile(code, '<hook>', 'exec'), namespace)
    return namespace['hook']


def call(fn, ctx, nb, line_budget, time_budget_s):
    local = wrap(copy.deepcopy(ctx)) if isinstance(ctx, dict) else Attr()
    on_main = threading.current_thread() is threading.main_thread()
    lines = 0

    def on_alarm(signum, frame):
        raise OverBudget()

    def tracer(frame, event, arg):
        nonlocal lines
        if event == 'line':
            lines += 1
            if lines > line_budget:
                raise OverBudget()
        return tracer

    previous = None
    try:
        if on_main:
            previous = signal.getsignal(signal.SIGALRM)
            signal.signal(signal.SIGALRM, on_alarm)
            signal.setitimer(signal.ITIMER_REAL, max(0.001, time_budget_s))
        before = sys.gettrace()
        sys.settrace(tracer)
        try:
            result = fn(local, nb)
        finally:
            sys.settrace(before)
        return result if isinstance(result, dict) else None
    except (OverBudget, Exception):
        return None
    finally:
        if on_main:
            signal.setitimer(signal.ITIMER_REAL, 0.0)
            if previous is not None:
                signal.signal(signal.SIGALRM, previous)


def quantile(values, q):
    return values[min(len(values) - 1, int(q * len(values)))]


def main():
    spec = json.load(sys.stdin)
    for case in spec['cases']:
        fn = build(case['code'])
        ctx = case['ctx']
        nb = {}
        for _ in range(spec.get('warmup', 200)):
            call(fn, ctx, nb, spec.get('line_budget', 2000), spec.get('time_budget_s', 0.05))
        times = []
        for _ in range(spec['calls']):
            started = time.perf_counter()
            call(fn, ctx, nb, spec.get('line_budget', 2000), spec.get('time_budget_s', 0.05))
            times.append((time.perf_counter() - started) * 1000)
        times.sort()
        print(json.dumps({'label': case['label'], 'p50': quantile(times, 0.5), 'p99': quantile(times, 0.99),
                          'mean': sum(times) / len(times), 'max': times[-1], 'n': len(times)}))


if __name__ == '__main__':
    main()
