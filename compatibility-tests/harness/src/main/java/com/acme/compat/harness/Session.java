package com.acme.compat.harness;

import com.acme.compat.executor.v1.Outcome;
import com.acme.compat.executor.v1.Step;
import com.google.protobuf.Any;
import com.google.protobuf.ByteString;
import com.google.protobuf.Descriptors.MethodDescriptor;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.util.Durations;
import com.google.rpc.RetryInfo;
import io.grpc.Status;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * One client against one server over one protocol: a run id that prefixes every name it
 * creates, the client's executor, and the admin's token (logged in through that executor), with
 * which it runs cases step by step. Every judgement is made here, none in an executor.
 */
final class Session implements AutoCloseable {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final int DEFAULT_TIMEOUT_MS = 30_000;
  /** On top of a step's own deadline and waits, before the executor counts as hung. */
  private static final Duration GRACE = Duration.ofSeconds(30);

  /** A count of rows person-spring's database must hold once every session is over. */
  record RowCheck(String client, String caseName, String check, String nameContains, int rows) {}

  private final Config.Client client;
  private final String server;
  private final String protocol;
  private final String runId;
  private final Schemas schemas;
  private final Map<String, String> env;
  private final Path log;
  private final ObjectNode admin = NODES.objectNode();
  private final RestStep rest;
  private ExecutorProcess executor;

  Session(Config.Client client, String server, String protocol, String runId, Schemas schemas,
      Map<String, String> env, Path log, String adminUsername, String adminPassword) {
    this.client = client;
    this.server = server;
    this.protocol = protocol;
    this.runId = runId;
    this.schemas = schemas;
    this.env = env;
    this.log = log;
    this.rest = new RestStep(RestStep.targets(env));
    admin.put("username", adminUsername);
    admin.put("password", adminPassword);
  }

  /**
   * Runs one case; its row checks are added to rows. Throws Schemas.NotInRelease, without a
   * verdict, when the session's client is built on a release that lacks what the case needs.
   */
  Case run(CaseLibrary.Spec spec, List<RowCheck> rows) {
    long start = System.nanoTime();
    Values.Scope scope = new Values.Scope();
    scope.put("run", NODES.stringNode(runId));
    String detail = "";
    try {
      ensureExecutor();
      scope.put("admin", admin);
      int n = 0;
      for (JsonNode step : spec.steps()) {
        n++;
        String failed = step.has("call") ? call(spec, step, scope) : step.has("http") ? http(spec, step, scope)
            : step.has("trace") ? trace(step, scope) : check(step, scope);
        if (!failed.isEmpty()) {
          String what = step.has("call") ? step.get("call").asString() : step.has("http") ? step.get("http").asString()
              : step.has("trace") ? "trace" : "";
          detail = "step " + n + (what.isEmpty() ? "" : " (" + what + ")") + ": " + failed;
          break;
        }
      }
      for (var row : spec.database().entrySet()) {
        JsonNode r = Values.eval(row.getValue(), scope);
        rows.add(new RowCheck(client.name(), spec.name(), row.getKey(), r.get("name_contains").asString(), r.get("rows").asInt()));
      }
    } catch (IOException e) {
      detail = e.getMessage() + " (log: " + log + ")";
    } catch (Schemas.NotInRelease e) {
      throw e;
    } catch (RuntimeException e) {
      detail = "the case could not run: " + e;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      detail = "interrupted";
    }
    return new Case(client.name(), server, protocol, spec.name(), detail.isEmpty(), detail, (System.nanoTime() - start) / 1_000_000);
  }

  /** A step without a call: "check" (a value) must match "is". */
  private static String check(JsonNode step, Values.Scope scope) {
    List<String> differences = Expect.differences(Values.eval(step.get("is"), scope), Values.eval(step.get("check"), scope));
    return String.join("; ", differences);
  }

  /** A trace step: the trace of that id in the topology's Zipkin, its spans as expected (TraceStep). */
  private String trace(JsonNode step, Values.Scope scope) throws IOException, InterruptedException {
    return TraceStep.run(env.get(TraceStep.ZIPKIN_TARGET), Values.eval(step.get("trace"), scope).asString(),
        Values.eval(step.get("spans"), scope));
  }

  /** An http step: a request to the REST twin of the case's server, by the harness (RestStep). */
  private String http(CaseLibrary.Spec spec, JsonNode step, Values.Scope scope) throws IOException, InterruptedException {
    ObjectNode result = NODES.objectNode();
    String failed = rest.run(spec, step, scope, authorization(spec, step, scope), result);
    if (failed.isEmpty() && step.has("save")) {
      scope.put(step.get("save").asString(), result);
    }
    return failed;
  }

  /** The authorization header a step asks for: none, the admin's token, or the text given. */
  private String authorization(CaseLibrary.Spec spec, JsonNode step, Values.Scope scope) {
    String auth = Values.eval(step.has("auth") ? step.get("auth") : spec.defaults().path("auth"), scope).asString("none");
    return switch (auth) {
      case "none" -> "none";
      case "admin" -> "Bearer " + admin.get("token").asString();
      default -> auth;
    };
  }

