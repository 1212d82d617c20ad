package com.acme.auth.v1;

import static io.grpc.MethodDescriptor.generateFullMethodName;

/**
 * <pre>
 * AuthService issues and checks the tokens that every other service accepts,
 * and manages the users who may obtain them.
 * Status codes every RPC can return:
 *   - INVALID_ARGUMENT: a request message breaks its buf.validate rules; the
 *     status details carry a buf.validate.Violations message with the field
 *     paths and rule ids. Also, without details, for a message that cannot be
 *     decoded and for a call with no or several request messages.
 *   - RESOURCE_EXHAUSTED: a message or the metadata is over the server's
 *     declared size limit (the limit applies after decompression).
 *   - UNIMPLEMENTED: the request is compressed with an encoding the server
 *     does not support.
 *   - INTERNAL: an unexpected failure, or a gRPC framing error of the
 *     client's that a server's transport answers itself (a frame cut short,
 *     reserved flag bits), as the gRPC specification asks. No internals are
 *     disclosed.
 * </pre>
 */
@io.grpc.stub.annotations.GrpcGenerated
public final class AuthServiceGrpc {

  private AuthServiceGrpc() {}

  public static final java.lang.String SERVICE_NAME = "acme.auth.v1.AuthService";

  // Static method descriptors that strictly reflect the proto.
  private static volatile io.grpc.MethodDescriptor<com.acme.auth.v1.LoginRequest,
      com.acme.auth.v1.LoginResponse> getLoginMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "Login",
      requestType = com.acme.auth.v1.LoginRequest.class,
      responseType = com.acme.auth.v1.LoginResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<com.acme.auth.v1.LoginRequest,
      com.acme.auth.v1.LoginResponse> getLoginMethod() {
    io.grpc.MethodDescriptor<com.acme.auth.v1.LoginRequest, com.acme.auth.v1.LoginResponse> getLoginMethod;
    if ((getLoginMethod = AuthServiceGrpc.getLoginMethod) == null) {
      synchronized (AuthServiceGrpc.class) {
        if ((getLoginMethod = AuthServiceGrpc.getLoginMethod) == null) {
          AuthServiceGrpc.getLoginMethod = getLoginMethod =
              io.grpc.MethodDescriptor.<com.acme.auth.v1.LoginRequest, com.acme.auth.v1.LoginResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "Login"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  com.acme.auth.v1.LoginRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  com.acme.auth.v1.LoginResponse.getDefaultInstance()))
              .setSchemaDescriptor(new AuthServiceMethodDescriptorSupplier("Login"))
              .build();
        }
      }
    }
    return getLoginMethod;
  }

  private static volatile io.grpc.MethodDescriptor<com.acme.auth.v1.ValidateTokenRequest,
      com.acme.auth.v1.ValidateTokenResponse> getValidateTokenMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "ValidateToken",
      requestType = com.acme.auth.v1.ValidateTokenRequest.class,
      responseType = com.acme.auth.v1.ValidateTokenResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<com.acme.auth.v1.ValidateTokenRequest,
      com.acme.auth.v1.ValidateTokenResponse> getValidateTokenMethod() {
    io.grpc.MethodDescriptor<com.acme.auth.v1.ValidateTokenRequest, com.acme.auth.v1.ValidateTokenResponse> getValidateTokenMethod;
    if ((getValidateTokenMethod = AuthServiceGrpc.getValidateTokenMethod) == null) {
      synchronized (AuthServiceGrpc.class) {
        if ((getValidateTokenMethod = AuthServiceGrpc.getValidateTokenMethod) == null) {
          AuthServiceGrpc.getValidateTokenMethod = getValidateTokenMethod =
              io.grpc.MethodDescriptor.<com.acme.auth.v1.ValidateTokenRequest, com.acme.auth.v1.ValidateTokenResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "ValidateToken"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  com.acme.auth.v1.ValidateTokenRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  com.acme.auth.v1.ValidateTokenResponse.getDefaultInstance()))
              .setSchemaDescriptor(new AuthServiceMethodDescriptorSupplier("ValidateToken"))
              .build();
        }
      }
    }
    return getValidateTokenMethod;
  }

  private static volatile io.grpc.MethodDescriptor<com.acme.auth.v1.CreateUserRequest,
      com.acme.auth.v1.CreateUserResponse> getCreateUserMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "CreateUser",
      requestType = com.acme.auth.v1.CreateUserRequest.class,
      responseType = com.acme.auth.v1.CreateUserResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<com.acme.auth.v1.CreateUserRequest,
      com.acme.auth.v1.CreateUserResponse> getCreateUserMethod() {
    io.grpc.MethodDescriptor<com.acme.auth.v1.CreateUserRequest, com.acme.auth.v1.CreateUserResponse> getCreateUserMethod;
    if ((getCreateUserMethod = AuthServiceGrpc.getCreateUserMethod) == null) {
      synchronized (AuthServiceGrpc.class) {
        if ((getCreateUserMethod = AuthServiceGrpc.getCreateUserMethod) == null) {
          AuthServiceGrpc.getCreateUserMethod = getCreateUserMethod =
              io.grpc.MethodDescriptor.<com.acme.auth.v1.CreateUserRequest, com.acme.auth.v1.CreateUserResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "CreateUser"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  com.acme.auth.v1.CreateUserRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  com.acme.auth.v1.CreateUserResponse.getDefaultInstance()))
              .setSchemaDescriptor(new AuthServiceMethodDescriptorSupplier("CreateUser"))
              .build();
        }
      }
    }
    return getCreateUserMethod;
  }

  private static volatile io.grpc.MethodDescriptor<com.acme.auth.v1.DisableUserRequest,
      com.acme.auth.v1.DisableUserResponse> getDisableUserMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "DisableUser",
      requestType = com.acme.auth.v1.DisableUserRequest.class,
      responseType = com.acme.auth.v1.DisableUserResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<com.acme.auth.v1.DisableUserRequest,
      com.acme.auth.v1.DisableUserResponse> getDisableUserMethod() {
    io.grpc.MethodDescriptor<com.acme.auth.v1.DisableUserRequest, com.acme.auth.v1.DisableUserResponse> getDisableUserMethod;
    if ((getDisableUserMethod = AuthServiceGrpc.getDisableUserMethod) == null) {
      synchronized (AuthServiceGrpc.class) {
        if ((getDisableUserMethod = AuthServiceGrpc.getDisableUserMethod) == null) {
          AuthServiceGrpc.getDisableUserMethod = getDisableUserMethod =
              io.grpc.MethodDescriptor.<com.acme.auth.v1.DisableUserRequest, com.acme.auth.v1.DisableUserResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "DisableUser"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  com.acme.auth.v1.DisableUserRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  com.acme.auth.v1.DisableUserResponse.getDefaultInstance()))
              .setSchemaDescriptor(new AuthServiceMethodDescriptorSupplier("DisableUser"))
              .build();
        }
      }
    }
    return getDisableUserMethod;
  }

  private static volatile io.grpc.MethodDescriptor<com.acme.auth.v1.ListUsersRequest,
      com.acme.auth.v1.ListUsersResponse> getListUsersMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "ListUsers",
      requestType = com.acme.auth.v1.ListUsersRequest.class,
      responseType = com.acme.auth.v1.ListUsersResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<com.acme.auth.v1.ListUsersRequest,
      com.acme.auth.v1.ListUsersResponse> getListUsersMethod() {
    io.grpc.MethodDescriptor<com.acme.auth.v1.ListUsersRequest, com.acme.auth.v1.ListUsersResponse> getListUsersMethod;
    if ((getListUsersMethod = AuthServiceGrpc.getListUsersMethod) == null) {
      synchronized (AuthServiceGrpc.class) {
        if ((getListUsersMethod = AuthServiceGrpc.getListUsersMethod) == null) {
          AuthServiceGrpc.getListUsersMethod = getListUsersMethod =
              io.grpc.MethodDescriptor.<com.acme.auth.v1.ListUsersRequest, com.acme.auth.v1.ListUsersResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "ListUsers"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  com.acme.auth.v1.ListUsersRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  com.acme.auth.v1.ListUsersResponse.getDefaultInstance()))
              .setSchemaDescriptor(new AuthServiceMethodDescriptorSupplier("ListUsers"))
              .build();
        }
      }
    }
    return getListUsersMethod;
  }

  /**
   * Creates a new async stub that supports all call types for the service
   */
  public static AuthServiceStub newStub(io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<AuthServiceStub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<AuthServiceStub>() {
        @java.lang.Override
        public AuthServiceStub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new AuthServiceStub(channel, callOptions);
        }
      };
    return AuthServiceStub.newStub(factory, channel);
  }

  /**
   * Creates a new blocking-style stub that supports all types of calls on the service
   */
  public static AuthServiceBlockingV2Stub newBlockingV2Stub(
      io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<AuthServiceBlockingV2Stub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<AuthServiceBlockingV2Stub>() {
        @java.lang.Override
        public AuthServiceBlockingV2Stub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new AuthServiceBlockingV2Stub(channel, callOptions);
        }
      };
    return AuthServiceBlockingV2Stub.newStub(factory, channel);
  }

  /**
   * Creates a new blocking-style stub that supports unary and streaming output calls on the service
   */
  public static AuthServiceBlockingStub newBlockingStub(
      io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<AuthServiceBlockingStub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<AuthServiceBlockingStub>() {
        @java.lang.Override
        public AuthServiceBlockingStub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new AuthServiceBlockingStub(channel, callOptions);
        }
      };
    return AuthServiceBlockingStub.newStub(factory, channel);
  }

  /**
   * Creates a new ListenableFuture-style stub that supports unary calls on the service
   */
  public static AuthServiceFutureStub newFutureStub(
      io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<AuthServiceFutureStub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<AuthServiceFutureStub>() {
        @java.lang.Override
        public AuthServiceFutureStub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new AuthServiceFutureStub(channel, callOptions);
        }
      };
    return AuthServiceFutureStub.newStub(factory, channel);
  }

  /**
   * <pre>
   * AuthService issues and checks the tokens that every other service accepts,
   * and manages the users who may obtain them.
   * Status codes every RPC can return:
   *   - INVALID_ARGUMENT: a request message breaks its buf.validate rules; the
   *     status details carry a buf.validate.Violations message with the field
   *     paths and rule ids. Also, without details, for a message that cannot be
   *     decoded and for a call with no or several request messages.
   *   - RESOURCE_EXHAUSTED: a message or the metadata is over the server's
   *     declared size limit (the limit applies after decompression).
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
     * Login exchanges a username and password for a signed token.
     * Failures are status codes, never a response body:
     *   - UNAUTHENTICATED: unknown user, wrong password or disabled user. The
     *     three are indistinguishable, in message and in timing.
     *   - RESOURCE_EXHAUSTED: too many failed logins for this user or client
     *     address; the status message says when to retry.
     * </pre>
     */
    default void login(com.acme.auth.v1.LoginRequest request,
        io.grpc.stub.StreamObserver<com.acme.auth.v1.LoginResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getLoginMethod(), responseObserver);
    }

    /**
     * <pre>
     * ValidateToken checks a token's signature, algorithm, issuer, audience and
     * expiry and returns who it names. UNAUTHENTICATED when any check fails or
     * the user has been disabled since.
     * </pre>
     */
    default void validateToken(com.acme.auth.v1.ValidateTokenRequest request,
        io.grpc.stub.StreamObserver<com.acme.auth.v1.ValidateTokenResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getValidateTokenMethod(), responseObserver);
    }

    /**
     * <pre>
     * CreateUser creates a user. Needs "authorization: Bearer &lt;token&gt;" of an
     * admin: UNAUTHENTICATED without a valid token, PERMISSION_DENIED without
     * ROLE_ADMIN, ALREADY_EXISTS when the username is taken.
     * </pre>
     */
    default void createUser(com.acme.auth.v1.CreateUserRequest request,
        io.grpc.stub.StreamObserver<com.acme.auth.v1.CreateUserResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getCreateUserMethod(), responseObserver);
    }

    /**
     * <pre>
     * DisableUser stops a user from logging in and invalidates the user's
     * tokens. Needs an admin token (UNAUTHENTICATED, PERMISSION_DENIED as for
     * CreateUser); NOT_FOUND when there is no such user. Disabling a disabled
     * user succeeds and changes nothing.
     * </pre>
     */
    default void disableUser(com.acme.auth.v1.DisableUserRequest request,
        io.grpc.stub.StreamObserver<com.acme.auth.v1.DisableUserResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getDisableUserMethod(), responseObserver);
    }

    /**
     * <pre>
     * ListUsers returns every user, ordered by username. Needs an admin token
     * (UNAUTHENTICATED, PERMISSION_DENIED as for CreateUser).
     * </pre>
     */
    default void listUsers(com.acme.auth.v1.ListUsersRequest request,
        io.grpc.stub.StreamObserver<com.acme.auth.v1.ListUsersResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getListUsersMethod(), responseObserver);
    }
  }

  /**
   * Base class for the server implementation of the service AuthService.
   * <pre>
   * AuthService issues and checks the tokens that every other service accepts,
   * and manages the users who may obtain them.
   * Status codes every RPC can return:
   *   - INVALID_ARGUMENT: a request message breaks its buf.validate rules; the
   *     status details carry a buf.validate.Violations message with the field
   *     paths and rule ids. Also, without details, for a message that cannot be
   *     decoded and for a call with no or several request messages.
   *   - RESOURCE_EXHAUSTED: a message or the metadata is over the server's
   *     declared size limit (the limit applies after decompression).
   *   - UNIMPLEMENTED: the request is compressed with an encoding the server
   *     does not support.
   *   - INTERNAL: an unexpected failure, or a gRPC framing error of the
   *     client's that a server's transport answers itself (a frame cut short,
   *     reserved flag bits), as the gRPC specification asks. No internals are
   *     disclosed.
   * </pre>
   */
  public static abstract class AuthServiceImplBase
      implements io.grpc.BindableService, AsyncService {

    @java.lang.Override public final io.grpc.ServerServiceDefinition bindService() {
      return AuthServiceGrpc.bindService(this);
    }
  }

  /**
   * A stub to allow clients to do asynchronous rpc calls to service AuthService.
   * <pre>
   * AuthService issues and checks the tokens that every other service accepts,
   * and manages the users who may obtain them.
   * Status codes every RPC can return:
   *   - INVALID_ARGUMENT: a request message breaks its buf.validate rules; the
   *     status details carry a buf.validate.Violations message with the field
   *     paths and rule ids. Also, without details, for a message that cannot be
   *     decoded and for a call with no or several request messages.
   *   - RESOURCE_EXHAUSTED: a message or the metadata is over the server's
   *     declared size limit (the limit applies after decompression).
   *   - UNIMPLEMENTED: the request is compressed with an encoding the server
   *     does not support.
   *   - INTERNAL: an unexpected failure, or a gRPC framing error of the
   *     client's that a server's transport answers itself (a frame cut short,
   *     reserved flag bits), as the gRPC specification asks. No internals are
   *     disclosed.
   * </pre>
   */
  public static final class AuthServiceStub
      extends io.grpc.stub.AbstractAsyncStub<AuthServiceStub> {
    private AuthServiceStub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected AuthServiceStub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new AuthServiceStub(channel, callOptions);
    }

    /**
     * <pre>
     * Login exchanges a username and password for a signed token.
     * Failures are status codes, never a response body:
     *   - UNAUTHENTICATED: unknown user, wrong password or disabled user. The
     *     three are indistinguishable, in message and in timing.
     *   - RESOURCE_EXHAUSTED: too many failed logins for this user or client
     *     address; the status message says when to retry.
     * </pre>
     */
    public void login(com.acme.auth.v1.LoginRequest request,
        io.grpc.stub.StreamObserver<com.acme.auth.v1.LoginResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getLoginMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * ValidateToken checks a token's signature, algorithm, issuer, audience and
     * expiry and returns who it names. UNAUTHENTICATED when any check fails or
     * the user has been disabled since.
     * </pre>
     */
    public void validateToken(com.acme.auth.v1.ValidateTokenRequest request,
        io.grpc.stub.StreamObserver<com.acme.auth.v1.ValidateTokenResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getValidateTokenMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * CreateUser creates a user. Needs "authorization: Bearer &lt;token&gt;" of an
     * admin: UNAUTHENTICATED without a valid token, PERMISSION_DENIED without
     * ROLE_ADMIN, ALREADY_EXISTS when the username is taken.
     * </pre>
     */
    public void createUser(com.acme.auth.v1.CreateUserRequest request,
        io.grpc.stub.StreamObserver<com.acme.auth.v1.CreateUserResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getCreateUserMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * DisableUser stops a user from logging in and invalidates the user's
     * tokens. Needs an admin token (UNAUTHENTICATED, PERMISSION_DENIED as for
     * CreateUser); NOT_FOUND when there is no such user. Disabling a disabled
     * user succeeds and changes nothing.
     * </pre>
     */
    public void disableUser(com.acme.auth.v1.DisableUserRequest request,
        io.grpc.stub.StreamObserver<com.acme.auth.v1.DisableUserResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getDisableUserMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * ListUsers returns every user, ordered by username. Needs an admin token
     * (UNAUTHENTICATED, PERMISSION_DENIED as for CreateUser).
     * </pre>
     */
    public void listUsers(com.acme.auth.v1.ListUsersRequest request,
        io.grpc.stub.StreamObserver<com.acme.auth.v1.ListUsersResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getListUsersMethod(), getCallOptions()), request, responseObserver);
    }
  }

  /**
   * A stub to allow clients to do synchronous rpc calls to service AuthService.
   * <pre>
   * AuthService issues and checks the tokens that every other service accepts,
   * and manages the users who may obtain them.
   * Status codes every RPC can return:
   *   - INVALID_ARGUMENT: a request message breaks its buf.validate rules; the
   *     status details carry a buf.validate.Violations message with the field
   *     paths and rule ids. Also, without details, for a message that cannot be
   *     decoded and for a call with no or several request messages.
   *   - RESOURCE_EXHAUSTED: a message or the metadata is over the server's
   *     declared size limit (the limit applies after decompression).
   *   - UNIMPLEMENTED: the request is compressed with an encoding the server
   *     does not support.
   *   - INTERNAL: an unexpected failure, or a gRPC framing error of the
   *     client's that a server's transport answers itself (a frame cut short,
   *     reserved flag bits), as the gRPC specification asks. No internals are
   *     disclosed.
   * </pre>
   */
  public static final class AuthServiceBlockingV2Stub
      extends io.grpc.stub.AbstractBlockingStub<AuthServiceBlockingV2Stub> {
    private AuthServiceBlockingV2Stub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected AuthServiceBlockingV2Stub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new AuthServiceBlockingV2Stub(channel, callOptions);
    }

    /**
     * <pre>
     * Login exchanges a username and password for a signed token.
     * Failures are status codes, never a response body:
     *   - UNAUTHENTICATED: unknown user, wrong password or disabled user. The
     *     three are indistinguishable, in message and in timing.
     *   - RESOURCE_EXHAUSTED: too many failed logins for this user or client
     *     address; the status message says when to retry.
     * </pre>
     */
    public com.acme.auth.v1.LoginResponse login(com.acme.auth.v1.LoginRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getLoginMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * ValidateToken checks a token's signature, algorithm, issuer, audience and
     * expiry and returns who it names. UNAUTHENTICATED when any check fails or
     * the user has been disabled since.
     * </pre>
     */
    public com.acme.auth.v1.ValidateTokenResponse validateToken(com.acme.auth.v1.ValidateTokenRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getValidateTokenMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * CreateUser creates a user. Needs "authorization: Bearer &lt;token&gt;" of an
     * admin: UNAUTHENTICATED without a valid token, PERMISSION_DENIED without
     * ROLE_ADMIN, ALREADY_EXISTS when the username is taken.
     * </pre>
     */
    public com.acme.auth.v1.CreateUserResponse createUser(com.acme.auth.v1.CreateUserRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getCreateUserMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * DisableUser stops a user from logging in and invalidates the user's
     * tokens. Needs an admin token (UNAUTHENTICATED, PERMISSION_DENIED as for
     * CreateUser); NOT_FOUND when there is no such user. Disabling a disabled
     * user succeeds and changes nothing.
     * </pre>
     */
    public com.acme.auth.v1.DisableUserResponse disableUser(com.acme.auth.v1.DisableUserRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getDisableUserMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * ListUsers returns every user, ordered by username. Needs an admin token
     * (UNAUTHENTICATED, PERMISSION_DENIED as for CreateUser).
     * </pre>
     */
    public com.acme.auth.v1.ListUsersResponse listUsers(com.acme.auth.v1.ListUsersRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getListUsersMethod(), getCallOptions(), request);
    }
  }

  /**
   * A stub to allow clients to do limited synchronous rpc calls to service AuthService.
   * <pre>
   * AuthService issues and checks the tokens that every other service accepts,
   * and manages the users who may obtain them.
   * Status codes every RPC can return:
   *   - INVALID_ARGUMENT: a request message breaks its buf.validate rules; the
   *     status details carry a buf.validate.Violations message with the field
   *     paths and rule ids. Also, without details, for a message that cannot be
   *     decoded and for a call with no or several request messages.
   *   - RESOURCE_EXHAUSTED: a message or the metadata is over the server's
   *     declared size limit (the limit applies after decompression).
   *   - UNIMPLEMENTED: the request is compressed with an encoding the server
   *     does not support.
   *   - INTERNAL: an unexpected failure, or a gRPC framing error of the
   *     client's that a server's transport answers itself (a frame cut short,
   *     reserved flag bits), as the gRPC specification asks. No internals are
   *     disclosed.
   * </pre>
   */
  public static final class AuthServiceBlockingStub
      extends io.grpc.stub.AbstractBlockingStub<AuthServiceBlockingStub> {
    private AuthServiceBlockingStub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected AuthServiceBlockingStub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new AuthServiceBlockingStub(channel, callOptions);
    }

    /**
     * <pre>
     * Login exchanges a username and password for a signed token.
     * Failures are status codes, never a response body:
     *   - UNAUTHENTICATED: unknown user, wrong password or disabled user. The
     *     three are indistinguishable, in message and in timing.
     *   - RESOURCE_EXHAUSTED: too many failed logins for this user or client
     *     address; the status message says when to retry.
     * </pre>
     */
    public com.acme.auth.v1.LoginResponse login(com.acme.auth.v1.LoginRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getLoginMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * ValidateToken checks a token's signature, algorithm, issuer, audience and
     * expiry and returns who it names. UNAUTHENTICATED when any check fails or
     * the user has been disabled since.
     * </pre>
     */
    public com.acme.auth.v1.ValidateTokenResponse validateToken(com.acme.auth.v1.ValidateTokenRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getValidateTokenMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * CreateUser creates a user. Needs "authorization: Bearer &lt;token&gt;" of an
     * admin: UNAUTHENTICATED without a valid token, PERMISSION_DENIED without
     * ROLE_ADMIN, ALREADY_EXISTS when the username is taken.
     * </pre>
     */
    public com.acme.auth.v1.CreateUserResponse createUser(com.acme.auth.v1.CreateUserRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getCreateUserMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * DisableUser stops a user from logging in and invalidates the user's
     * tokens. Needs an admin token (UNAUTHENTICATED, PERMISSION_DENIED as for
     * CreateUser); NOT_FOUND when there is no such user. Disabling a disabled
     * user succeeds and changes nothing.
     * </pre>
     */
    public com.acme.auth.v1.DisableUserResponse disableUser(com.acme.auth.v1.DisableUserRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getDisableUserMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * ListUsers returns every user, ordered by username. Needs an admin token
     * (UNAUTHENTICATED, PERMISSION_DENIED as for CreateUser).
     * </pre>
     */
    public com.acme.auth.v1.ListUsersResponse listUsers(com.acme.auth.v1.ListUsersRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getListUsersMethod(), getCallOptions(), request);
    }
  }

  /**
   * A stub to allow clients to do ListenableFuture-style rpc calls to service AuthService.
   * <pre>
   * AuthService issues and checks the tokens that every other service accepts,
   * and manages the users who may obtain them.
   * Status codes every RPC can return:
   *   - INVALID_ARGUMENT: a request message breaks its buf.validate rules; the
   *     status details carry a buf.validate.Violations message with the field
   *     paths and rule ids. Also, without details, for a message that cannot be
   *     decoded and for a call with no or several request messages.
   *   - RESOURCE_EXHAUSTED: a message or the metadata is over the server's
   *     declared size limit (the limit applies after decompression).
   *   - UNIMPLEMENTED: the request is compressed with an encoding the server
   *     does not support.
   *   - INTERNAL: an unexpected failure, or a gRPC framing error of the
   *     client's that a server's transport answers itself (a frame cut short,
   *     reserved flag bits), as the gRPC specification asks. No internals are
   *     disclosed.
   * </pre>
   */
  public static final class AuthServiceFutureStub
      extends io.grpc.stub.AbstractFutureStub<AuthServiceFutureStub> {
    private AuthServiceFutureStub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected AuthServiceFutureStub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new AuthServiceFutureStub(channel, callOptions);
    }

    /**
     * <pre>
     * Login exchanges a username and password for a signed token.
     * Failures are status codes, never a response body:
     *   - UNAUTHENTICATED: unknown user, wrong password or disabled user. The
     *     three are indistinguishable, in message and in timing.
     *   - RESOURCE_EXHAUSTED: too many failed logins for this user or client
     *     address; the status message says when to retry.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<com.acme.auth.v1.LoginResponse> login(
        com.acme.auth.v1.LoginRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getLoginMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * ValidateToken checks a token's signature, algorithm, issuer, audience and
     * expiry and returns who it names. UNAUTHENTICATED when any check fails or
     * the user has been disabled since.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<com.acme.auth.v1.ValidateTokenResponse> validateToken(
        com.acme.auth.v1.ValidateTokenRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getValidateTokenMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * CreateUser creates a user. Needs "authorization: Bearer &lt;token&gt;" of an
     * admin: UNAUTHENTICATED without a valid token, PERMISSION_DENIED without
     * ROLE_ADMIN, ALREADY_EXISTS when the username is taken.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<com.acme.auth.v1.CreateUserResponse> createUser(
        com.acme.auth.v1.CreateUserRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getCreateUserMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * DisableUser stops a user from logging in and invalidates the user's
     * tokens. Needs an admin token (UNAUTHENTICATED, PERMISSION_DENIED as for
     * CreateUser); NOT_FOUND when there is no such user. Disabling a disabled
     * user succeeds and changes nothing.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<com.acme.auth.v1.DisableUserResponse> disableUser(
        com.acme.auth.v1.DisableUserRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getDisableUserMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * ListUsers returns every user, ordered by username. Needs an admin token
     * (UNAUTHENTICATED, PERMISSION_DENIED as for CreateUser).
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<com.acme.auth.v1.ListUsersResponse> listUsers(
        com.acme.auth.v1.ListUsersRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getListUsersMethod(), getCallOptions()), request);
    }
  }

  private static final int METHODID_LOGIN = 0;
  private static final int METHODID_VALIDATE_TOKEN = 1;
  private static final int METHODID_CREATE_USER = 2;
  private static final int METHODID_DISABLE_USER = 3;
  private static final int METHODID_LIST_USERS = 4;

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
        case METHODID_LOGIN:
          serviceImpl.login((com.acme.auth.v1.LoginRequest) request,
              (io.grpc.stub.StreamObserver<com.acme.auth.v1.LoginResponse>) responseObserver);
          break;
        case METHODID_VALIDATE_TOKEN:
          serviceImpl.validateToken((com.acme.auth.v1.ValidateTokenRequest) request,
              (io.grpc.stub.StreamObserver<com.acme.auth.v1.ValidateTokenResponse>) responseObserver);
          break;
        case METHODID_CREATE_USER:
          serviceImpl.createUser((com.acme.auth.v1.CreateUserRequest) request,
              (io.grpc.stub.StreamObserver<com.acme.auth.v1.CreateUserResponse>) responseObserver);
          break;
        case METHODID_DISABLE_USER:
          serviceImpl.disableUser((com.acme.auth.v1.DisableUserRequest) request,
              (io.grpc.stub.StreamObserver<com.acme.auth.v1.DisableUserResponse>) responseObserver);
          break;
        case METHODID_LIST_USERS:
          serviceImpl.listUsers((com.acme.auth.v1.ListUsersRequest) request,
              (io.grpc.stub.StreamObserver<com.acme.auth.v1.ListUsersResponse>) responseObserver);
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
        default:
          throw new AssertionError();
      }
    }
  }

  public static final io.grpc.ServerServiceDefinition bindService(AsyncService service) {
    return io.grpc.ServerServiceDefinition.builder(getServiceDescriptor())
        .addMethod(
          getLoginMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              com.acme.auth.v1.LoginRequest,
              com.acme.auth.v1.LoginResponse>(
                service, METHODID_LOGIN)))
        .addMethod(
          getValidateTokenMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              com.acme.auth.v1.ValidateTokenRequest,
              com.acme.auth.v1.ValidateTokenResponse>(
                service, METHODID_VALIDATE_TOKEN)))
        .addMethod(
          getCreateUserMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              com.acme.auth.v1.CreateUserRequest,
              com.acme.auth.v1.CreateUserResponse>(
                service, METHODID_CREATE_USER)))
        .addMethod(
          getDisableUserMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              com.acme.auth.v1.DisableUserRequest,
              com.acme.auth.v1.DisableUserResponse>(
                service, METHODID_DISABLE_USER)))
        .addMethod(
          getListUsersMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              com.acme.auth.v1.ListUsersRequest,
              com.acme.auth.v1.ListUsersResponse>(
                service, METHODID_LIST_USERS)))
        .build();
  }

  private static abstract class AuthServiceBaseDescriptorSupplier
      implements io.grpc.protobuf.ProtoFileDescriptorSupplier, io.grpc.protobuf.ProtoServiceDescriptorSupplier {
    AuthServiceBaseDescriptorSupplier() {}

    @java.lang.Override
    public com.google.protobuf.Descriptors.FileDescriptor getFileDescriptor() {
      return com.acme.auth.v1.AuthServiceProto.getDescriptor();
    }

    @java.lang.Override
    public com.google.protobuf.Descriptors.ServiceDescriptor getServiceDescriptor() {
      return getFileDescriptor().findServiceByName("AuthService");
    }
  }

  private static final class AuthServiceFileDescriptorSupplier
      extends AuthServiceBaseDescriptorSupplier {
    AuthServiceFileDescriptorSupplier() {}
  }

  private static final class AuthServiceMethodDescriptorSupplier
      extends AuthServiceBaseDescriptorSupplier
      implements io.grpc.protobuf.ProtoMethodDescriptorSupplier {
    private final java.lang.String methodName;

    AuthServiceMethodDescriptorSupplier(java.lang.String methodName) {
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
      synchronized (AuthServiceGrpc.class) {
        result = serviceDescriptor;
        if (result == null) {
          serviceDescriptor = result = io.grpc.ServiceDescriptor.newBuilder(SERVICE_NAME)
              .setSchemaDescriptor(new AuthServiceFileDescriptorSupplier())
              .addMethod(getLoginMethod())
              .addMethod(getValidateTokenMethod())
              .addMethod(getCreateUserMethod())
              .addMethod(getDisableUserMethod())
              .addMethod(getListUsersMethod())
              .build();
        }
      }
    }
    return result;
  }
}
