package com.acme.person;

import java.util.ArrayList;
import java.util.List;

import com.acme.person.v1.PersonServiceGrpc;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.MetadataUtils;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.event.ContextClosedEvent;
import org.springframework.grpc.server.lifecycle.GrpcServerLifecycle;

/**
 * The whole service started as production starts it, with its own defaults (no datasource
 * setting): only its data folder and free ports chosen, as command-line arguments. For the tests
 * that stop and start it again on the same folder.
 */
final class ServiceOnDataFolder {

  private static final StandInAuthService AUTH = StandInAuthService.shared();

  private ServiceOnDataFolder() {}

  static ConfigurableApplicationContext start(Path data, String... more) {
    List<String> args = new ArrayList<>(List.of(
        "--PERSON_DATA_DIR=" + data,
        "--spring.grpc.server.port=0",
        "--server.port=0",
        "--person.auth.address=localhost:" + AUTH.port(),
        "--logging.level.root=WARN"));
    args.addAll(List.of(more));
    return new SpringApplicationBuilder(PersonSpringApplication.class).run(args.toArray(String[]::new));
  }

  /** A stub with a valid token on a channel that closes with the service. */
  static PersonServiceGrpc.PersonServiceBlockingStub stub(ConfigurableApplicationContext app) {
    int port = app.getBean(GrpcServerLifecycle.class).getPort();
    ManagedChannel channel = NettyChannelBuilder.forAddress("localhost", port).usePlaintext().build();
    app.addApplicationListener(event -> {
      if (event instanceof ContextClosedEvent) {
        channel.shutdownNow();
      }
    });
    Metadata headers = new Metadata();
    headers.put(Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER),
        "Bearer " + AUTH.issue(Duration.ofMinutes(5)));
    return PersonServiceGrpc.newBlockingStub(channel)
        .withInterceptors(MetadataUtils.newAttachHeadersInterceptor(headers))
        .withDeadlineAfter(30, TimeUnit.SECONDS);
  }
}
