import { deflateRawSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { packText, RAW_BELOW, unpackText } from "../../src/store/packed-text.ts";

const series = (days: number) =>
  JSON.stringify({
    days: Array.from({ length: days }, (_, i) => ({
      timeStamp: `2026-01-01T00:00:00`,
      violations: i % 7,
      findings: i % 13,
    })),
  });

describe("cached text packed for Redis", () => {
  it("comes back exactly, whatever its characters, kept as it is or deflated", () => {
    const texts = [
      "",
      JSON.stringify({ label: "Équipe paiements / API — 東京", n: [1, 2, 3], emoji: "🔒" }),
      JSON.stringify(Array.from({ length: 500 }, (_, i) => ({ day: `2026-11-${(i % 28) + 1}`, v: i }))),
      series(366),
      "[1,2,3]",
    ];
    for (const text of texts) expect(unpackText(packText(text))).toBe(text);
  });

  it("keeps a short JSON object as it is (deflating it costs more than the room it saves)", () => {
    const json = JSON.stringify({ ok: true, value: { label: "payments/*", change: 31 } });
    expect(packText(json)).toBe(json);
    const justUnder = series(1).slice(0, -1) + " ".repeat(RAW_BELOW - series(1).length) + "}";
    expect(justUnder.length).toBe(RAW_BELOW);
    expect(packText(justUnder)).not.toBe(justUnder);
  });

  it("deflates long text to base64 a few times smaller than its JSON", () => {
    const json = series(366);
    expect(json.length).toBeGreaterThan(RAW_BELOW);
    const packed = packText(json);
    expect(packed).toMatch(/^[A-Za-z0-9+/]*={0,2}$/);
    expect(packed.length).toBeLessThan(json.length / 4);
  });

  it("deflates text that is not an object, whatever its length, so the reader cannot mistake it", () => {
    for (const text of ["", "[1,2,3]", '"x"']) expect(packText(text)).toMatch(/^[A-Za-z0-9+/]*={0,2}$/);
  });

  it("reads values packed before short objects were kept as they are", () => {
    const json = JSON.stringify({ ok: true, value: { n: 1 } });
    const old = deflateRawSync(Buffer.from(json), { level: 3 }).toString("base64");
    expect(unpackText(old)).toBe(json);
  });
});
