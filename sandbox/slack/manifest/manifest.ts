import { readFileSync } from "node:fs";
import { parseYaml, type Yaml } from "./yaml.ts";

/** One parameter of a custom step, as the manifest declares it and `function_executed` repeats it. */
export interface StepParameter {
  name: string;
  type: string;
  title?: string;
  description?: string;
  isRequired: boolean;
}

/** A custom step (`functions.<callback_id>` in the manifest). */
export interface StepDefinition {
  callbackId: string;
  title: string;
  description?: string;
  inputs: StepParameter[];
  outputs: StepParameter[];
}

/** What the stand-in takes from the app's manifest: it plays Slack, which only knows the app by it. */
export interface AppManifest {
  functions: Map<string, StepDefinition>;
  unfurlDomains: string[];
  botScopes: string[];
  botEvents: string[];
  /**
   * Whether people can write in the app's Messages tab: `off` (no tab), `read_only` (the app may
   * post, people may not) or `open`.
   */
  messagesTab: "off" | "read_only" | "open";
  /** The agent or assistant messaging experience (`features.agent_view` / `features.assistant_view`). */
  agentExperience: "agent_view" | "assistant_view" | null;
}

/** The repository's manifest.yaml. */
export const MANIFEST_PATH = new URL("../../../manifest.yaml", import.meta.url);

type Obj = Record<string, Yaml>;
const obj = (v: Yaml | undefined): Obj =>
  typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Obj) : {};
const strings = (v: Yaml | undefined): string[] =>
  Array.isArray(v) ? v.filter((s): s is string => typeof s === "string") : [];
const text = (v: Yaml | undefined): string | undefined => (typeof v === "string" ? v : undefined);

/**
 * A step's parameters in the form the manifest's schema version uses. Version 1 (and a manifest
 * without `_metadata`, which Slack reads as version 1) keys each parameter by its name, with
 * `is_required` on it; version 2 nests them under `properties`, with a `required` list of names.
 * A block written in the other version's form is refused, as Slack refuses it.
 */
function parameters(where: string, block: Yaml | undefined, version: number): StepParameter[] {
  const b = obj(block);
  if (version === 2) {
    const required = new Set(strings(b.required));
    for (const key of Object.keys(b))
      if (key !== "properties" && key !== "required")
        throw new Error(`manifest: ${where}.${key} is not allowed in a version 2 manifest`);
    return Object.entries(obj(b.properties)).map(([name, raw]) => parameter(where, name, raw, required));
  }
  return Object.entries(b).map(([name, raw]) => parameter(where, name, raw, new Set()));
}

function parameter(where: string, name: string, raw: Yaml, required: Set<string>): StepParameter {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw))
    throw new Error(`manifest: ${where}.${name} must be an object with a type`);
  const p = obj(raw);
  const type = text(p.type);
  if (!type) throw new Error(`manifest: ${where}.${name} has no type`);
  return {
    name,
    type,
    title: text(p.title),
    description: text(p.description),
    isRequired: required.has(name) || p.is_required === true,
  };
}

/** The manifest's schema version: `_metadata.major_version`, 1 when absent (as Slack reads it). */
function schemaVersion(root: Obj): number {
  const v = obj(root._metadata).major_version;
  if (v === undefined || v === null) return 1;
  if (v !== 1 && v !== 2)
    throw new Error(`manifest: _metadata.major_version must be 1 or 2, got ${String(v)}`);
  return v;
}

/** Reads the parts of a manifest (YAML text) that Slack acts on for this app. */
export function readManifest(source: string): AppManifest {
  const root = obj(parseYaml(source));
  const version = schemaVersion(root);
  const functions = new Map<string, StepDefinition>();
  for (const [callbackId, raw] of Object.entries(obj(root.functions))) {
    const f = obj(raw);
    const title = text(f.title);
    if (!title) throw new Error(`manifest: functions.${callbackId} has no title`);
    functions.set(callbackId, {
      callbackId,
      title,
      description: text(f.description),
      inputs: parameters(`functions.${callbackId}.input_parameters`, f.input_parameters, version),
      outputs: parameters(`functions.${callbackId}.output_parameters`, f.output_parameters, version),
    });
  }
  const features = obj(root.features);
  const settings = obj(root.settings);
  const home = obj(features.app_home);
  return {
    functions,
    unfurlDomains: strings(features.unfurl_domains).map((d) => d.toLowerCase()),
    botScopes: strings(obj(obj(root.oauth_config).scopes).bot),
    botEvents: strings(obj(settings.event_subscriptions).bot_events),
    messagesTab:
      home.messages_tab_enabled !== true
        ? "off"
        : home.messages_tab_read_only_enabled === true
          ? "read_only"
          : "open",
    agentExperience:
      features.agent_view !== undefined
        ? "agent_view"
        : features.assistant_view !== undefined
          ? "assistant_view"
          : null,
  };
}

/** The repository's manifest, read fresh (tests may run while it is edited). */
export function loadManifest(path: URL | string = MANIFEST_PATH): AppManifest {
  return readManifest(readFileSync(path, "utf8"));
}
