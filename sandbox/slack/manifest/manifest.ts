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
}

/** The repository's manifest.yaml. */
export const MANIFEST_PATH = new URL("../../../manifest.yaml", import.meta.url);

type Obj = Record<string, Yaml>;
const obj = (v: Yaml | undefined): Obj =>
  typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Obj) : {};
const strings = (v: Yaml | undefined): string[] =>
  Array.isArray(v) ? v.filter((s): s is string => typeof s === "string") : [];
const text = (v: Yaml | undefined): string | undefined => (typeof v === "string" ? v : undefined);

function parameters(where: string, block: Yaml | undefined): StepParameter[] {
  const b = obj(block);
  const required = new Set(strings(b.required));
  return Object.entries(obj(b.properties)).map(([name, raw]) => {
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
  });
}

/** Reads the parts of a manifest (YAML text) that Slack acts on for this app. */
export function readManifest(source: string): AppManifest {
  const root = obj(parseYaml(source));
  const functions = new Map<string, StepDefinition>();
  for (const [callbackId, raw] of Object.entries(obj(root.functions))) {
    const f = obj(raw);
    const title = text(f.title);
    if (!title) throw new Error(`manifest: functions.${callbackId} has no title`);
    functions.set(callbackId, {
      callbackId,
      title,
      description: text(f.description),
      inputs: parameters(`functions.${callbackId}.input_parameters`, f.input_parameters),
      outputs: parameters(`functions.${callbackId}.output_parameters`, f.output_parameters),
    });
  }
  const features = obj(root.features);
  const settings = obj(root.settings);
  return {
    functions,
    unfurlDomains: strings(features.unfurl_domains).map((d) => d.toLowerCase()),
    botScopes: strings(obj(obj(root.oauth_config).scopes).bot),
    botEvents: strings(obj(settings.event_subscriptions).bot_events),
  };
}

/** The repository's manifest, read fresh (tests may run while it is edited). */
export function loadManifest(path: URL | string = MANIFEST_PATH): AppManifest {
  return readManifest(readFileSync(path, "utf8"));
}
