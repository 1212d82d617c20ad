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
   * RegisterPeople: people per JDBC batch; how far a client may send ahead of the store — at
   * most window people and about buffer bytes of them (at least one person) — so what one stream
   * holds in memory is bounded however long it is; and the writers, the threads that store
   * streams, each holding one transaction (and database connection) for the stream it stores.
   * A stream waits for a writer without a thread, holding at most its buffer, until it ends or
   * fills it; the number of streams open at once is limits.registerPeopleStreams.
   */
  public record RegisterPeople(
      @DefaultValue("500") int batchSize,
      @DefaultValue("500") int window,
      @DefaultValue("32KB") DataSize buffer,
      @DefaultValue("4") int writers) {}

  /** ListPeople: people read from the database per query while streaming. */
  public record ListPeople(@DefaultValue("64") int chunkSize) {}

  /**
   * What the service reads from a caller, at most; anything larger is refused before it is
   * buffered. Each is defined once, in application.yaml's person.limits, which also hands it to
   * gRPC and Tomcat.
   *
   * @param messageSize one gRPC message, after decompression (RESOURCE_EXHAUSTED)
   * @param headerListSize gRPC metadata or HTTP headers of one request: room for the longest
   *     token the contract allows (8,192 characters) and the rest (RESOURCE_EXHAUSTED for that
   *     call; 431 over REST)
   * @param transportHeaderListSize the header list the HTTP/2 transport decodes before it
   *     refuses a stream itself: calls whose headers are between headerListSize and this are
   *     refused by the service, one call each. A header block must be decoded whole (its
   *     compression state is the connection's), so past a quarter more than this the transport
   *     closes the connection
   * @param restBodySize one REST request body (413)
   * @param registerPeopleStreams RegisterPeople streams open at once; one more gets
   *     RESOURCE_EXHAUSTED with a google.rpc.RetryInfo
   * @param requestsInMemory the request messages of unary calls read and not yet decoded, in
   *     bytes, over all calls (grpc/RequestBudget); a call beyond it waits, its message unread
   *     and held at the sender by HTTP/2 flow control. At least messageSize
   * @param requestArrivalTime how long a call that may read its request has for it to come;
   *     then DEADLINE_EXCEEDED, and its share of requestsInMemory is free. The same for a REST
   *     body once the service begins to read it: then the unread part of its share of
   *     restBodiesInMemory is free, and reading more gets 408 DEADLINE_EXCEEDED
   * @param restBodiesInMemory the REST request bodies being read or served, in bytes, over all
   *     requests (rest/RestBodyFilter); a request beyond it waits, its body unread and held at
   *     the sender by TCP flow control. At least restBodySize
   */
  public record Limits(
      DataSize messageSize,
      DataSize headerListSize,
      DataSize transportHeaderListSize,
      DataSize restBodySize,
      @DefaultValue("2000") int registerPeopleStreams,
      @DefaultValue("32MB") DataSize requestsInMemory,
      @DefaultValue("10s") Duration requestArrivalTime,
      @DefaultValue("32MB") DataSize restBodiesInMemory) {}

  /**
   * The gRPC transport: the HTTP/2 flow-control window of each stream (fixed), whether calls
   * that wait on nothing run on the transport's threads, the request size from which a call
   * moves to a pool all the same, and that pool's threads (grpc/CallPlacement).
   */
  public record Grpc(
      @DefaultValue("256KB") DataSize flowControlWindow,
      @DefaultValue("true") boolean inlineCalls,
      @DefaultValue("64KB") DataSize inlineMaxMessageSize,
      @DefaultValue("4") int largeCallThreads) {}
}
