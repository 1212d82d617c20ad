package com.acme.person.rest;

import org.springframework.context.annotation.Configuration;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/** Every /api route needs a Bearer token. */
@Configuration(proxyBeanMethods = false)
public class RestConfig implements WebMvcConfigurer {

  private final BearerAuthInterceptor auth;

  public RestConfig(BearerAuthInterceptor auth) {
    this.auth = auth;
  }

  @Override
  public void addInterceptors(InterceptorRegistry registry) {
    registry.addInterceptor(auth).addPathPatterns("/api/**");
  }
}
