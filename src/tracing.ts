import {
  type Attributes,
  type Context,
  context,
  INVALID_SPAN_CONTEXT,
  ROOT_CONTEXT,
  type Span,
  SpanStatusCode,
  type TextMapGetter,
  type TextMapSetter,
  type Tracer,
  trace,
} from "@opentelemetry/api";
import type { SpanProcessor } from "@opentelemetry/sdk-trace";

/**
 * OpenTelemetry traces, off unless an OTLP endpoint is configured. Off, the tracer is the API's no-op
 * (spans are shared empty objects, nothing is recorded or exported) and the SDK is never loaded; on,
 * the SDK is loaded once, spans go out in batches over OTLP/HTTP, and the active span follows async
 * work (AsyncLocalStorage). The tracer is handed down by each composition root, never global.
 * Attributes carry ids and codes only: never an API key, a token or a response_url.
 */
export interface Tracing {
  tracer: Tracer;
  enabled: boolean;
  /**
   * The active span as a W3C `traceparent` (`00-<trace id>-<span id>-<flags>`), to carry in job data
   * across a queue; undefined when nothing is traced. An id, not a secret.
   */
  traceparent(): string | undefined;
  /** The context a carried `traceparent` names (the root context when there is none or tracing is off). */
  parentOf(traceparent: string | undefined): Context;
  /** Exports what is pending and stops (a no-op when off). */
  shutdown(): Promise<void>;
}

/** The API's own no-op tracer: what every span costs when tracing is off. */
export const NO_TRACING: Tracing = {
  tracer: trace.getTracerProvider().getTracer("insights-digest"),
  enabled: false,
  traceparent: () => undefined,
  parentOf: () => ROOT_CONTEXT,
  shutdown: async () => undefined,
};

export interface TracingOptions {
  /** OTEL_EXPORTER_OTLP_ENDPOINT: spans are posted to `<endpoint>/v1/traces`. */
  endpoint?: string;
  serviceName: string;
  /**
   * Processors instead of the OTLP exporter (tests: a SimpleSpanProcessor around an
   * InMemorySpanExporter). Given, or with an endpoint, tracing is on.
   */
  processors?: SpanProcessor[];
}

let contextManagerSet = false;

const TRACEPARENT = /^[0-9a-f]{2}-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$/;

/** Tracing for one process: on with an endpoint (or processors), else {@link NO_TRACING}. */
export async function createTracing(o: TracingOptions): Promise<Tracing> {
  if (!o.endpoint && !o.processors) return NO_TRACING;
  const [
    sdk,
    { resourceFromAttributes },
    { AsyncLocalStorageContextManager },
    { W3CTraceContextPropagator },
  ] = await Promise.all([
    import("@opentelemetry/sdk-trace"),
    import("@opentelemetry/resources"),
    import("@opentelemetry/context-async-hooks"),
    import("@opentelemetry/core"),
  ]);
  let processors = o.processors;
  if (!processors) {
    const { OTLPTraceExporter } = await import("@opentelemetry/exporter-trace-otlp-http");
    const url = `${(o.endpoint as string).replace(/\/+$/, "")}/v1/traces`;
    processors = [new sdk.BatchSpanProcessor({ exporter: new OTLPTraceExporter({ url }) })];
  }
  // One context manager per process, set once: the active span then follows awaits and callbacks.
  if (!contextManagerSet) {
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    contextManagerSet = true;
  }
  const provider = new sdk.TracerProvider({
    resource: resourceFromAttributes({ "service.name": o.serviceName }),
    spanProcessors: processors,
  });
  const propagator = new W3CTraceContextPropagator();
  return {
    tracer: provider.getTracer("insights-digest"),
    enabled: true,
    traceparent() {
      if (!trace.getActiveSpan()?.isRecording()) return undefined;
      const carrier: Record<string, string> = {};
      propagator.inject(context.active(), carrier, setter);
      return carrier.traceparent;
    },
    parentOf(traceparent) {
      if (!traceparent || !TRACEPARENT.test(traceparent)) return ROOT_CONTEXT;
      return propagator.extract(ROOT_CONTEXT, { traceparent }, getter);
    },
    shutdown: () => provider.shutdown(),
  };
}

const setter: TextMapSetter<Record<string, string>> = {
  set: (c, k, v) => {
    c[k] = v;
  },
};
const getter: TextMapGetter<Record<string, string>> = {
  keys: (c) => Object.keys(c),
  get: (c, k) => c[k],
};

/** The span `inSpan` hands its work when tracing is off: records nothing. */
const NOOP_SPAN: Span = trace.wrapSpanContext(INVALID_SPAN_CONTEXT);

/**
 * Runs `work` in a span named `name`, a child of the active span (or of `parent`). The span ends when
 * the work does; a failure marks it with the error's code only (messages can quote replies).
 */
export function inSpan<T>(
  tracer: Tracer,
  name: string,
  attributes: Attributes,
  work: (span: Span) => Promise<T>,
  parent?: Context,
): Promise<T> {
  // Off: no span is made and no context is entered; the work runs as if unwrapped.
  if (tracer === NO_TRACING.tracer) return work(NOOP_SPAN);
  const run = (span: Span) =>
    work(span).then(
      (out) => {
        span.end();
        return out;
      },
      (err: unknown) => {
        span.setStatus({ code: SpanStatusCode.ERROR, message: errorCode(err) });
        span.setAttribute("error.type", errorCode(err));
        span.end();
        throw err;
      },
    );
  return parent === undefined
    ? tracer.startActiveSpan(name, { attributes }, run)
    : tracer.startActiveSpan(name, { attributes }, parent, run);
}

/** An error's code (ours, or Slack's), never its message. */
function errorCode(err: unknown): string {
  const e = err as { code?: unknown; slackError?: unknown; name?: unknown };
  const code =
    typeof e?.slackError === "string" ? e.slackError : typeof e?.code === "string" ? e.code : e?.name;
  return typeof code === "string" && /^[A-Za-z_]{1,40}$/.test(code) ? code : "error";
}
