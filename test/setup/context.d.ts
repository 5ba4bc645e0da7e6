import type {} from "vitest";
export {};

declare module "vitest" {
  export interface ProvidedContext {
    redisUrl: string;
  }
}
