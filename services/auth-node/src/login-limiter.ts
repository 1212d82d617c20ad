// Failed-login limits, over a sliding window, built so that no caller can lock the owner of
// an account out (a plain per-account lock-out lets anyone block the admin with five wrong
// passwords). Following OWASP's authentication guidance, failures are counted:
//   - per username AND client address: guessing at an account locks out that address only;
//   - per client address, across usernames: one address spraying many accounts is stopped;
//   - per username across all addresses: a guessing attack spread over many addresses is
//     stopped, but only for addresses the user has not logged in from lately — the owner's
//     usual addresses keep working (the server-side form of OWASP's "device cookies").
// Over a limit, attempts are refused without checking the password until the oldest failure
// leaves the window. Counting is by the username asked for, existing or not, so the limits
// reveal nothing about which users exist. Everything is in memory, per process, and bounded.
import type { LoginLimits } from "./config.js";

/** How long an address stays trusted for a user after a successful login from it. */
const TRUST_MS = 30 * 24 * 3600 * 1000;
/** Addresses remembered per user; the least recently used is forgotten first. */
const TRUSTED_PER_USER = 16;
/** Failure counters kept at most; past it the oldest are dropped, so memory stays bounded. */
const MAX_COUNTERS = 100_000;

export class LoginLimiter {
  private readonly failures = new Map<string, number[]>();
  private readonly trusted = new Map<string, Map<string, number>>();
  private recorded = 0;

  constructor(
    private readonly limits: LoginLimits,
    private readonly now: () => number = Date.now,
  ) {}

  /** Seconds until an attempt may be made again, or 0 when it may be made now. */
  retryAfterSeconds(username: string, address: string): number {
    const wait = Math.max(
      this.wait(pairKey(username, address), this.limits.perUserAndAddress),
      this.wait(addressKey(address), this.limits.perAddress),
      this.isTrusted(username, address) ? 0 : this.wait(userKey(username), this.limits.perUser),
    );
    return Math.ceil(wait / 1000);
  }

  recordFailure(username: string, address: string): void {
    const at = this.now();
    for (const key of [pairKey(username, address), addressKey(address), userKey(username)]) {
      const list = this.recent(key);
      list.push(at);
      this.failures.set(key, list);
    }
    // Forget keys whose failures have all aged out, so memory follows recent traffic only.
    if (++this.recorded % 1000 === 0) {
      for (const key of [...this.failures.keys()]) this.recent(key);
    }
    for (const key of this.failures.keys()) {
      if (this.failures.size <= MAX_COUNTERS) break;
      this.failures.delete(key);
    }
  }

  /** A successful login clears the pair's failures and trusts the address for the user. Not
   * the address's count (one good password must not reset an address guessing at many
   * accounts), nor the user's (the owner logging in must not reset a distributed attack). */
  recordSuccess(username: string, address: string): void {
    this.failures.delete(pairKey(username, address));
    const addresses = this.trusted.get(username) ?? new Map<string, number>();
    addresses.delete(address);
    addresses.set(address, this.now());
    for (const oldest of addresses.keys()) {
      if (addresses.size <= TRUSTED_PER_USER) break;
      addresses.delete(oldest);
    }
    this.trusted.set(username, addresses);
  }

  private isTrusted(username: string, address: string): boolean {
    const since = this.trusted.get(username)?.get(address);
    return since !== undefined && this.now() - since < TRUST_MS;
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

const pairKey = (username: string, address: string) => `pair:${username}\u0000${address}`;
const addressKey = (address: string) => `addr:${address}`;
const userKey = (username: string) => `user:${username}`;
