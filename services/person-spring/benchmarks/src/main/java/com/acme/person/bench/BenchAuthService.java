package com.acme.person.bench;

import com.acme.auth.v1.AuthServiceGrpc;
import com.acme.auth.v1.Role;
import com.acme.auth.v1.ValidateTokenRequest;
import com.acme.auth.v1.ValidateTokenResponse;
import com.acme.person.mapping.ProtoTimes;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import java.time.Duration;
import java.time.Instant;

/** An AuthService that knows one token, valid for an hour: enough for a benchmark run. */
final class BenchAuthService extends AuthServiceGrpc.AuthServiceImplBase {

  static final String TOKEN = "bench-token";
  private final Instant expiresAt = Instant.now().plus(Duration.ofHours(1));

  @Override
  public void validateToken(ValidateTokenRequest request, StreamObserver<ValidateTokenResponse> response) {
    if (!request.getToken().equals(TOKEN)) {
      response.onError(Status.UNAUTHENTICATED.asRuntimeException());
      return;
    }
    response.onNext(ValidateTokenResponse.newBuilder()
        .setSubject("bench")
        .addRoles(Role.ROLE_USER)
        .setExpiresAt(ProtoTimes.toTimestamp(expiresAt))
        .build());
    response.onCompleted();
  }
}
