import { describe, expect, it } from "vitest";
import { matchFilter, matchFilters } from "../../src/digests/filter-match.ts";

const assets = [
  { value: "11111111-1111-4111-8111-111111111111", displayValue: "payments / api" },
  { value: "22222222-2222-4222-8222-222222222222", displayValue: "payments / web" },
  { value: "33333333-3333-4333-8333-333333333333", displayValue: "platform / api" },
  { value: "44444444-4444-4444-8444-444444444444", displayValue: "platform / auth-service" },
];

describe("matchFilter", () => {
  it("matches by value, display name (any case and spacing) and unique child", () => {
    expect(matchFilter("asset", "22222222-2222-4222-8222-222222222222", assets).displayValue).toBe(
      "payments / web",
    );
    expect(matchFilter("asset", "Payments/API", assets).value).toBe(assets[0]?.value);
    expect(matchFilter("asset", "auth-service", assets).displayValue).toBe("platform / auth-service");
  });

  it("reports ambiguity with the candidates", () => {
    expect(() => matchFilter("asset", "api", assets)).toThrowError(
      /Several assets match "api": "payments \/ api", "platform \/ api"/,
    );
  });

  it("suggests close names for an unknown one", () => {
    try {
      matchFilter("asset", "payments / wbe", assets);
      expect.unreachable();
    } catch (err) {
      expect((err as { code: string }).code).toBe("bad_filter");
      expect((err as Error).message).toContain('Did you mean "payments / web"');
    }
  });

  it("de-duplicates resolved values", () => {
    expect(matchFilters("asset", ["payments / api", "PAYMENTS / API"], assets)).toEqual([assets[0]?.value]);
  });
});
