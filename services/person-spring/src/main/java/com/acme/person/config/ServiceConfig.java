package com.acme.person.config;

import com.acme.person.mapping.MapStructPersonMapperImpl;
import com.acme.person.mapping.PersonMapper;
import com.google.common.util.concurrent.ThreadFactoryBuilder;
import io.grpc.BindableService;
import io.grpc.protobuf.services.ProtoReflectionService;
import java.time.Clock;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The service's own beans: clock, mapper, RegisterPeople writers, reflection v1alpha. */
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
   * The RegisterPeople writers: each stores one stream at a time, in one transaction on one
   * database connection. Streams ready to be stored wait in the queue, which the limit of open
   * streams bounds (grpc/RegisterPeopleStreams); none is refused here.
   */
  @Bean(destroyMethod = "shutdown")
  ThreadPoolExecutor registerPeopleWorkers(PersonProperties properties) {
    int writers = properties.registerPeople().writers();
    return new ThreadPoolExecutor(
        writers,
        writers,
        0,
        TimeUnit.SECONDS,
        new LinkedBlockingQueue<>(),
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
