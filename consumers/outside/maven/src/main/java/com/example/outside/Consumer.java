package com.example.outside;

import com.acme.auth.v1.AuthServiceGrpc;
import com.acme.auth.v1.LoginRequest;
import com.acme.person.v1.GetPersonRequest;
import com.acme.person.v1.Person;
import com.acme.person.v1.PersonServiceGrpc;
import com.acme.person.v1.RegisterPersonRequest;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.Metadata;
import io.grpc.stub.MetadataUtils;
import java.nio.file.Path;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * What a team outside the monorepo writes first: log in to auth-node, register a person with
 * person-spring and read it back, with the SDK from the contracts' Maven repository. Prints one
 * line: the SDK jar the classes came from, and the contracts version each service names in its
 * acme-contracts-version header. Targets and the admin's credentials come from the environment
 * (AUTH_TARGET, PERSON_TARGET, AUTH_ADMIN_USERNAME, AUTH_ADMIN_PASSWORD).
 */
public final class Consumer {
  private static final Metadata.Key<String> CONTRACTS_VERSION =
      Metadata.Key.of("acme-contracts-version", Metadata.ASCII_STRING_MARSHALLER);
  private static final Metadata.Key<String> AUTHORIZATION =
      Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER);

  public static void main(String[] args) throws Exception {
    ManagedChannel auth = ManagedChannelBuilder.forTarget(System.getenv("AUTH_TARGET")).usePlaintext().build();
    ManagedChannel person = ManagedChannelBuilder.forTarget(System.getenv("PERSON_TARGET")).usePlaintext().build();
    try {
      AtomicReference<Metadata> authHeaders = new AtomicReference<>();
      String token = AuthServiceGrpc.newBlockingStub(auth)
          .withDeadlineAfter(20, TimeUnit.SECONDS)
          .withInterceptors(MetadataUtils.newCaptureMetadataInterceptor(authHeaders, new AtomicReference<>()))
          .login(LoginRequest.newBuilder()
              .setUsername(System.getenv("AUTH_ADMIN_USERNAME"))
              .setPassword(System.getenv("AUTH_ADMIN_PASSWORD"))
              .build())
          .getToken();

      Metadata bearer = new Metadata();
      bearer.put(AUTHORIZATION, "Bearer " + token);
      AtomicReference<Metadata> personHeaders = new AtomicReference<>();
      PersonServiceGrpc.PersonServiceBlockingStub people = PersonServiceGrpc.newBlockingStub(person)
          .withDeadlineAfter(20, TimeUnit.SECONDS)
          .withInterceptors(MetadataUtils.newAttachHeadersInterceptor(bearer),
              MetadataUtils.newCaptureMetadataInterceptor(personHeaders, new AtomicReference<>()));
      String name = "outside maven " + UUID.randomUUID();
      Person stored = people.registerPerson(RegisterPersonRequest.newBuilder()
              .setRequestId(UUID.randomUUID().toString())
              .setPerson(Person.newBuilder().setName(name).setAge(41).addHobbies("maps"))
              .build())
          .getPerson();
      Person read = people.getPerson(GetPersonRequest.newBuilder().setId(stored.getId()).build()).getPerson();
      if (!read.getName().equals(name) || read.getAge() != 41) {
        throw new IllegalStateException("read back " + read + ", registered " + name);
      }
      Path jar = Path.of(Person.class.getProtectionDomain().getCodeSource().getLocation().toURI());
      System.out.printf("maven: %s: logged in, registered and read back %s; auth-node runs contracts %s, "
              + "person-spring runs contracts %s%n",
          jar.getFileName(), stored.getId(), authHeaders.get().get(CONTRACTS_VERSION),
          personHeaders.get().get(CONTRACTS_VERSION));
    } finally {
      auth.shutdownNow();
      person.shutdownNow();
    }
  }
}
