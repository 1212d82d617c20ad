package com.acme.person;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

/** The Person registry: gRPC on GRPC_PORT, its REST/JSON twin on REST_PORT. */
@SpringBootApplication
@ConfigurationPropertiesScan
public class PersonSpringApplication {

  public static void main(String[] args) {
    // H2 interns every string it is given in a shared cache, hashing it first: for a person of 1 MB
    // of hobbies that hash was a tenth of the service's CPU, and a cache of people's text saves
    // nothing (each string is written once). Set before H2's first class loads; -D wins.
    if (System.getProperty("h2.objectCache") == null) {
      System.setProperty("h2.objectCache", "false");
    }
    SpringApplication.run(PersonSpringApplication.class, args);
  }
}
