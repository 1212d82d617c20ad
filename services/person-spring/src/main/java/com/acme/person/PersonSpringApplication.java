package com.acme.person;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

/** The Person registry: gRPC on GRPC_PORT, its REST/JSON twin on REST_PORT. */
@SpringBootApplication
@ConfigurationPropertiesScan
public class PersonSpringApplication {

  public static void main(String[] args) {
    useH2Settings();
    SpringApplication.run(PersonSpringApplication.class, args);
  }

  /**
   * H2's JVM-wide settings, before H2's first class loads (whatever starts the service in a JVM of
   * its own calls this: main, the store benchmark); a -D on the command line wins. H2 keeps a
   * shared cache of the values it handles (strings, small numbers, dates), interning each string
   * by its hash: with 1 MB people that hashing was a tenth of a JFR profile's samples. People's
   * text is written once and read back rarely, so the cache saves little memory and no work here.
   */
  public static void useH2Settings() {
    if (System.getProperty("h2.objectCache") == null) {
      System.setProperty("h2.objectCache", "false");
    }
  }
}
