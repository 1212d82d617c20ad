package com.acme.person.config;

import com.acme.person.mapping.MapStructPersonMapperImpl;
import com.acme.person.mapping.PersonMapper;
import com.google.common.util.concurrent.ThreadFactoryBuilder;
import io.grpc.BindableService;
import io.grpc.protobuf.services.ProtoReflectionService;
import java.time.Clock;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The service's own beans: clock, mapper, RegisterPeople workers, reflection v1alpha. */
@Configuration(proxyBeanMethods = false)
public class ServiceConfig {

  @Bean
  Clock clock() {
    return Clock.systemUTC();
  }

  /** The service maps with MapStruct (the benchmarks measure it against a hand-written one). */
  @Bean
  PersonMapper personMapper() {
    return new MapStructPersonMapperImpl();
  }

  /**
   * One thread per open RegisterPeople stream (each holds a transaction and a connection). No
   * queue: when all are busy a new stream is refused with RESOURCE_EXHAUSTED at once rather
   * than waiting with its client's people piling up.
   */
  @Bean(destroyMethod = "shutdown")
  ThreadPoolExecutor registerPeopleWorkers(PersonProperties properties) {
    return new ThreadPoolExecutor(
        0,
        properties.registerPeople().maxConcurrentStreams(),
        60,
        TimeUnit.SECONDS,
        new SynchronousQueue<>(),
        new ThreadFactoryBuilder().setNameFormat("register-people-%d").setDaemon(true).build());
  }

  /**
   * Server reflection v1alpha beside the v1 that Spring gRPC registers: ghz and older grpcurl
   * builds only speak v1alpha.
   */
  @Bean
  @SuppressWarnings("deprecation") // v1alpha is deprecated upstream, but still what those tools ask for
  BindableService reflectionV1alpha() {
    return ProtoReflectionService.newInstance();
  }
}
