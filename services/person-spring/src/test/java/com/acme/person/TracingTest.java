package com.acme.person;

import static com.acme.person.People.person;
import static com.acme.person.People.register;
import static com.acme.person.People.uniqueName;
import static org.assertj.core.api.Assertions.assertThat;

import com.acme.person.v1.PersonServiceGrpc;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.stub.MetadataUtils;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Traces in a real Zipkin (scripts/tests/zipkin.sh, started by scripts/services/test-person.sh;
 * PERSON_TEST_ZIPKIN_URL names it): a call with a traceparent is person-spring's server span
 * under the caller's span, named by its RPC with its status; inside it the client span of its
 * token check, whose traceparent the auth service received, and the validate and store spans; a
 * call the auth service refuses carries UNAUTHENTICATED on both.
 */
class TracingTest extends ServiceTestBase {

  static final String ZIPKIN = System.getenv("PERSON_TEST_ZIPKIN_URL");
  private static final Metadata.Key<String> TRACEPARENT = Metadata.Key.of("traceparent", Metadata.ASCII_STRING_MARSHALLER);
  private static final SecureRandom RANDOM = new SecureRandom();
  private final HttpClient http = HttpClient.newHttpClient();
  private final JsonMapper json = JsonMapper.builder().build();

  @DynamicPropertySource
  static void zipkin(DynamicPropertyRegistry registry) {
    registry.add("person.tracing.zipkin-endpoint", () -> ZIPKIN + "/api/v2/spans");
  }

  @BeforeAll
  static void zipkinIsThere() {
    assertThat(ZIPKIN).as("PERSON_TEST_ZIPKIN_URL must name a running Zipkin (scripts/services/test-person.sh starts one)").isNotBlank();
  }

  record Caller(String traceId, String spanId) {
    String traceparent() {
      return "00-" + traceId + "-" + spanId + "-01";
    }
  }

  static Caller caller() {
    byte[] trace = new byte[16];
    byte[] span = new byte[8];
    RANDOM.nextBytes(trace);
    RANDOM.nextBytes(span);
    return new Caller(HexFormat.of().formatHex(trace), HexFormat.of().formatHex(span));
  }

  private PersonServiceGrpc.PersonServiceBlockingStub tracedStub(String bearer, Caller caller) {
    Metadata headers = new Metadata();
    headers.put(TRACEPARENT, caller.traceparent());
    return withToken(PersonServiceGrpc.newBlockingStub(channel), bearer)
        .withInterceptors(MetadataUtils.newAttachHeadersInterceptor(headers))
        .withDeadlineAfter(30, TimeUnit.SECONDS);
  }

