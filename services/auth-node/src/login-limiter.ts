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
// reveal nothing about which users exist.
//
// Attempts sent at once: a failure is known only after the ~50 ms key derivation, so checked
// one by one against the failures recorded, thirty guesses sent together all passed before the
// first was counted. An attempt let through is now undecided until its password is judged, and
// counts against the limits meanwhile: one that would reach a limit only with the undecided
// ones waits for them rather than being refused (at most the limit's number wait; more are told
// to retry in a second), so correct logins sent at once pass, and guesses sent at once stop at
// the limit. Undecided attempts are this process's: replicas sharing PostgreSQL see each
// other's once decided, so at once each lets through at most the limit.
//
// The rules are here; where failures are kept is a LimiterStorage: in memory, per process and
// bounded (MemoryLimiterStorage, the SQLite default's), or in PostgreSQL, shared by every
// replica (postgres-store.ts), so failures spread over replicas count together.
import type { LoginLimits } from "./config.js";

/** How long an address stays trusted for a user after a successful login from it. */
export const TRUST_MS = 30 * 24 * 3600 * 1000;
/** Addresses remembered per user; the least recently used is forgotten first. */
export const TRUSTED_PER_USER = 16;
/** Failure counters kept at most in memory; past it those idle longest (neither checked nor
 * failed) are dropped. */
const MAX_COUNTERS = 100_000;
/** Reads of the counters one attempt makes when failures keep being recorded meanwhile. */
const MAX_READS = 8;

/** Where failures and trusted addresses are kept. Times are milliseconds since the epoch. */
export interface LimiterStorage {
  /** For each key, the times of its failures after since, oldest first. */
  failures(keys: readonly string[], since: number): Promise<number[][]>;
  addFailure(keys: readonly string[], at: number, windowMs: number): Promise<void>;
  clearFailures(key: string): Promise<void>;
  /** When the user last logged in from the address, if it is one of theirs. */
  trustedSince(username: string, address: string): Promise<number | undefined>;
  /** Remembers the address for the user, forgetting all but the TRUSTED_PER_USER latest. */
  trust(username: string, address: string, at: number): Promise<void>;
}

/** Why an attempt was refused: a limit of failures is reached ("failures"), or none was by what
 * it read, but it could not be judged now ("busy": as many attempts already wait on one of its
 * counters as the limit lets through, or failures kept being recorded while it read them; the
 * attempts ahead of it may yet reach a limit). */
export type Refusal = "failures" | "busy";

/** An attempt asked for: refused (retryAfterSeconds > 0, with the reason, and the rest does
 * nothing), or let through and then decided exactly once. */
export interface Attempt {
  readonly retryAfterSeconds: number;
  readonly refusal: Refusal | undefined;
  /** The password was wrong, or the user unknown or disabled: a failure. */
  failed(): Promise<void>;
  /** The password was right: the pair's failures cleared, the address trusted. */
  succeeded(): Promise<void>;
  /** Nothing was judged (the store or the hash failed): not a failure. */
  abandoned(): void;
}

export class LoginLimiter {
  /** Attempts let through and not decided yet in this process, by counter. */
  private readonly undecided = new Map<string, number>();
  /** Failures this process has recorded: a check that read the counts while one was being
   * written reads them again. One number, not one per counter: counters are named by callers,
   * and a map of them kept for ever would grow with every name an attacker tries. */
  private recorded = 0;
  /** Who waits for an attempt on a counter to be decided (a waiter leaves every counter's set
   * when it wakes, so a set's size is the attempts waiting on it). */
  private readonly waiting = new Map<string, Set<() => void>>();

  constructor(
    private readonly limits: LoginLimits,
    private readonly storage: LimiterStorage = new MemoryLimiterStorage(),
    private readonly now: () => number = Date.now,
  ) {}

  /** Seconds until an attempt may be made again, or 0 when it may be made now (failures
   * recorded only; attempt() counts the undecided ones too). */
  async retryAfterSeconds(username: string, address: string): Promise<number> {
    const { failures, limits, now } = await this.read(username, address);
    return refusal(failures, limits, this.limits.windowSeconds * 1000, now);
  }

