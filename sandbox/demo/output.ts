import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { renderText } from "../product.ts";

/** What one demo step showed the Slack user, kept for the summary. */
export interface ShownMessage {
  step: string;
  file: string;
  builderUrl: string;
}

/** Block Kit Builder opens a message from its URL fragment. */
export function builderUrl(
  msg: { blocks?: unknown[] },
  surface: "message" | "modal" | "home" = "message",
): string {
  const payload = surface === "message" ? { blocks: msg.blocks ?? [] } : msg;
  return `https://app.slack.com/block-kit-builder/#${encodeURIComponent(JSON.stringify(payload))}`;
}

/**
 * Prints what a Slack user would see and keeps a copy: Block Kit JSON (and a Builder link) in the
 * output folder, so a reader can open the real rendering.
 */
export function createDemoOutput(dir: string, write: (text: string) => void, color: boolean) {
  mkdirSync(dir, { recursive: true });
  const shown: ShownMessage[] = [];
  let n = 0;
  const slug = (s: string) =>
    s
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-|-$/g, "")
      .slice(0, 40);
  return {
    shown,
    step(title: string) {
      write(`\n${color ? "\u001b[1;36m" : ""}▶ ${title}${color ? "\u001b[0m" : ""}\n`);
    },
    note(text: string) {
      write(`  ${text}\n`);
    },
    message(step: string, msg: unknown, surface: "message" | "modal" | "home" = "message") {
      n += 1;
      const file = join(dir, `${String(n).padStart(2, "0")}-${slug(step)}.json`);
      writeFileSync(file, `${JSON.stringify(msg, null, 2)}\n`);
      const text = renderText(msg, { color, width: 100 }).trimEnd();
      write(`  ┌─ ${step} (${surface})\n${text.replace(/^/gm, "  │ ")}\n  └─\n`);
      shown.push({ step, file, builderUrl: builderUrl(msg as { blocks?: unknown[] }, surface) });
    },
    file(name: string, bytes: Uint8Array) {
      const path = join(dir, name);
      writeFileSync(path, bytes);
      return path;
    },
    links() {
      const lines = shown.map(
        (s) => `- ${s.step}: \`${s.file}\` — [open in Block Kit Builder](${s.builderUrl})`,
      );
      const path = join(dir, "README.md");
      writeFileSync(
        path,
        `# Demo output\n\nEvery message the demo's Slack user saw:\n\n${lines.join("\n")}\n`,
      );
      return path;
    },
  };
}
