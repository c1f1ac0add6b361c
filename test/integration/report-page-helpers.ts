import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { expect } from 'vitest';

/** Helpers of the report pages' integration tests: reading cells back out of a page, following its links, headless chromium. */

/** The text of a piece of markup: each tag read as a space, entities of the escaper undone, spaces collapsed. */
export function pageText(markup: string): string {
  return markup.replace(/<[^>]*>/g, ' ').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, '&').replace(/\s+/g, ' ').trim();
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The inner markup of the `<tr>` whose attribute `attr` is `value`. */
export function pageRow(page: string, attr: string, value: string): string {
  const m = new RegExp(`<tr ${attr}="${escapeRegExp(value)}"[^>]*>(.*?)</tr>`, 's').exec(page);
  expect(m, `${attr}=${value}`).not.toBeNull();
  return m![1]!;
}

/** The text of the `<td>` of a row whose attributes include `match` (e.g. `data-cell="avg"`). */
export function pageCell(rowHtml: string, match: string): string {
  const m = new RegExp(`<td[^>]*${escapeRegExp(match)}[^>]*>(.*?)</td>`, 's').exec(rowHtml);
  expect(m, match).not.toBeNull();
  return pageText(m![1]!);
}

/** Every relative link of a page resolves to a file inside the run directory, and a #fragment to an element of that file. */
export function checkPageLinks(file: string, runDir = path.dirname(file)): number {
  const page = readFileSync(file, 'utf8');
  const links = [...page.matchAll(/href="([^"#][^"]*)"/g)].map((m) => m[1]!);
  for (const link of links) {
    const [rel, fragment] = link.split('#') as [string, string?];
    const target = path.resolve(path.dirname(file), rel);
    expect(existsSync(target), link).toBe(true);
    expect(target.startsWith(runDir), link).toBe(true);
    if (fragment) expect(readFileSync(target, 'utf8'), link).toContain(`id="${fragment}"`);
  }
  return links.length;
}

export const CHROMIUM = '/usr/bin/chromium';
export const HAS_CHROMIUM = existsSync(CHROMIUM);

/** Runs headless chromium with a fresh profile; resolves with its stdout. */
export function chromium(args: string[], profile: string): Promise<string> {
  const base = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--hide-scrollbars', `--user-data-dir=${profile}`];
  return new Promise((resolve, reject) => {
    execFile(CHROMIUM, [...base, ...args], { timeout: 90_000, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`chromium failed: ${error.message}\n${stderr.slice(-2000)}`));
      else resolve(stdout);
    });
  });
}

/** The success@2 figures a page prints in its own columns (as `--json` gives them). */
export interface At2Figures { tasks: number; success2: number; successAt2: number; retried: number; rescued: number }

/** How a success@2 cell reads, written out here from the JSON figures: `3/5 (60.0%); 1/2 rescued`. */
export function at2CellText(s: At2Figures): string {
  return `${s.success2}/${s.tasks}${s.tasks === 0 ? '' : ` (${(s.successAt2 * 100).toFixed(1)}%)`}; ${s.rescued}/${s.retried} rescued`;
}