  /** Asks to try a password: refused while a limit is reached; let through at once when no limit
   * would be reached even if every undecided attempt failed; otherwise after those decide. */
  async attempt(username: string, address: string): Promise<Attempt> {
    const keys = counters(username, address);
    for (let reads = 1; ; reads++) {
      const before = this.recorded;
      const { failures, limits, now } = await this.read(username, address);
      if (this.recorded !== before) {
        // A failure was recorded somewhere in this process while the counts were read: read
        // again, a few times; past that, under a flood of failures, ask to retry in a second.
        if (reads < MAX_READS) continue;
        return refused(1, "busy");
      }
      const retryAfterSeconds = refusal(failures, limits, this.limits.windowSeconds * 1000, now);
      if (retryAfterSeconds > 0) return refused(retryAfterSeconds, "failures");
      const undecided = keys.map((k) => this.undecided.get(k) ?? 0);
      const pending = keys.filter((k, i) => undecided[i]! > 0 && failures[i]!.length + undecided[i]! >= limits[i]!);
      if (pending.length === 0) return this.letThrough(username, address, keys);
      // At most as many waiting as the limit lets through: every decision wakes them all to read
      // the counters again, so a flood would cost that many reads a decision. Past it: a second.
      if (keys.some((k, i) => pending.includes(k) && (this.waiting.get(k)?.size ?? 0) >= limits[i]!)) return refused(1, "busy");
      await new Promise<void>((resolve) => {
        const wake = () => {
          for (const k of pending) {
            const set = this.waiting.get(k);
            set?.delete(wake);
            if (set?.size === 0) this.waiting.delete(k);
          }
          resolve();
        };
        for (const k of pending) this.waiting.set(k, (this.waiting.get(k) ?? new Set()).add(wake));
      });
    }
  }

  recordFailure(username: string, address: string): Promise<void> {
    return this.storage.addFailure(counters(username, address), this.now(), this.limits.windowSeconds * 1000);
  }

  /** A successful login clears the pair's failures and trusts the address for the user. Not
   * the address's count (one good password must not reset an address guessing at many
   * accounts), nor the user's (the owner logging in must not reset a distributed attack). */
  async recordSuccess(username: string, address: string): Promise<void> {
    await this.storage.clearFailures(pairKey(username, address));
    await this.storage.trust(username, address, this.now());
  }

  private async read(username: string, address: string): Promise<{ failures: number[][]; limits: number[]; now: number }> {
    const now = this.now();
    const [failures, trustedSince] = await Promise.all([
      this.storage.failures(counters(username, address), now - this.limits.windowSeconds * 1000),
      this.storage.trustedSince(username, address),
    ]);
    const trusted = trustedSince !== undefined && now - trustedSince < TRUST_MS;
    const limits = [this.limits.perUserAndAddress, this.limits.perAddress, trusted ? Infinity : this.limits.perUser];
    return { failures, limits, now };
  }

  private letThrough(username: string, address: string, keys: string[]): Attempt {
    for (const k of keys) this.undecided.set(k, (this.undecided.get(k) ?? 0) + 1);
    let decided = false;
    // Synchronous, after any write: a check reading the counts meanwhile sees the failure
    // written or the attempt still undecided, never neither. Once (settle() takes the call).
    const decide = (failure: boolean) => {
      if (failure) this.recorded++;
      for (const k of keys) {
        const left = (this.undecided.get(k) ?? 1) - 1;
        if (left > 0) this.undecided.set(k, left);
        else this.undecided.delete(k);
        for (const wake of [...(this.waiting.get(k) ?? [])]) wake();
      }
    };
    const settle = async (write: () => Promise<void>, failure: boolean) => {
      if (decided) return;
      decided = true;
      try {
        await write();
      } finally {
        decide(failure);
      }
    };
    return {
      retryAfterSeconds: 0,
      refusal: undefined,
      failed: () => settle(() => this.recordFailure(username, address), true),
      succeeded: () => settle(() => this.recordSuccess(username, address), false),
      abandoned: () => {
        if (decided) return;
        decided = true;
        decide(false);
      },
    };
  }
}

function refused(retryAfterSeconds: number, refusal: Refusal): Attempt {
  return { retryAfterSeconds, refusal, failed: async () => {}, succeeded: async () => {}, abandoned: () => {} };
}

/** Seconds until every counter is under its limit (0: it is now). */
function refusal(failures: number[][], limits: number[], windowMs: number, now: number): number {
  const wait = Math.max(...failures.map((f, i) => waitFor(f, limits[i]!, windowMs, now)));
  return Math.ceil(wait / 1000);
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
/** The three counters an attempt is held to, in the order of their limits. */
const counters = (username: string, address: string) => [pairKey(username, address), addressKey(address), userKey(username)];

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
      this.failureTimes.set(key, list); // at the end (recent): the cap drops the idle first
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

  /** A counter's failures in the window; read or written, it moves to the end of the map (the
   * cap drops from the front: those neither checked nor failed for longest). */
  private recent(key: string, since: number): number[] {
    const list = (this.failureTimes.get(key) ?? []).filter((at) => at > since);
    this.failureTimes.delete(key);
    if (list.length > 0) this.failureTimes.set(key, list);
    return list;
  }
}
