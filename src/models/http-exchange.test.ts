import http from 'node:http';
import type net from 'node:net';
import { gzipSync } from 'node:zlib';

import { afterEach, describe, expect, it } from 'vitest';

import { CappedBody, HttpExchange } from './http-exchange.js';
import { okBodyJson } from './response-body.js';

let server: http.Server | undefined;
let exchange: HttpExchange | undefined;

afterEach(async () => {
  exchange?.close();
  exchange = undefined;
  server?.closeAllConnections();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  server = undefined;
});

/** A server answering `/big` with 100 bytes and anything else with a small JSON body; it counts connections. */
async function startServer(): Promise<{ url: string; connections: () => number }> {
  let connections = 0;
  server = http.createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(request.url === '/big' ? 'x'.repeat(100) : '{"ok":true}');
    });
  });
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`, connections: () => connections };
}

const CAPS = { okBodyBytes: 50, errorBodyBytes: 20 };

describe('HttpExchange', () => {
  it('reads each of two concurrent answers under its own cap: the long one stops, the short one is whole', async () => {
    const { url } = await startServer();
    exchange = new HttpExchange();
    const signal = new AbortController().signal;
    const [big, small] = await Promise.all([
      exchange.send(new URL(`${url}/big`), { method: 'POST', headers: {}, body: '{}', signal, ...CAPS }),
      exchange.send(new URL(`${url}/small`), { method: 'POST', headers: {}, body: '{}', signal, ...CAPS }),
    ]);
    expect(big).toMatchObject({ status: 200, over: true });
    expect(big.bytes.byteLength).toBe(50);
    expect(big.total).toBeGreaterThan(50);
    expect(() => okBodyJson(big, `${url}/big`, 50)).toThrow(expect.objectContaining({ failure: 'response_too_large' }));
    expect(small).toMatchObject({ status: 200, over: false, total: 11 });
    expect(okBodyJson(small, `${url}/small`, 50)).toEqual({ ok: true });
  });

  it('sends calls one after another over one kept-alive connection', async () => {
    const { url, connections } = await startServer();
    exchange = new HttpExchange();
    const signal = new AbortController().signal;
    for (let i = 0; i < 3; i++) await exchange.send(new URL(`${url}/small`), { method: 'GET', headers: {}, signal, ...CAPS });
    expect(connections()).toBe(1);
  });

  it('sends a request again on a new connection when the server closed the kept-alive one it was sent on', async () => {
    let connections = 0;
    let requests = 0;
    server = http.createServer((request, response) => {
      requests++;
      request.resume();
      // The second request on the first connection finds it closed: the server hangs up without answering.
      if (requests === 2) {
        request.socket.destroy();
        return;
      }
      request.on('end', () => response.end('{"ok":true}'));
    });
    server.on('connection', () => connections++);
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const url = new URL(`http://127.0.0.1:${(server.address() as net.AddressInfo).port}/`);
    exchange = new HttpExchange();
    const signal = new AbortController().signal;
    const first = await exchange.send(url, { method: 'POST', headers: {}, body: '{}', signal, ...CAPS });
    const second = await exchange.send(url, { method: 'POST', headers: {}, body: '{}', signal, ...CAPS });
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(okBodyJson(second, url.href, 50)).toEqual({ ok: true });
    expect({ connections, requests }).toEqual({ connections: 2, requests: 3 });
  });

  it('does not send a request again when a new connection is closed before the answer', async () => {
    let requests = 0;
    server = http.createServer((request) => {
      requests++;
      request.socket.destroy();
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const url = new URL(`http://127.0.0.1:${(server.address() as net.AddressInfo).port}/`);
    exchange = new HttpExchange();
    await expect(exchange.send(url, { method: 'POST', headers: {}, body: '{}', signal: new AbortController().signal, ...CAPS })).rejects.toMatchObject({ code: 'ECONNRESET' });
    expect(requests).toBe(1);
  });

  it('rejects with the signal reason, and sends nothing, when the signal is already aborted', async () => {
    const { url, connections } = await startServer();
    exchange = new HttpExchange();
    const controller = new AbortController();
    controller.abort(new Error('stopped before'));
    await expect(exchange.send(new URL(url), { method: 'GET', headers: {}, signal: controller.signal, ...CAPS })).rejects.toThrow('stopped before');
    expect(connections()).toBe(0);
  });
});

describe('okBodyJson', () => {
  it('refuses a compressed body with a message naming its encoding, without retrying it', async () => {
    server = http.createServer((request, response) => {
      request.resume();
      request.on('end', () => {
        response.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
        response.end(gzipSync('{"ok":true}'));
      });
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const url = new URL(`http://127.0.0.1:${(server.address() as net.AddressInfo).port}/`);
    exchange = new HttpExchange();
    const result = await exchange.send(url, { method: 'GET', headers: {}, signal: new AbortController().signal, ...CAPS });
    expect(() => okBodyJson(result, url.href, 50)).toThrow(expect.objectContaining({ failure: 'malformed_response', retryable: false, message: expect.stringContaining('content-encoding: gzip') }));
  });
});

describe('CappedBody', () => {
  it('keeps the bytes up to its cap, counts all of them and says when to stop', () => {
    const body = new CappedBody(5);
    expect(body.push(Buffer.from('abc'))).toBe(true);
    expect(body.push(Buffer.from('defg'))).toBe(false);
    expect(body.bytes().toString()).toBe('abcde');
    expect(body).toMatchObject({ total: 7, over: true });
  });
});
