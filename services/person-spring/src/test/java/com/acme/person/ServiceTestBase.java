package com.acme.person;

import com.acme.person.v1.PersonServiceGrpc;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.protobuf.StatusProto;
import io.grpc.stub.AbstractStub;
import io.grpc.stub.MetadataUtils;
import java.time.Duration;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import build.buf.validate.Violations;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.grpc.test.autoconfigure.LocalGrpcServerPort;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The real service on port 0 (gRPC and REST), the real generated client over a real channel,
 * and a stand-in auth service. Subclasses share one application context.
 */
@SpringBootTest(
    webEnvironment = WebEnvironment.RANDOM_PORT,
    properties = {
      "spring.grpc.server.port=0",
      // Each application context its own database, in memory (DurableDefaultTest tries the
      // default): one service per embedded database, as H2 itself allows one process per file.
      "spring.datasource.url=jdbc:h2:mem:person-${random.uuid};DB_CLOSE_DELAY=-1",
      "person.register-people.batch-size=100",
      "person.list-people.chunk-size=16",
      "person.auth.deadline=2s"
    })
public abstract class ServiceTestBase {

  protected static final StandInAuthService AUTH = StandInAuthService.shared();

  @DynamicPropertySource
  static void authAddress(DynamicPropertyRegistry registry) {
    registry.add("person.auth.address", () -> "localhost:" + AUTH.port());
  }

  @LocalGrpcServerPort protected int grpcPort;
  @LocalServerPort protected int restPort;
  @Autowired protected JdbcTemplate jdbc;

  @Autowired
  @Qualifier("registerPeopleWorkers")
  protected ThreadPoolExecutor registerPeopleWorkers;

  protected ManagedChannel channel;
  protected String token;

  @BeforeEach
  void openChannel() {
    channel =
        NettyChannelBuilder.forAddress("localhost", grpcPort)
            .usePlaintext()
            .maxInboundMessageSize(16 * 1024 * 1024)
            .build();
    token = AUTH.issue(Duration.ofMinutes(10));
  }

  @AfterEach
  void closeChannel() throws InterruptedException {
    channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
  }

  protected <S extends AbstractStub<S>> S withToken(S stub, String bearer) {
    Metadata headers = new Metadata();
    headers.put(Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER), "Bearer " + bearer);
    return stub.withInterceptors(MetadataUtils.newAttachHeadersInterceptor(headers));
  }

  protected PersonServiceGrpc.PersonServiceBlockingStub blocking() {
    return withToken(PersonServiceGrpc.newBlockingStub(channel), token).withDeadlineAfter(30, TimeUnit.SECONDS);
  }

  protected PersonServiceGrpc.PersonServiceStub async() {
    return withToken(PersonServiceGrpc.newStub(channel), token).withDeadlineAfter(60, TimeUnit.SECONDS);
  }

  protected long rowsNamed(String prefix) {
    Long n = jdbc.queryForObject("SELECT COUNT(*) FROM person WHERE name LIKE ?", Long.class, prefix + "%");
    return n == null ? 0 : n;
  }

  /** Waits until no RegisterPeople worker holds a transaction any more (committed or rolled back). */
  protected void awaitStreamWorkersIdle() {
    Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> registerPeopleWorkers.getActiveCount() == 0);
  }

  /** How call ended: OK, or the code of the status it failed with. */
  protected static Status.Code codeOf(Runnable call) {
    try {
      call.run();
      return Status.Code.OK;
    } catch (StatusRuntimeException e) {
      return e.getStatus().getCode();
    }
  }

  /** The buf.validate.Violations detail of an INVALID_ARGUMENT status, as any client decodes it. */
  protected static Violations violationsOf(StatusRuntimeException e) throws Exception {
    com.google.rpc.Status status = StatusProto.fromThrowable(e);
    if (status == null || status.getDetailsCount() != 1) {
      throw new AssertionError("expected exactly one status detail, got " + status);
    }
    return status.getDetails(0).unpack(Violations.class);
  }
}
