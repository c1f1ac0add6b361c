import { closeSync, existsSync, fsync, fsyncSync, openSync, readFileSync, renameSync, rmSync, truncateSync, writeSync } from 'node:fs';
import path from 'node:path';

/**
 * An append-only JSON-lines file that survives a crash: each record is written with one `write` before
 * `append` returns (so a killed process loses nothing it appended), and on open a torn last line (the
 * process died mid-write) is cut off, so what remains is exactly the records that were completely written.
 * fsyncs are grouped: one runs in the background after a write, and the records appended while it runs
 * share the next one, so many episodes finishing at once cost a few fsyncs and never block the event loop;
 * `flush` and `close` fsync what is still pending before they return. `replaceAll` swaps the whole file for another
 * ordering of it atomically (temporary file, fsync, rename, fsync of the directory).
 */
export class JsonlLog<T> {
  private fd: number | undefined;
  /** Written since the last fsync started. */
  private dirty = false;
  /** A background fsync is running (on this fd, or on one `close` handed over to it). */
  private syncing = false;
  private syncError: Error | undefined;

  constructor(readonly file: string) {}

  /** Where `replaceAll` writes before the rename; one left behind by a crash is removed on read. */
  get tempFile(): string {
    return `${this.file}.tmp`;
  }

  /**
   * Reads every complete record and its line as stored; repairs a torn tail and removes the leftover of
   * an interrupted `replaceAll` (the file itself is then still the complete old one).
   */
  readAll(): { records: T[]; lines: string[]; repairedBytes: number } {
    if (existsSync(this.tempFile)) rmSync(this.tempFile, { force: true });
    if (!existsSync(this.file)) return { records: [], lines: [], repairedBytes: 0 };
    const buf = readFileSync(this.file);
    const records: T[] = [];
    const lines: string[] = [];
    let start = 0;
    let goodEnd = 0;
    for (let i = 0; i < buf.length; i++) {
      if (buf[i] !== 0x0a) continue;
      const line = buf.subarray(start, i).toString('utf8');
      start = i + 1;
      if (line.trim() === '') {
        goodEnd = start;
        continue;
      }
      try {
        records.push(JSON.parse(line) as T);
        lines.push(line);
        goodEnd = start;
      } catch {
        break;
      }
    }
    const repairedBytes = buf.length - goodEnd;
    if (repairedBytes > 0) truncateSync(this.file, goodEnd);
    return { records, lines, repairedBytes };
  }

  append(record: T): void {
    this.appendLine(JSON.stringify(record));
  }

  /** Appends one already serialized record (no newline inside); it is fsynced with the next group. */
  appendLine(line: string): void {
    this.throwSyncError();
    if (this.fd === undefined) this.fd = openSync(this.file, 'a');
    writeFully(this.fd, Buffer.from(`${line}\n`, 'utf8'));
    this.dirty = true;
    this.syncInBackground();
  }

  /** Waits for nothing: fsyncs what was appended and not yet synced, now. */
  flush(): void {
    this.throwSyncError();
    if (this.fd !== undefined && this.dirty) fsyncSync(this.fd);
    this.dirty = false;
  }

  private syncInBackground(): void {
    if (this.syncing || !this.dirty || this.fd === undefined) return;
    const fd = this.fd;
    this.syncing = true;
    this.dirty = false;
    fsync(fd, (error) => {
      this.syncing = false;
      if (error) this.syncError ??= error;
      // `close` ran meanwhile and left the descriptor to this callback.
      if (this.fd !== fd) closeSync(fd);
      else this.syncInBackground();
    });
  }

  private throwSyncError(): void {
    const error = this.syncError;
    this.syncError = undefined;
    if (error) throw error;
  }

  /**
   * Replaces the file's content with `lines` so that a crash at any moment leaves either the old file or
   * the new one, each complete: the new content goes to a temporary file in the same directory, is
   * fsynced, renamed over the file (atomic), and the directory is fsynced so the rename itself is durable.
   */
  replaceAll(lines: readonly string[]): void {
    this.close();
    const fd = openSync(this.tempFile, 'w');
    try {
      for (const line of lines) writeFully(fd, Buffer.from(`${line}\n`, 'utf8'));
      fsyncSync(fd);
    } catch (error) {
      closeSync(fd);
      rmSync(this.tempFile, { force: true });
      throw error;
    }
    closeSync(fd);
    renameSync(this.tempFile, this.file);
    fsyncDirectory(path.dirname(this.file));
  }

  /** fsyncs what is pending and closes the file (a background fsync still running closes it when done). */
  close(): void {
    const fd = this.fd;
    if (fd === undefined) return;
    this.flush();
    this.fd = undefined;
    if (!this.syncing) closeSync(fd);
  }
}

/** `write` may write less than asked; loop until every byte is out. */
function writeFully(fd: number, bytes: Buffer): void {
  let offset = 0;
  while (offset < bytes.length) offset += writeSync(fd, bytes, offset, bytes.length - offset);
}

function fsyncDirectory(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, 'r');
    fsyncSync(fd);
  } catch {
    // Some file systems refuse to fsync a directory; the rename is still atomic, only its durability
    // across a power cut is then up to the file system.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
