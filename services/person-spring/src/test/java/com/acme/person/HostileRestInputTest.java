package com.acme.person;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.util.unit.DataSize;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The REST twin against what a browser, curl or an attacker can send: other content types,
 * bodies over the limit, loose JSON, long tokens. It must be as strict as the gRPC path and
 * answer in its own JSON error shape, never a container's HTML page or a 500.
 */
@ExtendWith(OutputCaptureExtension.class)
class HostileRestInputTest extends ServiceTestBase {

  private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
  private final JsonMapper json = JsonMapper.builder().build();

  @Value("${person.limits.rest-body-size:9MB}")
  DataSize restBodyLimit;

  @org.springframework.beans.factory.annotation.Autowired
  com.acme.person.config.PersonProperties properties;

  @Test
  void aFormBodyWithInvalidBytesIs415AndItsBytesAreNotLogged(CapturedOutput output) throws Exception {
    byte[] body = "name=%ZZsecret-form-body&age=%FF%FE\u00ff".getBytes(StandardCharsets.ISO_8859_1);
    HttpResponse<String> response = send("POST", "/api/people", "application/x-www-form-urlencoded", body, token);
    assertError(response, 415, "unimplemented");
    assertThat(output.getAll()).doesNotContain("secret-form-body");
  }

  @Test
  void aCharsetOtherThanUtf8Is415() throws Exception {
    HttpResponse<String> response = send("POST", "/api/people", "application/json; charset=ISO-8859-1",
        "{\"name\":\"\u00ff\u00fe\",\"age\":3}".getBytes(StandardCharsets.ISO_8859_1), token);
    assertError(response, 415, "unimplemented");
  }

  @Test
  void jsonIsReadAsStrictlyAsProtobuf() throws Exception {
    String name = People.uniqueName("loose");
    for (String body : new String[] {
      "{\"name\":\"" + name + "\",\"age\":3,\"nickname\":\"x\"}", // unknown field
      "{\"name\":\"" + name + "\",\"age\":3,\"age\":4}", // duplicate key
      "{\"name\":\"" + name + "\",\"age\":1.5}", // a fraction for an int32
      "{\"name\":\"" + name + "\",\"age\":\"36\"}", // a string for an int32
      "{\"name\":\"" + name + "\",\"age\":null}", // null for an int32
      "{\"name\":\"" + name + "\",\"age\":3,\"hobbies\":\"chess\"}", // a string for a list
      "{\"name\":\"" + name + "\",\"age\":3} trailing", // more than one value
    }) {
      HttpResponse<String> response = send("POST", "/api/people", "application/json", body.getBytes(StandardCharsets.UTF_8), token);
      assertError(response, 400, "invalid_argument");
    }
    assertThat(rowsNamed(name)).isZero();
  }

  @Test
  void invalidUtf8IsRefusedNotStoredAsSomethingElse() throws Exception {
    String name = People.uniqueName("bad-utf8");
    byte[] prefix = ("{\"name\":\"" + name).getBytes(StandardCharsets.UTF_8);
    byte[] suffix = "\",\"age\":3}".getBytes(StandardCharsets.UTF_8);
    byte[] body = new byte[prefix.length + 2 + suffix.length];
    System.arraycopy(prefix, 0, body, 0, prefix.length);
    body[prefix.length] = (byte) 0xff;
    body[prefix.length + 1] = (byte) 0xfe;
    System.arraycopy(suffix, 0, body, prefix.length + 2, suffix.length);
    assertError(send("POST", "/api/people", "application/json", body, token), 400, "invalid_argument");
    assertThat(rowsNamed(name)).isZero();
  }

  @Test
  void aBodyOverTheLimitIs413() throws Exception {
    byte[] body = new byte[(int) restBodyLimit.toBytes() + 1];
    java.util.Arrays.fill(body, (byte) ' ');
    assertError(send("POST", "/api/people", "application/json", body, token), 413, "resource_exhausted");
    // Without a Content-Length (chunked) the limit holds too.
    HttpRequest chunked = HttpRequest.newBuilder(uri("/api/people"))
        .header("Content-Type", "application/json")
        .header("Authorization", "Bearer " + token)
        .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(body)))
        .build();
    assertError(http.send(chunked, HttpResponse.BodyHandlers.ofString()), 413, "resource_exhausted");
  }

  @Test
  void aBodyAnnouncedOverTheLimitIsRefusedBeforeItIsRead() throws Exception {
    // A client that announces 105 MB and sends a few bytes: the answer must come at once,
    // not after the service waited for (and buffered) the rest.
    try (Socket socket = RawRest.registrationStarted(restPort, token, 110_000_000, "{\"name\":")) {
      InputStream in = socket.getInputStream();
      String statusLine = new String(in.readNBytes(12), StandardCharsets.US_ASCII);
      assertThat(statusLine).isEqualTo("HTTP/1.1 413");
    }
  }

  @Test
  void aRequestTheHttpParserRefusesGetsTheJsonErrorNotAnHtmlPage() throws Exception {
    // A header value with a control character: Tomcat refuses it before any servlet runs.
    try (Socket socket = new Socket("localhost", restPort)) {
      socket.setSoTimeout(5000);
      socket.getOutputStream().write(("GET /api/people/x HTTP/1.1\r\nHost: localhost\r\n"
          + "Authorization: Bearer \u007fbad\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
      String answer = new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertThat(answer).startsWith("HTTP/1.1 400");
      assertThat(answer).containsIgnoringCase("Content-Type: application/json");
      JsonNode error = json.readTree(answer.substring(answer.indexOf("\r\n\r\n") + 4));
      assertThat(error.get("code").asString()).isEqualTo("invalid_argument");
    }
  }

  @Test
  void headersOverTheLimitAre431ResourceExhausted() throws Exception {
    HttpResponse<String> response = send("GET", "/api/people/" + java.util.UUID.randomUUID(), null, null,
        "t".repeat((int) properties.limits().headerListSize().toBytes()));
    assertError(response, 431, "resource_exhausted");
  }

  @Test
  void aWrongMethodIs405Unimplemented() throws Exception {
    HttpResponse<String> response = send("PUT", "/api/people", "application/json", "{}".getBytes(StandardCharsets.UTF_8), token);
    assertError(response, 405, "unimplemented");
    assertThat(response.headers().firstValue("Allow")).isPresent();
  }

  @Test
  void theLongestTokenTheContractAllowsGetsAJsonAnswer() throws Exception {
    HttpResponse<String> response = send("GET", "/api/people/" + java.util.UUID.randomUUID(), null, null, "t".repeat(8192));
    assertError(response, 401, "unauthenticated");
  }

  private void assertError(HttpResponse<String> response, int status, String code) throws Exception {
    assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
    assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(v -> assertThat(v).startsWith("application/json"));
    JsonNode error = json.readTree(response.body());
    assertThat(error.get("code").asString()).isEqualTo(code);
    for (String internal : HostileGrpcInputTest.INTERNALS) {
      assertThat(error.get("message").asString()).doesNotContainIgnoringCase(internal);
    }
  }

  private HttpResponse<String> send(String method, String path, String contentType, byte[] body, String bearer)
      throws Exception {
    HttpRequest.Builder request = HttpRequest.newBuilder(uri(path))
        .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofByteArray(body));
    if (contentType != null) {
      request.header("Content-Type", contentType);
    }
    if (bearer != null) {
      request.header("Authorization", "Bearer " + bearer);
    }
    return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  private URI uri(String path) {
    return URI.create("http://localhost:" + restPort + path);
  }
}