  /** One call step, repeated "times" or polled as it says; the first difference ends it. */
  private String call(CaseLibrary.Spec spec, JsonNode step, Values.Scope scope) throws IOException, InterruptedException {
    if (client.harness()) {
      return "the harness's own client makes no RPC calls (only http steps)";
    }
    int times = step.path("times").asInt(1);
    JsonNode poll = step.get("poll");
    ArrayNode results = NODES.arrayNode();
    long pollUntil = poll == null ? 0 : System.nanoTime() + Duration.ofMillis(poll.path("for_ms").asLong()).toNanos();
    for (int n = 0; n < times || (poll != null && System.nanoTime() < pollUntil); n++) {
      Values.Scope here = scope.with("n", NODES.numberNode(n));
      for (var binding : step.path("let").properties()) {
        here = here.with(binding.getKey(), Values.eval(binding.getValue(), here));
      }
      ObjectNode result = NODES.objectNode();
      String failed = callOnce(spec, step, here, result);
      if (!failed.isEmpty()) {
        return (times > 1 || poll != null ? "call " + (n + 1) + ": " : "") + failed;
      }
      results.add(result);
      if (poll != null) {
        Thread.sleep(poll.path("every_ms").asLong());
      }
    }
    if (step.has("save")) {
      scope.put(step.get("save").asString(), times > 1 ? results : results.get(results.size() - 1));
    }
    return "";
  }

  private String callOnce(CaseLibrary.Spec spec, JsonNode step, Values.Scope scope, ObjectNode result)
      throws IOException, InterruptedException {
    boolean newer = step.path("schema").asString("current").equals("next");
    MethodDescriptor method = schemas.method(step.get("call").asString(), newer);
    String target = Schemas.server(method);
    ArrayNode requests;
    if (step.has("requests")) {
      requests = (ArrayNode) Values.eval(step.get("requests"), scope);
    } else {
      requests = NODES.arrayNode().add(Values.eval(step.get("request"), scope));
    }
    Step.Builder call = Step.newBuilder()
        .setService(method.getService().getFullName())
        .setMethod(method.getName())
        .setServer(target)
        // The protocol under test is the session's; a step on the other server (a login, a
        // user made for the case) goes over gRPC, which every client speaks.
        .setProtocol(target.equals(server) ? protocol : "grpc")
        .setTimeoutMs(step.path("timeout_ms").asInt(DEFAULT_TIMEOUT_MS))
        .setEnd(end(step.path("end").asString("half-close")))
        .setCancelAfterMs(step.path("cancel_after_ms").asInt(0))
        .setExchange(step.path("exchange").asBoolean(false));
    long requestBytes = 0;
    for (JsonNode request : requests) {
      ByteString bytes;
      try {
        bytes = Schemas.encode(method.getInputType(), request);
      } catch (IllegalArgumentException e) {
        // What today's schema encodes and a release's does not: the case needs a newer SDK.
        if (schemas.release() != null && !newer) {
          throw new Schemas.NotInRelease(e.getMessage() + ", which " + schemas.release() + " lacks");
        }
        throw e;
      }
      requestBytes = Math.max(requestBytes, bytes.size());
      call.addRequests(bytes);
    }
    String auth = authorization(spec, step, scope);
    if (!auth.equals("none")) {
      call.setAuthorization(auth);
    }
    if (step.has("traceparent")) {
      call.setTraceparent(Values.eval(step.get("traceparent"), scope).asString());
    }

    Outcome outcome = executor.call(call.build(),
        Duration.ofMillis(call.getTimeoutMs() + call.getCancelAfterMs()).plus(GRACE));
    if (!outcome.getFailure().isEmpty()) {
      return "the executor could not make the call: " + outcome.getFailure();
    }
    ArrayNode responses = NODES.arrayNode();
    for (ByteString r : outcome.getResponsesList()) {
      responses.add(Schemas.decode(method.getOutputType(), r));
    }
    Status.Code code = Status.Code.values()[outcome.getCode()];
    result.set("request", requests.get(0));
    result.set("requests", requests);
    result.set("responses", responses);
    if (responses.size() == 1) {
      result.set("response", responses.get(0));
    }
    result.put("code", code.name());

    JsonNode expect = Values.eval(step.path("expect"), scope.with("request", requests.get(0)));
    String wanted = expect.path("code").asString("OK");
    if (!wanted.equals(code.name())) {
      return "expected " + wanted + ", got " + code + (outcome.getMessage().isEmpty() ? "" : " (" + outcome.getMessage() + ")");
    }
    List<String> differences = new ArrayList<>();
    if (expect.has("response")) {
      if (responses.size() != 1) {
        differences.add("expected one response, got " + responses.size());
      } else {
        Expect.differences(expect.get("response"), responses.get(0)).forEach(d -> differences.add("response " + d));
      }
    }
    if (expect.has("responses")) {
      Expect.differences(expect.get("responses"), responses).forEach(d -> differences.add("responses " + d));
    }
    if (expect.has("violations") || expect.has("rules") || expect.has("retry_delay")) {
      details(outcome, expect, differences);
    }
    if (expect.has("elapsed_ms")) {
      long ms = outcome.getElapsedMs();
      JsonNode bounds = expect.get("elapsed_ms");
      if (ms < bounds.path("min").asLong(0) || ms > bounds.path("max").asLong(Long.MAX_VALUE)) {
        differences.add("ended after " + ms + " ms, expected within " + bounds);
      }
    }
    if (expect.has("request_bytes") && requestBytes < expect.get("request_bytes").path("min").asLong()) {
      differences.add("the request is " + requestBytes + " bytes, not over " + expect.get("request_bytes").path("min"));
    }
    return String.join("; ", differences);
  }

