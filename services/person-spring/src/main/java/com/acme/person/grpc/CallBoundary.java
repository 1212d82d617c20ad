package com.acme.person.grpc;

import build.buf.validate.Violations;
import com.acme.person.auth.Caller;
import com.acme.person.auth.TokenValidator;
import com.acme.person.config.PersonProperties;
import com.acme.person.error.ErrorMapper;
import com.acme.person.metrics.Phases;
import com.acme.person.tracing.CallSpans;
import com.acme.person.validation.InvalidRequestException;
import com.acme.person.validation.RequestValidator;
import com.google.protobuf.Message;
import io.grpc.Context;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerMethodDefinition;
import io.grpc.ServerServiceDefinition;
import io.grpc.ServiceDescriptor;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.StreamObserver;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionException;
import org.springframework.stereotype.Component;

/**
 * The boundary of every PersonService call: the one place that owns a call's life, from its
 * headers to its status, in this order.
 *
 * <ol>
 *   <li><b>Limits</b>: metadata over person.limits.header-list-size → RESOURCE_EXHAUSTED, for
 *       this call only (the transport's own bound is higher, see application.yaml).
 *   <li><b>Authenticate</b> "authorization: Bearer &lt;token&gt;" with the auth service — a
 *       cached answer at once, in place; otherwise the call's events wait for the answer, without
 *       a thread — before a byte of the request is read: UNAUTHENTICATED, or UNAVAILABLE when the
 *       auth service is.
 *   <li><b>Read</b>: start the handler and request messages as it asks; a call that takes one
 *       request asks for it and for the end of the stream once the request budget has room
 *       (RequestBudget) — until then its bytes wait at the sender — and gives its share back
 *       when the request is decoded or the call ends. A second request is dropped as it comes.
 *   <li><b>Decode</b> each message where the call runs — off the transport thread once a message
 *       is large (CallPlacement): INVALID_ARGUMENT when it is not the request type (grpc-java
 *       would say UNKNOWN), RESOURCE_EXHAUSTED when it inflates past the limit; a call taking one
 *       request with none or two → INVALID_ARGUMENT (grpc-java: INTERNAL).
 *   <li><b>Validate</b> it against its buf.validate rules: INVALID_ARGUMENT with a
 *       buf.validate.Violations detail.
 *   <li><b>Run</b> the handler with it.
 *   <li><b>Answer</b> through the call's Outbox: on the call's transport thread, encoded off it.
 *   <li><b>Close once</b>: the first status wins. A refusal also tells the handler the call was
 *       cancelled (a stream rolls back); anything a handler throws becomes ErrorMapper's status,
 *       INTERNAL without internals for the unexpected.
 * </ol>
 *
 * Every event of a call runs in order on the executor CallPlacement chose for it; a cancel is
 * also told to the handler at once, so what a stream holds is given back without waiting.
 */
@Component
public class CallBoundary {

  /** The authenticated caller, for handlers that want to know who calls. */
  public static final Context.Key<Caller> CALLER = Context.key("acme.caller");

