/**
 * Masks what must not reach an engineer prompt (protocol.md §2.4 sanitizer, §2.6): local file paths,
 * which name machines and users, and shop product ids (ASIN-like `B0` + 8 letters or digits), which
 * would let a patch hard-code products.
 */

export const PATH_MASK = '[PATH]';
export const PRODUCT_ID_MASK = '[PRODUCT_ID]';

/** What to mask. SQL cell values may legitimately look like product ids, so SQL evidence masks paths only. */
export type SanitizeMode = 'none' | 'paths' | 'paths_and_product_ids';

/**
 * An ASIN-like product id as a whole word, in either case: shop agents click product ids in lower case
 * (`click[b07xtk3p89]`), and those must be masked as well as the upper-case ids of the result pages.
 */
const PRODUCT_ID = /\b[Bb]0[A-Za-z0-9]{8}\b/g;

/**
 * An absolute path under a root that holds machine- or user-specific files, up to the next whitespace,
 * quote or bracket. It must start the text or follow a character that cannot be part of a word or URL
 * (so `http://host/tmp/x` and `a/home/b` are left alone).
 */
const LOCAL_PATH = /(^|[\s'"`(=:,[{])\/(?:mnt|root|home|tmp|Users|var|private|work|opt|srv|data)(?:\/[^\s'"`)\]},;]*)?(?=$|[\s'"`)\]},;])/g;

/** Windows drive paths (`C:\Users\...`). */
const WINDOWS_PATH = /\b[A-Za-z]:\\[^\s'"`)\]},;]+/g;

export function sanitizeEvidenceText(text: string, mode: SanitizeMode): string {
  if (mode === 'none') return text;
  let out = text.replace(LOCAL_PATH, (_match, lead: string) => `${lead}${PATH_MASK}`).replace(WINDOWS_PATH, PATH_MASK);
  if (mode === 'paths_and_product_ids') out = out.replace(PRODUCT_ID, PRODUCT_ID_MASK);
  return out;
}
