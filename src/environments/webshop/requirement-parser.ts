/**
 * The WebShop requirement parser behind the hook context (protocol.md §4.2, the original's H0): the
 * instruction is read from the first observation and reduced to the colour, size, material, other
 * required options ("specs"), the price budget and a coarse task type. Nothing here reads the goal.
 */
import { isJsSpaceCode } from '../../python/text-scan.js';

export interface WebShopRequirements {
  instruction: string;
  taskType: 'apparel' | 'beauty' | 'food' | 'tech' | 'home' | 'general';
  requiredColor: string;
  /** Other spellings of the required colour that count as the same option (e.g. `grey` for `gray`). */
  colorAlternatives: string[];
  requiredSize: string;
  requiredMaterial: string;
  /** Other `name: value` requirements of the instruction (style, flavor, pattern, …), by lower-cased name. */
  requiredSpecs: Record<string, string>;
  /** The budget of "lower than / less than / under / below / <" followed by a number, or null. */
  priceMax: number | null;
}

const COLORS = [
  'black', 'white', 'gray', 'grey', 'silver', 'gold', 'red', 'blue', 'navy', 'green', 'yellow', 'orange', 'pink', 'purple', 'violet',
  'brown', 'beige', 'khaki', 'tan', 'ivory', 'cream', 'teal', 'turquoise', 'maroon', 'burgundy', 'wine', 'coral', 'mint', 'olive',
  'charcoal', 'rose', 'camel', 'apricot', 'lavender', 'aqua', 'multicolor', 'multi', 'clear', 'natural', 'champagne', 'coffee',
];
const COLOR_MODIFIERS = ['light', 'dark', 'deep', 'navy', 'sky', 'royal', 'hot', 'rose', 'army', 'wine', 'bright', 'pale', 'off'];
const SIZE_WORDS = [
  'xx-small', 'x-small', 'small', 'medium', 'large', 'x-large', 'xx-large', '3x-large', '4x-large', '5x-large', 'xs', 's', 'm', 'l', 'xl', 'xxl',
  '2xl', '3xl', '4xl', '5xl', 'one size', 'king', 'queen', 'twin', 'full', 'california king',
];
const MATERIALS = [
  'stainless steel', 'cotton', 'leather', 'faux leather', 'wool', 'polyester', 'silk', 'linen', 'nylon', 'spandex', 'denim', 'wood', 'solid wood',
  'bamboo', 'metal', 'aluminum', 'glass', 'plastic', 'ceramic', 'rubber', 'silicone', 'velvet', 'suede', 'cashmere', 'fleece', 'mesh',
];
const TASK_TYPES: [WebShopRequirements['taskType'], RegExp][] = [
  ['apparel', /\b(shirt|t-shirt|dress|pants|shorts|jeans|jacket|coat|hoodie|sweater|skirt|shoe|shoes|sneakers?|boots?|sandals?|socks?|bra|underwear|leggings|pajamas?|swimsuit|hat|cap|gloves?|clothing|blouse|tops?|jumpsuit|romper|vest)\b/],
  ['beauty', /\b(hair|skin|makeup|lipstick|nail|shampoo|conditioner|serum|cream|lotion|perfume|fragrance|mascara|eyeshadow|foundation|wig|beauty|cosmetic|moisturizer|brush(?:es)?|deodorant|soap|toothpaste|teeth)\b/],
  ['food', /\b(snacks?|food|chocolate|candy|coffee|tea|cookies?|gluten|sugar|organic|flavor|drink|beverage|nuts?|protein|jerky|chips|sauce|seasoning|keto|vegan|cereal|gummy|gummies|juice)\b/],
  ['tech', /\b(phone|laptop|computer|tablet|charger|cable|usb|hdmi|bluetooth|wireless|speaker|headphones?|earbuds?|camera|tv|monitor|keyboard|mouse|router|battery|remote|electronic|electronics|audio|video|projector|adapter)\b/],
  ['home', /\b(furniture|sofa|chair|table|bed|mattress|pillows?|blanket|curtains?|rug|lamp|shelf|desk|cabinet|storage|kitchen|bathroom|towels?|decor|wall art|vase|living room|bedroom|ottoman|stool)\b/],
];

/** `_extract_instruction`: the text between `Instruction: [SEP]` and the next `[SEP]`, trimmed. */
export function extractInstructionText(observation: string): string {
  const start = observation.indexOf('Instruction: [SEP]');
  if (start < 0) return observation.trim();
  const rest = observation.slice(start + 'Instruction: [SEP]'.length);
  const end = rest.indexOf('[SEP]');
  return (end < 0 ? rest : rest.slice(0, end)).trim();
}

/** The budget: a number after "lower than", "less than", "under", "below" or "<" (optionally with `$`). */
export function parsePriceMax(text: string): number | null {
  const m = /(?:lower than|less than|under|below|<)\s*(?:\$\s*)?(\d+(?:,\d{3})*(?:\.\d+)?)/i.exec(text);
  if (!m) return null;
  const value = Number(m[1]!.replace(/,/g, ''));
  return Number.isFinite(value) ? value : null;
}

