import { randomUUID } from "node:crypto";

/**
 * A random id of 32 hex digits (122 random bits) for a request or a log line. Drawn from a UUID:
 * Node serves those from a pool of random bytes it refills now and then, where `randomBytes` asks
 * OpenSSL on every call, which was a few percent of the acking process's CPU per request.
 */
export const randomId = (): string => randomUUID().replaceAll("-", "");
