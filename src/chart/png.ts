import { deflateSync } from "node:zlib";

/**
 * PNG encoder for resvg's RGBA pixels. resvg-js's own `asPng()` took longer than the rendering
 * itself and wrote larger files; node:zlib on unfiltered rows is both faster and smaller for a
 * chart that is mostly flat background.
 */

const SIGNATURE = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n += 1) {
    let c = n;
    for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

// zlib.crc32 only exists from Node 20.15; the project supports all of Node 20.
function crc32(bytes: Uint8Array, crc = 0xffffffff): number {
  let c = crc;
  for (let i = 0; i < bytes.length; i += 1) c = (CRC_TABLE[(c ^ (bytes[i] ?? 0)) & 0xff] ?? 0) ^ (c >>> 8);
  return c;
}

function chunk(type: string, data: Uint8Array): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, "latin1");
  out.set(data, 8);
  out.writeUInt32BE((crc32(out.subarray(4, 8 + data.length)) ^ 0xffffffff) >>> 0, 8 + data.length);
  return out;
}

/**
 * Encodes 8-bit RGBA pixels (row-major, `width * height * 4` bytes) as a PNG.
 *
 * @example encodePng(new Uint8Array(4).fill(255), 1, 1) // a 1×1 white PNG
 */
export function encodePng(rgba: Uint8Array, width: number, height: number, level = 6): Uint8Array {
  const stride = width * 4;
  if (rgba.length !== stride * height)
    throw new RangeError(`expected ${stride * height} bytes, got ${rgba.length}`);
  // Filter type 0 on every row: the leading 0 byte of each row is all that needs adding.
  const raw = Buffer.alloc((stride + 1) * height);
  for (let y = 0; y < height; y += 1)
    raw.set(rgba.subarray(y * stride, (y + 1) * stride), y * (stride + 1) + 1);
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 6, 0, 0, 0], 8); // 8-bit, RGBA, deflate, no filter method, no interlace
  return Buffer.concat([
    SIGNATURE,
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(raw, { level })),
    chunk("IEND", new Uint8Array(0)),
  ]);
}
