import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { PRODUCT_BUILD, startWeb } from "../../sandbox/product.ts";
import { startWeb as fromSource } from "../../src/app/web.ts";

describe("the sandbox's product bridge", () => {
  it("drives the TypeScript sources unless INSIGHTS_SANDBOX_PRODUCT=dist asks for the build", () => {
    // The whole suite may be run against the build (INSIGHTS_SANDBOX_PRODUCT=dist npm test).
    const dist = process.env.INSIGHTS_SANDBOX_PRODUCT === "dist";
    expect(PRODUCT_BUILD).toBe(dist ? "dist" : "source");
    if (dist) expect(startWeb).not.toBe(fromSource);
    else expect(startWeb).toBe(fromSource);
  });

  it("refuses a value it does not know, naming the variable", () => {
    const r = spawnSync(process.execPath, ["--import", "tsx", "-e", "await import('./sandbox/product.ts')"], {
      env: { PATH: process.env.PATH ?? "", INSIGHTS_SANDBOX_PRODUCT: "prod" },
      encoding: "utf8",
    });
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain('INSIGHTS_SANDBOX_PRODUCT must be "source" or "dist", not "prod"');
  });
});
