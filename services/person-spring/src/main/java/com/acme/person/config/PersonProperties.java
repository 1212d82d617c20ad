package com.acme.person.config;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

/** The service's own settings (application.yaml maps the environment variables onto them). */
@ConfigurationProperties("person")
public record PersonProperties(
    @DefaultValue Auth auth,
    @DefaultValue RegisterPeople registerPeople,
    @DefaultValue ListPeople listPeople,
    @DefaultValue Grpc grpc) {

  /**
   * The auth service: where it is, how long a ValidateToken call may take, and the validation
   * cache (entries also expire with their token).
   */
  public record Auth(
      @DefaultValue("localhost:50051") String address,
      @DefaultValue("2s") Duration deadline,
      @DefaultValue("60s") Duration cacheTtl,
      @DefaultValue("10000") long cacheMaxSize) {}

  /**
   * RegisterPeople: people per JDBC batch, and how many streams may hold a transaction (and a
   * database connection) at once.
   */
  public record RegisterPeople(
      @DefaultValue("500") int batchSize, @DefaultValue("4") int maxConcurrentStreams) {}

  /** ListPeople: people read from the database per query while streaming. */
  public record ListPeople(@DefaultValue("64") int chunkSize) {}

  /** The HTTP/2 flow-control window the gRPC server starts each stream with. */
  public record Grpc(@DefaultValue("1MB") DataSize flowControlWindow) {}
}
