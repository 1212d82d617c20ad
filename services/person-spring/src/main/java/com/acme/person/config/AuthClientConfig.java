package com.acme.person.config;

import com.acme.auth.v1.AuthServiceGrpc;
import com.acme.auth.v1.AuthServiceGrpc.AuthServiceBlockingStub;
import io.grpc.ManagedChannel;
import io.grpc.netty.NettyChannelBuilder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The channel to the auth service (AUTH_ADDRESS, plaintext) and its generated blocking stub. */
@Configuration(proxyBeanMethods = false)
public class AuthClientConfig {

  /** Shut down (inferred destroy method) after the gRPC server has drained. */
  @Bean
  ManagedChannel authChannel(PersonProperties properties) {
    return NettyChannelBuilder.forTarget(properties.auth().address()).usePlaintext().build();
  }

  @Bean
  AuthServiceBlockingStub authServiceStub(ManagedChannel authChannel) {
    return AuthServiceGrpc.newBlockingStub(authChannel);
  }
}
