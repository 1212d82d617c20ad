// Failed-login rate limit, per username and per client address, over a sliding window.
// Once either count reaches its limit, further attempts are refused without checking the
// password until the oldest failure leaves the window. Counting is by the username asked
// for, existing or not, so the limit itself reveals nothing about which users exist.
import type { LoginLimits } from "./config.js";

export class LoginLimiter {
  private readonly failures = new Map<string, number[]>();
  private recorded = 0;

  constructor(
    private readonly limits: LoginLimits,
    private readonly now: () => number = Date.now,
  ) {}

  /** Seconds until an attempt may be made again, or 0 when it may be made now. */
  retryAfterSeconds(username: string, address: string): number {
    const wait = Math.max(
      this.wait(`user:${username}`, this.limits.perUser),
      this.wait(`addr:${address}`, this.limits.perAddress),
    );
    return Math.ceil(wait / 1000);
  }

  recordFailure(username: string, address: string): void {
    const at = this.now();
    for (const key of [`user:${username}`, `addr:${address}`]) {
      const list = this.recent(key);
      list.push(at);
      this.failures.set(key, list);
    }
    // Forget keys whose failures have all aged out, so memory follows recent traffic only.
    if (++this.recorded % 1000 === 0) {
      for (const key of [...this.failures.keys()]) this.recent(key);
    }
  }

  /** A successful login clears the user's failures (not the address's: one good password
   * must not reset an address that is guessing at many accounts). */
  recordSuccess(username: string): void {
    this.failures.delete(`user:${username}`);
  }

  private wait(key: string, limit: number): number {
    const list = this.recent(key);
    if (list.length < limit) return 0;
    return list[list.length - limit]! + this.limits.windowSeconds * 1000 - this.now();
  }

  private recent(key: string): number[] {
    const since = this.now() - this.limits.windowSeconds * 1000;
    const list = (this.failures.get(key) ?? []).filter((at) => at > since);
    if (list.length === 0) this.failures.delete(key);
    else this.failures.set(key, list);
    return list;
  }
}
