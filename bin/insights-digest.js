#!/usr/bin/env node
// Runs the TypeScript sources through tsx so `npx insights-digest` works right after `npm ci`,
// with no build step. Production (Procfile) runs the built JavaScript in dist/ instead.
import { register } from "tsx/esm/api";

register();
await import(new URL("../src/cli/main.ts", import.meta.url).href);