/** `Price: $X` on a product page (the lower end of a range), or null. */
export function parseCurrentPrice(observation: string): number | null {
  const m = /Price:\s*\$\s*(\d+(?:,\d{3})*(?:\.\d+)?)/.exec(observation);
  if (!m) return null;
  const value = Number(m[1]!.replace(/,/g, ''));
  return Number.isFinite(value) ? value : null;
}

function findWord(text: string, words: readonly string[]): string {
  const sorted = [...words].sort((a, b) => b.length - a.length);
  for (const word of sorted) {
    const escaped = word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    if (new RegExp(`(?:^|[^a-z0-9-])${escaped}(?:$|[^a-z0-9-])`).test(text)) return word;
  }
  return '';
}

function isWordCode(code: number): boolean {
  return (code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a) || code === 0x5f;
}

/** Length of the separator `/`, `&`, `,` or a whole word `and` at `at`, or 0. */
function colorSeparator(text: string, at: number): number {
  const code = text.charCodeAt(at);
  if (code === 0x2f || code === 0x26 || code === 0x2c) return 1;
  const wordAround = (at > 0 && isWordCode(text.charCodeAt(at - 1))) || isWordCode(text.charCodeAt(at + 3));
  return text.startsWith('and', at) && !wordAround ? 3 : 0;
}

/**
 * The split of `color` on `\s*(?:\/|&|\band\b|,)\s*` as a forward scan: a whitespace run is measured once and
 * skipped whole when no separator follows it (the regex retries it from every position).
 */
export function splitColorParts(color: string): string[] {
  const space = (at: number): number => {
    while (at < color.length && isJsSpaceCode(color.charCodeAt(at))) at++;
    return at;
  };
  const parts: string[] = [];
  let pieceStart = 0;
  let i = 0;
  while (i < color.length) {
    const sepStart = isJsSpaceCode(color.charCodeAt(i)) ? space(i) : i;
    const length = colorSeparator(color, sepStart);
    if (length > 0) {
      parts.push(color.slice(pieceStart, i));
      pieceStart = space(sepStart + length);
      i = pieceStart;
    } else {
      i = sepStart === i ? i + 1 : sepStart;
    }
  }
  parts.push(color.slice(pieceStart));
  return parts;
}

function colorAlternatives(color: string): string[] {
  if (color === '') return [];
  const alternatives = new Set<string>();
  if (color.includes('gray')) alternatives.add(color.replace(/gray/g, 'grey'));
  if (color.includes('grey')) alternatives.add(color.replace(/grey/g, 'gray'));
  for (const part of splitColorParts(color)) if (part && part !== color) alternatives.add(part);
  return [...alternatives];
}

/**
 * Parses an instruction (or a whole observation holding one). Explicit `name: value` clauses, as
 * synthetic and many human goals write them ("with color: black, and size: 3x-large"), win; otherwise
 * the colour lexicon (with light/dark/… compounds), the size tokens and the material list are searched.
 */
export function parseRequirements(text: string): WebShopRequirements {
  const instruction = text.includes('Instruction: [SEP]') ? extractInstructionText(text) : text.trim();
  const lower = instruction.toLowerCase();
  const explicit: Record<string, string> = {};
  // eslint-disable-next-line regexp/no-super-linear-backtracking -- quadratic in whitespace inside a clause; still a regex
  for (const m of lower.matchAll(/([a-z][a-z ]{0,30}?):\s*([^,]+?)(?=,\s*and\b|,|\s+and price\b|$)/g)) {
    const name = (m[1]!.split(/\b(?:with|and|in|of|for)\b/).pop() ?? '').trim();
    const value = m[2]!.trim();
    if (name && value) explicit[name] = value;
  }
  let requiredColor = explicit.color ?? explicit['color name'] ?? '';
  if (!requiredColor) {
    const base = findWord(lower, COLORS);
    if (base) {
      const compound = new RegExp(`\\b(${COLOR_MODIFIERS.join('|')})[ -]${base}\\b`).exec(lower);
      requiredColor = compound ? `${compound[1]} ${base}` : base;
    }
  }
  const requiredSize = explicit.size ?? explicit['size name'] ?? findWord(lower, SIZE_WORDS.filter((s) => s.length > 2));
  const requiredMaterial = explicit.material ?? findWord(lower, MATERIALS);
  const requiredSpecs: Record<string, string> = {};
  for (const [name, value] of Object.entries(explicit)) {
    if (!/^(?:color|color name|size|size name|material)$/.test(name)) requiredSpecs[name] = value;
  }
  const taskType = TASK_TYPES.find(([, re]) => re.test(lower))?.[0] ?? 'general';
  return {
    instruction,
    taskType,
    requiredColor,
    colorAlternatives: colorAlternatives(requiredColor),
    requiredSize,
    requiredMaterial,
    requiredSpecs,
    priceMax: parsePriceMax(lower),
  };
}
