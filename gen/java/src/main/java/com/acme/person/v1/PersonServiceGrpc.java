package com.acme.person.v1;

import static io.grpc.MethodDescriptor.generateFullMethodName;

/**
 * <pre>
 * PersonService is the person registry. It offers all four gRPC call shapes.
 * Every call needs the metadata "authorization: Bearer &lt;token&gt;" with a token
 * issued by acme.auth.v1.AuthService/Login. Status codes every RPC can return:
 *   - UNAUTHENTICATED: the token is missing, malformed, expired or revoked.
 *   - INVALID_ARGUMENT: a request message breaks its buf.validate rules; the
 *     status details carry a buf.validate.Violations message with the field
 *     paths and rule ids. Also, without details, for a message that cannot be
 *     decoded and for a unary call with no or several request messages.
 *   - RESOURCE_EXHAUSTED: a message or the metadata is over the server's
 *     declared size limit (the limit applies after decompression), or the
 *     server is at its limit of concurrent RegisterPeople streams.
 *   - UNAVAILABLE: the auth service (or the database) cannot be reached; retry.
 *   - DEADLINE_EXCEEDED: the call's deadline passed first.
 *   - UNIMPLEMENTED: the request is compressed with an encoding the server
 *     does not support.
 *   - INTERNAL: an unexpected failure, or a gRPC framing error of the
 *     client's that a server's transport answers itself (a frame cut short,
 *     reserved flag bits), as the gRPC specification asks. No internals are
 *     disclosed.
 * </pre>
 */
@io.grpc.stub.annotations.GrpcGenerated
public final class PersonServiceGrpc {

  private PersonServiceGrpc() {}

  public static final java.lang.String SERVICE_NAME = "acme.person.v1.PersonService";

