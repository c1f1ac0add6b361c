/**
 * The `stream` reply of the fake OpenAI-compatible server: a body written piece by piece with backpressure,
 * so a test can send a huge, endless or cut-off body without holding it in memory, and can read back how
 * much actually went out before the client hung up.
 */
import type http from 'node:http';

/** A body streamed in pieces; default status 200 and content type `application/json`. */
export interface FakeStreamResponse {
  kind: 'stream';
  status?: number;
  headers?: Record<string, string>;
  head?: string;
  chunk?: string;
  /** How often `chunk` is written; `endless` writes it until the client disconnects (or `limitBytes`). Default 0. */
  repeat?: number | 'endless';
  tail?: string;
  /** Send `Content-Length` for the whole body (finite bodies only); otherwise chunked transfer encoding. */
  declareLength?: boolean;
  /** Destroy the socket once this many body bytes are written: a connection lost in the middle of the body. */
  dropAfterBytes?: number;
  /**
   * A safety stop for an `endless` body, so that a test against a client without a body cap ends: after
   * this many bytes the body ends (without `tail`). Default 1 GiB.
   */
  limitBytes?: number;
}

/** What the server wrote for one `stream` response, updated while it streams. */
export interface FakeStreamReport {
  /** 0-based index of the chat request it answered. */
  index: number;
  /** Body bytes handed to the socket so far (the client has read at most this much). */
  bytesWritten: number;
  /** Becomes true when the body was written to its end. */
  finished: boolean;
  /** Resolves when the response is over: written to its end, dropped, or cut by the client. */
  closed: Promise<void>;
}

const DEFAULT_STREAM_LIMIT_BYTES = 1024 * 1024 * 1024;

/** Writes a `stream` response, waiting for the socket to drain after every piece, and reports what it wrote. */
export async function streamBody(res: http.ServerResponse, response: FakeStreamResponse, index: number, streams: FakeStreamReport[]): Promise<void> {
  let markClosed = (): void => {};
  const report: FakeStreamReport = { index, bytesWritten: 0, finished: false, closed: new Promise((resolve) => (markClosed = resolve)) };
  streams.push(report);
  res.once('close', () => markClosed());
  const head = response.head ?? '';
  const chunk = response.chunk ?? '';
  const tail = response.tail ?? '';
  // An empty chunk repeated without end would spin without writing anything.
  const repeat = chunk === '' ? 0 : (response.repeat ?? 0);
  const headers: Record<string, string | number> = { 'content-type': 'application/json', ...response.headers };
  if (response.declareLength && repeat !== 'endless') {
    headers['content-length'] = Buffer.byteLength(head) + repeat * Buffer.byteLength(chunk) + Buffer.byteLength(tail);
  }
  res.writeHead(response.status ?? 200, headers);
  const limit = response.limitBytes ?? DEFAULT_STREAM_LIMIT_BYTES;
  const drop = response.dropAfterBytes;

  /** Writes one piece; false when the response is over (client gone, dropped as asked, or at the safety stop). */
  const write = async (text: string): Promise<boolean> => {
    if (res.destroyed || text === '') return !res.destroyed;
    let piece = Buffer.from(text);
    if (drop !== undefined && report.bytesWritten + piece.length >= drop) piece = piece.subarray(0, drop - report.bytesWritten);
    const writable = res.write(piece);
    report.bytesWritten += piece.length;
    if (drop !== undefined && report.bytesWritten >= drop) {
      // Let the bytes go out first, then cut the connection under the client.
      await new Promise<void>((resolve) => res.write('', () => resolve()));
      res.socket?.destroy();
      return false;
    }
    if (!writable) {
      await new Promise<void>((resolve) => {
        const done = (): void => {
          res.off('drain', done);
          res.off('close', done);
          resolve();
        };
        res.on('drain', done);
        res.on('close', done);
      });
    }
    return !res.destroyed;
  };

  if (!(await write(head))) return;
  for (let i = 0; repeat === 'endless' || i < repeat; i++) {
    if (repeat === 'endless' && report.bytesWritten >= limit) {
      res.end();
      report.finished = true;
      return;
    }
    if (!(await write(chunk))) return;
  }
  if (!(await write(tail))) return;
  res.end();
  report.finished = true;
}