  /** The spans Zipkin has of a trace, once it has at least count (they are sent asynchronously). */
  private List<JsonNode> trace(String traceId, int count) {
    List<JsonNode> spans = new ArrayList<>();
    Awaitility.await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(200)).until(() -> {
      HttpResponse<String> res = http.send(
          HttpRequest.newBuilder(URI.create(ZIPKIN + "/api/v2/trace/" + traceId)).build(), HttpResponse.BodyHandlers.ofString());
      spans.clear();
      if (res.statusCode() == 200) {
        json.readTree(res.body()).forEach(spans::add);
      }
      return spans.size() >= count;
    });
    return spans;
  }

  /** The one span named name (Zipkin keeps names in lower case). */
  private static JsonNode only(List<JsonNode> spans, String name) {
    List<JsonNode> found = spans.stream().filter(s -> s.path("name").asString().equals(name.toLowerCase())).toList();
    assertThat(found).as("one span " + name + " in " + spans).hasSize(1);
    return found.get(0);
  }

  @Test
  void aCallIsOneServerSpanUnderItsCallerWithItsTokenCheckAndWorkInside() {
    Caller caller = caller();
    String fresh = AUTH.issue(Duration.ofMinutes(10)); // not cached: the auth service is asked
    tracedStub(fresh, caller).registerPerson(register(person(uniqueName("traced"), 30)));

    // server, client, and decode, validate, map, store, map, encode at least
    List<JsonNode> spans = trace(caller.traceId(), 6);
    JsonNode server = only(spans, "acme.person.v1.PersonService/RegisterPerson");
    assertThat(server.path("kind").asString()).isEqualTo("SERVER");
    assertThat(server.path("parentId").asString()).isEqualTo(caller.spanId());
    assertThat(server.path("localEndpoint").path("serviceName").asString()).isEqualTo("person-spring");
    assertThat(server.path("tags").path("grpc.status_code").asString()).isEqualTo("OK");
    assertThat(server.path("tags").path("rpc.grpc.status_code").asString()).isEqualTo("0");
    assertThat(server.path("tags").has("error")).isFalse();

    JsonNode client = only(spans, "acme.auth.v1.AuthService/ValidateToken");
    assertThat(client.path("kind").asString()).isEqualTo("CLIENT");
    assertThat(client.path("parentId").asString()).isEqualTo(server.path("id").asString());
    assertThat(client.path("tags").path("rpc.grpc.status_code").asString()).isEqualTo("0");
    // The auth service was told the client span as its caller: its server span will hang there.
    assertThat(AUTH.traceparents()).contains("00-" + caller.traceId() + "-" + client.path("id").asString() + "-01");

    for (String inner : List.of("validate", "store")) {
      assertThat(only(spans, inner).path("parentId").asString()).as(inner).isEqualTo(server.path("id").asString());
    }
  }

  @Test
  void aCallTheAuthServiceRefusesCarriesUnauthenticatedOnBothSpans() {
    Caller caller = caller();
    String refused = AUTH.issue(Duration.ofMinutes(10));
    AUTH.revoke(refused);
    assertThat(codeOf(() -> tracedStub(refused, caller).getPerson(
        com.acme.person.v1.GetPersonRequest.newBuilder().setId("00000000-0000-0000-0000-000000000001").build()))).isEqualTo(Status.Code.UNAUTHENTICATED);

    List<JsonNode> spans = trace(caller.traceId(), 2);
    JsonNode server = only(spans, "acme.person.v1.PersonService/GetPerson");
    assertThat(server.path("parentId").asString()).isEqualTo(caller.spanId());
    assertThat(server.path("tags").path("grpc.status_code").asString()).isEqualTo("UNAUTHENTICATED");
    assertThat(server.path("tags").path("rpc.grpc.status_code").asString()).isEqualTo("16");
    assertThat(server.path("tags").path("error").asString()).isEqualTo("UNAUTHENTICATED");
    JsonNode client = only(spans, "acme.auth.v1.AuthService/ValidateToken");
    assertThat(client.path("parentId").asString()).isEqualTo(server.path("id").asString());
    assertThat(client.path("tags").path("error").asString()).isEqualTo("UNAUTHENTICATED");
    assertThat(spans.stream().map(s -> s.path("name").asString())).doesNotContain("store");
  }

  @Test
  void aMalformedTraceparentStartsANewTrace() {
    Caller caller = caller();
    Metadata headers = new Metadata();
    headers.put(TRACEPARENT, "00-" + caller.traceId().toUpperCase() + "-" + caller.spanId() + "-0x");
    long since = System.currentTimeMillis() * 1000;
    withToken(PersonServiceGrpc.newBlockingStub(channel), token)
        .withInterceptors(MetadataUtils.newAttachHeadersInterceptor(headers))
        .registerPerson(register(person(uniqueName("untraced"), 30)));
    // Found by service, name and time: the one RegisterPerson since the call began.
    String spanName = "acme.person.v1.personservice/registerperson";
    List<JsonNode> roots = new ArrayList<>();
    Awaitility.await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(200)).until(() -> {
      String query = "serviceName=person-spring&spanName=" + spanName + "&lookback=60000&limit=1000&endTs=" + (System.currentTimeMillis() + 1000);
      roots.clear();
      for (JsonNode trace : json.readTree(get(ZIPKIN + "/api/v2/traces?" + query).body())) {
        for (JsonNode span : trace) {
          if (span.path("name").asString().equals(spanName) && span.path("timestamp").asLong() >= since) {
            roots.add(span);
          }
        }
      }
      return !roots.isEmpty();
    });
    assertThat(roots).hasSize(1);
    assertThat(roots.get(0).has("parentId")).as("a new trace: no parent").isFalse();
    assertThat(roots.get(0).path("traceId").asString()).isNotEqualTo(caller.traceId());
    assertThat(get(ZIPKIN + "/api/v2/trace/" + caller.traceId()).statusCode()).as("nothing joined the malformed trace").isEqualTo(404);
  }

  private HttpResponse<String> get(String url) {
    try {
      return http.send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString());
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }
}
