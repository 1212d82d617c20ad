package com.acme.person;

import static org.assertj.core.api.Assertions.assertThat;

import com.acme.person.v1.GetPersonRequest;
import com.acme.person.v1.PersonServiceGrpc;
import io.grpc.Metadata;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.MetadataUtils;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** Every answer names the contracts version the service was built with, errors included. */
class ContractsVersionTest extends ServiceTestBase {
  private static final Metadata.Key<String> VERSION = Metadata.Key.of("acme-contracts-version", Metadata.ASCII_STRING_MARSHALLER);
  /**
   * The SDK version the repository declares, read from versions.env rather than from the jar the
   * service reads it from: a header that named anything but the declared SDK version would then
   * still equal itself.
   */
  private static final String EXPECTED = declaredSdkVersion();

  static String declaredSdkVersion() {
    for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
      Path env = dir.resolve("versions.env");
      if (Files.isRegularFile(env)) {
        try (var lines = Files.lines(env)) {
          return lines.filter(l -> l.startsWith("SDK_VERSION=")).map(l -> l.substring("SDK_VERSION=".length()).trim())
              .findFirst().orElseThrow(() -> new IllegalStateException(env + " names no SDK_VERSION"));
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }
    }
    throw new IllegalStateException("no versions.env above " + Path.of("").toAbsolutePath());
  }

  @Test
  void grpcAnswersCarryTheVersionOnSuccessAndOnError() {
    assertThat(EXPECTED).matches("\\d+\\.\\d+\\.\\d+.*");
    AtomicReference<Metadata> headers = new AtomicReference<>(), trailers = new AtomicReference<>();
    var stub = blocking().withInterceptors(MetadataUtils.newCaptureMetadataInterceptor(headers, trailers));
    var registered = stub.registerPerson(People.register(People.person("versioned", 30))).getPerson();
    assertThat(headers.get().get(VERSION)).isEqualTo(EXPECTED);

    // Refused before any header is sent: the version travels in the trailers.
    headers.set(null);
    StatusRuntimeException refused = PersonServiceTest.rejected(() -> PersonServiceGrpc.newBlockingStub(channel)
        .withInterceptors(MetadataUtils.newCaptureMetadataInterceptor(headers, trailers))
        .getPerson(GetPersonRequest.newBuilder().setId(UUID.randomUUID().toString()).build()));
    assertThat(refused.getStatus().getCode()).isEqualTo(io.grpc.Status.Code.UNAUTHENTICATED);
    assertThat(refused.getTrailers().get(VERSION)).isEqualTo(EXPECTED);
    assertThat(registered.getId()).isNotEmpty();
  }

  @Test
  void restAnswersCarryTheVersion() throws Exception {
    HttpResponse<String> answer = HttpClient.newHttpClient().send(
        HttpRequest.newBuilder(URI.create("http://localhost:" + restPort + "/api/people/" + UUID.randomUUID())).build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(answer.statusCode()).isEqualTo(401);
    assertThat(answer.headers().firstValue("acme-contracts-version")).contains(EXPECTED);
  }
}
