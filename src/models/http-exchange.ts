/**
 * One HTTP request and its whole response body, read under a byte cap, over `node:http` / `node:https` with
 * keep-alive connections. The OpenAI-compatible adapter sends every call through here.
 *
 * Why not the `openai` client over Node's `fetch`: measured on the two-core machine this project runs on
 * (`bench/model-client-bench.ts`: a canned server in another process, a 3.5 KB request), that path took
 * 2.8 ms of this process's CPU per call back to back and 3.0 ms after a 200 ms idle gap, against 0.7 and
 * 1.3 ms here (a bare POST: 0.5 and 1.2 ms); at 64 concurrent episodes its work, and the replies waiting
 * behind it, added 5–23 ms to the median 200 ms model turn. The part of the client this adapter used (a
 * request, a JSON body, the status and a few headers) is what is left here; the classification of
 * failures stays in the adapter.
 */
import http from 'node:http';
import https from 'node:https';

/** What came back: the status, the headers, and the body as far as the cap let it be read. */
export interface HttpExchangeResult {
  status: number;
  statusText: string;
  headers: http.IncomingHttpHeaders;
  /** The bytes kept: all of them, or the first `limit` when the body was longer. */
  bytes: Buffer;
  /** Bytes received before reading ended or stopped. */
  total: number;
  /** True when the body passed its cap and the connection was closed. */
  over: boolean;
  /** Set when the connection failed after the headers, before the body's end. */
  error?: unknown;
}

export interface HttpExchangeRequest {
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
  /** Aborting it destroys the request; the promise rejects with the signal's reason. */
  signal: AbortSignal;
  /** The body cap for 2xx answers. */
  okBodyBytes: number;
  /** The body cap for other answers (their message is at the start). */
  errorBodyBytes: number;
}

/** A body collected chunk by chunk that stops at `limit` bytes. */
export class CappedBody {
  private readonly chunks: Buffer[] = [];
  total = 0;
  over = false;

  constructor(private readonly limit: number) {}

  /** Keeps what fits under the cap; false once the body has passed it (stop reading). */
  push(chunk: Buffer): boolean {
    this.total += chunk.byteLength;
    if (this.total > this.limit) {
      const keep = chunk.byteLength - (this.total - this.limit);
      if (keep > 0) this.chunks.push(chunk.subarray(0, keep));
      this.over = true;
      return false;
    }
    this.chunks.push(chunk);
    return true;
  }

  bytes(): Buffer {
    return this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks);
  }
}

/** Sends requests over keep-alive agents of its own (one per protocol); `close()` ends their idle sockets. */
export class HttpExchange {
  private readonly agents = { http: new http.Agent({ keepAlive: true }), https: new https.Agent({ keepAlive: true }) };

  /**
   * One exchange. A kept-alive connection that the server closed while it was idle (uvicorn, behind vLLM and
   * SGLang, closes them after 5 s) fails as soon as it is reused, before any answer: that request is sent
   * once more, at once, on a new connection, since the server never saw it.
   */
  async send(url: URL, request: HttpExchangeRequest): Promise<HttpExchangeResult> {
    try {
      return await this.sendOnce(url, request);
    } catch (error) {
      if (!(error instanceof StaleConnectionError)) throw error;
      return this.sendOnce(url, request, true);
    }
  }

  private sendOnce(url: URL, request: HttpExchangeRequest, fresh = false): Promise<HttpExchangeResult> {
    const { signal } = request;
    if (signal.aborted) return Promise.reject(signal.reason);
    return new Promise((resolve, reject) => {
      const secure = url.protocol === 'https:';
      const headers = request.body === undefined ? request.headers : { ...request.headers, 'content-length': String(Buffer.byteLength(request.body)) };
      let settled = false;
      const settle = (fn: () => void): void => {
        if (settled) return;
        settled = true;
        signal.removeEventListener('abort', onAbort);
        fn();
      };
      let answered = false;
      const agent = fresh ? false : secure ? this.agents.https : this.agents.http;
      const req = (secure ? https : http).request(url, { method: request.method, headers, agent }, (res) => {
        answered = true;
        const status = res.statusCode ?? 0;
        const body = new CappedBody(status >= 200 && status < 300 ? request.okBodyBytes : request.errorBodyBytes);
        const result = (extra: { error?: unknown } = {}): HttpExchangeResult => ({
          status, statusText: res.statusMessage ?? '', headers: res.headers, bytes: body.bytes(), total: body.total, over: body.over, ...extra,
        });
        res.on('data', (chunk: Buffer) => {
          if (settled || body.push(chunk)) return;
          settle(() => resolve(result()));
          req.destroy();
        });
        res.on('end', () => settle(() => resolve(result())));
        res.on('error', (error) => settle(() => (signal.aborted ? reject(signal.reason) : resolve(result({ error })))));
        res.on('close', () => {
          if (!res.complete) settle(() => (signal.aborted ? reject(signal.reason) : resolve(result({ error: lostBody() }))));
        });
      });
      const onAbort = (): void => {
        settle(() => reject(signal.reason));
        req.destroy();
      };
      signal.addEventListener('abort', onAbort, { once: true });
      req.on('error', (error) => {
        const stale = req.reusedSocket && !answered && !signal.aborted && STALE_CODES.has((error as { code?: string }).code ?? '');
        settle(() => reject(signal.aborted ? signal.reason : stale ? new StaleConnectionError(error) : error));
      });
      req.end(request.body);
    });
  }

  close(): void {
    this.agents.http.destroy();
    this.agents.https.destroy();
  }
}

/** What a reused connection that the server had closed fails with. */
const STALE_CODES = new Set(['ECONNRESET', 'EPIPE']);

/** A request that failed on a reused connection before any answer: {@link HttpExchange.send} sends it again. */
class StaleConnectionError extends Error {
  constructor(readonly inner: unknown) {
    super('a kept-alive connection was closed by the server', { cause: inner });
  }
}

function lostBody(): Error {
  return Object.assign(new Error('the connection was closed before the body ended'), { code: 'ECONNRESET' });
}
