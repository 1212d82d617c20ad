package com.acme.person;

import static org.assertj.core.api.Assertions.assertThat;

import com.acme.person.v1.GetPersonRequest;
import com.acme.person.v1.Person;
import com.acme.person.v1.PersonServiceGrpc;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.MetadataUtils;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.grpc.server.lifecycle.GrpcServerLifecycle;

/**
 * The embedded default keeps its data: a person registered before a restart is there after it.
 * The service runs with its own defaults (no datasource setting), only its data folder chosen.
 */
class DurableDefaultTest {

  private static final StandInAuthService AUTH = StandInAuthService.shared();

  @Test
  void aPersonRegisteredBeforeARestartIsReadAfterIt(@TempDir Path data) throws Exception {
    Person stored;
    try (ConfigurableApplicationContext first = start(data)) {
      stored = stub(first).registerPerson(People.register(People.person("survives a restart", 41))).getPerson();
    }
    assertThat(Files.list(data).map(p -> p.getFileName().toString())).contains("person.mv.db");
    try (ConfigurableApplicationContext second = start(data)) {
      Person read = stub(second).getPerson(GetPersonRequest.newBuilder().setId(stored.getId()).build()).getPerson();
      assertThat(read).isEqualTo(stored);
    }
  }

  private static ConfigurableApplicationContext start(Path data) {
    // Command-line arguments, as in production: only the data folder and the ports are chosen.
    return new SpringApplicationBuilder(PersonSpringApplication.class)
        .run(
            "--PERSON_DATA_DIR=" + data,
            "--spring.grpc.server.port=0",
            "--server.port=0",
            "--person.auth.address=localhost:" + AUTH.port(),
            "--logging.level.root=WARN");
  }

  private static PersonServiceGrpc.PersonServiceBlockingStub stub(ConfigurableApplicationContext app) {
    int port = app.getBean(GrpcServerLifecycle.class).getPort();
    ManagedChannel channel = NettyChannelBuilder.forAddress("localhost", port).usePlaintext().build();
    app.addApplicationListener(event -> {
      if (event instanceof org.springframework.context.event.ContextClosedEvent) {
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
