// A stand-in for worker-main.js in tests of how an episode handles a misbehaving worker: it speaks the same
// protocol (IPC start-up, length-prefixed request frames on stdin, reply frames on stdout) without Pyodide.
// It reports every request it receives as a `log` message, so a test can read what was sent from the
// worker's output tail. FAULT_WORKER_MODE says how it answers `open` and `close`:
//   ok (default) | open-refuse | open-refuse-bare | open-not-json | open-exit | open-hang | close-hang
// A call's ctx says how it answers the call: {"reply": text} replies with that text, {"hang": true} never
// replies, {"oom": true} reports a fatal out-of-memory error (then a `log` line "oom reported") and waits to
// be killed; anything else replies {"raw": ctx}.
import { Buffer } from 'node:buffer';
import process from 'node:process';

const mode = process.env.FAULT_WORKER_MODE ?? 'ok';
const send = (message) => process.send?.(message);

function reply(id, text) {
  const payload = Buffer.from(text, 'utf8');
  const frame = Buffer.alloc(12 + payload.length);
  frame.writeUInt32LE(payload.length + 8, 0);
  frame.writeUInt32LE(id >>> 0, 4);
  frame.writeUInt32LE(0, 8);
  payload.copy(frame, 12);
  process.stdout.write(frame);
}

function handle(message) {
  send({ type: 'log', message: `request ${JSON.stringify(message)}` });
  switch (message.type) {
    case 'open':
      if (mode === 'open-refuse') return reply(message.id, JSON.stringify({ ok: false, error: 'hook 2 did not compile' }));
      if (mode === 'open-refuse-bare') return reply(message.id, JSON.stringify({ ok: false }));
      if (mode === 'open-not-json') return reply(message.id, 'not json');
      if (mode === 'open-exit') return process.exit(3);
      if (mode === 'open-hang') return undefined;
      return reply(message.id, JSON.stringify({ ok: true }));
    case 'call': {
      const ctx = JSON.parse(message.ctx);
      if (typeof ctx.reply === 'string') return reply(message.id, ctx.reply);
      if (ctx.hang === true) return undefined;
      if (ctx.oom === true) {
        send({ type: 'fatal', message: 'worker memory (RSS 2048 MiB) exceeded its limit' });
        send({ type: 'log', message: 'oom reported' });
        return undefined;
      }
      return reply(message.id, JSON.stringify({ raw: ctx }));
    }
    case 'close':
      if (mode === 'close-hang') return undefined;
      return reply(message.id, 'true');
    default:
      return reply(message.id, JSON.stringify({ error: `unknown message type ${String(message.type)}` }));
  }
}

let buffer = Buffer.alloc(0);
process.stdin.on('data', (chunk) => {
  buffer = Buffer.concat([buffer, chunk]);
  while (buffer.length >= 4 && buffer.length >= 4 + buffer.readUInt32LE(0)) {
    const length = buffer.readUInt32LE(0);
    const message = JSON.parse(buffer.toString('utf8', 4, 4 + length));
    buffer = buffer.subarray(4 + length);
    handle(message);
  }
});

process.on('message', (message) => {
  if (message?.type !== 'init') return;
  send({ type: 'ready', pythonVersion: 'fake', hardened: false, sharedObjects: 0, loadMs: 0, fromSnapshot: false, heapBytes: 0, networkInterfaces: [] });
});
process.on('disconnect', () => process.exit(0));
send({ type: 'spawned' });
