import { closeSync, existsSync, fsyncSync, openSync, readFileSync, truncateSync, writeSync } from 'node:fs';

/**
 * An append-only JSON-lines file that survives a crash: each record is written with one `write` and
 * fsynced, and on open a torn last line (the process died mid-write) is cut off, so what remains is
 * exactly the records that were completely written.
 */
export class JsonlLog<T> {
  private fd: number | undefined;

  constructor(readonly file: string) {}

  /** Reads every complete record; repairs a torn tail. Returns the records and how many bytes were dropped. */
  readAll(): { records: T[]; repairedBytes: number } {
    if (!existsSync(this.file)) return { records: [], repairedBytes: 0 };
    const buf = readFileSync(this.file);
    const records: T[] = [];
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
        goodEnd = start;
      } catch {
        break;
      }
    }
    const repairedBytes = buf.length - goodEnd;
    if (repairedBytes > 0) truncateSync(this.file, goodEnd);
    return { records, repairedBytes };
  }

  append(record: T): void {
    if (this.fd === undefined) this.fd = openSync(this.file, 'a');
    writeSync(this.fd, `${JSON.stringify(record)}\n`);
    fsyncSync(this.fd);
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }
}
