package com.acme.person.rest;

import org.apache.catalina.core.StandardHost;
import org.springframework.boot.tomcat.TomcatContextCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/** Every /api route needs a Bearer token; errors are JSON even when Tomcat answers itself. */
@Configuration(proxyBeanMethods = false)
public class RestConfig implements WebMvcConfigurer {

  private final BearerAuthInterceptor auth;

  public RestConfig(BearerAuthInterceptor auth) {
    this.auth = auth;
  }

  /** Requests Tomcat refuses before any servlet runs get the twin's JSON error too. */
  @Bean
  TomcatContextCustomizer jsonErrorReports() {
    return context -> {
      if (context.getParent() instanceof StandardHost host) {
        host.setErrorReportValveClass(JsonErrorReportValve.class.getName());
      }
    };
  }

  @Override
  public void addInterceptors(InterceptorRegistry registry) {
    registry.addInterceptor(auth).addPathPatterns("/api/**");
  }
}