  private static final Metadata.Key<String> AUTHORIZATION =
      Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER);

  private final TokenValidator tokens;
  private final RequestValidator validator;
  private final ErrorMapper errors;
  private final Phases phases;
  private final CallPlacement placement;
  private final CallSpans spans;
  private final RequestBudget budget;
  private final long maxHeaderBytes;
  private final long maxMessageBytes;

  public CallBoundary(
      TokenValidator tokens,
      RequestValidator validator,
      ErrorMapper errors,
      Phases phases,
      CallPlacement placement,
      CallSpans spans,
      RequestBudget budget,
      PersonProperties properties) {
    this.tokens = tokens;
    this.validator = validator;
    this.errors = errors;
    this.phases = phases;
    this.placement = placement;
    this.spans = spans;
    this.budget = budget;
    this.maxHeaderBytes = properties.limits().headerListSize().toBytes();
    this.maxMessageBytes = properties.limits().messageSize().toBytes();
  }

  /**
   * service with each of its methods served through this boundary. The requests reach it as the
   * bytes that came (RawRequest), answers may be encoded ahead (EncodedAnswer); the schema
   * descriptors stay, so reflection still serves the service's files.
   */
  ServerServiceDefinition serve(ServiceDescriptor service, List<Rpc<?, ?>> rpcs) {
    ServiceDescriptor.Builder descriptor =
        ServiceDescriptor.newBuilder(service.getName()).setSchemaDescriptor(service.getSchemaDescriptor());
    List<ServerMethodDefinition<RawRequest, Object>> methods = new ArrayList<>();
    for (Rpc<?, ?> rpc : rpcs) {
      MethodDescriptor<RawRequest, Object> raw = rpc.descriptor()
          .toBuilder(RawRequest.MARSHALLER, EncodedAnswer.marshaller(rpc.descriptor().getResponseMarshaller()))
          .build();
      descriptor.addMethod(raw);
      methods.add(ServerMethodDefinition.create(raw, handler(rpc)));
    }
    ServerServiceDefinition.Builder definition = ServerServiceDefinition.builder(descriptor.build());
    methods.forEach(definition::addMethod);
    return definition.build();
  }

  private <Q, R> ServerCallHandler<RawRequest, Object> handler(Rpc<Q, R> rpc) {
    RequestDecoder<Q> decoder = new RequestDecoder<>(rpc.descriptor().getRequestMarshaller(), maxMessageBytes);
    return (call, headers) -> new Call<>(rpc, decoder, call).start(headers);
  }

  /** One call, from its headers to its status. */
  private final class Call<Q, R> extends ServerCall.Listener<RawRequest> {
    private final Rpc<Q, R> rpc;
    private final RequestDecoder<Q> decoder;
    private final ServerCall<RawRequest, Object> call;
    private final Outbox out;
    private final CallObserver<R> answer;
    private volatile SerialExecutor events;
    // With the call's server span, which the thread's scope holds only while the call starts.
    private volatile Context context;
    private volatile boolean over;
    // A call taking one request: its share of the request budget, from when it may read it.
    private volatile RequestBudget.Ticket ticket;
    // Only onMessage (which grpc-java calls one at a time) touches it.
    private boolean messageCame;
    // Only the call's events touch these, one at a time.
    private StreamObserver<Q> requests;
    private Q request;
    private long received;
    private boolean halfClosed;

    Call(Rpc<Q, R> rpc, RequestDecoder<Q> decoder, ServerCall<RawRequest, Object> call) {
      this.rpc = rpc;
      this.decoder = decoder;
      this.call = call;
      this.context = Context.current().withValue(CallSpans.SPAN, spans.currentSpan());
      this.out = new Outbox(call, phases, rpc.name(), System.nanoTime());
      this.answer = new CallObserver<>(out, call, errors);
      out.whenWritable(() -> run(answer::ready));
    }

    // 1. Limits, and 2. authenticate. On the transport thread.
    ServerCall.Listener<RawRequest> start(Metadata headers) {
      long headerBytes = HeaderSize.of(headers);
      if (headerBytes > maxHeaderBytes) {
        over = true;
        out.close(Status.RESOURCE_EXHAUSTED.withDescription("the call's metadata (" + headerBytes
            + " bytes) is over the limit of " + maxHeaderBytes + " bytes"), new Metadata());
        return this;
      }
      String authorization = headers.get(AUTHORIZATION);
      // Used as it is when cached: asking the cache again could find the entry expired, and the
      // call would run in place without a checked token.
      Caller cached = placement.mayRunInPlace() ? tokens.cachedCaller(authorization) : null;
      events = placement.start(cached != null);
      run(() -> authenticate(cached, authorization));
      return this;
    }

    private void authenticate(Caller cached, String authorization) {
      long start = System.nanoTime();
      if (cached != null) {
        authenticated(cached, null, start);
        return;
      }
      // The auth service may be slow: the call's later events wait for its answer, no thread does.
      events.hold();
      tokens.validateHeaderAsync(authorization).whenComplete(
          (caller, error) -> events.resume(() -> context.run(() -> authenticated(caller, error, start))));
    }

    private void authenticated(Caller caller, Throwable error, long start) {
      if (error != null) {
        refuse(error instanceof CompletionException c && c.getCause() != null ? c.getCause() : error);
        return;
      }
      phases.since(start, rpc.name(), "auth");
      context = context.withValue(CALLER, caller);
      context.run(this::startHandler);
    }

    // 3. Read.
    private void startHandler() {
      if (over) {
        return;
      }
      if (rpc.takesOneRequest()) {
        // The request, then the end of the stream (or a second request, refused) — once the
        // request budget has room for it: until then its bytes stay at the sender.
        ticket = budget.ticket(() -> call.request(2), () -> run(() -> refuse(Status.DEADLINE_EXCEEDED
            .withDescription("the request message did not come within the time limit after the service asked for it")
            .asRuntimeException(new Metadata()))));
        ticket.ask();
        return;
      }
      try {
        requests = rpc.requests().start(answer);
      } catch (RuntimeException e) {
        refuse(e);
        return;
      }
      if (answer.autoRequest()) {
        call.request(1);
      }
    }

    @Override
    public void onMessage(RawRequest raw) {
      if (over) {
        raw.close();
        return;
      }
      if (rpc.takesOneRequest()) {
        if (messageCame) {
          // Dropped as it comes, so that it holds nothing while the call waits to refuse it.
          raw.close();
          run(() -> refuse(invalid("a " + shape() + " call takes exactly one request message, got more")));
          return;
        }
        messageCame = true;
        ticket.arrived(raw.size());
      }
      placement.arrived(events, raw.size());
      run(() -> read(raw));
    }

    // 4. Decode, 5. validate, 6. run.
    private void read(RawRequest raw) {
      if (over || out.isClosed()) {
        raw.close();
        releaseTicket();
        return;
      }
      boolean one = rpc.takesOneRequest();
      String which = one ? "the request" : StreamPositions.message(received);
      long start = System.nanoTime();
      Q message;
      try {
        message = decoder.decode(raw, which);
      } catch (StatusRuntimeException undecodable) {
        refuse(undecodable);
        return;
      } finally {
        releaseTicket();
      }
      start = phases.since(start, rpc.name(), "decode");
      if (rpc.validated()) {
        Violations violations = validator.violations((Message) message);
        phases.since(start, rpc.name(), "validate");
        if (violations != null) {
          String where = one ? "" : which + " is invalid";
          refuse(new InvalidRequestException(RequestValidator.describe(where, (Message) message, violations), violations));
          return;
        }
      }
      received++;
      if (one) {
        request = message;
        return;
      }
      try {
        requests.onNext(message);
      } catch (RuntimeException e) {
        refuse(e);
        return;
      }
      if (answer.autoRequest() && !over) {
        call.request(1);
      }
    }

    @Override
    public void onHalfClose() {
      if (!over) {
        run(this::end);
      }
    }

    private void end() {
      if (over) {
        return;
      }
      halfClosed = true;
      try {
        if (!rpc.takesOneRequest()) {
          requests.onCompleted();
        } else if (received == 0) {
          refuse(invalid("a " + shape() + " call takes exactly one request message, got none"));
        } else {
          rpc.oneRequest().run(request, answer);
        }
      } catch (RuntimeException e) {
        refuse(e);
      }
    }

    // 8. Close once.
    /** Ends the call with error's status, and tells the handler the call was cancelled. */
    private void refuse(Throwable error) {
      if (over) {
        return;
      }
      over = true;
      abandonTicket();
      answer.onError(error);
      answer.cancelled();
      if (requests != null && !halfClosed) {
        requests.onError(Status.CANCELLED.withDescription("the call was refused").asRuntimeException());
      }
    }

    /** The client cancelled, the deadline passed, or the transport ended the call. */
    @Override
    public void onCancel() {
      over = true;
      abandonTicket();
      answer.cancelled(); // at once, on the transport thread: a stream's place is free now
      run(() -> {
        if (requests != null && !halfClosed) {
          requests.onError(Status.CANCELLED.withDescription("the client cancelled").asRuntimeException());
        }
      });
    }

    @Override
    public void onComplete() {
      abandonTicket();
      answer.closed();
    }

    /** The request is decoded or dropped: its share of the budget is free. */
    private void releaseTicket() {
      RequestBudget.Ticket mine = ticket;
      if (mine != null) {
        mine.release();
      }
    }

    /**
     * The call is over: a request that has not come never will be read, so its share is free;
     * one that came is still held until read() drops it, which releases it then.
     */
    private void abandonTicket() {
      RequestBudget.Ticket mine = ticket;
      if (mine != null) {
        mine.abandon();
      }
    }

    @Override
    public void onReady() {
      run(answer::ready);
    }

    /** Runs task after the call's earlier events, where the call runs, in its context. */
    private void run(Runnable task) {
      SerialExecutor on = events;
      if (on != null) {
        on.execute(() -> context.run(task));
      }
    }

    private String shape() {
      return rpc.descriptor().getType() == MethodDescriptor.MethodType.UNARY ? "unary" : "server-streaming";
    }
  }

  private static StatusRuntimeException invalid(String message) {
    return Status.INVALID_ARGUMENT.withDescription(message).asRuntimeException(new Metadata());
  }
}
