package com.acme.person;

import static org.assertj.core.api.Assertions.assertThat;

import com.acme.person.v1.PersonServiceGrpc;
import com.acme.person.v1.RegisterPeopleRequest;
import com.acme.person.v1.RegisterPeopleResponse;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.MetadataUtils;
import io.grpc.stub.StreamObserver;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.grpc.server.lifecycle.GrpcServerLifecycle;

/** Shutting down lets an in-flight call finish, while new calls are refused. */
class GracefulShutdownTest {

  @Test
  void inFlightStreamCompletesDuringShutdown() throws Exception {
    StandInAuthService auth = StandInAuthService.shared();
    // Command-line arguments: they outrank application.yaml, as they would in production.
    ConfigurableApplicationContext app = new SpringApplicationBuilder(PersonSpringApplication.class)
        .run(
            "--spring.grpc.server.port=0",
            "--server.port=0",
            "--spring.datasource.url=jdbc:h2:mem:shutdown;DB_CLOSE_DELAY=-1",
            "--person.auth.address=localhost:" + auth.port(),
            "--logging.level.root=WARN");
    int port = app.getBean(GrpcServerLifecycle.class).getPort();
    ManagedChannel channel = NettyChannelBuilder.forAddress("localhost", port).usePlaintext().build();
    try {
      Metadata headers = new Metadata();
      headers.put(Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER),
          "Bearer " + auth.issue(Duration.ofMinutes(5)));
      var stub = PersonServiceGrpc.newStub(channel).withInterceptors(MetadataUtils.newAttachHeadersInterceptor(headers));

      CompletableFuture<RegisterPeopleResponse> response = new CompletableFuture<>();
      StreamObserver<RegisterPeopleRequest> out = stub.registerPeople(new StreamObserver<>() {
        @Override public void onNext(RegisterPeopleResponse value) { response.complete(value); }
        @Override public void onError(Throwable t) { response.completeExceptionally(t); }
        @Override public void onCompleted() {}
      });
      for (int i = 0; i < 5; i++) {
        out.onNext(People.registerMany(People.person("draining", i)));
      }
      Thread.sleep(300);
      assertThat(response).as("the stream is open").isNotDone();

      CompletableFuture<Void> closed = CompletableFuture.runAsync(app::close);
      Thread.sleep(1000);
      assertThat(closed).as("shutdown waits for the open stream").isNotDone();

      // A new call on a new connection is refused while the old one drains.
      ManagedChannel late = NettyChannelBuilder.forAddress("localhost", port).usePlaintext().build();
      try {
        var refused = PersonServiceTest.rejected(() -> PersonServiceGrpc.newBlockingStub(late)
            .withDeadlineAfter(5, TimeUnit.SECONDS)
            .getPerson(com.acme.person.v1.GetPersonRequest.getDefaultInstance()));
        assertThat(refused.getStatus().getCode()).isEqualTo(Status.Code.UNAVAILABLE);
      } finally {
        late.shutdownNow();
      }

      for (int i = 5; i < 10; i++) {
        out.onNext(People.registerMany(People.person("draining", i)));
      }
      out.onCompleted();
      assertThat(response.get(20, TimeUnit.SECONDS).getCount()).isEqualTo(10);
      closed.get(30, TimeUnit.SECONDS);
    } finally {
      channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
      app.close();
    }
  }
}
