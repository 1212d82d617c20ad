// grpc.health.v1.Health: "" (the whole server) and each served service report SERVING
// until shutdown begins, then NOT_SERVING, so load balancers drain before the port closes.
import { Code, ConnectError, type ServiceImpl } from "@connectrpc/connect";
import { Health, HealthCheckResponse_ServingStatus as Status } from "./gen/grpc/health/v1/health_pb.js";

export { Status as ServingStatus };

export class HealthState {
  private readonly statuses = new Map<string, Status>();
  private readonly listeners = new Set<() => void>();
  private readonly stopped = new AbortController();

  constructor(services: string[]) {
    for (const name of ["", ...services]) this.statuses.set(name, Status.SERVING);
  }

  get(service: string): Status | undefined {
    return this.statuses.get(service);
  }

  /** Shutdown: every service turns NOT_SERVING, and Watch streams send that and end. */
  shutDown(): void {
    for (const name of this.statuses.keys()) this.statuses.set(name, Status.NOT_SERVING);
    this.notify();
    this.stopped.abort();
  }

  /** Yields the status now and after every change, until shutdown or signal. */
  async *watch(service: string, signal: AbortSignal): AsyncGenerator<Status> {
    const stop = AbortSignal.any([signal, this.stopped.signal]);
    let last: Status | undefined;
    while (true) {
      const current = this.statuses.get(service) ?? Status.SERVICE_UNKNOWN;
      if (current !== last) yield (last = current);
      if (stop.aborted) return;
      await new Promise<void>((resolve) => {
        const wake = () => {
          this.listeners.delete(wake);
          stop.removeEventListener("abort", wake);
          resolve();
        };
        this.listeners.add(wake);
        stop.addEventListener("abort", wake);
      });
    }
  }

  private notify(): void {
    for (const listener of [...this.listeners]) listener();
  }
}

export function healthService(state: HealthState): ServiceImpl<typeof Health> {
  return {
    check(req) {
      const status = state.get(req.service);
      if (status === undefined) throw new ConnectError(`unknown service "${req.service}"`, Code.NotFound);
      return { status };
    },
    async *watch(req, ctx) {
      for await (const status of state.watch(req.service, ctx.signal)) yield { status };
    },
  };
}
