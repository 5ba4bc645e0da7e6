import { describe, expect, it } from "vitest";
import { packText, unpackText } from "../../src/store/packed-text.ts";

describe("cached text packed for Redis", () => {
  it("comes back exactly, whatever its characters, as base64 text a Redis string keeps", () => {
    const texts = [
      "",
      JSON.stringify({ label: "Équipe paiements / API — 東京", n: [1, 2, 3], emoji: "🔒" }),
      JSON.stringify(Array.from({ length: 500 }, (_, i) => ({ day: `2026-11-${(i % 28) + 1}`, v: i }))),
    ];
    for (const text of texts) {
      const packed = packText(text);
      expect(packed).toMatch(/^[A-Za-z0-9+/]*={0,2}$/);
      expect(unpackText(packed)).toBe(text);
    }
  });

  it("takes a few times less room than the JSON it holds", () => {
    const json = JSON.stringify(
      Array.from({ length: 366 }, (_, i) => ({
        timeStamp: `2026-01-01T00:00:00`,
        violations: i % 7,
        findings: i % 13,
      })),
    );
    expect(packText(json).length).toBeLessThan(json.length / 4);
  });
});
