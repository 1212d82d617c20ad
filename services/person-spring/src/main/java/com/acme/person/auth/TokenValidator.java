package com.acme.person.auth;

import com.acme.auth.v1.AuthServiceGrpc.AuthServiceFutureStub;
import com.acme.auth.v1.ValidateTokenRequest;
import com.acme.auth.v1.ValidateTokenResponse;
import com.acme.person.config.PersonProperties;
import com.acme.person.mapping.ProtoTimes;
import com.acme.person.tracing.CallSpans;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;
import com.google.common.util.concurrent.FutureCallback;
import com.google.common.util.concurrent.Futures;
import com.google.common.util.concurrent.ListenableFuture;
import com.google.common.util.concurrent.MoreExecutors;
import com.acme.auth.v1.AuthServiceGrpc;
import io.grpc.Context;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.stub.MetadataUtils;
import io.micrometer.tracing.Span;
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
 * outlives its token. Only successes are cached; keys are SHA-256 of the token. A token in use
 * is checked again in the background once its answer is half the TTL old, so busy callers do not
 * all find it expired at once and wait; a token refused then is forgotten at once, one the auth
 * service could not answer for keeps its answer until the TTL (the revocation bound) is up.
 */
@Component
public class TokenValidator {

  private final AuthServiceFutureStub auth;
  private final CallSpans spans;
  private final Duration deadline;
  private final Duration ttl;
  private final Clock clock;
  private final Cache<String, Checked> cache;
  /** An answer of the auth service, and when it was given. */
  private record Checked(Caller caller, Instant at) {}

  /** The tokens being checked with the auth service now, by key, and the answer to come. */
  private final ConcurrentHashMap<String, CompletableFuture<Caller>> asking = new ConcurrentHashMap<>();

  public TokenValidator(AuthServiceFutureStub auth, PersonProperties properties, Clock clock, CallSpans spans) {
    this.auth = auth;
    this.spans = spans;
    this.deadline = properties.auth().deadline();
    this.ttl = properties.auth().cacheTtl();
    this.clock = clock;
    this.cache =
        Caffeine.newBuilder()
            .maximumSize(properties.auth().cacheMaxSize())
            .expireAfter(new UntilTokenExpires())
            .build();
  }

