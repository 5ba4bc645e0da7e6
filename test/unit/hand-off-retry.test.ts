import { describe, expect, it } from "vitest";
import { handOff, retryFor } from "../../src/interactive/hand-off.ts";
import type { InteractiveJob } from "../../src/interactive/types.ts";

/**
 * The web's side of the hand-off's deadline, with an executor that fails as told: what is written
 * again, what is thrown at once, and the one write that decides whether a person is told it failed.
 */
const job = () => ({ id: "r-unit", receivedAt: Date.now() }) as unknown as InteractiveJob;
const retriable = (message: string) => Object.assign(new Error(message), { retriable: true });

describe("handOff", () => {
  it("writes again while a write fails in a way that may pass, and stamps the deadline", async () => {
    let writes = 0;
    const j = job();
    const before = Date.now();
    await handOff(
      {
        submit: async () => {
          writes++;
          if (writes < 3) throw retriable("No Redis replica acknowledged the request's hand-off");
        },
      },
      j,
    );
    expect(writes).toBe(3);
    expect(j.handOffBy).toBeGreaterThanOrEqual(before + 15_000);
  });

  it("throws at once a failure no second write would change", async () => {
    let writes = 0;
    await expect(
      handOff(
        {
          submit: async () => {
            writes++;
            throw new Error("the digest thread pool is closed");
          },
        },
        job(),
      ),
    ).rejects.toThrow("closed");
    expect(writes).toBe(1);
  });
});

describe("retryFor", () => {
  it("tries again while the write fails, and gives the fallback only past its time", async () => {
    let tries = 0;
    expect(
      await retryFor(
        async () => {
          tries++;
          if (tries < 3) throw new Error("NOREPLICAS Not enough good replicas to write.");
          return false;
        },
        10_000,
        true,
      ),
    ).toBe(false);
    expect(tries).toBe(3);
    expect(
      await retryFor(
        async () => {
          throw new Error("Command timed out");
        },
        600,
        true,
      ),
    ).toBe(true);
  });
});
