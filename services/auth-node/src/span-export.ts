// The way out for finished spans: a bounded queue, emptied in batches to Zipkin's span intake
// (POST /api/v2/spans, Zipkin's v2 JSON) by one export at a time, off the call path.
//
// A call only pushes its spans onto the queue. A full queue drops the span (reason
// "queue_full"); an export that fails or takes longer than the export timeout drops its batch
// ("export_failed"); both are counted (auth_trace_spans_dropped_total), never retried or
// queued without bound, so a backend that is down or slow costs calls nothing but their spans.
// Exports use fetch with an abort at the timeout: OpenTelemetry's Zipkin exporter for Node
// sets no timeout on its request, so a backend that accepts and never answers would keep a
// socket open for every batch.
import { SpanKind, SpanStatusCode, TraceFlags } from "@opentelemetry/api";
import { hrTimeToMicroseconds } from "@opentelemetry/core";
import type { ReadableSpan, SpanProcessor } from "@opentelemetry/sdk-trace";

/** The bounds of the queue; declared with the service's settings (config.ts). */
export interface SpanQueueLimits {
  /** Spans waiting to be exported, at most; more are dropped. */
  queueSpans: number;
  /** Spans in one export, at most. */
  batchSpans: number;
  /** How long a span may wait in the queue before an export takes it. */
  flushIntervalMs: number;
  /** How long one export may take before its batch is dropped. */
  exportTimeoutMs: number;
}

export type DropReason = "queue_full" | "export_failed";

export class SpanQueue implements SpanProcessor {
  private queue: ReadableSpan[] = [];
  private exporting: Promise<void> | undefined;
  private scheduled = false;
  private closed = false;
  private failing = false;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly endpoint: string,
    private readonly serviceName: string,
    private readonly limits: SpanQueueLimits,
    private readonly dropped: (reason: DropReason, count: number) => void,
    /** Told when exports start failing and when they work again (not at every failure). */
    private readonly warn: (message: string, fields: Record<string, unknown>) => void = () => {},
  ) {
    this.timer = setInterval(() => this.flush(), limits.flushIntervalMs).unref();
  }

  onStart(): void {}

  onEnd(span: ReadableSpan): void {
    if (this.closed || !(span.spanContext().traceFlags & TraceFlags.SAMPLED)) return;
    if (this.queue.length >= this.limits.queueSpans) return this.dropped("queue_full", 1);
    this.queue.push(span);
    if (this.queue.length >= this.limits.batchSpans && !this.scheduled) {
      // A full batch goes out soon, but not inside the call that ended the span: the JSON is
      // built on the event loop's next turn.
      this.scheduled = true;
      setImmediate(() => {
        this.scheduled = false;
        this.flush();
      });
    }
  }

  /** Starts one export of up to a batch, unless one is running. */
  private flush(): void {
    if (this.exporting || this.queue.length === 0) return;
    const batch = this.queue.splice(0, this.limits.batchSpans);
    this.exporting = this.send(batch).finally(() => {
      this.exporting = undefined;
      if (this.queue.length >= this.limits.batchSpans) setImmediate(() => this.flush());
    });
  }

  private async send(batch: ReadableSpan[]): Promise<void> {
    try {
      const res = await fetch(this.endpoint, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(batch.map((span) => zipkinSpan(span, this.serviceName))),
        signal: AbortSignal.timeout(this.limits.exportTimeoutMs),
      });
      await res.arrayBuffer();
      if (!res.ok) throw new Error(`Zipkin answered HTTP ${res.status}`);
      if (this.failing) this.warn("trace export works again", { endpoint: this.endpoint });
      this.failing = false;
    } catch (err) {
      this.dropped("export_failed", batch.length);
      if (!this.failing) this.warn("trace export failed; spans are dropped until it works", { endpoint: this.endpoint, err: String(err) });
      this.failing = true;
    }
  }

  /** Exports everything queued now, unless exports are failing: then what is queued is
   * dropped (counted) rather than waited for, batch after batch. */
  async forceFlush(): Promise<void> {
    await this.exporting;
    while (this.queue.length > 0 && !this.failing) {
      this.flush();
      await this.exporting;
    }
    if (this.queue.length > 0) {
      this.dropped("export_failed", this.queue.length);
      this.queue = [];
    }
  }

  async shutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.forceFlush();
    this.closed = true;
  }
}

const KINDS: Partial<Record<SpanKind, string>> = {
  [SpanKind.SERVER]: "SERVER",
  [SpanKind.CLIENT]: "CLIENT",
  [SpanKind.PRODUCER]: "PRODUCER",
  [SpanKind.CONSUMER]: "CONSUMER",
};

/** A span in Zipkin's v2 model: tags are strings; an error status sets the `error` tag. */
function zipkinSpan(span: ReadableSpan, serviceName: string): Record<string, unknown> {
  const context = span.spanContext();
  const tags: Record<string, string> = {};
  for (const [key, value] of Object.entries(span.attributes)) {
    if (value !== undefined) tags[key] = String(value);
  }
  if (span.status.code === SpanStatusCode.ERROR) {
    tags["otel.status_code"] = "ERROR";
    tags["error"] = span.status.message || "ERROR";
  }
  return {
    traceId: context.traceId,
    id: context.spanId,
    parentId: span.parentSpanContext?.spanId,
    name: span.name,
    kind: KINDS[span.kind],
    timestamp: Math.round(hrTimeToMicroseconds(span.startTime)),
    // Zipkin keeps a duration of at least 1 µs.
    duration: Math.max(1, Math.round(hrTimeToMicroseconds(span.duration))),
    localEndpoint: { serviceName },
    tags,
  };
}
