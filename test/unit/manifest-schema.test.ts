import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { readManifest } from "../../sandbox/slack/manifest/manifest.ts";
import { parseYaml } from "../../sandbox/slack/manifest/yaml.ts";
import { checkManifest, parseManifestYaml } from "../fixtures/manifest-schema/validate.ts";

/**
 * manifest.yaml against Slack's published app-manifest JSON schema (vendored in
 * test/fixtures/manifest-schema), validated with ajv (draft-07). A broken copy must be refused with
 * the errors Slack's schema gives, so the passing test is not passing by accident.
 */
const SOURCE = readFileSync(new URL("../../manifest.yaml", import.meta.url), "utf8");
const parsed = () => structuredClone(parseManifestYaml(SOURCE)) as Record<string, any>;

/** The custom step's parameters written in the version 2 form, as the manifest had them before. */
function v2Form(params: Record<string, any>): Record<string, any> {
  const required = Object.entries(params)
    .filter(([, p]) => p.is_required === true)
    .map(([name]) => name);
  return { properties: params, required };
}

describe("manifest.yaml against Slack's published manifest schema", () => {
  it("declares schema version 1 and validates against it and against the top-level schema", () => {
    const manifest = parsed();
    expect(manifest._metadata).toEqual({ major_version: 1 });
    const result = checkManifest(manifest);
    expect(result).toEqual({ valid: true, version: 1, errors: [], topLevelValid: true });
  });

  it("refuses a copy whose custom step is in the version 2 form, with the schema's four errors", () => {
    const broken = parsed();
    const step = broken.functions.send_insights_digest;
    step.input_parameters = v2Form(step.input_parameters);
    step.output_parameters = v2Form(step.output_parameters);
    const result = checkManifest(broken);
    expect(result.valid).toBe(false);
    expect(result.topLevelValid).toBe(false);
    expect(result.errors.sort()).toEqual([
      "/functions/send_insights_digest/input_parameters/properties must have required property 'type'",
      "/functions/send_insights_digest/input_parameters/required must be object",
      "/functions/send_insights_digest/output_parameters/properties must have required property 'type'",
      "/functions/send_insights_digest/output_parameters/required must be object",
    ]);
  });

  it("refuses a copy that declares version 2 while keeping the version 1 parameters", () => {
    const broken = parsed();
    broken._metadata = { major_version: 2 };
    const result = checkManifest(broken);
    expect(result.version).toBe(2);
    expect(result.valid).toBe(false);
    expect(result.topLevelValid).toBe(false);
    expect(result.errors).toEqual(
      expect.arrayContaining([
        "/functions/send_insights_digest/input_parameters must have required property 'properties'",
        "/functions/send_insights_digest/output_parameters must have required property 'properties'",
      ]),
    );
  });

  it("refuses a slash command without a description and an unknown top-level key", () => {
    const broken = parsed();
    delete broken.features.slash_commands[0].description;
    broken.bot_scopes = ["chat:write"];
    const result = checkManifest(broken);
    expect(result.valid).toBe(false);
    expect(result.errors).toEqual(
      expect.arrayContaining([
        "/features/slash_commands/0 must have required property 'description'",
        "/ must NOT have additional properties (bot_scopes)",
      ]),
    );
  });
});

describe("the Slack stand-in reads the same manifest the same way", () => {
  it("its YAML subset parses manifest.yaml to what a full YAML parser gives", () => {
    expect(parseYaml(SOURCE)).toEqual(parseManifestYaml(SOURCE));
  });

  it("reads the step's parameters with their types and required flags, as the schema version says", () => {
    const step = readManifest(SOURCE).functions.get("send_insights_digest");
    const declared = parsed().functions.send_insights_digest;
    expect(step?.inputs.map((p) => [p.name, p.type, p.isRequired])).toEqual(
      Object.entries(declared.input_parameters).map(([name, p]: [string, any]) => [
        name,
        p.type,
        p.is_required === true,
      ]),
    );
    expect(step?.outputs.every((p) => p.isRequired)).toBe(true);
  });

  it("refuses the version 2 form in a version 1 manifest, as Slack does", () => {
    const v2InV1 = SOURCE.replace(
      /input_parameters:\n/,
      "input_parameters:\n      required:\n        - channel_id\n",
    );
    expect(() => readManifest(v2InV1)).toThrow(/input_parameters\.required must be an object with a type/);
  });

  it("reads the version 2 form when the manifest declares version 2", () => {
    const v2 = [
      "_metadata:",
      "  major_version: 2",
      "functions:",
      "  step:",
      "    title: Step",
      "    input_parameters:",
      "      properties:",
      "        user_id:",
      "          type: slack#/types/user_id",
      "      required:",
      "        - user_id",
      "    output_parameters:",
      "      properties:",
    ].join("\n");
    const step = readManifest(v2).functions.get("step");
    expect(step?.inputs).toEqual([
      {
        name: "user_id",
        type: "slack#/types/user_id",
        title: undefined,
        description: undefined,
        isRequired: true,
      },
    ]);
    expect(() => readManifest(v2.replace("major_version: 2", "major_version: 3"))).toThrow(/must be 1 or 2/);
  });
});
