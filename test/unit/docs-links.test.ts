import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The README is the front door, CHANGELOG.md the upgrade notes and docs/ holds the rest: every relative
 * link and every anchor in them must lead somewhere, or a reader lands on nothing. Anchors follow GitHub's
 * slugs (lower case, punctuation dropped, spaces to hyphens, repeats numbered).
 */
const ROOT = resolve(import.meta.dirname, "../..");

/** Every Markdown file under `dir`, its subfolders' included (docs/notes/ and the like). */
function markdownUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? markdownUnder(join(dir, e.name)) : e.name.endsWith(".md") ? [join(dir, e.name)] : [],
  );
}

function markdownFiles(): string[] {
  const docs = markdownUnder(join(ROOT, "docs"));
  const sandbox = ["sandbox/README.md", "sandbox/analytics/README.md", "sandbox/slack/README.md"].map((f) =>
    join(ROOT, f),
  );
  return [
    join(ROOT, "README.md"),
    join(ROOT, "CHANGELOG.md"),
    ...docs,
    ...sandbox.filter((f) => existsSync(f)),
  ];
}

/** Markdown without fenced code, where brackets are text, not links. */
function prose(md: string): string {
  return md.replace(/^```[\s\S]*?^```/gm, "");
}

function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/`/g, "")
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

function anchors(file: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const line of prose(readFileSync(file, "utf8")).split("\n")) {
    const m = /^#{1,6}\s+(.*)$/.exec(line);
    if (!m) continue;
    const base = slug(m[1] as string);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

function links(file: string): string[] {
  const out: string[] = [];
  for (const m of prose(readFileSync(file, "utf8")).matchAll(/\]\(([^)\s]+)\)/g)) out.push(m[1] as string);
  return out;
}

describe("links in README.md and docs/", () => {
  const files = markdownFiles();

  it("every relative link names a file that exists, and every anchor a heading in it", () => {
    const broken: string[] = [];
    let checked = 0;
    for (const file of files)
      for (const link of links(file)) {
        if (/^[a-z]+:/i.test(link)) continue; // https:, mailto:
        checked++;
        const [path, anchor] = link.split("#") as [string, string | undefined];
        const target = path === "" ? file : resolve(dirname(file), path);
        const where = `${relative(ROOT, file)} → ${link}`;
        if (!existsSync(target)) {
          broken.push(`${where}: no such file`);
          continue;
        }
        if (anchor === undefined) continue;
        if (!statSync(target).isFile() || !target.endsWith(".md")) {
          broken.push(`${where}: an anchor into a file that is not Markdown`);
          continue;
        }
        if (!anchors(target).has(anchor)) broken.push(`${where}: no heading with that anchor`);
      }
    expect(broken).toEqual([]);
    expect(checked).toBeGreaterThan(20);
  });

  it("every bench report the docs cite is in test/bench/results (the folder keeps only those)", () => {
    const results = join(ROOT, "test/bench/results");
    const cited = files.flatMap((file) =>
      links(file)
        .map((link) => resolve(dirname(file), link.split("#")[0] as string))
        .filter((target) => target.startsWith(`${results}/`)),
    );
    expect(cited.length).toBeGreaterThan(0);
    expect(cited.filter((target) => !existsSync(target)).map((t) => relative(ROOT, t))).toEqual([]);
  });

  it("the README stays a front door: at most 250 lines, with the two commands and a link to each doc", () => {
    const readme = readFileSync(join(ROOT, "README.md"), "utf8");
    expect(readme.split("\n").length).toBeLessThanOrEqual(250);
    expect(readme).toContain("npx insights-digest preview last30d");
    expect(readme).toContain("npm test");
    for (const doc of ["usage", "operations", "architecture", "performance", "security"])
      expect(links(join(ROOT, "README.md"))).toContain(`docs/${doc}.md`);
  });

  it("slugs match GitHub's for the headings used here", () => {
    expect(slug('Workflow Builder step: "Send insights digest"')).toBe(
      "workflow-builder-step-send-insights-digest",
    );
    expect(slug("Why did it change? Drivers and data gaps")).toBe("why-did-it-change-drivers-and-data-gaps");
    expect(slug("A. One workspace, HTTP (simplest)")).toBe("a-one-workspace-http-simplest");
  });
});
