package com.acme.person.auth;

import com.acme.auth.v1.AuthServiceGrpc.AuthServiceBlockingStub;
import com.acme.auth.v1.ValidateTokenRequest;
import com.acme.auth.v1.ValidateTokenResponse;
import com.acme.person.config.PersonProperties;
import com.acme.person.mapping.ProtoTimes;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;
import io.grpc.StatusRuntimeException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.springframework.stereotype.Component;

/**
 * Checks bearer tokens with the auth service's ValidateToken, through the generated client, with
 * a deadline on every call. Answers are cached in a small bounded cache whose entries expire at
 * the earlier of the cache TTL and the token's own expires_at, so a cached answer never
 * outlives its token. Only successes are cached; keys are SHA-256 of the token.
 */
@Component
public class TokenValidator {

  private final AuthServiceBlockingStub auth;
  private final Duration deadline;
  private final Duration ttl;
  private final Clock clock;
  private final Cache<String, Caller> cache;
  /** The tokens being checked with the auth service now, by key, and the answer to come. */
  private final ConcurrentHashMap<String, CompletableFuture<Caller>> asking = new ConcurrentHashMap<>();

  public TokenValidator(AuthServiceBlockingStub auth, PersonProperties properties, Clock clock) {
    this.auth = auth;
    this.deadline = properties.auth().deadline();
    this.ttl = properties.auth().cacheTtl();
    this.clock = clock;
    this.cache =
        Caffeine.newBuilder()
            .maximumSize(properties.auth().cacheMaxSize())
            .expireAfter(new UntilTokenExpires())
            .build();
  }

  /** Validates the value of an "authorization" header ("Bearer <token>"). */
  public Caller validateHeader(String authorization) {
    return validate(bearerToken(authorization));
  }

  /**
   * The header token's cached, unexpired answer, or null: never calls the auth service, never
   * throws. What it returns is the answer to use — asking the cache a second time could find
   * the entry expired in between, and then validating would call the auth service.
   */
  public Caller cachedCaller(String authorization) {
    try {
      Caller cached = cache.getIfPresent(sha256(bearerToken(authorization)));
      return cached != null && cached.expiresAt().isAfter(clock.instant()) ? cached : null;
    } catch (UnauthenticatedException malformed) {
      return null;
    }
  }

  public Caller validate(String token) {
    String key = sha256(token);
    Caller cached = cache.getIfPresent(key);
    if (cached != null && cached.expiresAt().isAfter(clock.instant())) {
      return cached;
    }
    // One question per token at a time: the calls that arrive with a token while it is being
    // checked take that answer. (500 uploads starting at once with a new token asked the auth
    // service 500 times at once, and the last answers came after the deadline.)
    CompletableFuture<Caller> mine = new CompletableFuture<>();
    CompletableFuture<Caller> theirs = asking.putIfAbsent(key, mine);
    if (theirs != null) {
      return await(theirs);
    }
    try {
      Caller caller = ask(token);
      if (!caller.expiresAt().isAfter(clock.instant())) {
        throw new UnauthenticatedException("the token has expired");
      }
      cache.put(key, caller);
      mine.complete(caller);
      return caller;
    } catch (RuntimeException e) {
      mine.completeExceptionally(e);
      throw e;
    } finally {
      asking.remove(key, mine);
    }
  }

  /** The answer another call is getting for the same token, within the deadline it has. */
  private Caller await(CompletableFuture<Caller> answer) {
    try {
      return answer.get(deadline.toMillis() + 1000, TimeUnit.MILLISECONDS);
    } catch (ExecutionException e) {
      throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
    } catch (TimeoutException e) {
      throw new AuthUnavailableException("the auth service is unavailable (no answer); retry later", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AuthUnavailableException("interrupted while waiting for the auth service", e);
    }
  }

  /** The token of "Bearer <token>" (scheme in any case, spaces around), or UnauthenticatedException. */
  private static String bearerToken(String authorization) {
    if (authorization == null || authorization.isBlank()) {
      throw new UnauthenticatedException("missing \"authorization: Bearer <token>\"");
    }
    String value = authorization.strip();
    int space = value.indexOf(' ');
    String token = space < 0 ? "" : value.substring(space + 1).strip();
    if (space != "Bearer".length() || !value.regionMatches(true, 0, "Bearer", 0, space)
        || token.isEmpty() || token.chars().anyMatch(Character::isWhitespace)) {
      throw new UnauthenticatedException("the authorization header is not \"Bearer <token>\"");
    }
    return token;
  }

  private Caller ask(String token) {
    ValidateTokenResponse answer;
    try {
      answer =
          auth.withDeadlineAfter(deadline.toMillis(), TimeUnit.MILLISECONDS)
              .validateToken(ValidateTokenRequest.newBuilder().setToken(token).build());
    } catch (StatusRuntimeException e) {
      throw switch (e.getStatus().getCode()) {
        // The auth service judged the token (INVALID_ARGUMENT: not even token-shaped).
        case UNAUTHENTICATED, INVALID_ARGUMENT, PERMISSION_DENIED, NOT_FOUND ->
            new UnauthenticatedException("the token is invalid or expired");
        default ->
            new AuthUnavailableException(
                "the auth service is unavailable (" + e.getStatus().getCode() + "); retry later", e);
      };
    }
    if (!answer.hasExpiresAt()) {
      throw new UnauthenticatedException("the auth service gave the token no expiry");
    }
    return new Caller(
        answer.getSubject(), answer.getRolesList(), ProtoTimes.toInstant(answer.getExpiresAt()));
  }

  /** MessageDigest is not thread-safe, and getting one per call costs a provider lookup. */
  private static final ThreadLocal<MessageDigest> SHA_256 = ThreadLocal.withInitial(() -> {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JVM has SHA-256", e);
    }
  });

  private static String sha256(String token) {
    return HexFormat.of().formatHex(SHA_256.get().digest(token.getBytes(StandardCharsets.UTF_8)));
  }

  /** Entry lifetime: min(ttl, time left on the token), fixed when the entry is written. */
  private final class UntilTokenExpires implements Expiry<String, Caller> {
    @Override
    public long expireAfterCreate(String key, Caller caller, long currentTime) {
      Duration left = Duration.between(clock.instant(), caller.expiresAt());
      Duration life = left.compareTo(ttl) < 0 ? left : ttl;
      return Math.max(0, life.toNanos());
    }

    @Override
    public long expireAfterUpdate(String key, Caller caller, long currentTime, long currentDuration) {
      return expireAfterCreate(key, caller, currentTime);
    }

    @Override
    public long expireAfterRead(String key, Caller caller, long currentTime, long currentDuration) {
      return currentDuration;
    }
  }
}