  // Static method descriptors that strictly reflect the proto.
  private static volatile io.grpc.MethodDescriptor<com.acme.person.v1.RegisterPersonRequest,
      com.acme.person.v1.RegisterPersonResponse> getRegisterPersonMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "RegisterPerson",
      requestType = com.acme.person.v1.RegisterPersonRequest.class,
      responseType = com.acme.person.v1.RegisterPersonResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<com.acme.person.v1.RegisterPersonRequest,
      com.acme.person.v1.RegisterPersonResponse> getRegisterPersonMethod() {
    io.grpc.MethodDescriptor<com.acme.person.v1.RegisterPersonRequest, com.acme.person.v1.RegisterPersonResponse> getRegisterPersonMethod;
    if ((getRegisterPersonMethod = PersonServiceGrpc.getRegisterPersonMethod) == null) {
      synchronized (PersonServiceGrpc.class) {
        if ((getRegisterPersonMethod = PersonServiceGrpc.getRegisterPersonMethod) == null) {
          PersonServiceGrpc.getRegisterPersonMethod = getRegisterPersonMethod =
              io.grpc.MethodDescriptor.<com.acme.person.v1.RegisterPersonRequest, com.acme.person.v1.RegisterPersonResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "RegisterPerson"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  com.acme.person.v1.RegisterPersonRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  com.acme.person.v1.RegisterPersonResponse.getDefaultInstance()))
              .setSchemaDescriptor(new PersonServiceMethodDescriptorSupplier("RegisterPerson"))
              .build();
        }
      }
    }
    return getRegisterPersonMethod;
  }

  private static volatile io.grpc.MethodDescriptor<com.acme.person.v1.RegisterPeopleRequest,
      com.acme.person.v1.RegisterPeopleResponse> getRegisterPeopleMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "RegisterPeople",
      requestType = com.acme.person.v1.RegisterPeopleRequest.class,
      responseType = com.acme.person.v1.RegisterPeopleResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.CLIENT_STREAMING)
  public static io.grpc.MethodDescriptor<com.acme.person.v1.RegisterPeopleRequest,
      com.acme.person.v1.RegisterPeopleResponse> getRegisterPeopleMethod() {
    io.grpc.MethodDescriptor<com.acme.person.v1.RegisterPeopleRequest, com.acme.person.v1.RegisterPeopleResponse> getRegisterPeopleMethod;
    if ((getRegisterPeopleMethod = PersonServiceGrpc.getRegisterPeopleMethod) == null) {
      synchronized (PersonServiceGrpc.class) {
        if ((getRegisterPeopleMethod = PersonServiceGrpc.getRegisterPeopleMethod) == null) {
          PersonServiceGrpc.getRegisterPeopleMethod = getRegisterPeopleMethod =
              io.grpc.MethodDescriptor.<com.acme.person.v1.RegisterPeopleRequest, com.acme.person.v1.RegisterPeopleResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.CLIENT_STREAMING)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "RegisterPeople"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  com.acme.person.v1.RegisterPeopleRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  com.acme.person.v1.RegisterPeopleResponse.getDefaultInstance()))
              .setSchemaDescriptor(new PersonServiceMethodDescriptorSupplier("RegisterPeople"))
              .build();
        }
      }
    }
    return getRegisterPeopleMethod;
  }

  private static volatile io.grpc.MethodDescriptor<com.acme.person.v1.GetPersonRequest,
      com.acme.person.v1.GetPersonResponse> getGetPersonMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "GetPerson",
      requestType = com.acme.person.v1.GetPersonRequest.class,
      responseType = com.acme.person.v1.GetPersonResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<com.acme.person.v1.GetPersonRequest,
      com.acme.person.v1.GetPersonResponse> getGetPersonMethod() {
    io.grpc.MethodDescriptor<com.acme.person.v1.GetPersonRequest, com.acme.person.v1.GetPersonResponse> getGetPersonMethod;
    if ((getGetPersonMethod = PersonServiceGrpc.getGetPersonMethod) == null) {
      synchronized (PersonServiceGrpc.class) {
        if ((getGetPersonMethod = PersonServiceGrpc.getGetPersonMethod) == null) {
          PersonServiceGrpc.getGetPersonMethod = getGetPersonMethod =
              io.grpc.MethodDescriptor.<com.acme.person.v1.GetPersonRequest, com.acme.person.v1.GetPersonResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "GetPerson"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  com.acme.person.v1.GetPersonRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  com.acme.person.v1.GetPersonResponse.getDefaultInstance()))
              .setSchemaDescriptor(new PersonServiceMethodDescriptorSupplier("GetPerson"))
              .build();
        }
      }
    }
    return getGetPersonMethod;
  }

  private static volatile io.grpc.MethodDescriptor<com.acme.person.v1.ListPeopleRequest,
      com.acme.person.v1.ListPeopleResponse> getListPeopleMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "ListPeople",
      requestType = com.acme.person.v1.ListPeopleRequest.class,
      responseType = com.acme.person.v1.ListPeopleResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.SERVER_STREAMING)
  public static io.grpc.MethodDescriptor<com.acme.person.v1.ListPeopleRequest,
      com.acme.person.v1.ListPeopleResponse> getListPeopleMethod() {
    io.grpc.MethodDescriptor<com.acme.person.v1.ListPeopleRequest, com.acme.person.v1.ListPeopleResponse> getListPeopleMethod;
    if ((getListPeopleMethod = PersonServiceGrpc.getListPeopleMethod) == null) {
      synchronized (PersonServiceGrpc.class) {
        if ((getListPeopleMethod = PersonServiceGrpc.getListPeopleMethod) == null) {
          PersonServiceGrpc.getListPeopleMethod = getListPeopleMethod =
              io.grpc.MethodDescriptor.<com.acme.person.v1.ListPeopleRequest, com.acme.person.v1.ListPeopleResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.SERVER_STREAMING)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "ListPeople"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  com.acme.person.v1.ListPeopleRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  com.acme.person.v1.ListPeopleResponse.getDefaultInstance()))
              .setSchemaDescriptor(new PersonServiceMethodDescriptorSupplier("ListPeople"))
              .build();
        }
      }
    }
    return getListPeopleMethod;
  }

  private static volatile io.grpc.MethodDescriptor<com.acme.person.v1.SyncPeopleRequest,
      com.acme.person.v1.SyncPeopleResponse> getSyncPeopleMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "SyncPeople",
      requestType = com.acme.person.v1.SyncPeopleRequest.class,
      responseType = com.acme.person.v1.SyncPeopleResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.BIDI_STREAMING)
  public static io.grpc.MethodDescriptor<com.acme.person.v1.SyncPeopleRequest,
      com.acme.person.v1.SyncPeopleResponse> getSyncPeopleMethod() {
    io.grpc.MethodDescriptor<com.acme.person.v1.SyncPeopleRequest, com.acme.person.v1.SyncPeopleResponse> getSyncPeopleMethod;
    if ((getSyncPeopleMethod = PersonServiceGrpc.getSyncPeopleMethod) == null) {
      synchronized (PersonServiceGrpc.class) {
        if ((getSyncPeopleMethod = PersonServiceGrpc.getSyncPeopleMethod) == null) {
          PersonServiceGrpc.getSyncPeopleMethod = getSyncPeopleMethod =
              io.grpc.MethodDescriptor.<com.acme.person.v1.SyncPeopleRequest, com.acme.person.v1.SyncPeopleResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.BIDI_STREAMING)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "SyncPeople"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  com.acme.person.v1.SyncPeopleRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  com.acme.person.v1.SyncPeopleResponse.getDefaultInstance()))
              .setSchemaDescriptor(new PersonServiceMethodDescriptorSupplier("SyncPeople"))
              .build();
        }
      }
    }
    return getSyncPeopleMethod;
  }

  /**
   * Creates a new async stub that supports all call types for the service
   */
  public static PersonServiceStub newStub(io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<PersonServiceStub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<PersonServiceStub>() {
        @java.lang.Override
        public PersonServiceStub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new PersonServiceStub(channel, callOptions);
        }
      };
    return PersonServiceStub.newStub(factory, channel);
  }

  /**
   * Creates a new blocking-style stub that supports all types of calls on the service
   */
  public static PersonServiceBlockingV2Stub newBlockingV2Stub(
      io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<PersonServiceBlockingV2Stub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<PersonServiceBlockingV2Stub>() {
        @java.lang.Override
        public PersonServiceBlockingV2Stub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new PersonServiceBlockingV2Stub(channel, callOptions);
        }
      };
    return PersonServiceBlockingV2Stub.newStub(factory, channel);
  }

  /**
   * Creates a new blocking-style stub that supports unary and streaming output calls on the service
   */
  public static PersonServiceBlockingStub newBlockingStub(
      io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<PersonServiceBlockingStub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<PersonServiceBlockingStub>() {
        @java.lang.Override
        public PersonServiceBlockingStub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new PersonServiceBlockingStub(channel, callOptions);
        }
      };
    return PersonServiceBlockingStub.newStub(factory, channel);
  }

  /**
   * Creates a new ListenableFuture-style stub that supports unary calls on the service
   */
  public static PersonServiceFutureStub newFutureStub(
      io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<PersonServiceFutureStub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<PersonServiceFutureStub>() {
        @java.lang.Override
        public PersonServiceFutureStub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new PersonServiceFutureStub(channel, callOptions);
        }
      };
    return PersonServiceFutureStub.newStub(factory, channel);
  }

  /**
   * <pre>
   * PersonService is the person registry. It offers all four gRPC call shapes.
   * Every call needs the metadata "authorization: Bearer &lt;token&gt;" with a token
   * issued by acme.auth.v1.AuthService/Login. Status codes every RPC can return:
   *   - UNAUTHENTICATED: the token is missing, malformed, expired or revoked.
   *   - INVALID_ARGUMENT: a request message breaks its buf.validate rules; the
   *     status details carry a buf.validate.Violations message with the field
   *     paths and rule ids. Also, without details, for a message that cannot be
   *     decoded and for a unary call with no or several request messages.
   *   - RESOURCE_EXHAUSTED: a message or the metadata is over the server's
   *     declared size limit (the limit applies after decompression), or the
   *     server is at its limit of concurrent RegisterPeople streams.
   *   - UNAVAILABLE: the auth service (or the database) cannot be reached; retry.
   *   - DEADLINE_EXCEEDED: the call's deadline passed first.
   *   - UNIMPLEMENTED: the request is compressed with an encoding the server
   *     does not support.
   *   - INTERNAL: an unexpected failure, or a gRPC framing error of the
   *     client's that a server's transport answers itself (a frame cut short,
   *     reserved flag bits), as the gRPC specification asks. No internals are
   *     disclosed.
   * </pre>
   */
  public interface AsyncService {

    /**
     * <pre>
     * RegisterPerson stores one person and returns it with its id and created_at.
     * It is idempotent on request_id: repeating a request with the same
     * request_id and the same person stores one row and returns the first
     * result again. Besides the common codes it returns ALREADY_EXISTS when the
     * request_id was already used for a different person.
     * </pre>
     */
    default void registerPerson(com.acme.person.v1.RegisterPersonRequest request,
        io.grpc.stub.StreamObserver<com.acme.person.v1.RegisterPersonResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getRegisterPersonMethod(), responseObserver);
    }

    /**
     * <pre>
     * RegisterPeople stores a stream of people all-or-nothing, in one
     * transaction: if any person is invalid, or the client cancels or fails
     * mid-stream, no person of the stream is stored. Returns INVALID_ARGUMENT
     * naming the first invalid person by its position, or CANCELLED.
     * A client that saw an error cannot know whether the stream was stored
     * just before it (a commit and a cancel can cross). A stream that carries
     * a request_id is idempotent on it: repeating the stream with the same
     * request_id and the same people stores them once and returns the first
     * stream's response again; ALREADY_EXISTS when the request_id was already
     * used for other people.
     * </pre>
     */
    default io.grpc.stub.StreamObserver<com.acme.person.v1.RegisterPeopleRequest> registerPeople(
        io.grpc.stub.StreamObserver<com.acme.person.v1.RegisterPeopleResponse> responseObserver) {
      return io.grpc.stub.ServerCalls.asyncUnimplementedStreamingCall(getRegisterPeopleMethod(), responseObserver);
    }

    /**
     * <pre>
     * GetPerson returns one person by id, or NOT_FOUND.
     * </pre>
     */
    default void getPerson(com.acme.person.v1.GetPersonRequest request,
        io.grpc.stub.StreamObserver<com.acme.person.v1.GetPersonResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getGetPersonMethod(), responseObserver);
    }

    /**
     * <pre>
     * ListPeople streams the people that match a filter, one page of at most
     * limit people, ordered by created_at then id. The server sends with
     * flow control, so a slow reader slows the sender instead of filling memory.
     * The last message of a page carries next_page_token when more people may
     * match: sending it back as page_token (with the same filter) streams the
     * next page, and a page read that way costs the same however deep it is.
     * Besides the common codes it returns INVALID_ARGUMENT for a page_token the
     * server did not make, one made for another filter, or one sent with a page.
     * </pre>
     */
    default void listPeople(com.acme.person.v1.ListPeopleRequest request,
        io.grpc.stub.StreamObserver<com.acme.person.v1.ListPeopleResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getListPeopleMethod(), responseObserver);
    }

    /**
     * <pre>
     * SyncPeople answers each incoming person, in order and as soon as it is
     * handled, with its stored id or with its own error. A bad item does not
     * end the stream; only a failure of the stream itself (UNAUTHENTICATED,
     * UNAVAILABLE, CANCELLED, or INVALID_ARGUMENT for a message that cannot be
     * decoded, which has no request_id to answer) does. Items are idempotent on
     * request_id.
     * </pre>
     */
    default io.grpc.stub.StreamObserver<com.acme.person.v1.SyncPeopleRequest> syncPeople(
        io.grpc.stub.StreamObserver<com.acme.person.v1.SyncPeopleResponse> responseObserver) {
      return io.grpc.stub.ServerCalls.asyncUnimplementedStreamingCall(getSyncPeopleMethod(), responseObserver);
    }
  }

  /**
   * Base class for the server implementation of the service PersonService.
   * <pre>
   * PersonService is the person registry. It offers all four gRPC call shapes.
   * Every call needs the metadata "authorization: Bearer &lt;token&gt;" with a token
   * issued by acme.auth.v1.AuthService/Login. Status codes every RPC can return:
   *   - UNAUTHENTICATED: the token is missing, malformed, expired or revoked.
   *   - INVALID_ARGUMENT: a request message breaks its buf.validate rules; the
   *     status details carry a buf.validate.Violations message with the field
   *     paths and rule ids. Also, without details, for a message that cannot be
   *     decoded and for a unary call with no or several request messages.
   *   - RESOURCE_EXHAUSTED: a message or the metadata is over the server's
   *     declared size limit (the limit applies after decompression), or the
   *     server is at its limit of concurrent RegisterPeople streams.
   *   - UNAVAILABLE: the auth service (or the database) cannot be reached; retry.
   *   - DEADLINE_EXCEEDED: the call's deadline passed first.
   *   - UNIMPLEMENTED: the request is compressed with an encoding the server
   *     does not support.
   *   - INTERNAL: an unexpected failure, or a gRPC framing error of the
   *     client's that a server's transport answers itself (a frame cut short,
   *     reserved flag bits), as the gRPC specification asks. No internals are
   *     disclosed.
   * </pre>
   */
  public static abstract class PersonServiceImplBase
      implements io.grpc.BindableService, AsyncService {

    @java.lang.Override public final io.grpc.ServerServiceDefinition bindService() {
      return PersonServiceGrpc.bindService(this);
    }
  }

  /**
   * A stub to allow clients to do asynchronous rpc calls to service PersonService.
   * <pre>
   * PersonService is the person registry. It offers all four gRPC call shapes.
   * Every call needs the metadata "authorization: Bearer &lt;token&gt;" with a token
   * issued by acme.auth.v1.AuthService/Login. Status codes every RPC can return:
   *   - UNAUTHENTICATED: the token is missing, malformed, expired or revoked.
   *   - INVALID_ARGUMENT: a request message breaks its buf.validate rules; the
   *     status details carry a buf.validate.Violations message with the field
   *     paths and rule ids. Also, without details, for a message that cannot be
   *     decoded and for a unary call with no or several request messages.
   *   - RESOURCE_EXHAUSTED: a message or the metadata is over the server's
   *     declared size limit (the limit applies after decompression), or the
   *     server is at its limit of concurrent RegisterPeople streams.
   *   - UNAVAILABLE: the auth service (or the database) cannot be reached; retry.
   *   - DEADLINE_EXCEEDED: the call's deadline passed first.
   *   - UNIMPLEMENTED: the request is compressed with an encoding the server
   *     does not support.
   *   - INTERNAL: an unexpected failure, or a gRPC framing error of the
   *     client's that a server's transport answers itself (a frame cut short,
   *     reserved flag bits), as the gRPC specification asks. No internals are
   *     disclosed.
   * </pre>
   */
  public static final class PersonServiceStub
      extends io.grpc.stub.AbstractAsyncStub<PersonServiceStub> {
    private PersonServiceStub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected PersonServiceStub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new PersonServiceStub(channel, callOptions);
    }

    /**
     * <pre>
     * RegisterPerson stores one person and returns it with its id and created_at.
     * It is idempotent on request_id: repeating a request with the same
     * request_id and the same person stores one row and returns the first
     * result again. Besides the common codes it returns ALREADY_EXISTS when the
     * request_id was already used for a different person.
     * </pre>
     */
    public void registerPerson(com.acme.person.v1.RegisterPersonRequest request,
        io.grpc.stub.StreamObserver<com.acme.person.v1.RegisterPersonResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getRegisterPersonMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * RegisterPeople stores a stream of people all-or-nothing, in one
     * transaction: if any person is invalid, or the client cancels or fails
     * mid-stream, no person of the stream is stored. Returns INVALID_ARGUMENT
     * naming the first invalid person by its position, or CANCELLED.
     * A client that saw an error cannot know whether the stream was stored
     * just before it (a commit and a cancel can cross). A stream that carries
     * a request_id is idempotent on it: repeating the stream with the same
     * request_id and the same people stores them once and returns the first
     * stream's response again; ALREADY_EXISTS when the request_id was already
     * used for other people.
     * </pre>
     */
    public io.grpc.stub.StreamObserver<com.acme.person.v1.RegisterPeopleRequest> registerPeople(
        io.grpc.stub.StreamObserver<com.acme.person.v1.RegisterPeopleResponse> responseObserver) {
      return io.grpc.stub.ClientCalls.asyncClientStreamingCall(
          getChannel().newCall(getRegisterPeopleMethod(), getCallOptions()), responseObserver);
    }

    /**
     * <pre>
     * GetPerson returns one person by id, or NOT_FOUND.
     * </pre>
     */
    public void getPerson(com.acme.person.v1.GetPersonRequest request,
        io.grpc.stub.StreamObserver<com.acme.person.v1.GetPersonResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getGetPersonMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * ListPeople streams the people that match a filter, one page of at most
     * limit people, ordered by created_at then id. The server sends with
     * flow control, so a slow reader slows the sender instead of filling memory.
     * The last message of a page carries next_page_token when more people may
     * match: sending it back as page_token (with the same filter) streams the
     * next page, and a page read that way costs the same however deep it is.
     * Besides the common codes it returns INVALID_ARGUMENT for a page_token the
     * server did not make, one made for another filter, or one sent with a page.
     * </pre>
     */
    public void listPeople(com.acme.person.v1.ListPeopleRequest request,
        io.grpc.stub.StreamObserver<com.acme.person.v1.ListPeopleResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncServerStreamingCall(
          getChannel().newCall(getListPeopleMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * SyncPeople answers each incoming person, in order and as soon as it is
     * handled, with its stored id or with its own error. A bad item does not
     * end the stream; only a failure of the stream itself (UNAUTHENTICATED,
     * UNAVAILABLE, CANCELLED, or INVALID_ARGUMENT for a message that cannot be
     * decoded, which has no request_id to answer) does. Items are idempotent on
     * request_id.
     * </pre>
     */
    public io.grpc.stub.StreamObserver<com.acme.person.v1.SyncPeopleRequest> syncPeople(
        io.grpc.stub.StreamObserver<com.acme.person.v1.SyncPeopleResponse> responseObserver) {
      return io.grpc.stub.ClientCalls.asyncBidiStreamingCall(
          getChannel().newCall(getSyncPeopleMethod(), getCallOptions()), responseObserver);
    }
  }

  /**
   * A stub to allow clients to do synchronous rpc calls to service PersonService.
   * <pre>
   * PersonService is the person registry. It offers all four gRPC call shapes.
   * Every call needs the metadata "authorization: Bearer &lt;token&gt;" with a token
   * issued by acme.auth.v1.AuthService/Login. Status codes every RPC can return:
   *   - UNAUTHENTICATED: the token is missing, malformed, expired or revoked.
   *   - INVALID_ARGUMENT: a request message breaks its buf.validate rules; the
   *     status details carry a buf.validate.Violations message with the field
   *     paths and rule ids. Also, without details, for a message that cannot be
   *     decoded and for a unary call with no or several request messages.
   *   - RESOURCE_EXHAUSTED: a message or the metadata is over the server's
   *     declared size limit (the limit applies after decompression), or the
   *     server is at its limit of concurrent RegisterPeople streams.
   *   - UNAVAILABLE: the auth service (or the database) cannot be reached; retry.
   *   - DEADLINE_EXCEEDED: the call's deadline passed first.
   *   - UNIMPLEMENTED: the request is compressed with an encoding the server
   *     does not support.
   *   - INTERNAL: an unexpected failure, or a gRPC framing error of the
   *     client's that a server's transport answers itself (a frame cut short,
   *     reserved flag bits), as the gRPC specification asks. No internals are
   *     disclosed.
   * </pre>
   */
  public static final class PersonServiceBlockingV2Stub
      extends io.grpc.stub.AbstractBlockingStub<PersonServiceBlockingV2Stub> {
    private PersonServiceBlockingV2Stub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected PersonServiceBlockingV2Stub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new PersonServiceBlockingV2Stub(channel, callOptions);
    }

    /**
     * <pre>
     * RegisterPerson stores one person and returns it with its id and created_at.
     * It is idempotent on request_id: repeating a request with the same
     * request_id and the same person stores one row and returns the first
     * result again. Besides the common codes it returns ALREADY_EXISTS when the
     * request_id was already used for a different person.
     * </pre>
     */
    public com.acme.person.v1.RegisterPersonResponse registerPerson(com.acme.person.v1.RegisterPersonRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getRegisterPersonMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * RegisterPeople stores a stream of people all-or-nothing, in one
     * transaction: if any person is invalid, or the client cancels or fails
     * mid-stream, no person of the stream is stored. Returns INVALID_ARGUMENT
     * naming the first invalid person by its position, or CANCELLED.
     * A client that saw an error cannot know whether the stream was stored
     * just before it (a commit and a cancel can cross). A stream that carries
     * a request_id is idempotent on it: repeating the stream with the same
     * request_id and the same people stores them once and returns the first
     * stream's response again; ALREADY_EXISTS when the request_id was already
     * used for other people.
     * </pre>
     */
    @io.grpc.ExperimentalApi("https://github.com/grpc/grpc-java/issues/10918")
    public io.grpc.stub.BlockingClientCall<com.acme.person.v1.RegisterPeopleRequest, com.acme.person.v1.RegisterPeopleResponse>
        registerPeople() {
      return io.grpc.stub.ClientCalls.blockingClientStreamingCall(
          getChannel(), getRegisterPeopleMethod(), getCallOptions());
    }

    /**
     * <pre>
     * GetPerson returns one person by id, or NOT_FOUND.
     * </pre>
     */
    public com.acme.person.v1.GetPersonResponse getPerson(com.acme.person.v1.GetPersonRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getGetPersonMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * ListPeople streams the people that match a filter, one page of at most
     * limit people, ordered by created_at then id. The server sends with
     * flow control, so a slow reader slows the sender instead of filling memory.
     * The last message of a page carries next_page_token when more people may
     * match: sending it back as page_token (with the same filter) streams the
     * next page, and a page read that way costs the same however deep it is.
     * Besides the common codes it returns INVALID_ARGUMENT for a page_token the
     * server did not make, one made for another filter, or one sent with a page.
     * </pre>
     */
    @io.grpc.ExperimentalApi("https://github.com/grpc/grpc-java/issues/10918")
    public io.grpc.stub.BlockingClientCall<?, com.acme.person.v1.ListPeopleResponse>
        listPeople(com.acme.person.v1.ListPeopleRequest request) {
      return io.grpc.stub.ClientCalls.blockingV2ServerStreamingCall(
          getChannel(), getListPeopleMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * SyncPeople answers each incoming person, in order and as soon as it is
     * handled, with its stored id or with its own error. A bad item does not
     * end the stream; only a failure of the stream itself (UNAUTHENTICATED,
     * UNAVAILABLE, CANCELLED, or INVALID_ARGUMENT for a message that cannot be
     * decoded, which has no request_id to answer) does. Items are idempotent on
     * request_id.
     * </pre>
     */
    @io.grpc.ExperimentalApi("https://github.com/grpc/grpc-java/issues/10918")
    public io.grpc.stub.BlockingClientCall<com.acme.person.v1.SyncPeopleRequest, com.acme.person.v1.SyncPeopleResponse>
        syncPeople() {
      return io.grpc.stub.ClientCalls.blockingBidiStreamingCall(
          getChannel(), getSyncPeopleMethod(), getCallOptions());
    }
  }

  /**
   * A stub to allow clients to do limited synchronous rpc calls to service PersonService.
   * <pre>
   * PersonService is the person registry. It offers all four gRPC call shapes.
   * Every call needs the metadata "authorization: Bearer &lt;token&gt;" with a token
   * issued by acme.auth.v1.AuthService/Login. Status codes every RPC can return:
   *   - UNAUTHENTICATED: the token is missing, malformed, expired or revoked.
   *   - INVALID_ARGUMENT: a request message breaks its buf.validate rules; the
   *     status details carry a buf.validate.Violations message with the field
   *     paths and rule ids. Also, without details, for a message that cannot be
   *     decoded and for a unary call with no or several request messages.
   *   - RESOURCE_EXHAUSTED: a message or the metadata is over the server's
   *     declared size limit (the limit applies after decompression), or the
   *     server is at its limit of concurrent RegisterPeople streams.
   *   - UNAVAILABLE: the auth service (or the database) cannot be reached; retry.
   *   - DEADLINE_EXCEEDED: the call's deadline passed first.
   *   - UNIMPLEMENTED: the request is compressed with an encoding the server
   *     does not support.
   *   - INTERNAL: an unexpected failure, or a gRPC framing error of the
   *     client's that a server's transport answers itself (a frame cut short,
   *     reserved flag bits), as the gRPC specification asks. No internals are
   *     disclosed.
   * </pre>
   */
  public static final class PersonServiceBlockingStub
      extends io.grpc.stub.AbstractBlockingStub<PersonServiceBlockingStub> {
    private PersonServiceBlockingStub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected PersonServiceBlockingStub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new PersonServiceBlockingStub(channel, callOptions);
    }

    /**
     * <pre>
     * RegisterPerson stores one person and returns it with its id and created_at.
     * It is idempotent on request_id: repeating a request with the same
     * request_id and the same person stores one row and returns the first
     * result again. Besides the common codes it returns ALREADY_EXISTS when the
     * request_id was already used for a different person.
     * </pre>
     */
    public com.acme.person.v1.RegisterPersonResponse registerPerson(com.acme.person.v1.RegisterPersonRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getRegisterPersonMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * GetPerson returns one person by id, or NOT_FOUND.
     * </pre>
     */
    public com.acme.person.v1.GetPersonResponse getPerson(com.acme.person.v1.GetPersonRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getGetPersonMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * ListPeople streams the people that match a filter, one page of at most
     * limit people, ordered by created_at then id. The server sends with
     * flow control, so a slow reader slows the sender instead of filling memory.
     * The last message of a page carries next_page_token when more people may
     * match: sending it back as page_token (with the same filter) streams the
     * next page, and a page read that way costs the same however deep it is.
     * Besides the common codes it returns INVALID_ARGUMENT for a page_token the
     * server did not make, one made for another filter, or one sent with a page.
     * </pre>
     */
    public java.util.Iterator<com.acme.person.v1.ListPeopleResponse> listPeople(
        com.acme.person.v1.ListPeopleRequest request) {
      return io.grpc.stub.ClientCalls.blockingServerStreamingCall(
          getChannel(), getListPeopleMethod(), getCallOptions(), request);
    }
  }

  /**
   * A stub to allow clients to do ListenableFuture-style rpc calls to service PersonService.
   * <pre>
   * PersonService is the person registry. It offers all four gRPC call shapes.
   * Every call needs the metadata "authorization: Bearer &lt;token&gt;" with a token
   * issued by acme.auth.v1.AuthService/Login. Status codes every RPC can return:
   *   - UNAUTHENTICATED: the token is missing, malformed, expired or revoked.
   *   - INVALID_ARGUMENT: a request message breaks its buf.validate rules; the
   *     status details carry a buf.validate.Violations message with the field
   *     paths and rule ids. Also, without details, for a message that cannot be
   *     decoded and for a unary call with no or several request messages.
   *   - RESOURCE_EXHAUSTED: a message or the metadata is over the server's
   *     declared size limit (the limit applies after decompression), or the
   *     server is at its limit of concurrent RegisterPeople streams.
   *   - UNAVAILABLE: the auth service (or the database) cannot be reached; retry.
   *   - DEADLINE_EXCEEDED: the call's deadline passed first.
   *   - UNIMPLEMENTED: the request is compressed with an encoding the server
   *     does not support.
   *   - INTERNAL: an unexpected failure, or a gRPC framing error of the
   *     client's that a server's transport answers itself (a frame cut short,
   *     reserved flag bits), as the gRPC specification asks. No internals are
   *     disclosed.
   * </pre>
   */
  public static final class PersonServiceFutureStub
      extends io.grpc.stub.AbstractFutureStub<PersonServiceFutureStub> {
    private PersonServiceFutureStub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected PersonServiceFutureStub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new PersonServiceFutureStub(channel, callOptions);
    }

    /**
     * <pre>
     * RegisterPerson stores one person and returns it with its id and created_at.
     * It is idempotent on request_id: repeating a request with the same
     * request_id and the same person stores one row and returns the first
     * result again. Besides the common codes it returns ALREADY_EXISTS when the
     * request_id was already used for a different person.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<com.acme.person.v1.RegisterPersonResponse> registerPerson(
        com.acme.person.v1.RegisterPersonRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getRegisterPersonMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * GetPerson returns one person by id, or NOT_FOUND.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<com.acme.person.v1.GetPersonResponse> getPerson(
        com.acme.person.v1.GetPersonRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getGetPersonMethod(), getCallOptions()), request);
    }
  }

  private static final int METHODID_REGISTER_PERSON = 0;
  private static final int METHODID_GET_PERSON = 1;
  private static final int METHODID_LIST_PEOPLE = 2;
  private static final int METHODID_REGISTER_PEOPLE = 3;
  private static final int METHODID_SYNC_PEOPLE = 4;

  private static final class MethodHandlers<Req, Resp> implements
      io.grpc.stub.ServerCalls.UnaryMethod<Req, Resp>,
      io.grpc.stub.ServerCalls.ServerStreamingMethod<Req, Resp>,
      io.grpc.stub.ServerCalls.ClientStreamingMethod<Req, Resp>,
      io.grpc.stub.ServerCalls.BidiStreamingMethod<Req, Resp> {
    private final AsyncService serviceImpl;
    private final int methodId;

    MethodHandlers(AsyncService serviceImpl, int methodId) {
      this.serviceImpl = serviceImpl;
      this.methodId = methodId;
    }

    @java.lang.Override
    @java.lang.SuppressWarnings("unchecked")
    public void invoke(Req request, io.grpc.stub.StreamObserver<Resp> responseObserver) {
      switch (methodId) {
        case METHODID_REGISTER_PERSON:
          serviceImpl.registerPerson((com.acme.person.v1.RegisterPersonRequest) request,
              (io.grpc.stub.StreamObserver<com.acme.person.v1.RegisterPersonResponse>) responseObserver);
          break;
        case METHODID_GET_PERSON:
          serviceImpl.getPerson((com.acme.person.v1.GetPersonRequest) request,
              (io.grpc.stub.StreamObserver<com.acme.person.v1.GetPersonResponse>) responseObserver);
          break;
        case METHODID_LIST_PEOPLE:
          serviceImpl.listPeople((com.acme.person.v1.ListPeopleRequest) request,
              (io.grpc.stub.StreamObserver<com.acme.person.v1.ListPeopleResponse>) responseObserver);
          break;
        default:
          throw new AssertionError();
      }
    }

    @java.lang.Override
    @java.lang.SuppressWarnings("unchecked")
    public io.grpc.stub.StreamObserver<Req> invoke(
        io.grpc.stub.StreamObserver<Resp> responseObserver) {
      switch (methodId) {
        case METHODID_REGISTER_PEOPLE:
          return (io.grpc.stub.StreamObserver<Req>) serviceImpl.registerPeople(
              (io.grpc.stub.StreamObserver<com.acme.person.v1.RegisterPeopleResponse>) responseObserver);
        case METHODID_SYNC_PEOPLE:
          return (io.grpc.stub.StreamObserver<Req>) serviceImpl.syncPeople(
              (io.grpc.stub.StreamObserver<com.acme.person.v1.SyncPeopleResponse>) responseObserver);
        default:
          throw new AssertionError();
      }
    }
  }

  public static final io.grpc.ServerServiceDefinition bindService(AsyncService service) {
    return io.grpc.ServerServiceDefinition.builder(getServiceDescriptor())
        .addMethod(
          getRegisterPersonMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              com.acme.person.v1.RegisterPersonRequest,
              com.acme.person.v1.RegisterPersonResponse>(
                service, METHODID_REGISTER_PERSON)))
        .addMethod(
          getRegisterPeopleMethod(),
          io.grpc.stub.ServerCalls.asyncClientStreamingCall(
            new MethodHandlers<
              com.acme.person.v1.RegisterPeopleRequest,
              com.acme.person.v1.RegisterPeopleResponse>(
                service, METHODID_REGISTER_PEOPLE)))
        .addMethod(
          getGetPersonMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              com.acme.person.v1.GetPersonRequest,
              com.acme.person.v1.GetPersonResponse>(
                service, METHODID_GET_PERSON)))
        .addMethod(
          getListPeopleMethod(),
          io.grpc.stub.ServerCalls.asyncServerStreamingCall(
            new MethodHandlers<
              com.acme.person.v1.ListPeopleRequest,
              com.acme.person.v1.ListPeopleResponse>(
                service, METHODID_LIST_PEOPLE)))
        .addMethod(
          getSyncPeopleMethod(),
          io.grpc.stub.ServerCalls.asyncBidiStreamingCall(
            new MethodHandlers<
              com.acme.person.v1.SyncPeopleRequest,
              com.acme.person.v1.SyncPeopleResponse>(
                service, METHODID_SYNC_PEOPLE)))
        .build();
  }

  private static abstract class PersonServiceBaseDescriptorSupplier
      implements io.grpc.protobuf.ProtoFileDescriptorSupplier, io.grpc.protobuf.ProtoServiceDescriptorSupplier {
    PersonServiceBaseDescriptorSupplier() {}

    @java.lang.Override
    public com.google.protobuf.Descriptors.FileDescriptor getFileDescriptor() {
      return com.acme.person.v1.PersonServiceProto.getDescriptor();
    }

    @java.lang.Override
    public com.google.protobuf.Descriptors.ServiceDescriptor getServiceDescriptor() {
      return getFileDescriptor().findServiceByName("PersonService");
    }
  }

  private static final class PersonServiceFileDescriptorSupplier
      extends PersonServiceBaseDescriptorSupplier {
    PersonServiceFileDescriptorSupplier() {}
  }

  private static final class PersonServiceMethodDescriptorSupplier
      extends PersonServiceBaseDescriptorSupplier
      implements io.grpc.protobuf.ProtoMethodDescriptorSupplier {
    private final java.lang.String methodName;

    PersonServiceMethodDescriptorSupplier(java.lang.String methodName) {
      this.methodName = methodName;
    }

    @java.lang.Override
    public com.google.protobuf.Descriptors.MethodDescriptor getMethodDescriptor() {
      return getServiceDescriptor().findMethodByName(methodName);
    }
  }

  private static volatile io.grpc.ServiceDescriptor serviceDescriptor;

  public static io.grpc.ServiceDescriptor getServiceDescriptor() {
    io.grpc.ServiceDescriptor result = serviceDescriptor;
    if (result == null) {
      synchronized (PersonServiceGrpc.class) {
        result = serviceDescriptor;
        if (result == null) {
          serviceDescriptor = result = io.grpc.ServiceDescriptor.newBuilder(SERVICE_NAME)
              .setSchemaDescriptor(new PersonServiceFileDescriptorSupplier())
              .addMethod(getRegisterPersonMethod())
              .addMethod(getRegisterPeopleMethod())
              .addMethod(getGetPersonMethod())
              .addMethod(getListPeopleMethod())
              .addMethod(getSyncPeopleMethod())
              .build();
        }
      }
    }
    return result;
  }
}
