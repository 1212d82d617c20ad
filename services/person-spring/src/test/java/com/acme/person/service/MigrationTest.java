package com.acme.person.service;

import static org.assertj.core.api.Assertions.assertThat;

import com.acme.person.PersonSpringApplication;
import com.acme.person.StandInAuthService;
import com.acme.person.domain.AddressDto;
import com.acme.person.domain.PersonDto;
import com.acme.person.v1.Address;
import com.acme.person.v1.GetPersonRequest;
import com.acme.person.v1.ListPeopleRequest;
import com.acme.person.v1.Person;
import com.acme.person.v1.PersonServiceGrpc;
import com.acme.person.v1.RegisterPeopleRequest;
import com.acme.person.v1.RegisterPeopleResponse;
import com.acme.person.v1.RegisterPersonRequest;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.MetadataUtils;
import io.grpc.stub.StreamObserver;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.grpc.server.lifecycle.GrpcServerLifecycle;

/**
 * A database of the schema before the compact one (people with a row per hobby, idempotency
 * records in the person table) is migrated when the service starts, and nothing a client relied
 * on changes: the people, their hobbies in order, their listing order, a request_id retried
 * after the upgrade, a stream repeated after it.
 */
class MigrationTest {

  private static final StandInAuthService AUTH = StandInAuthService.shared();

