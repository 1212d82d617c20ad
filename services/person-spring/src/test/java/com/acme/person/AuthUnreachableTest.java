package com.acme.person;

import static com.acme.person.PersonServiceTest.rejected;
import static org.assertj.core.api.Assertions.assertThat;

import com.acme.person.v1.GetPersonRequest;
import com.acme.person.v1.PersonServiceGrpc;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.MetadataUtils;
import java.io.IOException;
import java.net.ServerSocket;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.boot.grpc.test.autoconfigure.LocalGrpcServerPort;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** With nothing listening at AUTH_ADDRESS every call is UNAVAILABLE, promptly. */
@SpringBootTest(properties = {"spring.grpc.server.port=0", "server.port=0", "person.auth.deadline=2s",
    "spring.datasource.url=jdbc:h2:mem:unreachable;DB_CLOSE_DELAY=-1"})
class AuthUnreachableTest {

  @DynamicPropertySource
  static void deadAuthAddress(DynamicPropertyRegistry registry) throws IOException {
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort(); // free, and closed again: nothing listens there
    }
    registry.add("person.auth.address", () -> "localhost:" + port);
  }

  @LocalGrpcServerPort int grpcPort;

  @Test
  void unreachableAuthServiceIsUnavailable() throws Exception {
    ManagedChannel channel = NettyChannelBuilder.forAddress("localhost", grpcPort).usePlaintext().build();
    try {
      Metadata headers = new Metadata();
      headers.put(Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER), "Bearer some-token");
      var stub = PersonServiceGrpc.newBlockingStub(channel)
          .withInterceptors(MetadataUtils.newAttachHeadersInterceptor(headers))
          .withDeadlineAfter(10, TimeUnit.SECONDS);
      var e = rejected(() -> stub.getPerson(GetPersonRequest.newBuilder().setId(UUID.randomUUID().toString()).build()));
      assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.UNAVAILABLE);
      assertThat(e.getStatus().getDescription()).contains("auth service is unavailable");
    } finally {
      channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
  }
}
