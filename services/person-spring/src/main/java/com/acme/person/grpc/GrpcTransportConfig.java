package com.acme.person.grpc;

import com.acme.person.config.PersonProperties;
import com.acme.person.config.TransportThreads;
import com.google.common.util.concurrent.ThreadFactoryBuilder;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.grpc.server.ServerBuilderCustomizer;

/** The gRPC server's transport settings beyond the limits (which application.yaml sets). */
@Configuration(proxyBeanMethods = false)
public class GrpcTransportConfig {

  /**
   * The HTTP/2 window of each stream, fixed (BDP auto-tuning off): it is also what a call whose
   * request waits for the request budget (RequestBudget) may hold here before the sender must
   * wait — grpc-java refills the connection's window as bytes arrive, so only the stream's
   * window holds them back, and auto-tuning would grow it up to 8 MiB a stream. And where calls
   * run: where the transport delivers them, unless CallPlacement moves a call that might wait,
   * or carries a large message, to a pool. On threads of the server's own (TransportThreads).
   */
  @Bean
  ServerBuilderCustomizer<NettyServerBuilder> grpcTransport(
      PersonProperties properties,
      @Qualifier("grpcServerAccept") TransportThreads accept,
      @Qualifier("grpcServerTransport") TransportThreads transport) {
    return builder -> {
      builder.flowControlWindow((int) properties.grpc().flowControlWindow().toBytes());
      builder.directExecutor();
      builder.bossEventLoopGroup(accept.group())
          .workerEventLoopGroup(transport.group())
          .channelType(transport.serverChannelType());
    };
  }

  /** The thread that accepts the server's connections. */
  @Bean
  TransportThreads grpcServerAccept() {
    return new TransportThreads("grpc-server-accept", 1);
  }

  /** The threads of the server's connections, and of the calls run in place: two per core. */
  @Bean
  TransportThreads grpcServerTransport() {
    return new TransportThreads("grpc-server-transport", 0);
  }

  /**
   * The threads of calls with a large request (CallPlacement), few and with a queue: the
   * embedded database writes one page at a time, so more writers only add memory — a thread per
   * call let 100 calls of 1 MB each hold their buffers at once.
   */
  @Bean(destroyMethod = "shutdown")
  ExecutorService grpcLargeCallPool(PersonProperties properties) {
    return Executors.newFixedThreadPool(
        properties.grpc().largeCallThreads(),
        new ThreadFactoryBuilder().setNameFormat("grpc-large-call-%d").setDaemon(true).build());
  }

  /**
   * The threads of calls that might wait (CallPlacement): a cached pool, as grpc-java's
   * own default executor is, so that a slow auth service cannot starve other calls of threads.
   */
  @Bean(destroyMethod = "shutdown")
  ExecutorService grpcCallPool() {
    return Executors.newCachedThreadPool(new ThreadFactoryBuilder().setNameFormat("grpc-call-%d").setDaemon(true).build());
  }
}
