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
// reveal nothing about which users exist. An attempt counts as a failure from the moment it is
// let through (attempt()), before the password is checked, and is taken back if it succeeds:
// counted only once the ~50 ms key derivation had failed, guesses sent at once all passed the
// check before the first was counted.
//
// The rules are here; where failures are kept is a LimiterStorage: in memory, per process and
// bounded (MemoryLimiterStorage, the SQLite default's), or in PostgreSQL, shared by every
// replica (postgres-store.ts), so failures spread over replicas count together.
import type { LoginLimits } from "./config.js";

/** How long an address stays trusted for a user after a successful login from it. */
export const TRUST_MS = 30 * 24 * 3600 * 1000;
/** Addresses remembered per user; the least recently used is forgotten first. */
export const TRUSTED_PER_USER = 16;
/** Failure counters kept at most in memory; past it those idle longest are dropped. */
const MAX_COUNTERS = 100_000;

/** Where failures and trusted addresses are kept. Times are milliseconds since the epoch. */
export interface LimiterStorage {
  /** For each key, the times of its failures after since, oldest first. */
  failures(keys: readonly string[], since: number): Promise<number[][]>;
  addFailure(keys: readonly string[], at: number, windowMs: number): Promise<void>;
  /** Takes back one failure recorded at that time under each key (an attempt that succeeded). */
  removeFailure(keys: readonly string[], at: number): Promise<void>;
  clearFailures(key: string): Promise<void>;
  /** When the user last logged in from the address, if it is one of theirs. */
  trustedSince(username: string, address: string): Promise<number | undefined>;
  /** Remembers the address for the user, forgetting all but the TRUSTED_PER_USER latest. */
  trust(username: string, address: string, at: number): Promise<void>;
}

export class LoginLimiter {
  /** The last check-and-count started (attempt): the next waits for it. */
  private counting: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly limits: LoginLimits,
    private readonly storage: LimiterStorage = new MemoryLimiterStorage(),
    private readonly now: () => number = Date.now,
  ) {}

  /** Seconds until an attempt may be made again, or 0 when it may be made now. */
  async retryAfterSeconds(username: string, address: string): Promise<number> {
    const now = this.now();
    const windowMs = this.limits.windowSeconds * 1000;
    const [[pair, byAddress, byUser], trustedSince] = await Promise.all([
      this.storage.failures([pairKey(username, address), addressKey(address), userKey(username)], now - windowMs),
      this.storage.trustedSince(username, address),
    ]);
    const trusted = trustedSince !== undefined && now - trustedSince < TRUST_MS;
    const wait = Math.max(
      waitFor(pair!, this.limits.perUserAndAddress, windowMs, now),
      waitFor(byAddress!, this.limits.perAddress, windowMs, now),
      trusted ? 0 : waitFor(byUser!, this.limits.perUser, windowMs, now),
    );
    return Math.ceil(wait / 1000);
  }

  /** Lets an attempt through, counting it as a failure now (at), or says how many seconds to
   * wait. A success takes the count back (recordSuccess with at). */
  attempt(username: string, address: string): Promise<{ retryAfterSeconds: number; at: number }> {
    // One check-and-count at a time in this process: started together, every check would read
    // the counts before any was raised. (Replicas sharing PostgreSQL can still interleave theirs,
    // for the two statements' round trip rather than the key derivation's ~50 ms.)
    const step = this.counting.then(async () => {
      const retryAfterSeconds = await this.retryAfterSeconds(username, address);
      const at = this.now();
      if (retryAfterSeconds === 0) await this.recordFailure(username, address, at);
      return { retryAfterSeconds, at };
    });
    this.counting = step.catch(() => undefined);
    return step;
  }

  recordFailure(username: string, address: string, at: number = this.now()): Promise<void> {
    return this.storage.addFailure(
      [pairKey(username, address), addressKey(address), userKey(username)],
      at,
      this.limits.windowSeconds * 1000,
    );
  }

  /** A successful login clears the pair's failures and trusts the address for the user. Not
   * the address's count (one good password must not reset an address guessing at many
   * accounts), nor the user's (the owner logging in must not reset a distributed attack):
   * from those only its own attempt, counted at attemptAt, is taken back. */
  async recordSuccess(username: string, address: string, attemptAt?: number): Promise<void> {
    if (attemptAt !== undefined) await this.storage.removeFailure([addressKey(address), userKey(username)], attemptAt);
    await this.storage.clearFailures(pairKey(username, address));
    await this.storage.trust(username, address, this.now());
  }
}

/** How long until fewer than limit failures are left in the window (failures oldest first). */
function waitFor(failures: number[], limit: number, windowMs: number, now: number): number {
  if (failures.length < limit) return 0;
  return failures[failures.length - limit]! + windowMs - now;
}

// JSON: unambiguous whatever a username holds, and no NUL (PostgreSQL text cannot hold one).
const pairKey = (username: string, address: string) => `pair:${JSON.stringify([username, address])}`;
const addressKey = (address: string) => `addr:${address}`;
const userKey = (username: string) => `user:${username}`;

/** One process's failures, in memory and bounded: keys whose failures aged out are forgotten. */
export class MemoryLimiterStorage implements LimiterStorage {
  private readonly failureTimes = new Map<string, number[]>();
  private readonly trusted = new Map<string, Map<string, number>>();
  private recorded = 0;

  async failures(keys: readonly string[], since: number): Promise<number[][]> {
    return keys.map((key) => this.recent(key, since));
  }

  async addFailure(keys: readonly string[], at: number, windowMs: number): Promise<void> {
    for (const key of keys) {
      const list = this.recent(key, at - windowMs);
      list.push(at);
      // Moved to the end: the map's order is by last failure, and the cap below drops the
      // counters idle longest, not those of an account still under attack.
      this.failureTimes.delete(key);
      this.failureTimes.set(key, list);
    }
    // Forget keys whose failures have all aged out, so memory follows recent traffic only.
    if (++this.recorded % 1000 === 0) {
      for (const key of [...this.failureTimes.keys()]) this.recent(key, at - windowMs);
    }
    for (const key of this.failureTimes.keys()) {
      if (this.failureTimes.size <= MAX_COUNTERS) break;
      this.failureTimes.delete(key);
    }
  }

  async removeFailure(keys: readonly string[], at: number): Promise<void> {
    for (const key of keys) {
      const list = this.failureTimes.get(key);
      const i = list?.indexOf(at) ?? -1;
      if (i >= 0) list!.splice(i, 1);
      if (list?.length === 0) this.failureTimes.delete(key);
    }
  }

  async clearFailures(key: string): Promise<void> {
    this.failureTimes.delete(key);
  }

  async trustedSince(username: string, address: string): Promise<number | undefined> {
    return this.trusted.get(username)?.get(address);
  }

  async trust(username: string, address: string, at: number): Promise<void> {
    const addresses = this.trusted.get(username) ?? new Map<string, number>();
    addresses.delete(address);
    addresses.set(address, at);
    for (const oldest of addresses.keys()) {
      if (addresses.size <= TRUSTED_PER_USER) break;
      addresses.delete(oldest);
    }
    this.trusted.set(username, addresses);
  }

  private recent(key: string, since: number): number[] {
    const list = (this.failureTimes.get(key) ?? []).filter((at) => at > since);
    if (list.length === 0) this.failureTimes.delete(key);
    else this.failureTimes.set(key, list);
    return list;
  }
}
