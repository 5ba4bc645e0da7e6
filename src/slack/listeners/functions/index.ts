import type { FunctionEntry } from "../../frame/index.ts";
import { sendDigestStep } from "./send-digest.ts";

/** Workflow Builder custom steps, one entry per `functions` entry of manifest.yaml. */
export const FUNCTIONS: FunctionEntry[] = [sendDigestStep];
