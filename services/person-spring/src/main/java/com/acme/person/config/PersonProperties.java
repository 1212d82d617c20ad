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
    @DefaultValue Grpc grpc,
    @DefaultValue Limits limits) {

  /**
   * The auth service: where it is, how long a ValidateToken call may take, and the validation
   * cache. cacheTtl is also the revocation bound: a token whose user was disabled is refused
   * at most this long after (entries also expire with their token).
   */
  public record Auth(
      @DefaultValue("localhost:50051") String address,
      @DefaultValue("2s") Duration deadline,
      @DefaultValue("5s") Duration cacheTtl,
      @DefaultValue("10000") long cacheMaxSize) {}

  /**
   * RegisterPeople: people per JDBC batch; people a client may send ahead of the worker that
   * stores them (the stream's inbound flow-control window, so what one stream holds in memory
   * is at most window + batchSize people); and how many streams may hold a transaction (and a
   * database connection) at once.
   */
  public record RegisterPeople(
      @DefaultValue("500") int batchSize,
      @DefaultValue("500") int window,
      @DefaultValue("4") int maxConcurrentStreams) {}

  /** ListPeople: people read from the database per query while streaming. */
  public record ListPeople(@DefaultValue("64") int chunkSize) {}

  /**
   * What the service reads from a caller, at most; anything larger is refused before it is
   * buffered. Each is defined once, in application.yaml's person.limits, which also hands it to
   * gRPC and Tomcat.
   *
   * @param messageSize one gRPC message, after decompression (RESOURCE_EXHAUSTED)
   * @param headerListSize gRPC metadata or HTTP headers of one request: room for the longest
   *     token the contract allows (8,192 characters) and the rest
   * @param restBodySize one REST request body (413)
   * @param largeRequestsInFlight gRPC calls whose request is over grpc.inline-max-message-size,
   *     in progress at once (RESOURCE_EXHAUSTED): what bounds the memory large calls hold
   */
  public record Limits(
      DataSize messageSize, DataSize headerListSize, DataSize restBodySize, @DefaultValue("16") int largeRequestsInFlight) {}

  /**
   * The gRPC transport: the HTTP/2 flow-control window each stream starts with, whether calls
   * that wait on nothing run on the transport's threads, the request size from which a call
   * moves to a pool all the same, and that pool's threads (grpc/OffloadingInterceptor).
   */
  public record Grpc(
      @DefaultValue("1MB") DataSize flowControlWindow,
      @DefaultValue("true") boolean inlineCalls,
      @DefaultValue("64KB") DataSize inlineMaxMessageSize,
      @DefaultValue("4") int largeCallThreads) {}
}