  /** Validates the value of an "authorization" header ("Bearer <token>"), waiting for the answer. */
  public Caller validateHeader(String authorization) {
    CompletableFuture<Caller> answer = validateHeaderAsync(authorization);
    try {
      // The auth call has its own deadline; this only guards against a future never completed.
      return answer.get(deadline.toMillis() + 5_000, TimeUnit.MILLISECONDS);
    } catch (ExecutionException e) {
      throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
    } catch (TimeoutException e) {
      throw new AuthUnavailableException("the auth service is unavailable (no answer); retry later", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AuthUnavailableException("interrupted while waiting for the auth service", e);
    }
  }

  /**
   * The answer for the value of an "authorization" header, when it comes: at once when cached,
   * otherwise when the auth service answers (failed with UnauthenticatedException or
   * AuthUnavailableException). Nothing waits meanwhile.
   */
  public CompletableFuture<Caller> validateHeaderAsync(String authorization) {
    String token;
    try {
      token = bearerToken(authorization);
    } catch (UnauthenticatedException e) {
      return CompletableFuture.failedFuture(e);
    }
    String key = sha256(token);
    Caller cached = cached(key, token);
    return cached != null ? CompletableFuture.completedFuture(cached) : check(key, token);
  }

  /**
   * The header token's cached, unexpired answer, or null: never calls the auth service (but may
   * start a check in the background), never throws. What it returns is the answer to use —
   * asking the cache a second time could find the entry expired in between.
   */
  public Caller cachedCaller(String authorization) {
    try {
      String token = bearerToken(authorization);
      return cached(sha256(token), token);
    } catch (UnauthenticatedException malformed) {
      return null;
    }
  }

  /** The cached answer for a token, if unexpired; checks it again meanwhile when it is old. */
  private Caller cached(String key, String token) {
    Checked checked = cache.getIfPresent(key);
    if (checked == null) {
      return null;
    }
    Instant now = clock.instant();
    if (!checked.caller().expiresAt().isAfter(now)) {
      return null;
    }
    if (Duration.between(checked.at(), now).compareTo(ttl.dividedBy(2)) >= 0) {
      check(key, token);
    }
    return checked.caller();
  }

  /** Asks the auth service about token, unless a question about it is out already. */
  private CompletableFuture<Caller> check(String key, String token) {
    // One question per token at a time: the calls that arrive with a token while it is being
    // checked take that answer. (500 uploads starting at once with a new token asked the auth
    // service 500 times at once, and the last answers came after the deadline.)
    CompletableFuture<Caller> mine = new CompletableFuture<>();
    CompletableFuture<Caller> theirs = asking.putIfAbsent(key, mine);
    if (theirs != null) {
      return theirs;
    }
    Futures.addCallback(ask(token), new FutureCallback<>() {
      @Override
      public void onSuccess(ValidateTokenResponse answer) {
        try {
          Caller caller = caller(answer);
          cache.put(key, new Checked(caller, clock.instant()));
          mine.complete(caller);
        } catch (RuntimeException e) {
          cache.invalidate(key);
          mine.completeExceptionally(e);
        } finally {
          asking.remove(key, mine);
        }
      }

      @Override
      public void onFailure(Throwable t) {
        RuntimeException failure = failure(t);
        if (failure instanceof UnauthenticatedException) {
          cache.invalidate(key); // revoked: not another call on the old answer
        }
        mine.completeExceptionally(failure);
        asking.remove(key, mine);
      }
    }, MoreExecutors.directExecutor());
    return mine;
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

  private ListenableFuture<ValidateTokenResponse> ask(String token) {
    // A check is shared by every call waiting on it and by the cache it fills, so it must not
    // end with the call that happened to start it: a client call made under a server call's
    // gRPC Context is cancelled with it (when it finishes, is reset or is cancelled), and a
    // background re-check started by a call answered from the cache was cancelled before it
    // was sent. A fork keeps the context's values and drops its cancellation.
    Context fork = Context.current().fork();
    Context previous = fork.attach();
    // The check's client span, under the span of the call that asks, its traceparent sent along.
    Metadata headers = new Metadata();
    Span span = spans.startClient(AuthServiceGrpc.getValidateTokenMethod().getFullMethodName(), headers);
    ListenableFuture<ValidateTokenResponse> answer;
    try {
      answer = auth.withDeadlineAfter(deadline.toMillis(), TimeUnit.MILLISECONDS)
          .withInterceptors(MetadataUtils.newAttachHeadersInterceptor(headers))
          .validateToken(ValidateTokenRequest.newBuilder().setToken(token).build());
    } catch (RuntimeException e) {
      CallSpans.endClient(span, Status.fromThrowable(e));
      throw e;
    } finally {
      fork.detach(previous);
    }
    Futures.addCallback(answer, new FutureCallback<>() {
      @Override
      public void onSuccess(ValidateTokenResponse response) {
        CallSpans.endClient(span, Status.OK);
      }

      @Override
      public void onFailure(Throwable t) {
        CallSpans.endClient(span, Status.fromThrowable(t));
      }
    }, MoreExecutors.directExecutor());
    return answer;
  }

  private Caller caller(ValidateTokenResponse answer) {
    if (!answer.hasExpiresAt()) {
      throw new UnauthenticatedException("the auth service gave the token no expiry");
    }
    Caller caller = new Caller(answer.getSubject(), answer.getRolesList(), ProtoTimes.toInstant(answer.getExpiresAt()));
    if (!caller.expiresAt().isAfter(clock.instant())) {
      throw new UnauthenticatedException("the token has expired");
    }
    return caller;
  }

  /** What the auth service's failure means for the caller. */
  private static RuntimeException failure(Throwable t) {
    Status status = Status.fromThrowable(t);
    return switch (status.getCode()) {
      // The auth service judged the token (INVALID_ARGUMENT: not even token-shaped).
      case UNAUTHENTICATED, INVALID_ARGUMENT, PERMISSION_DENIED, NOT_FOUND ->
          new UnauthenticatedException("the token is invalid or expired");
      default ->
          new AuthUnavailableException(
              "the auth service is unavailable (" + status.getCode() + "); retry later", t);
    };
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
  private final class UntilTokenExpires implements Expiry<String, Checked> {
    @Override
    public long expireAfterCreate(String key, Checked checked, long currentTime) {
      Duration left = Duration.between(checked.at(), checked.caller().expiresAt());
      Duration life = left.compareTo(ttl) < 0 ? left : ttl;
      return Math.max(0, life.toNanos());
    }

    @Override
    public long expireAfterUpdate(String key, Checked checked, long currentTime, long currentDuration) {
      return expireAfterCreate(key, checked, currentTime);
    }

    @Override
    public long expireAfterRead(String key, Checked checked, long currentTime, long currentDuration) {
      return currentDuration;
    }
  }
}