  /** The google.rpc.Status the server sent: its validation violations and its RetryInfo. */
  private static void details(Outcome outcome, JsonNode expect, List<String> differences)
      throws InvalidProtocolBufferException {
    if (outcome.getStatusDetails().isEmpty()) {
      differences.add("no google.rpc.Status in the error's details");
      return;
    }
    com.google.rpc.Status status = com.google.rpc.Status.parseFrom(outcome.getStatusDetails());
    if (status.getCode() != outcome.getCode()) {
      differences.add("google.rpc.Status has code " + status.getCode() + ", the call " + outcome.getCode());
    }
    List<String> names = new ArrayList<>();
    int violationDetails = 0;
    RetryInfo retry = null;
    for (Any detail : status.getDetailsList()) {
      if (detail.is(build.buf.validate.Violations.class)) {
        violationDetails++;
        for (var v : detail.unpack(build.buf.validate.Violations.class).getViolationsList()) {
          String path = String.join(".", v.getField().getElementsList().stream().map(e -> e.getFieldName()).toList());
          names.add(path + "/" + v.getRuleId());
        }
      } else if (detail.is(RetryInfo.class)) {
        retry = detail.unpack(RetryInfo.class);
      }
    }
    if ((expect.has("violations") || expect.has("rules")) && violationDetails != 1) {
      differences.add("expected one buf.validate.Violations detail, got " + violationDetails);
    }
    expect.path("violations").forEach(v -> {
      if (!names.contains(v.asString())) {
        differences.add("no violation " + v.asString() + " among " + names);
      }
    });
    expect.path("rules").forEach(r -> {
      if (names.stream().noneMatch(n -> n.endsWith("/" + r.asString()))) {
        differences.add("no violation with rule id " + r.asString() + " among " + names);
      }
    });
    if (expect.has("retry_delay")) {
      if (retry == null) {
        differences.add("no google.rpc.RetryInfo detail");
      } else if (!Durations.isPositive(retry.getRetryDelay())) {
        differences.add("RetryInfo.retry_delay is not positive: " + Durations.toString(retry.getRetryDelay()));
      }
    }
  }

  private static Step.End end(String end) {
    return switch (end) {
      case "half-close" -> Step.End.END_HALF_CLOSE;
      case "open" -> Step.End.END_OPEN;
      case "cancel" -> Step.End.END_CANCEL;
      default -> throw new IllegalArgumentException("end must be half-close, open or cancel, not " + end);
    };
  }

  /**
   * A running executor with the admin logged in through it; a new one after a crash. A client
   * the harness is itself has no executor: it logs the admin in at the REST twin.
   */
  private void ensureExecutor() throws IOException, InterruptedException {
    if (client.harness()) {
      if (!admin.has("token")) {
        admin.put("token", rest.login(admin.get("username").asString(), admin.get("password").asString()));
      }
      return;
    }
    if (executor != null && executor.alive()) {
      return;
    }
    if (executor != null) {
      executor.close();
    }
    executor = new ExecutorProcess(client.dir(), env, log);
    MethodDescriptor login = schemas.method("AuthService/Login", false);
    ObjectNode request = NODES.objectNode().put("username", admin.get("username").asString()).put("password", admin.get("password").asString());
    Outcome outcome = executor.call(
        Step.newBuilder().setService(login.getService().getFullName()).setMethod(login.getName()).setServer("auth-node")
            .setProtocol("grpc").setTimeoutMs(DEFAULT_TIMEOUT_MS).setEnd(Step.End.END_HALF_CLOSE)
            .addRequests(Schemas.encode(login.getInputType(), request)).build(),
        Duration.ofMillis(DEFAULT_TIMEOUT_MS).plus(GRACE));
    if (!outcome.getFailure().isEmpty() || outcome.getCode() != 0 || outcome.getResponsesCount() != 1) {
      throw new IOException("the admin's login through the executor failed: code " + outcome.getCode() + " "
          + outcome.getMessage() + outcome.getFailure());
    }
    admin.put("token", Schemas.decode(login.getOutputType(), outcome.getResponses(0)).path("token").asString());
  }

  @Override
  public void close() {
    if (executor != null) {
      executor.close();
    }
  }
}