  @Test
  void peopleOfTheEarlierSchemaAreKeptAsTheyWere(@TempDir Path data) throws Exception {
    String url = "jdbc:h2:file:" + data.resolve("person");
    Flyway.configure().dataSource(url, "sa", "").locations("classpath:db/migration/common").target("2").load().migrate();

    PersonDto ada = new PersonDto("8d3f5e2a-0c1b-4a6d-9e7f-1a2b3c4d5e6f", "Ada Lovelace", 36,
        List.of("mathematics", "poetry", "engines"), new AddressDto("London", "NW1 6XE"), null);
    PersonDto bob = new PersonDto("1e2d3c4b-5a69-4788-a9b0-c1d2e3f4a5b6", "Bob", 7, List.of(), null, null);
    PersonDto cy = new PersonDto("0f1e2d3c-4b5a-4968-8778-695a4b3c2d1e", "Cy", 8, List.of("go"), null, null);
    String adaRequest = "3b7c9d1e-2f4a-4b5c-8d6e-7f8091a2b3c4";
    String streamRequest = "5c6d7e8f-9a0b-4c1d-8e2f-3a4b5c6d7e8f";
    Fingerprints.Stream stream = new Fingerprints.Stream();
    stream.add(cy);
    stream.add(bob);
    try (Connection c = DriverManager.getConnection(url, "sa", "")) {
      PreparedStatement person = c.prepareStatement("INSERT INTO person (id, name, age, city, zip_code, created_at,"
          + " request_id, request_hash, stream_request_id, stream_position) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
      insert(person, ada, "2026-01-01T00:00:00Z", adaRequest, Fingerprints.of(ada) + "0".repeat(32), null, null);
      // The stream sent Cy first, then Bob; both have the same created_at.
      insert(person, bob, "2026-01-02T00:00:00Z", null, null, streamRequest, 1L);
      insert(person, cy, "2026-01-02T00:00:00Z", null, null, streamRequest, 0L);
      PreparedStatement hobby = c.prepareStatement("INSERT INTO person_hobby (person_id, position, hobby) VALUES (?, ?, ?)");
      for (String[] h : new String[][] {{ada.id(), "2", "engines"}, {ada.id(), "0", "mathematics"}, {ada.id(), "1", "poetry"},
          {cy.id(), "0", "go"}}) {
        hobby.setString(1, h[0]);
        hobby.setInt(2, Integer.parseInt(h[1]));
        hobby.setString(3, h[2]);
        hobby.executeUpdate();
      }
      PreparedStatement streams = c.prepareStatement("INSERT INTO register_people_request VALUES (?, ?, 2, ?)");
      streams.setString(1, streamRequest);
      streams.setString(2, stream.hex() + "f".repeat(32));
      streams.setObject(3, OffsetDateTime.parse("2026-01-02T00:00:01Z"));
      streams.executeUpdate();
    }

    try (ConfigurableApplicationContext app = start(data)) {
      int port = app.getBean(GrpcServerLifecycle.class).getPort();
      ManagedChannel channel = NettyChannelBuilder.forAddress("localhost", port).usePlaintext().build();
      try {
        Metadata headers = new Metadata();
        headers.put(Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER), "Bearer " + AUTH.issue(Duration.ofMinutes(5)));
        var stub = PersonServiceGrpc.newBlockingStub(channel).withInterceptors(MetadataUtils.newAttachHeadersInterceptor(headers))
            .withDeadlineAfter(30, TimeUnit.SECONDS);
        Person read = stub.getPerson(GetPersonRequest.newBuilder().setId(ada.id()).build()).getPerson();
        assertThat(read.getHobbiesList()).containsExactly("mathematics", "poetry", "engines");
        assertThat(read.getAddress().getZipCode()).isEqualTo("NW1 6XE");
        assertThat(read.getCreatedAt().getSeconds()).isEqualTo(OffsetDateTime.parse("2026-01-01T00:00:00Z").toEpochSecond());

        List<String> order = new ArrayList<>();
        stub.listPeople(ListPeopleRequest.getDefaultInstance()).forEachRemaining(r -> order.add(r.getPerson().getId()));
        // (created_at, id): Ada, then the two of the same instant by id.
        assertThat(order).containsExactly(ada.id(), cy.id(), bob.id());

        Person again = stub.registerPerson(RegisterPersonRequest.newBuilder().setRequestId(adaRequest)
            .setPerson(Person.newBuilder().setName(ada.name()).setAge(36).addAllHobbies(ada.hobbies())
                .setAddress(Address.newBuilder().setCity("London").setZipCode("NW1 6XE"))).build()).getPerson();
        assertThat(again.getId()).isEqualTo(ada.id());

        CompletableFuture<RegisterPeopleResponse> answer = new CompletableFuture<>();
        StreamObserver<RegisterPeopleRequest> out = PersonServiceGrpc.newStub(channel)
            .withInterceptors(MetadataUtils.newAttachHeadersInterceptor(headers))
            .registerPeople(new StreamObserver<>() {
              @Override public void onNext(RegisterPeopleResponse value) { answer.complete(value); }
              @Override public void onError(Throwable t) { answer.completeExceptionally(t); }
              @Override public void onCompleted() {}
            });
        out.onNext(RegisterPeopleRequest.newBuilder().setRequestId(streamRequest)
            .setPerson(Person.newBuilder().setName("Cy").setAge(8).addHobbies("go")).build());
        out.onNext(RegisterPeopleRequest.newBuilder().setPerson(Person.newBuilder().setName("Bob").setAge(7)).build());
        out.onCompleted();
        assertThat(answer.get(30, TimeUnit.SECONDS).getIdsList()).containsExactly(cy.id(), bob.id());
      } finally {
        channel.shutdownNow();
      }
    }
  }

  private static void insert(PreparedStatement ps, PersonDto p, String createdAt, String requestId, String hash,
      String streamRequestId, Long position) throws Exception {
    ps.setString(1, p.id());
    ps.setString(2, p.name());
    ps.setInt(3, p.age());
    ps.setString(4, p.address() == null ? null : p.address().city());
    ps.setString(5, p.address() == null ? null : p.address().zipCode());
    ps.setObject(6, OffsetDateTime.parse(createdAt).withOffsetSameInstant(ZoneOffset.UTC));
    ps.setString(7, requestId);
    ps.setString(8, hash);
    ps.setString(9, streamRequestId);
    if (position == null) {
      ps.setNull(10, java.sql.Types.BIGINT);
    } else {
      ps.setLong(10, position);
    }
    ps.executeUpdate();
  }

  private static ConfigurableApplicationContext start(Path data) {
    return new SpringApplicationBuilder(PersonSpringApplication.class)
        .run("--PERSON_DATA_DIR=" + data, "--spring.grpc.server.port=0", "--server.port=0",
            "--person.auth.address=localhost:" + AUTH.port(), "--logging.level.root=WARN");
  }
}
