// Entry point of one sandbox worker process (plain JavaScript: it runs under Node's permission model, which
// only lets it read this file and Pyodide's directory, so no TypeScript loader can run here).
//
// Main thread = supervisor: relays messages between the parent (IPC) and the interpreter thread, and owns the
// per-call wall clock: at the deadline it raises KeyboardInterrupt inside Python through Pyodide's interrupt
// buffer (a SharedArrayBuffer shared with the interpreter thread; this does not work across processes, which is
// why the supervisor lives in the same process). The parent still SIGKILLs the whole process if the
// interpreter does not stop (C code that never checks for interrupts, e.g. `sum(range(10**13))`, or a blocked
// thread).
//
// Interpreter thread = Pyodide with a large native stack (deep recursion becomes RecursionError instead of a
// fatal stack overflow), a hard cap on WebAssembly memory (allocation beyond it is a Python MemoryError), no
// `process.binding` beyond what Pyodide needs, and JS-level network entry points disabled (defence in depth
// under the network namespace, and the only network barrier where `unshare -n` is unavailable).
/* global process, URL, setTimeout, clearTimeout, setInterval, performance, WebAssembly */
import dgram from 'node:dgram';
import dns from 'node:dns';
import fs from 'node:fs';
import http from 'node:http';
import http2 from 'node:http2';
import https from 'node:https';
import { syncBuiltinESMExports } from 'node:module';
import net from 'node:net';
import os from 'node:os';
import tls from 'node:tls';
import { fileURLToPath, pathToFileURL } from 'node:url';
import workerThreads, { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';

const INTERRUPT = 0; // Pyodide reads this slot: 2 = SIGINT
const ACTIVE_CALL = 1; // sequence number of the call the interpreter is running, 0 when idle
const THREAD_MESSAGES = new Set(['ready', 'snapshot', 'reply', 'fatal', 'log']);
// Imported before a memory snapshot is taken, so workers started from it do not import them again.
const PRELOAD = 'import ast, difflib, io, json, math, re, reprlib, tokenize, types, warnings, encodings.idna';

if (isMainThread) {
  runSupervisor();
} else {
  await runInterpreter(workerData);
}

function runSupervisor() {
  let thread;
  let current; // { id, seq, timer }
  let seq = 0;
  const shared = new Int32Array(new SharedArrayBuffer(8));

  const die = (message, code) => {
    send({ type: 'fatal', message });
    setTimeout(() => process.exit(code), 20).unref();
  };

  process.on('disconnect', () => process.exit(0));
  process.on('message', (message) => {
    if (message === null || typeof message !== 'object') return;
    if (message.type === 'init') {
      // IPC may hand the snapshot over at an unaligned offset; Pyodide needs an aligned buffer of its own.
      const snapshot = message.init.snapshot ? new Uint8Array(message.init.snapshot) : undefined;
      const init = { ...message.init, snapshot, shared: shared.buffer };
      thread = new Worker(new URL(import.meta.url), {
        workerData: init,
        transferList: snapshot ? [snapshot.buffer] : [],
        resourceLimits: {
          stackSizeMb: message.init.stackSizeMb,
          maxOldGenerationSizeMb: message.init.jsHeapMb,
        },
        env: {},
        stdout: false,
        stderr: false,
      });
      thread.on('message', (reply) => {
        if (reply === null || typeof reply !== 'object' || !THREAD_MESSAGES.has(reply.type)) return;
        if (reply.type === 'reply') {
          if (current !== undefined && reply.id === current.id) {
            clearTimeout(current.timer);
            clearTimeout(current.killTimer);
            current = undefined;
          }
          if (typeof reply.result !== 'string' || reply.result.length > init.maxReplyChars) {
            const message = 'the interpreter produced an oversized or malformed reply';
            reply = { type: 'reply', id: reply.id, heapBytes: reply.heapBytes, result: JSON.stringify({ fault: { kind: 'bad_result', message } }) };
          }
        }
        send(reply);
      });
      thread.on('error', (error) => die(`interpreter thread failed: ${error?.message ?? error}`, 70));
      thread.on('exit', (code) => die(`interpreter thread exited with code ${code}`, 70));
      // WebAssembly memory is capped inside the thread; this also bounds memory the thread could take any other
      // way (e.g. ArrayBuffers, which the JS heap limit does not count).
      setInterval(() => {
        const rss = process.memoryUsage.rss();
        if (rss > init.rssLimitBytes) die(`worker memory (RSS ${Math.round(rss / 1048576)} MiB) exceeded its limit`, 71);
      }, 100);
      return;
    }
    if (thread === undefined) return;
    if (message.type === 'call') {
      seq = seq === 0x7fffffff ? 1 : seq + 1;
      const callSeq = seq;
      // The limit is wall-clock time of the hook, but a hook starved of CPU by a loaded machine is not a slow
      // hook: at the deadline, if this process has not yet spent the budget in CPU time, the deadline moves
      // on (up to STARVATION_FACTOR x the budget of wall time). A hook that really computes is interrupted
      // at the budget, as the original's SIGALRM would.
      const budget = message.timeoutMs;
      const cpuAtStart = process.cpuUsage();
      const wallAtStart = performance.now();
      const entry = { id: message.id, timer: undefined, killTimer: undefined };
      const check = () => {
        if (current !== entry) return;
        const used = process.cpuUsage(cpuAtStart);
        const cpuMs = (used.user + used.system) / 1000;
        const wallMs = performance.now() - wallAtStart;
        if (cpuMs < budget && wallMs < budget * STARVATION_FACTOR) {
          entry.timer = setTimeout(check, Math.max(1, budget - cpuMs));
          return;
        }
        if (Atomics.load(shared, ACTIVE_CALL) === callSeq) Atomics.store(shared, INTERRUPT, 2);
        // C code that never checks for interrupts keeps running: end the process after the grace period.
        entry.killTimer = setTimeout(() => {
          if (current === entry) die('hook exceeded its wall-clock limit and ignored the interrupt', 72);
        }, message.killGraceMs ?? 100);
      };
      entry.timer = setTimeout(check, budget);
      current = entry;
      thread.postMessage({ ...message, seq: callSeq });
      return;
    }
    thread.postMessage(message);
  });
  send({ type: 'spawned' });
}

/** How many times its budget in wall time a CPU-starved hook may take before it is interrupted anyway. */
const STARVATION_FACTOR = 20;

function send(message) {
  if (process.connected) process.send(message, undefined, {}, () => {});
}

async function runInterpreter(init) {
  const shared = new Int32Array(init.shared);
  const post = (message, transfer) => parentPort.postMessage(message, transfer);
  const fatal = (error) => {
    post({ type: 'fatal', message: `interpreter fatal error: ${String(error?.message ?? error).split('\n')[0]}` });
    setTimeout(() => process.exit(70), 20);
  };

  lockProcessBinding();
  lockProcessSignals();
  lockWorkers();
  lockNetwork();
  capWasmMemory(init.memoryLimitBytes);
  // Emscripten names the program after process.argv[1] (this file's host path): it becomes `os.environ['_']`
  // and `sys.executable`, which format-string walks can read. The runner also scrubs what is left.
  const hostPaths = [init.pyodideDir, fileURLToPath(new URL('.', import.meta.url)), process.execPath, ...process.argv];
  process.argv = ['node', 'python'];

  const started = performance.now();
  let py;
  let snapshot;
  let fromSnapshot = false;
  try {
    const { loadPyodide } = await import(pathToFileURL(`${init.pyodideDir}/pyodide.mjs`).href);
    const config = {
      indexURL: `${init.pyodideDir}/`,
      env: { PYTHONHASHSEED: '0', HOME: '/home/pyodide' },
      jsglobals: {},
      stdout: () => {},
      stderr: () => {},
      checkAPIVersion: true,
    };
    if (init.snapshot) {
      try {
        py = await loadPyodide({ ...config, _loadSnapshot: init.snapshot });
        fromSnapshot = true;
      } catch (error) {
        post({ type: 'log', message: `snapshot load failed, starting cold: ${error?.message ?? error}` });
        py = undefined;
      }
    }
    if (py === undefined) {
      py = await loadPyodide({ ...config, _makeSnapshot: init.makeSnapshot === true });
      py.runPython(PRELOAD);
      if (init.makeSnapshot === true) {
        try {
          snapshot = py.makeMemorySnapshot();
        } catch (error) {
          post({ type: 'log', message: `memory snapshot unavailable: ${error?.message ?? error}` });
        }
      }
    }
    py.setInterruptBuffer(shared);
  } catch (error) {
    fatal(error);
    return;
  }

  let api;
  let info;
  try {
    const dict = py.globals.get('dict');
    const validatorNs = dict();
    py.runPython(init.validatorSource, { globals: validatorNs, filename: 'validator.py' });
    const runnerNs = dict();
    for (const name of ['check_tree', 'Rejected', 'SAFE_BUILTIN_NAMES', 'PYTHON_VERSION']) {
      runnerNs.set(name, validatorNs.get(name));
    }
    py.runPython(init.runnerSource, { globals: runnerNs, filename: 'runner.py' });
    api = {
      configure: runnerNs.get('configure'),
      validate: runnerNs.get('validate'),
      open: runnerNs.get('open_episode'),
      call: runnerNs.get('call_hook'),
      close: runnerNs.get('close_episode'),
      inspect: runnerNs.get('shared_state_fingerprint'),
    };
    info = JSON.parse(api.configure(JSON.stringify({ ...init.settings, host_paths: hostPaths.map((p) => String(p).replace(/\/+$/, '')) })));
    validatorNs.destroy();
    runnerNs.destroy();
    dict.destroy();
  } catch (error) {
    fatal(error);
    return;
  }

  const heapBytes = () => py._module.HEAP8.length;
  const ready = {
    type: 'ready',
    pythonVersion: info.pythonVersion,
    hardened: info.hardened,
    sharedObjects: info.sharedObjects,
    loadMs: performance.now() - started,
    fromSnapshot,
    heapBytes: heapBytes(),
    networkInterfaces: Object.keys(os.networkInterfaces()),
  };
  if (snapshot !== undefined) {
    post({ type: 'snapshot', bytes: snapshot }, [snapshot.buffer]);
  }
  post(ready);

  parentPort.on('message', (message) => {
    let result;
    // A late interrupt aimed at the previous call must not hit this request.
    Atomics.store(shared, INTERRUPT, 0);
    try {
      switch (message.type) {
        case 'validate':
          result = api.validate(message.source, message.benchmark ?? '');
          break;
        case 'open':
          result = api.open(message.episodeId, JSON.stringify(message.sources), message.benchmark ?? '');
          break;
        case 'call':
          Atomics.store(shared, ACTIVE_CALL, message.seq);
          try {
            result = api.call(message.episodeId, message.hookIndex, message.ctx);
          } finally {
            Atomics.store(shared, ACTIVE_CALL, 0);
          }
          break;
        case 'close':
          result = String(api.close(message.episodeId));
          break;
        case 'inspect':
          result = api.inspect();
          break;
        default:
          result = JSON.stringify({ error: `unknown message type ${String(message.type)}` });
      }
    } catch (error) {
      if (error?.pyodide_fatal_error || /fatal/i.test(String(error?.message))) {
        fatal(error);
        return;
      }
      const text = String(error?.message ?? error);
      // An interrupt that lands outside the runner's own handlers is still the wall clock.
      result = /KeyboardInterrupt/.test(text)
        ? JSON.stringify({ fault: { kind: 'timeout', message: 'hook exceeded its wall-clock limit (interrupted)' } })
        : JSON.stringify({ error: text.slice(-500) });
    }
    post({ type: 'reply', id: message.id, result, heapBytes: heapBytes() });
  });
}

function lockProcessBinding() {
  const constants = { fs: fs.constants, os: os.constants };
  const binding = (name) => {
    if (name === 'constants') return constants;
    throw Object.assign(new Error(`process.binding('${name}') is not available in the hook sandbox`), {
      code: 'ERR_ACCESS_DENIED',
    });
  };
  Object.defineProperty(process, 'binding', { value: binding, writable: false, configurable: false });
}

// The permission model does not cover signals: without a PID namespace a worker could signal host processes.
function lockProcessSignals() {
  const denied = function kill() {
    throw Object.assign(new Error('signals are disabled in the hook sandbox'), { code: 'ERR_ACCESS_DENIED' });
  };
  for (const name of ['kill', '_kill']) {
    if (name in process) Object.defineProperty(process, name, { value: denied, writable: false, configurable: false });
  }
}

// Node 20 lets a worker created with `execArgv: []` run WITHOUT the permission model (tested): the interpreter
// thread must never create workers, so the constructor is replaced before any hook code can run.
function lockWorkers() {
  const denied = function Worker() {
    throw Object.assign(new Error('worker threads are disabled in the hook sandbox'), { code: 'ERR_ACCESS_DENIED' });
  };
  Object.defineProperty(workerThreads, 'Worker', { value: denied, writable: false, configurable: false });
  syncBuiltinESMExports();
}

function lockNetwork() {
  const deny = (what) =>
    function denied() {
      throw Object.assign(new Error(`network access is disabled in the hook sandbox (${what})`), {
        code: 'ERR_ACCESS_DENIED',
      });
    };
  const seal = (target, name, what) => {
    if (target === undefined || target === null) return;
    try {
      Object.defineProperty(target, name, { value: deny(what), writable: false, configurable: false });
    } catch {
      // a property that cannot be redefined stays as it is; the network namespace still applies
    }
  };
  seal(net.Socket.prototype, 'connect', 'net.Socket.connect');
  seal(net.Server.prototype, 'listen', 'net.Server.listen');
  seal(net, 'connect', 'net.connect');
  seal(net, 'createConnection', 'net.createConnection');
  for (const name of ['bind', 'connect', 'send']) seal(dgram.Socket.prototype, name, `dgram.Socket.${name}`);
  const lookups = ['lookup', 'lookupService', 'resolve', 'resolve4', 'resolve6', 'resolveAny', 'reverse'];
  for (const name of lookups) seal(dns, name, `dns.${name}`);
  for (const name of lookups) seal(dns.promises, name, `dns.promises.${name}`);
  for (const [id, mod] of [['http', http], ['https', https]]) {
    seal(mod, 'request', `${id}.request`);
    seal(mod, 'get', `${id}.get`);
  }
  seal(tls, 'connect', 'tls.connect');
  seal(http2, 'connect', 'http2.connect');
  for (const name of ['fetch', 'WebSocket', 'EventSource']) seal(globalThis, name, name);
  syncBuiltinESMExports();
}

function capWasmMemory(limitBytes) {
  const grow = WebAssembly.Memory.prototype.grow;
  const capped = function (deltaPages) {
    if (this.buffer.byteLength + deltaPages * 65536 > limitBytes) {
      throw new RangeError('hook sandbox memory limit reached');
    }
    return grow.call(this, deltaPages);
  };
  Object.defineProperty(WebAssembly.Memory.prototype, 'grow', { value: capped, writable: false, configurable: false });
}
