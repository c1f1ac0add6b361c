import { inflateSync } from 'node:zlib';

/** The pixels of an 8-bit RGB or RGBA, non-interlaced PNG (as chromium writes screenshots), unfiltered. */
function decodePng(png: Buffer): { width: number; height: number; bpp: number; out: Buffer } {
  if (png.subarray(0, 8).toString('hex') !== '89504e470d0a1a0a') throw new Error('not a PNG');
  let at = 8;
  let width = 0;
  let height = 0;
  let bpp = 0;
  const idat: Buffer[] = [];
  while (at < png.length) {
    const length = png.readUInt32BE(at);
    const type = png.subarray(at + 4, at + 8).toString('latin1');
    const data = png.subarray(at + 8, at + 8 + length);
    if (type === 'IHDR') {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      if (data[8] !== 8 || (data[9] !== 2 && data[9] !== 6) || data[12] !== 0) throw new Error('only 8-bit RGB/RGBA, non-interlaced PNGs');
      bpp = data[9] === 2 ? 3 : 4;
    }
    if (type === 'IDAT') idat.push(data);
    at += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * bpp;
  const out = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)]!;
    for (let x = 0; x < stride; x++) {
      const v = raw[y * (stride + 1) + 1 + x]!;
      const a = x >= bpp ? out[y * stride + x - bpp]! : 0;
      const b = y > 0 ? out[(y - 1) * stride + x]! : 0;
      const c = x >= bpp && y > 0 ? out[(y - 1) * stride + x - bpp]! : 0;
      const p = a + b - c;
      const paeth = Math.abs(p - a) <= Math.abs(p - b) && Math.abs(p - a) <= Math.abs(p - c) ? a : Math.abs(p - b) <= Math.abs(p - c) ? b : c;
      const pred = [0, a, b, (a + b) >> 1, paeth][filter];
      if (pred === undefined) throw new Error(`bad PNG filter ${filter}`);
      out[y * stride + x] = (v + pred) & 0xff;
    }
  }
  return { width, height, bpp, out };
}

/**
 * Distinct colours of a screenshot, counted on every `step`-th pixel: enough to tell a rendered page from
 * a blank one without an image library.
 */
export function pngDistinctColors(png: Buffer, step = 7): { width: number; height: number; colors: number } {
  const { width, height, bpp, out } = decodePng(png);
  const colors = new Set<number>();
  for (let i = 0; i < width * height; i += step) colors.add(out.readUIntBE(i * bpp, 3));
  return { width, height, colors: colors.size };
}

/** How many pixels are within `tolerance` (per channel) of the colour `#rrggbb`. */
export function pngColorCount(png: Buffer, hex: string, tolerance = 2): number {
  const { width, height, bpp, out } = decodePng(png);
  const want = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
  let count = 0;
  for (let i = 0; i < width * height; i++) {
    const at = i * bpp;
    if (want.every((v, k) => Math.abs(out[at + k]! - v) <= tolerance)) count++;
  }
  return count;
}
