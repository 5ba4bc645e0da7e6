import { describe, expect, it } from "vitest";
import { AppError, ConfigError, isAppError } from "../../src/errors.ts";

describe("isAppError", () => {
  it("knows an AppError and its subclasses, and nothing else", () => {
    expect(isAppError(new AppError("bad_range", "no"))).toBe(true);
    expect(isAppError(new ConfigError("Missing configuration", ["REDIS_URL"]))).toBe(true);
    for (const other of [new Error("no"), Object.assign(new Error("no"), { code: "bad_range" }), "no", null])
      expect(isAppError(other)).toBe(false);
  });

  it("knows an AppError made by another copy of the module (the sandbox's sources beside a built CLI)", async () => {
    // A query makes the module loader evaluate the file again: a second AppError class.
    const another = "../../src/errors.ts?another-copy";
    const copy = (await import(/* @vite-ignore */ another)) as typeof import("../../src/errors.ts");
    expect(copy.AppError).not.toBe(AppError);
    const theirs = new copy.AppError("sandbox_unavailable", "no");
    expect(theirs).not.toBeInstanceOf(AppError);
    expect(isAppError(theirs)).toBe(true);
    expect(copy.isAppError(new AppError("bad_range", "no"))).toBe(true);
  });
});
