package com.acme.compat;

import static io.grpc.Status.Code.DEADLINE_EXCEEDED;
import static io.grpc.Status.Code.INVALID_ARGUMENT;
import static io.grpc.Status.Code.PERMISSION_DENIED;
import static io.grpc.Status.Code.RESOURCE_EXHAUSTED;
import static io.grpc.Status.Code.UNAUTHENTICATED;

import com.acme.auth.v1.AuthServiceGrpc;
import com.acme.auth.v1.CreateUserRequest;
import com.acme.auth.v1.ListUsersRequest;
import com.acme.auth.v1.LoginRequest;
import com.acme.auth.v1.LoginResponse;
import com.acme.auth.v1.Role;
import com.acme.auth.v1.User;
import com.acme.auth.v1.ValidateTokenRequest;
import com.acme.auth.v1.ValidateTokenResponse;
import com.google.protobuf.util.Durations;
import com.google.protobuf.util.Timestamps;
import java.text.Normalizer;
import java.util.concurrent.TimeUnit;

/** auth-node's features over gRPC, through the SDK's AuthService stub. */
final class AuthFeatures {
  private final Clients clients;

  AuthFeatures(Clients clients) {
    this.clients = clients;
  }

  private LoginRequest admin() {
    return LoginRequest.newBuilder()
        .setUsername(clients.adminUsername())
        .setPassword(Env.require(clients.env.adminPassword(), "AUTH_ADMIN_PASSWORD"))
        .build();
  }

  private static CreateUserRequest user(String username, String password) {
    return CreateUserRequest.newBuilder().setUsername(username).setPassword(password).addRoles(Role.ROLE_USER).build();
  }

  private static ValidateTokenRequest token(String token) {
    return ValidateTokenRequest.newBuilder().setToken(token).build();
  }

  void unary() {
    LoginResponse login = clients.auth().login(admin());
    Checks.that(!login.getToken().isEmpty(), "Login returned no token");
    Checks.that(Timestamps.compare(login.getExpiresAt(), Timestamps.now()) > 0,
        "expires_at is not in the future: " + Timestamps.toString(login.getExpiresAt()));
    ValidateTokenResponse valid = clients.auth().validateToken(token(login.getToken()));
    Checks.equal(clients.adminUsername(), valid.getSubject(), "subject");
    Checks.that(valid.getRolesList().contains(Role.ROLE_ADMIN), "roles lack ROLE_ADMIN: " + valid.getRolesList());
    Checks.equal(login.getExpiresAt(), valid.getExpiresAt(), "expires_at of ValidateToken against Login's");
  }

  void authMetadata() throws Exception {
    Checks.expectStatus(UNAUTHENTICATED, "ListUsers without authorization",
        () -> clients.auth().listUsers(ListUsersRequest.getDefaultInstance()));
    var users = clients.auth(clients.adminToken()).listUsers(ListUsersRequest.getDefaultInstance()).getUsersList();
    Checks.that(users.stream().map(User::getUsername).anyMatch(clients.adminUsername()::equals),
        "ListUsers does not list the admin " + clients.adminUsername());
    String username = clients.run() + "-user";
    String password = "compat-password-" + clients.run();
    User created = clients.auth(clients.adminToken()).createUser(user(username, password)).getUser();
    Checks.equal(username, created.getUsername(), "username of the created user");
    String userToken = clients.login(username, password);
    Checks.expectStatus(PERMISSION_DENIED, "CreateUser with a ROLE_USER token",
        () -> clients.auth(userToken).createUser(user(clients.run() + "-other", password)));
  }

  void deadline() throws Exception {
    clients.adminToken(); // the connection is up first, so the 5 ms are the server's alone
    Checks.expectStatus(DEADLINE_EXCEEDED, "Login with a 5 ms deadline",
        () -> AuthServiceGrpc.newBlockingStub(clients.authChannel()).withDeadlineAfter(5, TimeUnit.MILLISECONDS).login(admin()));
  }

  void errorDetails() throws Exception {
    CreateUserRequest bad = CreateUserRequest.newBuilder().setUsername("Bad Name!").setPassword("short").build();
    var e = Checks.expectStatus(INVALID_ARGUMENT, "CreateUser(\"Bad Name!\", \"short\", no roles)",
        () -> clients.auth(clients.adminToken()).createUser(bad));
    ErrorDetails.expectViolations(e, "CreateUser(\"Bad Name!\", \"short\", no roles)",
        "username/string.pattern", "password/string.min_len", "roles/repeated.min_items");

    Checks.expectStatus(UNAUTHENTICATED, "Login of an unknown user",
        () -> clients.login(clients.run() + "-nobody", "wrong"));

    String limited = clients.run() + "-rl";
    for (int i = 1; i <= 5; i++) {
      Checks.expectStatus(UNAUTHENTICATED, "failed login " + i + " of " + limited, () -> clients.login(limited, "wrong"));
    }
    e = Checks.expectStatus(RESOURCE_EXHAUSTED, "login after 5 failures", () -> clients.login(limited, "wrong"));
    var delay = ErrorDetails.retryInfo(e).getRetryDelay();
    Checks.that(Durations.isPositive(delay), "RetryInfo.retry_delay is not positive: " + Durations.toString(delay));
  }

  void largeMessage() throws Exception {
    // One character over the rule: refused by validation, with the violation.
    var e = Checks.expectStatus(INVALID_ARGUMENT, "ValidateToken with 8,193 characters",
        () -> clients.auth().validateToken(token("a".repeat(8193))));
    ErrorDetails.expectViolations(e, "ValidateToken with 8,193 characters", "token/string.max_len");
    // 1 MiB is over the server's message limit: refused before it is read.
    Checks.expectStatus(RESOURCE_EXHAUSTED, "ValidateToken with a 1 MiB token",
        () -> clients.auth().validateToken(token("a".repeat(1 << 20))));
    // The same channel (the same client) must still work after the refused messages.
    Checks.equal(clients.adminUsername(), clients.auth().validateToken(token(clients.adminToken())).getSubject(),
        "subject of the next ValidateToken on the same client");
  }

  void unicode() {
    String username = clients.run() + "-uni";
    String nfc = Normalizer.normalize("p\u00e4ssw\u00f6rd-\u5bc6\u7801-\uD83D\uDD11-ok", Normalizer.Form.NFC);
    String nfd = Normalizer.normalize(nfc, Normalizer.Form.NFD);
    Checks.that(!nfc.equals(nfd), "the NFD form equals the NFC one; the check would prove nothing");
    clients.auth(clients.adminToken()).createUser(user(username, nfc));
    Checks.that(!clients.login(username, nfc).isEmpty(), "Login with the NFC password returned no token");
    Checks.that(!clients.login(username, nfd).isEmpty(), "Login with the NFD password returned no token");
  }
}
