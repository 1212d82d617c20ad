package com.acme.person.config;

import com.acme.auth.v1.AuthServiceGrpc;
import com.acme.auth.v1.AuthServiceGrpc.AuthServiceFutureStub;
import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The channel to the auth service (AUTH_ADDRESS, plaintext) and its generated future stub: a
 * call waiting for its token's check holds no thread.
 */
@Configuration(proxyBeanMethods = false)
public class AuthClientConfig {

  /** Shut down (inferred destroy method) after the gRPC server has drained. */
  @Bean
  ManagedChannel authChannel(PersonProperties properties, @Qualifier("authClientTransport") TransportThreads threads) {
    ManagedChannel channel =
        NettyChannelBuilder.forTarget(properties.auth().address())
            .usePlaintext()
            .eventLoopGroup(threads.group())
            .channelType(threads.clientChannelType())
            .build();
    // Connect now, so the first caller's deadline is not spent on the connection.
    channel.getState(true);
    return channel;
  }

  /**
   * The auth channel's transport thread, of its own: on the server's, the auth service's
   * answers waited behind the calls run there (TransportThreads). One connection, one thread.
   */
  @Bean
  TransportThreads authClientTransport() {
    return new TransportThreads("auth-client-transport", 1);
  }

  @Bean
  AuthServiceFutureStub authServiceStub(ManagedChannel authChannel) {
    return AuthServiceGrpc.newFutureStub(authChannel);
  }
}
