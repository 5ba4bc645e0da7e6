import { randomBytes } from "node:crypto";

const ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

/** Uppercase letters and digits, like the tail of Slack ids (`V0123ABCD`). */
export function randomAlnum(length: number): string {
  const bytes = randomBytes(length);
  let out = "";
  for (const b of bytes) out += ALNUM[b % ALNUM.length];
  return out;
}

export function randomHex(bytes: number): string {
  return randomBytes(bytes).toString("hex");
}

/** Id minting bound to one clock, so message timestamps follow the stand-in's notion of time. */
export interface IdMint {
  /** Slack message ts (`seconds.micros`), strictly increasing even within one millisecond. */
  ts(): string;
  viewId(): string;
  fileId(): string;
  /** Shaped like Slack's (`1234.5678.hex`); only the stand-in gives it meaning. */
  triggerId(): string;
  responseId(): string;
  eventId(): string;
}

export function createIdMint(now: () => number): IdMint {
  let lastMicros = 0;
  let counter = 0;
  return {
    ts() {
      const micros = Math.max(Math.floor(now() * 1000), lastMicros + 1);
      lastMicros = micros;
      const secs = Math.floor(micros / 1_000_000);
      return `${secs}.${String(micros % 1_000_000).padStart(6, "0")}`;
    },
    viewId: () => `V${randomAlnum(10)}`,
    fileId: () => `F${randomAlnum(10)}`,
    triggerId: () => `${Math.floor(now() / 1000)}.${++counter}.${randomHex(16)}`,
    responseId: () => `${++counter}${randomHex(12)}`,
    eventId: () => `Ev${randomAlnum(10)}`,
  };
}
