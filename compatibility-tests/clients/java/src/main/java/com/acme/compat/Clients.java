package com.acme.compat;

import com.acme.auth.v1.AuthServiceGrpc;
import com.acme.auth.v1.LoginRequest;
import com.acme.person.v1.PersonServiceGrpc;
import io.grpc.Channel;
import io.grpc.ClientInterceptors;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.stub.MetadataUtils;
import java.util.concurrent.TimeUnit;

/**
 * The channels to the two servers (cleartext HTTP/2, the SDK's generated stubs on top) and the
 * admin token person calls carry. One channel per server for the whole run, so "the next call
 * on the same client" really reuses the connection.
 */
final class Clients implements AutoCloseable {
  /** Generous per-call deadline: a hung server fails the feature instead of the run. */
  static final long CALL_SECONDS = 30;

  private static final Metadata.Key<String> AUTHORIZATION =
      Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER);

  final Env env;
  private ManagedChannel person;
  private ManagedChannel auth;
  private String adminToken;

  Clients(Env env) {
    this.env = env;
  }

  String run() {
    return Env.require(env.runId(), "COMPAT_RUN_ID");
  }

  synchronized ManagedChannel personChannel() {
    if (person == null) {
      person = open(Env.require(env.personTarget(), "PERSON_TARGET"));
    }
    return person;
  }

  synchronized ManagedChannel authChannel() {
    if (auth == null) {
      auth = open(Env.require(env.authTarget(), "AUTH_TARGET"));
    }
    return auth;
  }

  private static ManagedChannel open(String target) {
    return Grpc.newChannelBuilder(target, InsecureChannelCredentials.create()).build();
  }

  /** The admin's token from AuthService/Login over gRPC, fetched once per run. */
  synchronized String adminToken() {
    if (adminToken == null) {
      adminToken = login(adminUsername(), Env.require(env.adminPassword(), "AUTH_ADMIN_PASSWORD"));
    }
    return adminToken;
  }

  String adminUsername() {
    return Env.require(env.adminUsername(), "AUTH_ADMIN_USERNAME");
  }

  String login(String username, String password) {
    return auth()
        .login(LoginRequest.newBuilder().setUsername(username).setPassword(password).build())
        .getToken();
  }

  /** A channel whose calls carry "authorization: <value>" (null: no header at all). */
  static Channel withAuthorization(Channel channel, String value) {
    if (value == null) {
      return channel;
    }
    Metadata headers = new Metadata();
    headers.put(AUTHORIZATION, value);
    return ClientInterceptors.intercept(channel, MetadataUtils.newAttachHeadersInterceptor(headers));
  }

  static Channel withBearer(Channel channel, String token) {
    return withAuthorization(channel, "Bearer " + token);
  }

  AuthServiceGrpc.AuthServiceBlockingStub auth() {
    return AuthServiceGrpc.newBlockingStub(authChannel())
        .withDeadlineAfter(CALL_SECONDS, TimeUnit.SECONDS);
  }

  AuthServiceGrpc.AuthServiceBlockingStub auth(String token) {
    return AuthServiceGrpc.newBlockingStub(withBearer(authChannel(), token))
        .withDeadlineAfter(CALL_SECONDS, TimeUnit.SECONDS);
  }

  /** Person stub with "authorization" set to the raw value given (null: none). */
  PersonServiceGrpc.PersonServiceBlockingStub personRaw(String authorization) {
    return PersonServiceGrpc.newBlockingStub(withAuthorization(personChannel(), authorization))
        .withDeadlineAfter(CALL_SECONDS, TimeUnit.SECONDS);
  }

  PersonServiceGrpc.PersonServiceBlockingStub person(String token) {
    return personRaw("Bearer " + token);
  }

  /** The admin's person stub; a fresh deadline per call because deadlines are absolute. */
  PersonServiceGrpc.PersonServiceBlockingStub person() {
    return person(adminToken());
  }

  /** The async stub for streams; callers set their own deadline. */
  PersonServiceGrpc.PersonServiceStub personAsync() {
    return PersonServiceGrpc.newStub(withBearer(personChannel(), adminToken()));
  }

  @Override
  public void close() throws InterruptedException {
    for (ManagedChannel c : new ManagedChannel[] {person, auth}) {
      if (c != null) {
        c.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
      }
    }
  }
}
