import { describe, expect, it } from "vitest";
import { randomId } from "../../src/random-id.ts";

describe("randomId", () => {
  it("gives 32 hex digits, and no two alike over many draws", () => {
    const ids = Array.from({ length: 20_000 }, () => randomId());
    for (const id of ids.slice(0, 100)) expect(id).toMatch(/^[0-9a-f]{32}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
