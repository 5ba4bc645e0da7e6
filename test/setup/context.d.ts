import type {} from "vitest";

declare module "vitest" {
  export interface ProvidedContext {
    redisUrl: string;
    /** How the e2e scenarios reach the app: signed HTTP, or Socket Mode (vitest.config.ts projects). */
    transport: "http" | "socket";
    /** `redis-cluster://…` of a private 3-master Redis Cluster. */
    redisClusterUrl: string;
  }
}
