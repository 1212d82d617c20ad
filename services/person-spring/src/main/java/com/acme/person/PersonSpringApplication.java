package com.acme.person;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

/** The Person registry: gRPC on GRPC_PORT, its REST/JSON twin on REST_PORT. */
@SpringBootApplication
@ConfigurationPropertiesScan
public class PersonSpringApplication {

  public static void main(String[] args) {
    SpringApplication.run(PersonSpringApplication.class, args);
  }
}
