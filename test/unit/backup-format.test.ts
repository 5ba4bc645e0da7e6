import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  BACKUP_VERSION,
  type BackupRecord,
  backupWriter,
  parseBackup,
} from "../../src/store/backup-format.ts";
import { joinPart, MAX_LINE, recordLines } from "../../src/store/backup-lines.ts";

const file = (records: object[], header: Record<string, unknown> = {}) => {
  const w = backupWriter({ createdAt: "2026-11-25T20:00:00.000Z", prefix: "insights", app: "0.1.0" });
  const head = JSON.stringify({ ...JSON.parse(w.header()), ...header });
  const body = records.flatMap((r) => w.record(r as never));
  return [head, ...body, w.trailer()].join("\n");
};

describe("backup file format", () => {
  it("reads back what it wrote, header and records", () => {
    const records = [
      { k: "{w:T1}:-:sub:ab12", t: "hash", v: { channel: "C1", kind: "daily", tz: "UTC" } },
      { k: "slot:{s:abc}:ws", t: "set", v: ["-.T1"] },
    ];
    expect(parseBackup(`${file(records)}\n`)).toEqual({
      header: {
        format: "insights-digest-backup",
        version: BACKUP_VERSION,
        createdAt: "2026-11-25T20:00:00.000Z",
        prefix: "insights",
        app: "0.1.0",
      },
      records,
    });
    expect(parseBackup(file([])).records).toEqual([]);
  });

  it("reads a file whose lines end in CRLF (or that starts with a byte order mark), and still catches a change", () => {
    const records = [
      { k: "{w:T1}:-:sub:ab12", t: "hash", v: { channel: "C1", kind: "daily", tz: "UTC" } },
      { k: "slot:{s:abc}:ws", t: "set", v: ["-.T1"] },
    ];
    const crlf = `${file(records).replace(/\n/g, "\r\n")}\r\n`;
    expect(parseBackup(crlf).records).toEqual(records);
    expect(parseBackup(`\uFEFF${crlf}`).records).toEqual(records);
    expect(() => parseBackup(crlf.replace('"tz":"UTC"', '"tz":"Etc/UTC"'))).toThrow(/count and checksum/);
    expect(() => parseBackup(crlf.replace("\r\n", "\r\n\r\n").replace('"C1"', '"C2"'))).toThrow(
      /count and checksum/,
    );
  });

  it("reads strings and expiries (version 2), and files of version 1", () => {
    const records = [
      { k: "{w:T1}:-:alertmsg:ab12", t: "string", v: '{"ep":"20261102T080000Z"}', x: 1_798_761_600_000 },
      { k: "{w:T1}:-:alertfb:ab12", t: "hash", v: { "20261102T080000Z:U1": "+" }, x: 1_798_761_600_000 },
    ];
    expect(parseBackup(file(records)).records).toEqual(records);
    const v1 = [{ k: "{w:T1}:-:idx", t: "hash", v: { ab12: "C1" } }];
    expect(parseBackup(file(v1, { version: 1 })).records).toEqual(v1);
  });

  it.each([
    ["", "bad_backup", "the input is empty"],
    ["not json\n{}", "bad_backup", "line 1 is not JSON"],
    ['{"format":"other"}\n{"end":true}', "bad_backup", 'does not name the format "insights-digest-backup"'],
    [file([], { version: 0 }), "bad_backup", "no valid version"],
    [
      file([], { version: BACKUP_VERSION + 1, app: "2.0.0" }),
      "backup_too_new",
      "newer insights-digest (2.0.0)",
    ],
    [
      file([{ k: "x", t: "hash", v: { a: "1" } }])
        .split("\n")
        .slice(0, 2)
        .join("\n"),
      "bad_backup",
      "no trailer",
    ],
    [file([{ k: "x", t: "hash", v: { a: 1 } }]), "bad_backup", "line 2 holds no hash, set or string value"],
    [file([{ k: "", t: "set", v: ["a"] }]), "bad_backup", "line 2 has no key"],
    [file([{ k: "x", t: "string", v: "a", x: -5 }]), "bad_backup", "line 2 has no valid expiry"],
    [file([{ k: "x", t: "list", v: ["a"] }]), "bad_backup", "line 2 holds no hash, set or string value"],
    [file([{ k: "x", t: "set", v: ["a"] }]).replace('"a"', '"b"'), "bad_backup", "count and checksum"],
  ])("refuses %j", (text, code, message) => {
    expect(() => parseBackup(text)).toThrow(
      expect.objectContaining({ code, message: expect.stringContaining(message) }),
    );
  });
});

describe("records larger than a line", () => {
  it("a time slot of 40,000 workspaces is written over several lines, each under the bound, and reads back", () => {
    const members = Array.from(
      { length: 40_000 },
      (_, i) => `E0${String(i).padStart(10, "0")}.T0${String(i).padStart(10, "0")}`,
    );
    const slot = { k: "slot:{s:mon0900Europe.Berlin}:ws", t: "set", v: members };
    const sub = { k: "{w:T1}:-:sub:ab12", t: "hash", v: { channel: "C1" } };
    const text = file([sub, slot, sub]);
    const lines = text.split("\n");
    expect(JSON.stringify(slot).length).toBeGreaterThan(MAX_LINE);
    expect(Math.max(...lines.map((l) => l.length))).toBeLessThanOrEqual(MAX_LINE);
    expect(lines.length).toBeGreaterThan(2 + 3);
    expect(parseBackup(text).records).toEqual([sub, slot, sub]);
  });

  it("a hash value or a string longer than a line is cut into pieces and joined again", () => {
    const long = `${'a"\u0001é😀'.repeat(200_000)}end`;
    const records = [
      { k: "{w:T1}:-:sub:ab12", t: "hash", v: { a: "1", huge: long, z: "2" }, x: 1_798_761_600_000 },
      { k: "{w:T1}:-:alertmsg:ab12", t: "string", v: long },
    ];
    const text = file(records);
    expect(Math.max(...text.split("\n").map((l) => l.length))).toBeLessThanOrEqual(MAX_LINE);
    expect(parseBackup(text).records).toEqual(records);
  });

  it("any record, at any bound, comes back whole from its lines", () => {
    const str = fc.string({ unit: "binary", maxLength: 60 });
    const record: fc.Arbitrary<BackupRecord> = fc.oneof(
      fc.record({
        k: fc.constant("s"),
        t: fc.constant("set" as const),
        v: fc.uniqueArray(str, { minLength: 1 }),
      }),
      fc.record({
        k: fc.constant("h"),
        t: fc.constant("hash" as const),
        v: fc.dictionary(str, str, { minKeys: 1 }),
      }),
      fc.record({ k: fc.constant("x"), t: fc.constant("string" as const), v: str }),
    );
    fc.assert(
      fc.property(
        record,
        fc.integer({ min: 300, max: 600 }),
        fc.option(fc.integer({ min: 1, max: 2 ** 45 })),
        (r, max, x) => {
          const whole = x === null ? r : { ...r, x };
          const lines = recordLines(whole, max);
          for (const line of lines) expect(line.length).toBeLessThanOrEqual(max);
          const [first, ...rest] = lines.map((l) => JSON.parse(l) as BackupRecord & { c?: true });
          for (const part of rest) {
            expect(part).toMatchObject({ k: whole.k, t: whole.t, c: true });
            joinPart(first as BackupRecord, part);
          }
          expect(first).toEqual(whole);
        },
      ),
    );
  });
});
