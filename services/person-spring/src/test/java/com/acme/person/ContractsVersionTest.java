package com.acme.person;

import static org.assertj.core.api.Assertions.assertThat;

import com.acme.person.v1.GetPersonRequest;
import com.acme.person.v1.PersonServiceGrpc;
import io.grpc.Metadata;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.MetadataUtils;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** Every answer names the contracts version the service was built with, errors included. */
class ContractsVersionTest extends ServiceTestBase {
  private static final Metadata.Key<String> VERSION = Metadata.Key.of("acme-contracts-version", Metadata.ASCII_STRING_MARSHALLER);
  /** The Java SDK's version, as the build resolved it (Maven's record in the jar). */
  private static final String EXPECTED = com.acme.person.grpc.ContractsVersionInterceptor.sdkVersion();

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
