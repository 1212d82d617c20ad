package com.acme.person.bench;

import com.acme.person.PersonSpringApplication;
import com.acme.person.v1.Person;
import com.acme.person.v1.PersonServiceGrpc;
import com.acme.person.v1.RegisterPeopleRequest;
import com.acme.person.v1.RegisterPeopleResponse;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.Server;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.ClientCallStreamObserver;
import io.grpc.stub.ClientResponseObserver;
import io.grpc.stub.MetadataUtils;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.springframework.boot.SpringApplication;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.grpc.server.lifecycle.GrpcServerLifecycle;

/**
 * Evidence that RegisterPeople does not buffer the stream: the real service (H2 on disk) and a
 * client in one JVM whose heap is far too small to hold the people (run with -Xmx; see
 * scripts/bench/person.sh) stream N people (default 1,000,000) through one RegisterPeople
 * call. The client sends only while the call is ready, so neither side can hide a buffer.
 * Prints count, time, throughput and the largest heap still in use after any garbage
 * collection during the stream (the live set), next to the heap limit.
 * Arguments: [people] [label].
 */
public final class RegisterMillionPeople {
  private RegisterMillionPeople() {}

  public static void main(String[] args) throws Exception {
    int people = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
    Path dir = Files.createTempDirectory("person-bench");
    Server auth = NettyServerBuilder.forPort(0).addService(new BenchAuthService()).build().start();
    // The database: H2 on disk by default (not in memory: its rows would share the heap), or
    // whatever DB_URL/DB_USER/DB_PASSWORD and SPRING_PROFILES_ACTIVE say.
    String db = System.getenv().getOrDefault("DB_URL", "jdbc:h2:file:" + dir.resolve("person"));
    PersonSpringApplication.useH2Settings();
    ConfigurableApplicationContext app = SpringApplication.run(PersonSpringApplication.class,
        "--spring.grpc.server.port=0",
        "--server.port=0",
        "--spring.datasource.url=" + db,
        "--person.auth.address=localhost:" + auth.getPort(),
        "--logging.level.root=WARN");
    int port = app.getBean(GrpcServerLifecycle.class).getPort();
    ManagedChannel channel = NettyChannelBuilder.forAddress("localhost", port).usePlaintext().build();
    try {
      Metadata headers = new Metadata();
      headers.put(Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER), "Bearer " + BenchAuthService.TOKEN);
      var stub = PersonServiceGrpc.newStub(channel).withInterceptors(MetadataUtils.newAttachHeadersInterceptor(headers));
      RegisterPeopleRequest request = RegisterPeopleRequest.newBuilder()
          .setPerson(Person.newBuilder().setName("Ada Lovelace").setAge(36))
          .build();

      LiveHeap liveHeap = LiveHeap.watch();
      long start = System.nanoTime();
      CompletableFuture<RegisterPeopleResponse> done = new CompletableFuture<>();
      stub.registerPeople(new ClientResponseObserver<RegisterPeopleRequest, RegisterPeopleResponse>() {
        private int sent;

        @Override
        public void beforeStart(ClientCallStreamObserver<RegisterPeopleRequest> out) {
          out.setOnReadyHandler(() -> {
            while (out.isReady() && sent < people) {
              out.onNext(request);
              sent++;
            }
            if (sent == people) {
              sent++; // complete once
              out.onCompleted();
            }
          });
        }

        @Override public void onNext(RegisterPeopleResponse value) { done.complete(value); }
        @Override public void onError(Throwable t) { done.completeExceptionally(t); }
        @Override public void onCompleted() {}
      });
      RegisterPeopleResponse response = done.get(30, TimeUnit.MINUTES);
      double seconds = (System.nanoTime() - start) / 1e9;

      long maxHeap = Runtime.getRuntime().maxMemory();
      System.out.printf("| %s | %,d | %,d | %.1f s | %,.0f | %,d MB | %,d MB | %d |%n",
          args.length > 1 ? args[1] : "H2 (file)", people, response.getCount(), seconds,
          response.getCount() / seconds, liveHeap.maxAfterGc() >> 20, maxHeap >> 20, liveHeap.collections());
      if (response.getCount() != people) {
        throw new IllegalStateException("stored " + response.getCount() + " of " + people);
      }
    } finally {
      channel.shutdownNow();
      app.close();
      auth.shutdownNow();
      try (var files = Files.walk(dir)) {
        files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }
}
