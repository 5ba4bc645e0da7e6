import { crc32, inflateSync } from "node:zlib";
import type { DayPoint } from "../../src/insights/types.ts";

/** Fixtures for the chart tests and bench, and a minimal PNG reader (8-bit, non-interlaced: what resvg writes). */

/**
 * `days` consecutive days from `start` with plausible, deterministic counts (findings ≥ violations ≥
 * fixed) multiplied by `scale`; indexes in `gaps` are all-null days.
 */
export function makeSeries(
  days: number,
  start = "2026-01-01",
  opts: { scale?: number; gaps?: number[] } = {},
): DayPoint[] {
  const t0 = Date.parse(`${start}T00:00:00Z`);
  const scale = opts.scale ?? 1;
  const gaps = new Set(opts.gaps ?? []);
  return Array.from({ length: days }, (_, i) => {
    const day = new Date(t0 + i * 86_400_000).toISOString().slice(0, 10);
    if (gaps.has(i)) return { day, findings: null, violations: null, fixed: null, merged: null };
    const findings = Math.round((900 + 300 * Math.sin(i / 7) + ((i * 37) % 120)) * scale);
    const violations = Math.round(findings * (0.3 + ((i * 13) % 10) / 100));
    const fixed = Math.round(violations * (0.5 + ((i * 7) % 20) / 100));
    return { day, findings, violations, fixed, merged: Math.round(fixed / 10) };
  });
}

export const PNG_SIGNATURE = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export interface DecodedPng {
  width: number;
  height: number;
  /** Channels per pixel. */
  channels: number;
  /** Unfiltered rows, `width * channels` bytes each. */
  data: Uint8Array;
  /** [r, g, b] at (x, y); greyscale repeats its one channel. */
  rgb(x: number, y: number): [number, number, number];
}

const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 4: 2, 6: 4 };

export function hasPngSignature(png: Uint8Array): boolean {
  return PNG_SIGNATURE.every((b, i) => png[i] === b);
}

export function decodePng(png: Uint8Array): DecodedPng {
  if (!hasPngSignature(png)) throw new Error("not a PNG");
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  let width = 0;
  let height = 0;
  let channels = 0;
  const idat: Uint8Array[] = [];
  for (let at = 8; at < png.length; ) {
    const length = view.getUint32(at);
    const type = String.fromCharCode(...png.subarray(at + 4, at + 8));
    const body = png.subarray(at + 8, at + 8 + length);
    // Viewers reject a chunk whose CRC is wrong, so every decode checks them all.
    if (crc32(png.subarray(at + 4, at + 8 + length)) !== view.getUint32(at + 8 + length)) {
      throw new Error(`bad CRC in ${type}`);
    }
    if (type === "IHDR") {
      width = view.getUint32(at + 8);
      height = view.getUint32(at + 12);
      const [bitDepth, colorType, , , interlace] = body.subarray(8, 13);
      if (bitDepth !== 8 || interlace !== 0)
        throw new Error(`unsupported PNG: depth ${bitDepth}, interlace ${interlace}`);
      channels = CHANNELS[colorType ?? -1] ?? 0;
      if (!channels) throw new Error(`unsupported colour type ${colorType}`);
    } else if (type === "IDAT") {
      idat.push(body);
    }
    at += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const data = unfilter(raw, width, height, channels);
  return {
    width,
    height,
    channels,
    data,
    rgb(x, y) {
      const i = (y * width + x) * channels;
      const r = data[i] ?? 0;
      return channels >= 3 ? [r, data[i + 1] ?? 0, data[i + 2] ?? 0] : [r, r, r];
    },
  };
}

function unfilter(raw: Uint8Array, width: number, height: number, bpp: number): Uint8Array {
  const stride = width * bpp;
  const out = new Uint8Array(stride * height);
  for (let y = 0; y < height; y += 1) {
    const filter = raw[y * (stride + 1)];
    const src = y * (stride + 1) + 1;
    const row = y * stride;
    for (let x = 0; x < stride; x += 1) {
      const a = x >= bpp ? out[row + x - bpp]! : 0;
      const b = y > 0 ? out[row - stride + x]! : 0;
      const c = x >= bpp && y > 0 ? out[row - stride + x - bpp]! : 0;
      const v = raw[src + x]!;
      let predicted = 0;
      if (filter === 1) predicted = a;
      else if (filter === 2) predicted = b;
      else if (filter === 3) predicted = (a + b) >> 1;
      else if (filter === 4) predicted = paeth(a, b, c);
      out[row + x] = (v + predicted) & 0xff;
    }
  }
  return out;
}

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/** How many pixels in the box are within `tolerance` (per channel) of `hex`. */
export function countColour(
  png: DecodedPng,
  hex: string,
  box = { x0: 0, y0: 0, x1: png.width, y1: png.height },
  tolerance = 24,
): number {
  const target = [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16));
  let count = 0;
  for (let y = box.y0; y < box.y1; y += 1) {
    for (let x = box.x0; x < box.x1; x += 1) {
      const px = png.rgb(x, y);
      if (px.every((v, i) => Math.abs(v - (target[i] ?? 0)) <= tolerance)) count += 1;
    }
  }
  return count;
}

/** Number of distinct RGB colours; 1 means a blank image. */
export function distinctColours(png: DecodedPng): number {
  const seen = new Set<number>();
  for (let y = 0; y < png.height; y += 1) {
    for (let x = 0; x < png.width; x += 1) {
      const [r, g, b] = png.rgb(x, y);
      seen.add((r << 16) | (g << 8) | b);
    }
  }
  return seen.size;
}
